/**
 * The drawers slice: the day's (or range's) drawers and the 30-day trend, read here; one shift in
 * detail and the CSV exports in drawers-detail.ts.
 */
import { parseDateRange } from "../domain/cash-drawers.js";
import { type FormProblem, onField } from "../domain/form-problem.js";
import { addDays, localDate, notComeYet } from "../domain/time.js";
import type { CashDrawerEventType, CashDrawerShift, CashDrawerShiftEvent } from "../spec/generated/types.js";
import { type DrawersIo, drawersExportName, exportDrawers, openDrawerShift } from "./drawers-detail.js";
import {
  type DrawerDay,
  type DrawerTrend,
  loadDrawerDay,
  loadDrawerTrend,
  loadStillOpen,
  type StillOpen,
  teamNames,
} from "./drawers-load.js";
import type { WriteResult } from "./errors.js";
import { timeZoneOf } from "./shell-slice.js";
import type { LoadedSliceCreator } from "./store.js";

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
  /**
   * When the dates shown end today: drawers opened on earlier days and still open (at 01:00 the
   * evening's drawers are yesterday's), by date.
   */
  stillOpen: StillOpen[];
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
  /** A problem with the range (naming the field a bad date was typed in) keeps the date form open. */
  loadDrawers(range?: { from: string; to: string }, options?: { quiet?: boolean }): Promise<FormProblem>;
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

/** The drawers' data before the first read. */
const initialDrawers = (): DrawersData => ({
  view: "day",
  from: "",
  to: "",
  followToday: true,
  day: undefined,
  stillOpen: [],
  names: new Map(),
  detail: undefined,
  trend: undefined,
  filter: [],
  form: { kind: "none" },
  stale: true,
});

/** Today at the location. */
const todayOf = ({ get, deps }: DrawersIo) => localDate(deps.clock.now(), timeZoneOf(get()));

/** Another location: reads under way are dropped, and the screen goes back to its day (today's, when it followed today). */
function followLocation(io: DrawersIo): void {
  io.deps.events.on("location-changed", () => {
    io.tickets.day++;
    io.tickets.detail++;
    const d = io.get().drawers;
    io.patch({
      stale: true,
      day: undefined,
      stillOpen: [],
      detail: undefined,
      trend: undefined,
      view: d.view === "detail" ? "day" : d.view,
      form: { kind: "none" },
      // Today is the new location's today; a day the manager picked stays.
      ...(d.followToday ? { from: "", to: "" } : {}),
    });
  });
}

/** The team's names for the screen, read once per seller. */
function namesReader({ get, patch, deps }: DrawersIo) {
  let namesFor: string | undefined;
  return async (quiet: boolean) => {
    const merchant = get().merchantId ?? "";
    if (namesFor === merchant && get().drawers.names.size > 0) return;
    const names = await get().runRead("Reading the team", () => teamNames(deps.client), { quiet });
    if (names) {
      namesFor = merchant;
      patch({ names });
    }
  };
}

/** The actions that read what the screen shows: the day or range of dates, moved by days, and the trend. */
function readActions(io: DrawersIo) {
  const { get, patch, deps } = io;
  const loadNames = namesReader(io);
  return {
    async loadDrawers(range?: { from: string; to: string }, options: { quiet?: boolean } = {}) {
      const locationId = get().locationId;
      if (!locationId) return "No location is selected.";
      const d = get().drawers;
      const now = todayOf(io);
      const wanted = range ?? (d.followToday || !d.from ? { from: now, to: now } : { from: d.from, to: d.to });
      const checked = parseDateRange({ from: wanted.from.trim(), to: wanted.to.trim() }, now);
      if (!checked.ok) return checked.field ? onField(checked.problem, checked.field) : checked.problem;
      const { from, to } = checked;
      // A day to come has no drawers yet: the dates stop at the store's today (the form stays open).
      if (to > now) return notComeYet(from > now ? from : to, now);
      const ticket = ++io.tickets.day;
      // Other days' rows must not show under these dates while they are read.
      const moved = from !== d.from || to !== d.to;
      patch({
        from,
        to,
        followToday: from === now && to === now,
        stale: false,
        ...(moved ? { day: undefined, stillOpen: [] } : {}),
      });
      const quiet = options.quiet ?? false;
      const timeZone = timeZoneOf(get());
      const [read] = await Promise.all([
        get().runRead(
          from === to ? `Reading the drawers of ${from}` : `Reading the drawers of ${from} to ${to}`,
          () =>
            Promise.all([
              loadDrawerDay(deps.client, { locationId, timeZone, from, to }),
              to === now ? loadStillOpen(deps.client, { locationId, timeZone, before: from }) : [],
            ]),
          { quiet },
        ),
        loadNames(quiet),
      ]);
      if (ticket !== io.tickets.day) return undefined;
      patch(read ? { day: read[0], stillOpen: read[1] } : { stale: true });
      return undefined;
    },
    async loadDrawersIfStale() {
      const d = get().drawers;
      // A new day began while the screen was away: today's view moves on to it.
      if (d.stale || !d.day || (d.followToday && d.from !== todayOf(io))) await get().loadDrawers();
    },
    async drawersToday() {
      const now = todayOf(io);
      await get().loadDrawers({ from: now, to: now });
    },
    async stepDrawersDays(days: number) {
      const { from, to } = get().drawers;
      const now = todayOf(io);
      const start = from || now;
      const end = addDays(to || start, days);
      // A day to come has no drawers yet: the dates stop at the store's today, and say so.
      if (days > 0 && end > now) {
        get().setStatus({ kind: "rule", text: notComeYet(addDays(now, 1), now) });
        return;
      }
      await get().loadDrawers({ from: addDays(start, days), to: end });
    },
    async showDrawerTrend() {
      const locationId = get().locationId;
      if (!locationId) return;
      patch({ view: "trend", form: { kind: "none" } });
      const now = todayOf(io);
      const current = get().drawers.trend;
      if (current && current.to === now) return;
      const [trend] = await Promise.all([
        get().runRead("Reading 30 days of drawers", () =>
          loadDrawerTrend(deps.client, { locationId, timeZone: timeZoneOf(get()), today: now }),
        ),
        loadNames(false),
      ]);
      if (trend && get().locationId === locationId) patch({ trend });
    },
  } satisfies Partial<DrawersSlice>;
}

/** Builds the drawers slice. */
export const createDrawersSlice: LoadedSliceCreator<DrawersSlice> = (set, get, deps) => {
  const patch = (p: Partial<DrawersData>) => set((s) => ({ drawers: { ...s.drawers, ...p } }));
  const io: DrawersIo = { get, patch, deps, tickets: { day: 0, detail: 0 } };
  followLocation(io);
  return {
    drawers: initialDrawers(),
    ...readActions(io),
    openDrawerShift: (shiftId) => openDrawerShift(io, shiftId),
    showDrawersView(view) {
      if (view !== "detail") io.tickets.detail++;
      patch({ view, form: { kind: "none" }, ...(view === "detail" ? {} : { detail: undefined }) });
    },
    setDrawerFilter: (types) => patch({ filter: [...types], form: { kind: "none" } }),
    openDrawersForm: (form) => patch({ form }),
    drawersExportPath: (what) => get().exportTarget("", drawersExportName(get(), what)),
    exportDrawers: (what, typed) => exportDrawers(io, what, typed),
  };
};
