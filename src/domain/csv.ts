import { plainMoney } from "./money.js";
import type { MemberWeek, ReviewRow } from "./review.js";
import { formatHours, localDate, localTime } from "./time.js";

/** A number as backroom writes one into a file: digits, a decimal point, a leading minus, no plus. */
const WRITTEN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Quotes one CSV field when it holds a comma, quote, or line break (RFC 4180). A cell that starts
 * with = + - @, a tab or a carriage return is evaluated by spreadsheets (or read as a number, which
 * loses a phone number's plus), so it gets a leading `'` and stays text — unless it is a number as
 * backroom writes them (`-12.75`), which must stay a number a spreadsheet can add up.
 */
export function csvField(value: string | number): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !WRITTEN_NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Lines joined with CRLF, each a row of quoted fields, ending with a line break. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((r) => r.map(csvField).join(",")).join("\r\n") + (rows.length ? "\r\n" : "");
}

/** The name of a store by its id, for the export's location column. */
export type LocationNames = (locationId: string) => string;

/** Names stores from a list of locations (a store not in it goes by its id). */
export function locationNamesOf(locations: readonly { id?: string; name?: string }[]): LocationNames {
  const names = new Map(locations.flatMap((l) => (l.id ? [[l.id, l.name ?? l.id] as const] : [])));
  return (id) => names.get(id) ?? id;
}

/** Header of the shifts export, one name per column of {@link shiftsCsv}. */
export const SHIFTS_CSV_HEADER = [
  "location",
  "member",
  "job title",
  "start date",
  "start time",
  "end date",
  "end time",
  "time zone",
  "workday",
  "status",
  "paid hours",
  "unpaid break hours",
  "regular hours",
  "overtime hours",
  "hourly rate",
  "cost",
  "currency",
  "flags",
] as const;

/**
 * The shifts export, one row per shift in {@link SHIFTS_CSV_HEADER}'s columns: its store, local
 * start and end in that store's zone, each with its own date (an overnight shift has two), empty
 * end while open; hours with two decimals; rate and cost in major units, both empty with the
 * `no wage` flag when the shift has no wage (never 0.00); flags joined by `; `.
 */
export function shiftsCsv(rows: readonly ReviewRow[], names: LocationNames): string {
  const lines: (string | number)[][] = [[...SHIFTS_CSV_HEADER]];
  for (const r of rows) {
    const s = r.shift;
    const tz = r.timeZone;
    lines.push([
      names(r.locationId),
      r.memberName,
      r.rate?.title ?? s.wage?.title ?? "",
      localDate(s.start_at, tz),
      localTime(s.start_at, tz),
      s.end_at ? localDate(s.end_at, tz) : "",
      s.end_at ? localTime(s.end_at, tz) : "",
      tz,
      r.workday,
      s.end_at ? "closed" : "open",
      formatHours(r.totals.paidHours),
      formatHours(r.totals.unpaidHours),
      formatHours(r.regularHours),
      formatHours(r.overtimeHours),
      plainMoney(r.rate?.rate),
      plainMoney(r.cost?.total),
      r.cost?.total.currency ?? "",
      r.flags.join("; "),
    ]);
  }
  return toCsv(lines);
}

/** Header of the per-member per-week summary, one name per column of {@link memberWeeksCsv}. */
export const MEMBER_WEEKS_CSV_HEADER = [
  "location",
  "member",
  "week start",
  "week end",
  "shifts",
  "paid hours",
  "unpaid break hours",
  "regular hours",
  "overtime hours",
  "regular cost",
  "overtime cost",
  "cost",
  "currency",
  "flags",
] as const;

/**
 * The summary export: one row per member per workweek, its location the stores where its hours
 * were worked (several in a review of all locations). Costs sum the shifts that have a wage
 * (empty when none has); the flags say how many have none (their cost is missing from the sum),
 * how many are open, and how much overtime comes from hours at other stores.
 */
export function memberWeeksCsv(weeks: readonly MemberWeek[], names: LocationNames): string {
  const lines: (string | number)[][] = [[...MEMBER_WEEKS_CSV_HEADER]];
  for (const w of weeks) {
    // A week whose every hour lacks a wage has no cost at all, not a cost of 0.00.
    const money = (m: { amount?: number; currency?: string }) =>
      w.paidHours > 0 && w.uncostedHours >= w.paidHours ? "" : plainMoney(m);
    const flags = [
      w.noWageShifts ? `${w.noWageShifts} ${w.noWageShifts === 1 ? "shift" : "shifts"} without wage` : "",
      w.openShifts ? `${w.openShifts} open` : "",
      w.overtimeFromElsewhereHours > 0
        ? `${formatHours(w.overtimeFromElsewhereHours)} h overtime from hours at other stores`
        : "",
    ].filter(Boolean);
    lines.push([
      w.locationIds.map(names).join("; "),
      w.memberName,
      w.week,
      w.weekEnd,
      w.shifts,
      formatHours(w.paidHours),
      formatHours(w.unpaidHours),
      formatHours(w.regularHours),
      formatHours(w.overtimeHours),
      money(w.regularCost),
      money(w.overtimeCost),
      money(w.cost),
      money(w.cost) === "" ? "" : (w.cost.currency ?? ""),
      flags.join("; "),
    ]);
  }
  return toCsv(lines);
}

/** A location's name as a file name part: `Harbour Dock` → `harbour-dock` (accents dropped). */
export function fileSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replaceAll(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, "-")
    .replaceAll(/^-+|-+$/g, "");
}

/** The export's file name, naming the location: `shifts-harbour-dock-2026-05-04-to-2026-05-10.csv`. */
export function exportFileName(locationName: string, locationId: string, from: string, to: string): string {
  const where = fileSlug(locationName) || fileSlug(locationId) || "location";
  return `shifts-${where}-${from === to ? from : `${from}-to-${to}`}.csv`;
}

/** The summary file that goes with a shifts file: `x.csv` → `x-summary.csv`. */
export const summaryFileName = (path: string): string => path.replace(/(\.csv)?$/i, "-summary.csv");
