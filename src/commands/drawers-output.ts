// What the drawers commands print: the records of --json (integers in minor units) and the
// layouts for people.
import {
  attentionReasons,
  type DrawerShiftRow,
  type DrawerTotals,
  localDateTime,
  reconcileShift,
  type TimelineEntry,
} from "../domain/cash-drawers.js";
import { formatAmount, formatSigned } from "../domain/money.js";
import { plural } from "../domain/plural.js";
import { dayName, localTime } from "../domain/time.js";
import type { CashDrawerEventType, Currency } from "../spec/generated/types.js";
import {
  type loadDrawerDay,
  type loadShiftEvents,
  type retrieveDrawerShift,
  type StillOpen,
  stillOpenSpan,
} from "../state/drawers-load.js";
import { columns } from "./report.js";

/** One shift as `--json` prints it. */
export interface ShiftRecord {
  record: "shift";
  date: string;
  shift_id: string;
  state: string | null;
  needs_attention: string[];
  opened_at: string | null;
  ended_at: string | null;
  closed_at: string | null;
  opened_by_id: string | null;
  opened_by: string | null;
  ended_by_id: string | null;
  ended_by: string | null;
  closed_by_id: string | null;
  closed_by: string | null;
  description: string;
  device: string;
  currency: Currency;
  opening_cash: number;
  cash_sales: number;
  cash_refunds: number;
  paid_in: number;
  paid_out: number;
  expected_cash: number;
  counted_cash: number | null;
  over_short: number | null;
  /** The expected cash the events add up to; null when they agree or were not read. */
  expected_from_events: number | null;
  events_checked: boolean;
}

/** Totals as `--json` prints them: of one day, or of the whole range. */
export type TotalsRecord = {
  record: "day-totals" | "range-totals";
  date: string | null;
  from: string;
  to: string;
  currency: Currency;
  shifts: number;
  counted_shifts: number;
  needs_attention: number;
  events_disagree: number;
  opening_cash: number;
  cash_sales: number;
  cash_refunds: number;
  paid_in: number;
  paid_out: number;
  expected_cash: number;
  counted_cash: number;
  expected_of_counted: number;
  over: number;
  short: number;
  over_short: number;
};

const nameOr = (names: ReadonlyMap<string, string>, id: string | undefined) =>
  id === undefined ? null : (names.get(id) ?? null);

/** A day-view row as its JSON record. */
export function shiftRecord(
  r: DrawerShiftRow,
  names: ReadonlyMap<string, string>,
  eventsChecked: boolean,
): ShiftRecord {
  return {
    record: "shift",
    date: r.date,
    shift_id: r.id,
    state: r.state ?? null,
    needs_attention: attentionReasons(r),
    opened_at: r.openedAt ?? null,
    ended_at: r.endedAt ?? null,
    closed_at: r.closedAt ?? null,
    opened_by_id: r.openedBy ?? null,
    opened_by: nameOr(names, r.openedBy),
    ended_by_id: r.endedBy ?? null,
    ended_by: nameOr(names, r.endedBy),
    closed_by_id: r.closedBy ?? null,
    closed_by: nameOr(names, r.closedBy),
    description: r.description,
    device: r.device,
    currency: r.currency,
    opening_cash: r.opened,
    cash_sales: r.cashSales,
    cash_refunds: r.cashRefunds,
    paid_in: r.paidIn,
    paid_out: r.paidOut,
    expected_cash: r.expected,
    counted_cash: r.counted ?? null,
    over_short: r.overShort ?? null,
    expected_from_events: r.mismatch ? r.mismatch.fromEvents : null,
    events_checked: eventsChecked,
  };
}

