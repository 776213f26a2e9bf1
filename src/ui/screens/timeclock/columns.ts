import { elsewhereSince, onShiftElsewhere } from "../../../domain/clock-rules.js";
import { KEPT_MARK, KEPT_SHORT } from "../../../domain/kept-words.js";
import { formatMoney } from "../../../domain/money.js";
import { formatDuration, localDate, localTime } from "../../../domain/time.js";
import type { WhoIsHereRow } from "../../../state/index.js";
import type { Column } from "../../components/columns.js";

/** What a member's state says on the time clock. */
export function stateText(row: WhoIsHereRow, tz: string, now?: Date): string {
  if (row.forgotten) {
    return `⚠ open since ${localDate(row.forgotten.start_at, tz)} ${localTime(row.forgotten.start_at, tz)} — forgot to clock out?`;
  }
  if (row.elsewhere) {
    const text = onShiftElsewhere(row.elsewhere.shift, row.elsewhere.locationName, tz, now);
    return text.charAt(0).toLowerCase() + text.slice(1);
  }
  const st = row.state;
  switch (st.kind) {
    case "clocked-out":
      return "clocked out";
    case "on-shift":
      return `on shift since ${st.since}`;
    case "on-break": {
      const on = row.breakMinutes === undefined ? "" : ` · ${formatDuration(row.breakMinutes)}`;
      const over = row.breakOverrun >= 1 ? `, ${formatDuration(row.breakOverrun)} over` : "";
      // What matters most first: on a narrow terminal the paid/unpaid note is what is cut.
      return `on break: ${st.breakName} since ${st.since}${on}${over} (${st.paid ? "paid" : "unpaid"})`;
    }
  }
}

/**
 * The state in fewer words, for a narrow State column: a member on shift at another store keeps
 * both times ("since 19:45 (16:45 here) at Harbour Dock"); the store's name is what is cut.
 */
export function narrowStateText(row: WhoIsHereRow, tz: string, now?: Date): string {
  if (!row.elsewhere || row.forgotten) return stateText(row, tz, now);
  return `since ${elsewhereSince(row.elsewhere.shift, tz, now)} at ${row.elsewhere.locationName}`;
}

/** The time clock's columns. */
export function timeClockColumns(tz: string, now?: Date): Column<WhoIsHereRow>[] {
  return [
    // ◷: a clock-in, break or clock-out of this member is kept on this machine, not yet sent (the
    // state says so too, where it has room); the row shows it as it will be.
    { header: "Member", width: 17, render: (r) => `${r.kept ? "◷ " : ""}${r.name}` },
    {
      header: "State",
      // Room for "on break: Lunch since 10:31 · 5 min (unpaid)": the rate goes first at 80 columns.
      width: 38,
      flex: 3,
      // A member whose clock-in, break or clock-out is kept on this machine shows as it will be, marked.
      render: (r) => `${stateText(r, tz, now)}${r.kept ? ` ${KEPT_MARK}` : ""}`,
      // Narrow, a kept write's mark says "◷ kept" before the state loses words.
      narrow: (r) =>
        r.kept
          ? [
              `${narrowStateText(r, tz, now)} ${KEPT_MARK}`,
              `${stateText(r, tz, now)} ${KEPT_SHORT}`,
              `${narrowStateText(r, tz, now)} ${KEPT_SHORT}`,
            ]
          : narrowStateText(r, tz, now),
      color: (r, theme) =>
        r.forgotten || r.breakOverrun >= 1
          ? theme.bad
          : r.elsewhere
            ? theme.accent
            : r.state.kind === "on-shift"
              ? theme.good
              : r.state.kind === "on-break"
                ? theme.warn
                : theme.muted,
    },
    {
      header: "On shift",
      // "14 h 32 min" and up: a shift open that long (a forgotten clock-out) is the one to read whole.
      width: 12,
      align: "right",
      // Time on shift matters more than the rate: the rate goes first when room is short.
      drop: 1,
      render: (r) => (r.shiftMinutes === undefined ? "" : formatDuration(r.shiftMinutes)),
    },
    {
      header: "Rate",
      width: 13,
      align: "right",
      drop: 2,
      render: (r) => (r.wage?.hourly_rate ? `${formatMoney(r.wage.hourly_rate)}/h` : ""),
      color: (_r, theme) => theme.muted,
    },
  ];
}
