import type {
  CashDrawerEventType,
  CashDrawerShift,
  CashDrawerShiftEvent,
  CashDrawerShiftState,
  Currency,
  Money,
} from "../spec/generated/types.js";
import { CASH_EFFECT, cashDrawerTotals } from "./cash.js";
import { addDays, localDate, localParts, parseDate, zonedInstant } from "./time.js";

// Everything below works in integer minor units (cents for USD). A shift's money fields are
// read once into numbers; nothing is ever divided except to lay out a chart's cells.

/** Every event type of the wire contract, in the order the spec lists them. */
export const CASH_DRAWER_EVENT_TYPES: readonly CashDrawerEventType[] = [
  "NO_SALE",
  "CASH_TENDER_PAYMENT",
  "OTHER_TENDER_PAYMENT",
  "CASH_TENDER_CANCELLED_PAYMENT",
  "OTHER_TENDER_CANCELLED_PAYMENT",
  "CASH_TENDER_REFUND",
  "OTHER_TENDER_REFUND",
  "PAID_IN",
  "PAID_OUT",
];

/** What a store manager calls each event type. */
export const EVENT_TYPE_LABELS: Readonly<Record<CashDrawerEventType, string>> = {
  NO_SALE: "No sale",
  CASH_TENDER_PAYMENT: "Cash sale",
  OTHER_TENDER_PAYMENT: "Other tender sale",
  CASH_TENDER_CANCELLED_PAYMENT: "Cash sale cancelled",
  OTHER_TENDER_CANCELLED_PAYMENT: "Other sale cancelled",
  CASH_TENDER_REFUND: "Cash refund",
  OTHER_TENDER_REFUND: "Other tender refund",
  PAID_IN: "Paid in",
  PAID_OUT: "Paid out",
};

/** A shift that still needs a manager: the drawer is in use, or ended and not yet counted. */
export type DrawerAttention = "open" | "not counted";

/** The expected cash the service reports, against what the shift's own events add up to. */
export interface ExpectedMismatch {
  /** The shift's `expected_cash_money`. */
  reported: number;
  /** Opening cash plus the cash events, by {@link cashDrawerTotals}. */
  fromEvents: number;
  /** reported − fromEvents. */
  difference: number;
}

/** One drawer shift as the day view, the report and the exports show it (minor units). */
export interface DrawerShiftRow {
  id: string;
  state: CashDrawerShiftState | undefined;
  /** The local date (`YYYY-MM-DD`) the shift opened on. */
  date: string;
  openedAt: string | undefined;
  endedAt: string | undefined;
  closedAt: string | undefined;
  openedBy: string | undefined;
  endedBy: string | undefined;
  closedBy: string | undefined;
  description: string;
  device: string;
  currency: Currency;
  opened: number;
  cashSales: number;
  cashRefunds: number;
  paidIn: number;
  paidOut: number;
  /** The service's expected cash; the sum of the lines above when the service gave none. */
  expected: number;
  /** Cash counted when the drawer was closed; undefined until then. */
  counted: number | undefined;
  /** counted − expected: positive over, negative short; undefined until counted. */
  overShort: number | undefined;
  attention: DrawerAttention | undefined;
  /** Set when the shift's events were read and do not add up to its expected cash. */
  mismatch: ExpectedMismatch | undefined;
}

const amountOf = (m: Money | undefined): number => (typeof m?.amount === "number" ? m.amount : 0);

/** Whether a shift needs attention: OPEN (still in use) or ENDED (not yet counted). */
export function drawerAttention(state: CashDrawerShiftState | undefined): DrawerAttention | undefined {
  if (state === "OPEN") return "open";
  if (state === "ENDED") return "not counted";
  return undefined;
}

/** Why a row needs a manager: still open, not counted, or its events disagree with it. */
export function attentionReasons(row: Pick<DrawerShiftRow, "attention" | "mismatch">): string[] {
  const reasons: string[] = [];
  if (row.attention) reasons.push(row.attention);
  if (row.mismatch) reasons.push("events disagree");
  return reasons;
}

/**
 * The expected cash a shift's events add up to, checked against the service's own figure.
 * Undefined when they agree; a mismatch is reported, never corrected.
 */
export function checkExpectedCash(
  shift: Pick<CashDrawerShift, "opened_cash_money" | "expected_cash_money">,
  events: readonly CashDrawerShiftEvent[],
): ExpectedMismatch | undefined {
  const fromEvents = amountOf(cashDrawerTotals(shift.opened_cash_money, events).expected_cash_money);
  const reported = typeof shift.expected_cash_money?.amount === "number" ? shift.expected_cash_money.amount : undefined;
  if (reported === undefined || reported === fromEvents) return undefined;
  return { reported, fromEvents, difference: reported - fromEvents };
}