/** Totals as their JSON record. */
export function totalsRecord(
  t: DrawerTotals,
  kind: TotalsRecord["record"],
  span: { date?: string; from: string; to: string },
): TotalsRecord {
  return {
    record: kind,
    date: span.date ?? null,
    from: span.from,
    to: span.to,
    currency: t.currency,
    shifts: t.shifts,
    counted_shifts: t.countedShifts,
    needs_attention: t.attention,
    events_disagree: t.mismatches,
    opening_cash: t.opened,
    cash_sales: t.cashSales,
    cash_refunds: t.cashRefunds,
    paid_in: t.paidIn,
    paid_out: t.paidOut,
    expected_cash: t.expected,
    counted_cash: t.counted,
    expected_of_counted: t.expectedOfCounted,
    over: t.over,
    short: t.short,
    over_short: t.net,
  };
}

/** One event as `--json` prints it. */
export interface EventRecord {
  event_id: string;
  time: string | null;
  local_time: string;
  event_type: string | null;
  event: string;
  currency: Currency;
  amount: number;
  cash_change: number;
  drawer_after: number;
  team_member_id: string | null;
  team_member: string | null;
  description: string;
}

/** A timeline entry as its JSON record. */
export function eventRecord(
  e: TimelineEntry,
  names: ReadonlyMap<string, string>,
  timeZone: string,
  currency: Currency,
): EventRecord {
  return {
    event_id: e.id,
    time: e.at ?? null,
    local_time: localDateTime(e.at, timeZone),
    event_type: e.type ?? null,
    event: e.label,
    currency,
    amount: e.amount,
    cash_change: e.change,
    drawer_after: e.balance,
    team_member_id: e.teamMemberId ?? null,
    team_member: nameOr(names, e.teamMemberId),
    description: e.description,
  };
}

const FLAG_TEXT: Record<string, string> = { open: "OPEN", "not counted": "NOT COUNTED", "events disagree": "EVENTS≠" };

/** The report for people: one line per shift, then the totals. */
export function reportText(
  day: Awaited<ReturnType<typeof loadDrawerDay>>,
  names: ReadonlyMap<string, string>,
  locationName: string,
): string {
  const oneDay = day.from === day.to;
  const money = (n: number | undefined, c: Currency) => (n === undefined ? "—" : formatAmount(n, c));
  const who = (id: string | undefined) => (id === undefined ? "—" : (names.get(id) ?? id));
  const header = [
    ...(oneDay ? [] : ["date"]),
    "opened",
    "state",
    "device",
    "opened by",
    "closed by",
    "opening",
    "cash sales",
    "refunds",
    "paid in",
    "paid out",
    "expected",
    "counted",
    "over/short",
    "attention",
  ];
  const lines = day.rows.map((r) => [
    ...(oneDay ? [] : [r.date]),
    r.openedAt ? localTime(r.openedAt, day.timeZone) : "",
    r.state ?? "",
    r.device || r.description,
    who(r.openedBy),
    who(r.closedBy),
    money(r.opened, r.currency),
    money(r.cashSales, r.currency),
    money(r.cashRefunds, r.currency),
    money(r.paidIn, r.currency),
    money(r.paidOut, r.currency),
    money(r.expected, r.currency),
    money(r.counted, r.currency),
    r.overShort === undefined ? "—" : formatSigned(r.overShort, r.currency),
    attentionReasons(r)
      .map((a) => FLAG_TEXT[a] ?? a)
      .join(" "),
  ]);
  const first = oneDay ? 0 : 1;
  const right = new Set([5, 6, 7, 8, 9, 10, 11, 12].map((i) => i + first));
  const t = day.totals;
  const c = t.currency;
  const out = [
    `Cash drawers at ${locationName}, ${oneDay ? day.from : `${day.from} to ${day.to}`} (${day.timeZone})`,
    "",
    ...(day.rows.length ? columns([header, ...lines], right) : ["No drawer shifts were opened."]),
    "",
    `Totals: ${plural(t.shifts, "shift")}, ${t.countedShifts} counted. Opening ${formatAmount(t.opened, c)}, cash sales ${formatAmount(t.cashSales, c)}, refunds ${formatAmount(t.cashRefunds, c)}, paid in ${formatAmount(t.paidIn, c)}, paid out ${formatAmount(t.paidOut, c)}, expected ${formatAmount(t.expected, c)}.`,
    `Counted ${formatAmount(t.counted, c)} against ${formatAmount(t.expectedOfCounted, c)} expected: over ${formatSigned(t.over, c)}, short ${formatAmount(t.short, c)}, net ${formatSigned(t.net, c)} ${c}.`,
  ];
  if (t.attention)
    out.push(
      `${plural(t.attention, "shift")} ${t.attention === 1 ? "needs" : "need"} attention: still open, or ended and not counted.`,
    );
  if (t.mismatches)
    out.push(
      t.mismatches === 1
        ? "1 shift has events that do not add up to its expected cash."
        : `${plural(t.mismatches, "shift")} have events that do not add up to their expected cash.`,
    );
  if (!day.eventsChecked) out.push("Expected cash was not checked against the events: the range has too many shifts.");
  return `${out.join("\n")}\n`;
}

