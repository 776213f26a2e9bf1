// The drawers screen's parts beyond the day: one shift opened in detail (its reconciliation, then
// its events page by page), and the CSV of the day or of the open shift's events.
import { eventTimeline, filterTimeline } from "../domain/cash-drawers.js";
import { drawerDayCsv, drawerEventsCsv } from "../domain/cash-drawers-csv.js";
import { plural } from "../domain/plural.js";
import type { DrawerDetail, DrawersData } from "./drawers-slice.js";
import type { WriteResult } from "./errors.js";
import { type CsvFile, nothingToExport } from "./export-csv.js";
import { timeZoneOf } from "./shell-slice.js";
import type { LoadedState, StoreDeps } from "./store.js";

/** What the drawers actions work with: the store, a patch of the screen's data, the dependencies. */
export interface DrawersIo {
  get: () => LoadedState;
  patch: (p: Partial<DrawersData>) => void;
  deps: StoreDeps;
  /** Each read carries a ticket; an answer that arrives after a newer read began is dropped. */
  tickets: { day: number; detail: number };
}

/**
 * Opens one shift: its reconciliation (read when the day's rows do not hold it), then its events
 * page by page, so the timeline fills in as each page arrives and a long shift shows at once.
 * A shift closed or another opened meanwhile stops the reading.
 */
export async function openDrawerShift(io: DrawersIo, shiftId: string): Promise<void> {
  const { get, patch, deps } = io;
  const locationId = get().locationId;
  if (!locationId) return;
  const ticket = ++io.tickets.detail;
  const known = get().drawers.day?.shifts.find((s) => s.id === shiftId);
  patch({
    view: "detail",
    form: { kind: "none" },
    detail: { shiftId, shift: known, events: [], complete: false },
  });
  const still = () => ticket === io.tickets.detail && get().drawers.detail?.shiftId === shiftId;
  const detail = () => get().drawers.detail as DrawerDetail;
  if (!known) {
    const r = await get().runRead("Reading the shift", () =>
      deps.client.cashDrawers.retrieveCashDrawerShift(shiftId, { location_id: locationId }),
    );
    if (!still()) return;
    const shift = r?.cash_drawer_shift;
    if (shift) patch({ detail: { ...detail(), shift } });
  }
  await get().runRead("Reading the shift's events", async () => {
    const pages = deps.client.cashDrawers
      .listCashDrawerShiftEvents(shiftId, { location_id: locationId, limit: 200 })
      .pages();
    for await (const page of pages) {
      if (!still()) return;
      const current = detail();
      patch({ detail: { ...current, events: [...current.events, ...(page.cash_drawer_shift_events ?? [])] } });
    }
    if (still()) patch({ detail: { ...detail(), complete: true } });
  });
}

/** The default file name of an export: the location and dates of the day, or the shift's id. */
export function drawersExportName(s: LoadedState, what: "day" | "events"): string {
  const d = s.drawers;
  if (what === "events") return `drawer-events-${d.detail?.shiftId ?? "shift"}.csv`;
  const span = d.from === d.to ? d.from : `${d.from}-to-${d.to}`;
  return `drawers-${s.locationId ?? "location"}-${span}.csv`;
}

/** The file of an export to `path`, or why there is nothing to write yet. */
function exportFile(s: LoadedState, what: "day" | "events", path: string): CsvFile | WriteResult<string[]> {
  const d = s.drawers;
  if (what === "day") {
    if (!d.day) return nothingToExport();
    const n = d.day.rows.length;
    return {
      path,
      text: drawerDayCsv(d.day.rows, d.day.timeZone, d.names),
      what: plural(n, "drawer shift"),
    };
  }
  const detail = d.detail;
  if (!detail?.shift) return nothingToExport("Open a shift first.");
  if (!detail.complete) return nothingToExport("The shift's events are still being read.");
  const entries = filterTimeline(eventTimeline(detail.shift.opened_cash_money, detail.events), new Set(d.filter));
  const currency = detail.shift.opened_cash_money?.currency ?? "USD";
  const text = drawerEventsCsv(entries, timeZoneOf(s), d.names, currency);
  return { path, text, what: plural(entries.length, "event") };
}

/** Writes the day or the open shift's events as CSV through the shell's `exportCsv`. */
export async function exportDrawers(
  { get, patch }: DrawersIo,
  what: "day" | "events",
  typed: string,
): Promise<WriteResult<string[]>> {
  const file = exportFile(get(), what, get().exportTarget(typed, drawersExportName(get(), what)));
  if ("ok" in file) return file;
  const written = await get().exportCsv([file]);
  if (written.ok || written.error.kind === "exists") patch({ form: { kind: "none" } });
  return written;
}