/**
 * A shift (full, or the list's summary, whose missing lines read as zero) as a row of the
 * day view. `timeZone` places it on its local date; with `events` the expected cash is checked.
 */
export function drawerRow(
  shift: CashDrawerShift,
  timeZone: string,
  events?: readonly CashDrawerShiftEvent[],
): DrawerShiftRow {
  const opened = amountOf(shift.opened_cash_money);
  const cashSales = amountOf(shift.cash_payment_money);
  const cashRefunds = amountOf(shift.cash_refunds_money);
  const paidIn = amountOf(shift.cash_paid_in_money);
  const paidOut = amountOf(shift.cash_paid_out_money);
  const expected =
    typeof shift.expected_cash_money?.amount === "number"
      ? shift.expected_cash_money.amount
      : opened + cashSales - cashRefunds + paidIn - paidOut;
  const counted = typeof shift.closed_cash_money?.amount === "number" ? shift.closed_cash_money.amount : undefined;
  const currency =
    shift.opened_cash_money?.currency ?? shift.expected_cash_money?.currency ?? shift.closed_cash_money?.currency;
  return {
    id: shift.id ?? "",
    state: shift.state,
    date: shift.opened_at ? localDate(shift.opened_at, timeZone) : "",
    openedAt: shift.opened_at,
    endedAt: shift.ended_at,
    closedAt: shift.closed_at,
    openedBy: shift.opening_team_member_id,
    endedBy: shift.ending_team_member_id,
    closedBy: shift.closing_team_member_id,
    description: shift.description ?? "",
    device: shift.device?.name ?? shift.device?.id ?? "",
    currency: currency ?? "USD",
    opened,
    cashSales,
    cashRefunds,
    paidIn,
    paidOut,
    expected,
    counted,
    overShort: counted === undefined ? undefined : counted - expected,
    attention: drawerAttention(shift.state),
    mismatch: events ? checkExpectedCash(shift, events) : undefined,
  };
}

/** The day's (or range's) totals over its shifts. Counted figures cover only closed shifts. */
export interface DrawerTotals {
  currency: Currency;
  shifts: number;
  /** Shifts counted (closed), and how many still need attention or disagree with their events. */
  countedShifts: number;
  attention: number;
  mismatches: number;
  opened: number;
  cashSales: number;
  cashRefunds: number;
  paidIn: number;
  paidOut: number;
  expected: number;
  /** Cash counted, and what those same shifts were expected to hold. */
  counted: number;
  expectedOfCounted: number;
  /** Sum of overs (≥ 0), sum of shorts (≤ 0), and their net. */
  over: number;
  short: number;
  net: number;
}

/** Adds up a day's (or a range's) shifts. */
export function drawerTotals(rows: readonly DrawerShiftRow[], currency: Currency = "USD"): DrawerTotals {
  const t: DrawerTotals = {
    currency: rows[0]?.currency ?? currency,
    shifts: rows.length,
    countedShifts: 0,
    attention: 0,
    mismatches: 0,
    opened: 0,
    cashSales: 0,
    cashRefunds: 0,
    paidIn: 0,
    paidOut: 0,
    expected: 0,
    counted: 0,
    expectedOfCounted: 0,
    over: 0,
    short: 0,
    net: 0,
  };
  for (const r of rows) {
    t.opened += r.opened;
    t.cashSales += r.cashSales;
    t.cashRefunds += r.cashRefunds;
    t.paidIn += r.paidIn;
    t.paidOut += r.paidOut;
    t.expected += r.expected;
    if (r.attention) t.attention++;
    if (r.mismatch) t.mismatches++;
    if (r.counted !== undefined && r.overShort !== undefined) {
      t.countedShifts++;
      t.counted += r.counted;
      t.expectedOfCounted += r.expected;
      if (r.overShort > 0) t.over += r.overShort;
      else t.short += r.overShort;
    }
  }
  t.net = t.over + t.short;
  return t;
}

/** One line of a shift's reconciliation: the shift's figure and, when read, its events'. */
export interface ReconciliationLine {
  key: "opened" | "cashSales" | "cashRefunds" | "paidIn" | "paidOut" | "expected" | "counted" | "difference";
  label: string;
  /** How the line enters the sum: `+`, `-`, `=` (the result), or `` for the count and difference. */
  op: "+" | "-" | "=" | "";
  shift: number | undefined;
  events: number | undefined;
  /** The two figures disagree. */
  differs: boolean;
}

/** A shift's reconciliation: opening + cash sales − cash refunds + paid in − paid out = expected. */
export interface Reconciliation {
  currency: Currency;
  lines: ReconciliationLine[];
  /** What the shift's own lines add up to, and the expected cash the service reports. */
  fromLines: number;
  expected: number;
  counted: number | undefined;
  difference: number | undefined;
  /** Read only when the events were given. */
  fromEvents: number | undefined;
  mismatch: ExpectedMismatch | undefined;
  /** The service's expected cash is not the sum of the shift's own lines. */
  linesDisagree: boolean;
}