/** A shift's reconciliation and events, for people. */
export function eventsText(
  shift: Awaited<ReturnType<typeof retrieveDrawerShift>>,
  events: Awaited<ReturnType<typeof loadShiftEvents>>,
  entries: readonly TimelineEntry[],
  names: ReadonlyMap<string, string>,
  timeZone: string,
  where: string,
  types: ReadonlySet<CashDrawerEventType>,
): string {
  const rec = reconcileShift(shift, events);
  const c = rec.currency;
  const cell = (n: number | undefined, signed = false) =>
    n === undefined ? "—" : signed ? formatSigned(n, c) : formatAmount(n, c);
  const recRows = rec.lines.map((l) => [
    `${l.op ? `${l.op} ` : "  "}${l.label}`,
    cell(l.shift, l.key === "difference"),
    l.events === undefined ? "" : cell(l.events),
    l.differs ? "≠ differs" : "",
  ]);
  const out = [
    `${shift.description ?? shift.id} at ${where}: ${shift.state ?? ""}, opened ${localDateTime(shift.opened_at, timeZone)}`,
    "",
    ...columns([["", "shift", "events", ""], ...recRows], new Set([1, 2])),
  ];
  if (rec.mismatch) {
    out.push(
      "",
      `The events add up to ${formatAmount(rec.mismatch.fromEvents, c)}, not the ${formatAmount(rec.mismatch.reported, c)} the shift reports as expected (${formatSigned(-rec.mismatch.difference, c)}).`,
    );
  }
  const filter = types.size ? ` (${[...types].join(", ")} only)` : "";
  out.push("", `${entries.length} of ${plural(events.length, "event")}${filter}:`, "");
  const rows = entries.map((e) => [
    e.at ? localTime(e.at, timeZone) : "",
    e.label,
    formatAmount(e.amount, c),
    formatSigned(e.change, c),
    formatAmount(e.balance, c),
    e.teamMemberId ? (names.get(e.teamMemberId) ?? e.teamMemberId) : "",
    e.description,
  ]);
  out.push(
    ...columns([["time", "event", "amount", "cash", "drawer", "by", "description"], ...rows], new Set([2, 3, 4])),
  );
  return `${out.join("\n")}\n`;
}

/**
 * The drawers still open from days before the report's (after midnight, the evening's drawers
 * are yesterday's), and the command that shows them; empty when there are none.
 */
export function stillOpenText(stillOpen: readonly StillOpen[]): string {
  const span = stillOpenSpan(stillOpen);
  if (!span) return "";
  const { total, first, last } = span;
  const days = first === last ? dayName(first) : `${dayName(first)} to ${dayName(last)}`;
  const flags = first === last ? `--date ${first}` : `--from ${first} --to ${last}`;
  return `${plural(total, "drawer")} still open from ${days}: \`backroom drawers report ${flags}\` shows them.\n`;
}
