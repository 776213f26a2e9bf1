import { eventTimeline, filterTimeline, parseDateRange } from "../domain/cash-drawers.js";
import { drawerDayCsv, drawerEventsCsv } from "../domain/cash-drawers-csv.js";
import { addDays, localDate } from "../domain/time.js";
import type { CashDrawerEventType, CashDrawerShift, CashDrawerShiftEvent } from "../spec/generated/types.js";
import { type DrawerDay, type DrawerTrend, loadDrawerDay, loadDrawerTrend, teamNames } from "./drawers-load.js";
import type { WriteResult } from "./errors.js";
import { type CsvFile, nothingToExport } from "./export-csv.js";
import { timeZoneOf } from "./shell-slice.js";
import type { SliceCreator } from "./store.js";

/** What the drawers screen shows: the day (or range), one shift, or the 30-day trend. */
export type DrawersView = "day" | "detail" | "trend";

/** The form or picker open on the drawers screen, if any. */
export type DrawersForm =
  | { kind: "none" }
  | { kind: "range" }
  | { kind: "filter" }
  | { kind: "export"; what: "day" | "events" };

/** One shift opened in detail: the shift and its events as far as they have been read. */
export interface DrawerDetail {
  shiftId: string;
  shift: CashDrawerShift | undefined;
  events: CashDrawerShiftEvent[];
  /** Every page of events has been read. */
  complete: boolean;
}

/** Data of the drawers screen. */
export interface DrawersData {
  view: DrawersView;
  /** The dates shown (local to the location); empty before the first read. */
  from: string;
  to: string;
  /** The dates follow today (the default) rather than a day the manager picked. */
  followToday: boolean;
  day: DrawerDay | undefined;
  /** Team members' names by id, for who opened, ended and closed. */
  names: ReadonlyMap<string, string>;
  detail: DrawerDetail | undefined;
  trend: DrawerTrend | undefined;
  /** Event types the detail's timeline shows; empty shows all. */
  filter: CashDrawerEventType[];
  form: DrawersForm;
  stale: boolean;
}

/** The drawers slice: the day's drawers, a shift's reconciliation and events, the trend, exports. */
export interface DrawersSlice {
  drawers: DrawersData;
  /** Reads the day (or range) at the location; `range` picks the dates. Returns a problem in words. */
  loadDrawers(range?: { from: string; to: string }, options?: { quiet?: boolean }): Promise<string | undefined>;
  loadDrawersIfStale(): Promise<void>;
  /** Today in the location's time zone. */
  drawersToday(): Promise<void>;
  /** Moves the dates by whole days (`[`/`]`). */
  stepDrawersDays(days: number): Promise<void>;
  /** Opens one shift: its reconciliation, and its events page by page. */
  openDrawerShift(shiftId: string): Promise<void>;
  showDrawersView(view: DrawersView): void;
  /** Shows the trend, reading it when it is not there yet for today and this location. */
  showDrawerTrend(): Promise<void>;
  setDrawerFilter(types: readonly CashDrawerEventType[]): void;
  openDrawersForm(form: DrawersForm): void;
  /** Where an export goes unless told otherwise (the data folder's exports/). */
  drawersExportPath(what: "day" | "events"): string;
  /** Writes the day or the open shift's events as CSV through the shell's `exportCsv`. */
  exportDrawers(what: "day" | "events", typed: string): Promise<WriteResult<string[]>>;
}