/** Lays a shift out as its reconciliation, with the events' own sums beside it when given. */
export function reconcileShift(shift: CashDrawerShift, events?: readonly CashDrawerShiftEvent[]): Reconciliation {
  const row = drawerRow(shift, "UTC", events);
  const fromLines = row.opened + row.cashSales - row.cashRefunds + row.paidIn - row.paidOut;
  const ev = events ? cashDrawerTotals(shift.opened_cash_money, events, row.currency) : undefined;
  const line = (
    key: ReconciliationLine["key"],
    label: string,
    op: ReconciliationLine["op"],
    shiftValue: number | undefined,
    eventsValue: number | undefined,
  ): ReconciliationLine => ({
    key,
    label,
    op,
    shift: shiftValue,
    events: eventsValue,
    differs: shiftValue !== undefined && eventsValue !== undefined && shiftValue !== eventsValue,
  });
  const lines = [
    line("opened", "Opening cash", "", row.opened, ev ? row.opened : undefined),
    line("cashSales", "Cash sales", "+", row.cashSales, ev ? amountOf(ev.cash_payment_money) : undefined),
    line("cashRefunds", "Cash refunds", "-", row.cashRefunds, ev ? amountOf(ev.cash_refunds_money) : undefined),
    line("paidIn", "Paid in", "+", row.paidIn, ev ? amountOf(ev.cash_paid_in_money) : undefined),
    line("paidOut", "Paid out", "-", row.paidOut, ev ? amountOf(ev.cash_paid_out_money) : undefined),
    line("expected", "Expected cash", "=", row.expected, ev ? amountOf(ev.expected_cash_money) : undefined),
    line("counted", "Counted cash", "", row.counted, undefined),
    line("difference", "Over/short", "", row.overShort, undefined),
  ];
  return {
    currency: row.currency,
    lines,
    fromLines,
    expected: row.expected,
    counted: row.counted,
    difference: row.overShort,
    fromEvents: ev ? amountOf(ev.expected_cash_money) : undefined,
    mismatch: row.mismatch,
    linesDisagree: fromLines !== row.expected,
  };
}

/** One event of a shift's timeline, with what it did to the cash and the drawer after it. */
export interface TimelineEntry {
  id: string;
  at: string | undefined;
  type: CashDrawerEventType | undefined;
  label: string;
  /** The event's amount as recorded (never negative). */
  amount: number;
  /** Its effect on the cash in the drawer: + in, − out, 0 untouched. */
  change: number;
  /** What the drawer should hold after it. */
  balance: number;
  teamMemberId: string | undefined;
  description: string;
}

/** A shift's events in order, each with its effect on the drawer and the running balance. */
export function eventTimeline(openedCash: Money | undefined, events: readonly CashDrawerShiftEvent[]): TimelineEntry[] {
  let balance = amountOf(openedCash);
  return events.map((e) => {
    const type = e.event_type;
    const amount = amountOf(e.event_money);
    const change = type ? CASH_EFFECT[type] * amount : 0;
    balance += change;
    return {
      id: e.id ?? "",
      at: e.created_at,
      type,
      label: type ? EVENT_TYPE_LABELS[type] : "(unknown)",
      amount,
      change,
      balance,
      teamMemberId: e.team_member_id,
      description: e.description ?? "",
    };
  });
}

/** The entries of the given types; every entry when `types` is empty. */
export function filterTimeline(
  entries: readonly TimelineEntry[],
  types: ReadonlySet<CashDrawerEventType>,
): TimelineEntry[] {
  if (types.size === 0) return [...entries];
  return entries.filter((e) => e.type !== undefined && types.has(e.type));
}

/** One day's counted over/short. */
export interface DayOverShort {
  date: string;
  /** Shifts opened that day, and of those the counted ones. */
  shifts: number;
  counted: number;
  over: number;
  short: number;
  net: number;
}

/** Over/short for each date from `from` to `to` inclusive; a day without shifts is all zeros. */
export function dailyOverShort(rows: readonly DrawerShiftRow[], from: string, to: string): DayOverShort[] {
  const days: DayOverShort[] = [];
  const byDate = new Map<string, DayOverShort>();
  for (let d = from; d <= to && days.length < 3660; d = addDays(d, 1)) {
    const day = { date: d, shifts: 0, counted: 0, over: 0, short: 0, net: 0 };
    days.push(day);
    byDate.set(d, day);
  }
  for (const r of rows) {
    const day = byDate.get(r.date);
    if (!day) continue;
    day.shifts++;
    if (r.overShort === undefined) continue;
    day.counted++;
    if (r.overShort > 0) day.over += r.overShort;
    else day.short += r.overShort;
    day.net += r.overShort;
  }
  return days;
}

