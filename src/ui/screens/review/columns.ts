import { formatMoney, type MemberSummary, type ReviewRow } from "../../../domain/shifts.js";
import { formatHours, localTime } from "../../../domain/time.js";
import type { Column } from "../../components/columns.js";

/** The per-member summary's columns. */
export const MEMBER_COLUMNS: Column<MemberSummary>[] = [
  { header: "Member", width: 14, flex: 1, render: (m) => m.memberName },
  { header: "Shifts", width: 6, align: "right", render: (m) => String(m.shifts) },
  { header: "Paid h", width: 7, align: "right", render: (m) => formatHours(m.paidHours) },
  { header: "Unpaid h", width: 8, align: "right", drop: 2, render: (m) => formatHours(m.unpaidHours) },
  { header: "Cost", width: 11, align: "right", render: (m) => formatMoney(m.cost) },
  {
    header: "Flags",
    width: 12,
    drop: 1,
    render: (m) =>
      [m.overDays.length ? `>8h ${m.overDays.length}d` : "", m.overWeeks.length ? ">40h wk" : ""]
        .filter(Boolean)
        .join(" "),
    color: (_m, theme) => theme.bad,
  },
];

/** The shift list's columns. */
export function shiftColumns(tz: string): Column<ReviewRow>[] {
  return [
    { header: "Member", width: 12, flex: 1, render: (r) => r.memberName },
    { header: "Workday", width: 10, render: (r) => r.workday },
    {
      header: "Start–End",
      width: 11,
      render: (r) => `${localTime(r.shift.start_at, tz)}–${r.shift.end_at ? localTime(r.shift.end_at, tz) : "open"}`,
    },
    {
      header: "Breaks",
      width: 6,
      align: "right",
      drop: 2,
      render: (r) => `${Math.round(r.totals.paidBreakMinutes + r.totals.unpaidBreakMinutes)}m`,
    },
    { header: "Paid h", width: 6, align: "right", render: (r) => formatHours(r.totals.paidHours) },
    { header: "Cost", width: 10, align: "right", drop: 1, render: (r) => formatMoney(r.totals.cost) },
    {
      header: "Flags",
      width: 8,
      drop: 3,
      render: (r) => [r.overDay ? ">8h" : "", r.overWeek ? ">40h" : ""].filter(Boolean).join(" "),
      color: (_r, theme) => theme.bad,
    },
  ];
}