/** Builds the drawers slice. */
export const createDrawersSlice: SliceCreator<DrawersSlice> = (set, get, deps) => {
  const patch = (p: Partial<DrawersData>) => set((s) => ({ drawers: { ...s.drawers, ...p } }));
  const tz = () => timeZoneOf(get());
  const exportName = (what: "day" | "events") => {
    const d = get().drawers;
    if (what === "events") return `drawer-events-${d.detail?.shiftId ?? "shift"}.csv`;
    const span = d.from === d.to ? d.from : `${d.from}-to-${d.to}`;
    return `drawers-${get().locationId ?? "location"}-${span}.csv`;
  };
  const today = () => localDate(deps.clock.now(), tz());
  // Each read carries a ticket; an answer that arrives after a newer read began is dropped.
  let dayTicket = 0;
  let detailTicket = 0;
  let namesFor: string | undefined;

  deps.events.on("location-changed", () => {
    dayTicket++;
    detailTicket++;
    const d = get().drawers;
    patch({
      stale: true,
      day: undefined,
      detail: undefined,
      trend: undefined,
      view: d.view === "detail" ? "day" : d.view,
      form: { kind: "none" },
      // Today is the new location's today; a day the manager picked stays.
      ...(d.followToday ? { from: "", to: "" } : {}),
    });
  });

  const loadNames = async (quiet: boolean) => {
    const merchant = get().merchantId ?? "";
    if (namesFor === merchant && get().drawers.names.size > 0) return;
    const names = await get().runRead("Reading the team", () => teamNames(deps.client), { quiet });
    if (names) {
      namesFor = merchant;
      patch({ names });
    }
  };

  return {
    drawers: {
      view: "day",
      from: "",
      to: "",
      followToday: true,
      day: undefined,
      names: new Map(),
      detail: undefined,
      trend: undefined,
      filter: [],
      form: { kind: "none" },
      stale: true,
    },

    async loadDrawers(range, options = {}) {
      const locationId = get().locationId;
      if (!locationId) return "No location is selected.";
      const d = get().drawers;
      const now = today();
      const wanted = range ?? (d.followToday || !d.from ? { from: now, to: now } : { from: d.from, to: d.to });
      const checked = parseDateRange({ from: wanted.from.trim(), to: wanted.to.trim() }, now);
      if (!checked.ok) return checked.problem;
      const { from, to } = checked;
      const ticket = ++dayTicket;
      // Other days' rows must not show under these dates while they are read.
      const moved = from !== d.from || to !== d.to;
      patch({ from, to, followToday: from === now && to === now, stale: false, ...(moved ? { day: undefined } : {}) });
      const quiet = options.quiet ?? false;
      const [day] = await Promise.all([
        get().runRead(
          from === to ? `Reading the drawers of ${from}` : `Reading the drawers of ${from} to ${to}`,
          () => loadDrawerDay(deps.client, { locationId, timeZone: tz(), from, to }),
          { quiet },
        ),
        loadNames(quiet),
      ]);
      if (ticket !== dayTicket) return undefined;
      if (!day) {
        patch({ stale: true });
        return undefined;
      }
      patch({ day });
      return undefined;
    },

    async loadDrawersIfStale() {
      const d = get().drawers;
      // A new day began while the screen was away: today's view moves on to it.
      if (d.stale || !d.day || (d.followToday && d.from !== today())) await get().loadDrawers();
    },

    async drawersToday() {
      const now = today();
      await get().loadDrawers({ from: now, to: now });
    },

    async stepDrawersDays(days) {
      const { from, to } = get().drawers;
      const start = from || today();
      await get().loadDrawers({ from: addDays(start, days), to: addDays(to || start, days) });
    },

    async openDrawerShift(shiftId) {
      const locationId = get().locationId;
      if (!locationId) return;
      const ticket = ++detailTicket;
      const known = get().drawers.day?.shifts.find((s) => s.id === shiftId);
      patch({
        view: "detail",
        form: { kind: "none" },
        detail: { shiftId, shift: known, events: [], complete: false },
      });
      const still = () => ticket === detailTicket && get().drawers.detail?.shiftId === shiftId;
      if (!known) {
        const r = await get().runRead("Reading the shift", () =>
          deps.client.cashDrawers.retrieveCashDrawerShift(shiftId, { location_id: locationId }),
        );
        if (!still()) return;
        const shift = r?.cash_drawer_shift;
        if (shift) patch({ detail: { ...(get().drawers.detail as DrawerDetail), shift } });
      }
      // Page by page: the timeline fills in as each page arrives, and a long shift shows at once.
      await get().runRead("Reading the shift's events", async () => {
        const pages = deps.client.cashDrawers
          .listCashDrawerShiftEvents(shiftId, { location_id: locationId, limit: 200 })
          .pages();
        for await (const page of pages) {
          if (!still()) return;
          const current = get().drawers.detail as DrawerDetail;
          patch({ detail: { ...current, events: [...current.events, ...(page.cash_drawer_shift_events ?? [])] } });
        }
        if (still()) patch({ detail: { ...(get().drawers.detail as DrawerDetail), complete: true } });
      });
    },

    showDrawersView(view) {
      if (view !== "detail") detailTicket++;
      patch({ view, form: { kind: "none" }, ...(view === "detail" ? {} : { detail: undefined }) });
    },

    async showDrawerTrend() {
      const locationId = get().locationId;
      if (!locationId) return;
      patch({ view: "trend", form: { kind: "none" } });
      const now = today();
      const current = get().drawers.trend;
      if (current && current.to === now) return;
      const [trend] = await Promise.all([
        get().runRead("Reading 30 days of drawers", () =>
          loadDrawerTrend(deps.client, { locationId, timeZone: tz(), today: now }),
        ),
        loadNames(false),
      ]);
      if (trend && get().locationId === locationId) patch({ trend });
    },

    setDrawerFilter(types) {
      patch({ filter: [...types], form: { kind: "none" } });
    },

    openDrawersForm(form) {
      patch({ form });
    },

    drawersExportPath(what) {
      return get().exportTarget("", exportName(what));
    },

    async exportDrawers(what, typed) {
      const d = get().drawers;
      const path = get().exportTarget(typed, exportName(what));
      let file: CsvFile;
      if (what === "day") {
        if (!d.day) return nothingToExport();
        const n = d.day.rows.length;
        file = {
          path,
          text: drawerDayCsv(d.day.rows, d.day.timeZone, d.names),
          what: `${n} drawer shift${n === 1 ? "" : "s"}`,
        };
      } else {
        const detail = d.detail;
        if (!detail?.shift) return nothingToExport("Open a shift first.");
        if (!detail.complete) return nothingToExport("The shift's events are still being read.");
        const entries = filterTimeline(eventTimeline(detail.shift.opened_cash_money, detail.events), new Set(d.filter));
        const text = drawerEventsCsv(entries, tz(), d.names, detail.shift.opened_cash_money?.currency ?? "USD");
        file = { path, text, what: `${entries.length} event${entries.length === 1 ? "" : "s"}` };
      }
      const written = await get().exportCsv([file]);
      if (written.ok || written.error.kind === "exists") patch({ form: { kind: "none" } });
      return written;
    },
  };
};
