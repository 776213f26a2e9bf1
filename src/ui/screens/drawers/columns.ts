import type { CloserSummary, DrawerShiftRow, TimelineEntry } from "../../../domain/cash-drawers.js";
import { formatAmount, formatSigned } from "../../../domain/money.js";
import { localTime } from "../../../domain/time.js";
import type { Currency } from "../../../spec/generated/types.js";
import type { Column } from "../../components/columns.js";
import type { Theme } from "../../theme.js";

/** Colour of an over/short: short is bad, over stands out, exact is quiet. */
export const overShortColor = (amount: number | undefined, theme: Theme): string | undefined =>
  amount === undefined || amount === 0 ? theme.muted : amount < 0 ? theme.bad : theme.good;

/** The flag cell of a day row: `!` needs attention, `≠` its events disagree with its expected cash. */
export const flagOf = (r: DrawerShiftRow): string => `${r.attention ? "!" : ""}${r.mismatch ? "≠" : ""}`;

const money = (n: number | undefined, r: DrawerShiftRow) => (n === undefined ? "—" : formatAmount(n, r.currency));
const who = (names: ReadonlyMap<string, string>, id: string | undefined) =>
  id === undefined ? "—" : (names.get(id) ?? id);
const time = (iso: string | undefined, tz: string) => (iso ? localTime(iso, tz) : "—");

/**
 * The day view's columns. Every field of a shift is here; on a narrow terminal the ones with the
 * highest `drop` go first, and what stays is when it opened, its state and flags, the drawer,
 * and expected, counted and over/short.
 */
export function dayColumns(
  names: ReadonlyMap<string, string>,
  tz: string,
  withDate: boolean,
): Column<DrawerShiftRow>[] {
  const amount = (
    header: string,
    value: (r: DrawerShiftRow) => number | undefined,
    drop: number,
  ): Column<DrawerShiftRow> => ({ header, width: 8, align: "right", drop, render: (r) => money(value(r), r) });
  return [
    ...(withDate ? [{ header: "Date", width: 5, render: (r: DrawerShiftRow) => r.date.slice(5) }] : []),
    { header: "Open", width: 5, render: (r) => time(r.openedAt, tz) },
    { header: "Ended", width: 5, drop: 5, render: (r) => time(r.endedAt, tz) },
    { header: "Closed", width: 6, drop: 5, render: (r) => time(r.closedAt, tz) },
    {
      header: "State",
      width: 6,
      render: (r) => r.state ?? "?",
      color: (r, theme) => (r.attention ? theme.warn : undefined),
    },
    { header: "!", width: 2, render: flagOf, color: (r, theme) => (r.mismatch ? theme.bad : theme.warn) },
    { header: "Drawer", width: 13, flex: 1, render: (r) => r.device || r.description },
    // One flex column only: the drawer takes what the fixed columns leave.
    { header: "Opened by", width: 10, drop: 3, render: (r) => who(names, r.openedBy) },
    { header: "Ended by", width: 10, drop: 6, render: (r) => who(names, r.endedBy) },
    { header: "Closed by", width: 10, drop: 2, render: (r) => who(names, r.closedBy) },
    amount("Opening", (r) => r.opened, 4),
    amount("Sales", (r) => r.cashSales, 4),
    amount("Refunds", (r) => r.cashRefunds, 7),
    amount("Paid in", (r) => r.paidIn, 7),
    amount("Paid out", (r) => r.paidOut, 6),
    amount("Expected", (r) => r.expected, 0),
    amount("Counted", (r) => r.counted, 0),
    {
      header: "Over/short",
      width: 10,
      align: "right",
      render: (r) => (r.overShort === undefined ? "—" : formatSigned(r.overShort, r.currency)),
      color: (r, theme) => overShortColor(r.overShort, theme),
    },
    { header: "Description", width: 16, drop: 8, render: (r) => r.description },
  ];
}

/** The event timeline's columns: time, event, amount, its effect, the drawer after it, who, why. */
export function eventColumns(
  names: ReadonlyMap<string, string>,
  tz: string,
  currency: Currency,
): Column<TimelineEntry>[] {
  return [
    { header: "Time", width: 5, render: (e) => time(e.at, tz) },
    { header: "Event", width: 13, render: (e) => e.label },
    { header: "Amount", width: 8, align: "right", drop: 3, render: (e) => formatAmount(e.amount, currency) },
    {
      header: "Cash",
      width: 8,
      align: "right",
      render: (e) => formatSigned(e.change, currency),
      color: (e, theme) => (e.change < 0 ? theme.bad : e.change > 0 ? theme.good : theme.muted),
    },
    { header: "Drawer", width: 8, align: "right", drop: 2, render: (e) => formatAmount(e.balance, currency) },
    { header: "By", width: 12, drop: 1, render: (e) => who(names, e.teamMemberId) },
    { header: "Description", width: 10, flex: 1, drop: 4, render: (e) => e.description },
  ];
}

/** The trend's largest differences. */
export function differenceColumns(names: ReadonlyMap<string, string>): Column<DrawerShiftRow>[] {
  return [
    { header: "Date", width: 5, render: (r) => r.date.slice(5) },
    { header: "Drawer", width: 8, flex: 1, render: (r) => r.description || r.device },
    { header: "Closed by", width: 10, drop: 1, render: (r) => who(names, r.closedBy) },
    {
      header: "Over/short",
      width: 10,
      align: "right",
      render: (r) => (r.overShort === undefined ? "—" : formatSigned(r.overShort, r.currency)),
      color: (r, theme) => overShortColor(r.overShort, theme),
    },
  ];
}

/** The trend's per-closer summary. */
export function closerColumns(names: ReadonlyMap<string, string>, currency: Currency): Column<CloserSummary>[] {
  return [
    {
      header: "Closed by",
      width: 8,
      flex: 1,
      render: (c) => (c.teamMemberId === undefined ? "(not recorded)" : who(names, c.teamMemberId)),
    },
    { header: "Shifts", width: 6, align: "right", render: (c) => String(c.shifts) },
    { header: "Exact", width: 5, align: "right", drop: 1, render: (c) => String(c.exact) },
    {
      header: "Net",
      width: 9,
      align: "right",
      render: (c) => formatSigned(c.net, currency),
      color: (c, theme) => overShortColor(c.net, theme),
    },
  ];
}

/** `Mon 2026-06-15` (the date's weekday, from the domain's time helpers). */
export { dayName } from "../../../domain/time.js";
