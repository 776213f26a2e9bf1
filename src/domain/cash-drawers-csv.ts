// Cash drawers as CSV: the day's shifts one per row, and a shift's events in order. Amounts are
// plain decimals by the currency's minor units (domain/money.ts), for other programs to read.
import type { Currency } from "../spec/generated/types.js";
import { attentionReasons, type DrawerShiftRow, localDateTime, type TimelineEntry } from "./cash-drawers.js";
import { toCsv } from "./csv.js";
import { formatAmount } from "./money.js";
import { localParts } from "./time.js";

/** Amounts in files other programs read: no thousands separators. */
const PLAIN = { grouping: false } as const;

/** A team member's name from the map, the id itself when unknown, or empty when none. */
const nameOf = (names: ReadonlyMap<string, string>, id: string | undefined) =>
  id === undefined ? "" : (names.get(id) ?? id);

/** Header of the day export (one row per shift). */
export const DRAWER_DAY_CSV_HEADER = [
  "date",
  "shift id",
  "state",
  "needs attention",
  "opened at",
  "ended at",
  "closed at",
  "opened by",
  "ended by",
  "closed by",
  "description",
  "device",
  "currency",
  "opening cash",
  "cash sales",
  "cash refunds",
  "paid in",
  "paid out",
  "expected cash",
  "counted cash",
  "over/short",
  "expected from events",
] as const;

/**
 * The day (or range) as CSV, one row per shift: local times, names, amounts as decimals, the
 * over/short signed, and the events' expected cash only where it disagrees with the shift's.
 */
export function drawerDayCsv(
  rows: readonly DrawerShiftRow[],
  timeZone: string,
  names: ReadonlyMap<string, string>,
): string {
  const lines: (string | number)[][] = [[...DRAWER_DAY_CSV_HEADER]];
  for (const r of rows) {
    const money = (n: number | undefined) => (n === undefined ? "" : formatAmount(n, r.currency, PLAIN));
    lines.push([
      r.date,
      r.id,
      r.state ?? "",
      attentionReasons(r).join("; "),
      localDateTime(r.openedAt, timeZone),
      localDateTime(r.endedAt, timeZone),
      localDateTime(r.closedAt, timeZone),
      nameOf(names, r.openedBy),
      nameOf(names, r.endedBy),
      nameOf(names, r.closedBy),
      r.description,
      r.device,
      r.currency,
      money(r.opened),
      money(r.cashSales),
      money(r.cashRefunds),
      money(r.paidIn),
      money(r.paidOut),
      money(r.expected),
      money(r.counted),
      r.overShort === undefined ? "" : formatAmount(r.overShort, r.currency, PLAIN),
      r.mismatch ? money(r.mismatch.fromEvents) : "",
    ]);
  }
  return toCsv(lines);
}

/** Header of a shift's events export. */
export const DRAWER_EVENTS_CSV_HEADER = [
  "time",
  "event type",
  "event",
  "amount",
  "cash change",
  "drawer after",
  "team member",
  "description",
  "event id",
] as const;

/** A shift's events as CSV, in order: the amount as recorded, its signed effect, the running balance. */
export function drawerEventsCsv(
  entries: readonly TimelineEntry[],
  timeZone: string,
  names: ReadonlyMap<string, string>,
  currency: Currency = "USD",
): string {
  const lines: (string | number)[][] = [[...DRAWER_EVENTS_CSV_HEADER]];
  for (const e of entries) {
    const p = e.at ? localParts(new Date(e.at), timeZone) : undefined;
    const pad = (n: number) => String(n).padStart(2, "0");
    lines.push([
      p ? `${localDateTime(e.at, timeZone)}:${pad(p.second)}` : "",
      e.type ?? "",
      e.label,
      formatAmount(e.amount, currency, PLAIN),
      // Signed by a minus only: a spreadsheet would take "+20.00" for text (see csvField).
      formatAmount(e.change, currency, PLAIN),
      formatAmount(e.balance, currency, PLAIN),
      nameOf(names, e.teamMemberId),
      e.description,
      e.id,
    ]);
  }
  return toCsv(lines);
}