/** The counted shifts with the largest differences either way, largest first (zeros left out). */
export function largestDifferences(rows: readonly DrawerShiftRow[], limit = 10): DrawerShiftRow[] {
  return rows
    .filter((r) => r.overShort !== undefined && r.overShort !== 0)
    .sort((a, b) => {
      const by = Math.abs(b.overShort ?? 0) - Math.abs(a.overShort ?? 0);
      if (by !== 0) return by;
      // A short before an over of the same size: shortages are what a manager chases.
      if ((a.overShort ?? 0) !== (b.overShort ?? 0)) return (a.overShort ?? 0) - (b.overShort ?? 0);
      return (a.openedAt ?? "").localeCompare(b.openedAt ?? "") || a.id.localeCompare(b.id);
    })
    .slice(0, Math.max(0, limit));
}

/** One team member who closed drawers: how many, and their over/short. */
export interface CloserSummary {
  /** Undefined for shifts closed without a recorded team member. */
  teamMemberId: string | undefined;
  shifts: number;
  /** Of those, counted exactly. */
  exact: number;
  over: number;
  short: number;
  net: number;
}

/** Counted shifts grouped by who closed them: the most short first, then by shift count. */
export function byCloser(rows: readonly DrawerShiftRow[]): CloserSummary[] {
  const groups = new Map<string, CloserSummary>();
  for (const r of rows) {
    if (r.overShort === undefined) continue;
    const key = r.closedBy ?? "";
    let g = groups.get(key);
    if (!g) {
      g = { teamMemberId: r.closedBy, shifts: 0, exact: 0, over: 0, short: 0, net: 0 };
      groups.set(key, g);
    }
    g.shifts++;
    if (r.overShort === 0) g.exact++;
    else if (r.overShort > 0) g.over += r.overShort;
    else g.short += r.overShort;
    g.net += r.overShort;
  }
  return [...groups.values()].sort(
    (a, b) => a.net - b.net || b.shifts - a.shifts || (a.teamMemberId ?? "").localeCompare(b.teamMemberId ?? ""),
  );
}

/** A word for an over/short: `over`, `short`, or `exact`. */
export function overShortWord(amount: number): "over" | "short" | "exact" {
  return amount > 0 ? "over" : amount < 0 ? "short" : "exact";
}

/** The UTC window of local dates `from`..`to` inclusive, for the list's begin/end times. */
export function localDayWindow(from: string, to: string, timeZone: string): { begin: string; end: string } {
  return {
    begin: zonedInstant(from, "00:00", timeZone).toISOString(),
    end: zonedInstant(addDays(to, 1), "00:00", timeZone).toISOString(),
  };
}

/** Longest date range the review reads at once. */
export const MAX_RANGE_DAYS = 92;

/** A date range, or the problem with what was asked for, in the manager's words. */
/** The dates of a report, or what is wrong with them (`field`: the one input a bad date was typed in). */
export type RangeResult =
  | { ok: true; from: string; to: string }
  | { ok: false; problem: string; field?: "date" | "from" | "to" };

/**
 * The dates a report covers: one `date`, or `from`..`to` (either alone means that one day), or
 * `today` when nothing is given. Dates are `YYYY-MM-DD`; the range is at most {@link MAX_RANGE_DAYS}.
 */
export function parseDateRange(
  input: { date?: string | undefined; from?: string | undefined; to?: string | undefined },
  today: string,
): RangeResult {
  const { date, from, to } = input;
  if (date !== undefined && (from !== undefined || to !== undefined)) {
    return { ok: false, problem: "Give either one date, or a range with from and to — not both." };
  }
  for (const [name, value] of [
    ["date", date],
    ["from", from],
    ["to", to],
  ] as const) {
    if (value !== undefined && !parseDate(value)) {
      return { ok: false, problem: `The ${name} "${value}" is not a date; write it as YYYY-MM-DD.`, field: name };
    }
  }
  const start = (date ?? from ?? to ?? today).trim();
  const end = (date ?? to ?? from ?? today).trim();
  if (start > end) return { ok: false, problem: `The range starts (${start}) after it ends (${end}).` };
  if (addDays(start, MAX_RANGE_DAYS - 1) < end) {
    return { ok: false, problem: `That range is longer than ${MAX_RANGE_DAYS} days; pick a shorter one.` };
  }
  return { ok: true, from: start, to: end };
}

/** A local date and time (`YYYY-MM-DD HH:MM`) of an instant, or empty. */
export function localDateTime(instant: string | undefined, timeZone: string): string {
  if (!instant) return "";
  const p = localParts(new Date(instant), timeZone);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}`;
}
