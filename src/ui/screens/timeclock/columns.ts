import { formatMoney } from "../../../domain/shifts.js";
import { localDate, localTime } from "../../../domain/time.js";
import type { WhoIsHereRow } from "../../../state/index.js";
import type { Column } from "../../components/columns.js";

/** What a member's state says on the time clock. */
export function stateText(row: WhoIsHereRow, tz: string): string {
  if (row.forgotten) {
    return `⚠ open since ${localDate(row.forgotten.start_at, tz)} ${localTime(row.forgotten.start_at, tz)} — forgot to clock out?`;
  }
  const st = row.state;
  switch (st.kind) {
    case "clocked-out":
      return "clocked out";
    case "on-shift":
      return `on shift since ${st.since}`;
    case "on-break":
      return `on break: ${st.breakName} since ${st.since} (${st.paid ? "paid" : "unpaid"})`;
  }
}

/** The time clock's columns. */
export function timeClockColumns(tz: string): Column<WhoIsHereRow>[] {
  return [
    { header: "Member", width: 18, flex: 1, render: (r) => r.name },
    {
      header: "State",
      width: 24,
      flex: 3,
      render: (r) => stateText(r, tz),
      color: (r, theme) =>
        r.forgotten
          ? theme.warn
          : r.state.kind === "on-shift"
            ? theme.good
            : r.state.kind === "on-break"
              ? theme.warn
              : theme.muted,
    },
    {
      header: "Rate",
      width: 10,
      align: "right",
      drop: 1,
      render: (r) => (r.wage?.hourly_rate ? `${formatMoney(r.wage.hourly_rate)}/h` : ""),
      color: (_r, theme) => theme.muted,
    },
  ];
}
