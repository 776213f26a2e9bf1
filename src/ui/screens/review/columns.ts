import { formatMoney } from "../../../domain/money.js";
import type { OvertimeRules } from "../../../domain/overtime.js";
import type { MemberSummary, ReviewRow } from "../../../domain/review.js";
import { formatHours, localDate, localTime, weekdayName } from "../../../domain/time.js";
import type { Column } from "../../components/columns.js";

/**
 * The flags of a member's totals in words: weeks over the limit, days over the daily limit,
 * overtime that comes from hours at other stores, no wage, open shifts. `words` picks the form:
 * "full", "short" (overtime "elsewhere"), or "fewest" (no "wk", no "elsewhere") — every figure is
 * in each form, only words go.
 */
export function memberFlags(
  m: MemberSummary,
  rules: OvertimeRules,
  words: "full" | "short" | "fewest" = "full",
): string {
  const elsewhere = formatHours(m.overtimeFromElsewhereHours);
  return [
    m.overWeeks.length ? `>${rules.weeklyHours}h${words === "fewest" ? "" : " wk"}` : "",
    m.overtimeFromElsewhereHours > 0
      ? {
          full: `OT ${elsewhere}h from other stores`,
          short: `OT ${elsewhere} h elsewhere`,
          fewest: `OT ${elsewhere} h`,
        }[words]
      : "",
    m.overDays.length && rules.dailyHours !== undefined ? `>${rules.dailyHours}h ${m.overDays.length}d` : "",
    m.noWageShifts ? `${m.noWageShifts} no wage` : "",
    m.openShifts ? `${m.openShifts} open` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/** The per-member summary's columns. */
export function memberColumns(rules: OvertimeRules): Column<MemberSummary>[] {
  return [
    { header: "Member", width: 14, flex: 1, render: (m) => m.memberName },
    { header: "Shifts", width: 6, align: "right", render: (m) => String(m.shifts) },
    { header: "Paid h", width: 7, align: "right", render: (m) => formatHours(m.paidHours) },
    { header: "Unpaid h", width: 8, align: "right", drop: 3, render: (m) => formatHours(m.unpaidHours) },
    { header: "Regular", width: 7, align: "right", drop: 2, render: (m) => formatHours(m.regularHours) },
    { header: "Overtime", width: 8, align: "right", render: (m) => formatHours(m.overtimeHours) },
    {
      header: "Cost",
      width: 13,
      align: "right",
      // With no costed shift at all the cost is unknown, not 0.00.
      render: (m) => (m.noWageShifts === m.shifts ? "no wage" : formatMoney(m.cost)),
      color: (m, theme) => (m.noWageShifts ? theme.warn : undefined),
    },
    {
      header: "Flags",
      width: 12,
      flex: 1,
      drop: 1,
      render: (m) => memberFlags(m, rules),
      narrow: (m) => [memberFlags(m, rules, "short"), memberFlags(m, rules, "fewest")],
      color: (_m, theme) => theme.bad,
    },
  ];
}

/** The start and end of a shift in its store's time zone, with the end's date when it ends on another day. */
export function shiftSpan(r: ReviewRow): string {
  const s = r.shift;
  const tz = r.timeZone;
  if (!s.end_at) return `${localTime(s.start_at, tz)}–open`;
  const otherDay = localDate(s.end_at, tz) !== localDate(s.start_at, tz);
  return `${localTime(s.start_at, tz)}–${otherDay ? `${localDate(s.end_at, tz).slice(5)} ` : ""}${localTime(s.end_at, tz)}`;
}

/**
 * A shift row's flags: over the weekly or daily limit, no wage, open, long, overtime from other
 * stores — in fewer words for a narrow column (`words`), the figures in every form.
 */
export function shiftFlags(r: ReviewRow, rules: OvertimeRules, words: "full" | "short" | "fewest" = "full"): string {
  const elsewhere = { full: "OT: other stores", short: "OT elsewhere", fewest: "elsewhere" }[words];
  return [
    r.overWeek ? `>${rules.weeklyHours}h` : "",
    r.overDay && rules.dailyHours !== undefined ? `>${rules.dailyHours}h/d` : "",
    ...r.flags.map((f) => (f === "overtime from other stores" ? elsewhere : f)),
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * The shift list's columns: the workday with its weekday, start–end (in the shift's store's zone),
 * hours, overtime, cost, flags — and the store, for a review of all locations (`storeName`). A
 * shift whose change is kept on this machine, not yet sent (`kept`), is marked ◷ and shown as it will be.
 */
export function shiftColumns(
  rules: OvertimeRules,
  storeName?: (locationId: string) => string,
  kept: ReadonlySet<string> = new Set(),
): Column<ReviewRow>[] {
  const store: Column<ReviewRow>[] = storeName
    ? [{ header: "Store", width: 10, flex: 1, drop: 2, render: (r) => storeName(r.locationId) }]
    : [];
  return [
    {
      header: "Member",
      width: 12,
      flex: 1,
      render: (r) => `${r.shift.id && kept.has(r.shift.id) ? "◷ " : ""}${r.memberName}`,
    },
    ...store,
    // The year is in the title; the day and its weekday are what a row needs.
    { header: "Workday", width: 9, render: (r) => `${weekdayName(r.workday)} ${r.workday.slice(5)}` },
    { header: "Start–End", width: 11, flex: 1, render: (r) => shiftSpan(r) },
    {
      header: "Breaks",
      width: 6,
      align: "right",
      drop: 3,
      render: (r) => `${Math.round(r.totals.paidBreakMinutes + r.totals.unpaidBreakMinutes)}m`,
    },
    { header: "Paid h", width: 6, align: "right", render: (r) => formatHours(r.totals.paidHours) },
    {
      header: "OT h",
      width: 5,
      align: "right",
      drop: 2,
      render: (r) => (r.overtimeHours ? formatHours(r.overtimeHours) : ""),
    },
    {
      header: "Cost",
      width: 12,
      align: "right",
      render: (r) => (r.cost ? formatMoney(r.cost.total) : "no wage"),
      color: (r, theme) => (r.cost ? undefined : theme.warn),
    },
    {
      header: "Flags",
      // ">40h over 8 h" whole at 80 columns; at 60 the flags go (after breaks and OT).
      width: 13,
      flex: 1,
      drop: 1,
      render: (r) => shiftFlags(r, rules),
      narrow: (r) => [shiftFlags(r, rules, "short"), shiftFlags(r, rules, "fewest")],
      color: (_r, theme) => theme.bad,
    },
  ];
}
