import { eventTimeline, filterTimeline } from "../../../domain/cash-drawers.js";
import { type LoadedState, selectedIndex } from "../../../state/index.js";
import {
  type CommandTable,
  ch,
  defineLoadedCommands,
  type ListRows,
  listCommands,
  named,
  openRowCommand,
  selectedRow,
} from "../../commands.js";
import { PAID_OUT_AND_NO_SALE } from "./filter.js";

/** The flag that shows the events pane of a shift rather than its reconciliation (narrow terminals). */
export const EVENTS_PANE = "drawers.events";

/** The events of the open shift as the timeline shows them (the filter applied). */
export function shownEvents(s: LoadedState) {
  const detail = s.drawers.detail;
  if (!detail?.shift) return [];
  return filterTimeline(eventTimeline(detail.shift.opened_cash_money, detail.events), new Set(s.drawers.filter));
}

/** The list shown: the day's shifts, or the open shift's events; the trend has none. */
export function drawersRows(s: LoadedState): ListRows | undefined {
  const d = s.drawers;
  if (d.view === "day") return { list: "drawers.day", ids: (d.day?.rows ?? []).map((r) => r.id) };
  if (d.view === "detail") return { list: "drawers.events", ids: shownEvents(s).map((e, i) => e.id || String(i)) };
  return undefined;
}

/** The trend's days by date. */
const trendDays = (s: LoadedState) => (s.drawers.trend?.daily ?? []).map((d) => d.date);

/** The day picked on the trend's chart: today until another is picked. */
export function trendCursor(s: LoadedState): number {
  const days = trendDays(s);
  const picked = s.selection["drawers.trend"];
  return picked ? selectedIndex(picked, days) : Math.max(0, days.length - 1);
}

const only = (view: LoadedState["drawers"]["view"], reason: string) => (s: LoadedState) =>
  s.drawers.view === view ? undefined : reason;
const IN_SHIFT = "Open a shift (enter) to see its events.";

/** Commands every view answers: the dates and the trend. */
const DATES = {
  prevDay: {
    keys: [ch("[")],
    label: "[",
    description: "previous day",
    hint: 3,
    run: (s: LoadedState) => {
      if (s.drawers.view !== "day") s.showDrawersView("day");
      return s.stepDrawersDays(-1);
    },
  },
  nextDay: {
    keys: [ch("]")],
    label: "]",
    description: "next day",
    hint: 3,
    run: (s: LoadedState) => {
      if (s.drawers.view !== "day") s.showDrawersView("day");
      return s.stepDrawersDays(1);
    },
  },
  today: {
    keys: [ch("t")],
    label: "t",
    description: "today",
    run: (s: LoadedState) => {
      s.showDrawersView("day");
      return s.drawersToday();
    },
  },
  range: {
    keys: [ch("d")],
    label: "d",
    description: "date or date range",
    run: (s: LoadedState) => s.openDrawersForm({ kind: "range" }),
  },
  trend: {
    keys: [ch("c")],
    label: "c",
    description: "trend: 30 days of over/short",
    short: "trend",
    hint: 5,
    run: (s: LoadedState) => (s.drawers.view === "trend" ? s.showDrawersView("day") : s.showDrawerTrend()),
  },
} satisfies CommandTable<string>;

/** The cash drawers screen's commands. */
export const DRAWERS_COMMANDS = defineLoadedCommands({
  ...listCommands(drawersRows),
  openShift: openRowCommand({
    description: "open the shift",
    short: "open",
    hint: 2,
    target: (s) => (s.drawers.view === "day" ? selectedRow(s, drawersRows(s)) : undefined),
    open: (s, id) => s.openDrawerShift(id),
    why: (s) => (s.drawers.view !== "day" ? "Shifts are opened from the day's list." : "No drawer shift here to open."),
  }),
  openDay: {
    keys: [named("return")],
    label: "enter",
    description: "trend: open the picked day",
    short: "open the day",
    hint: 2,
    run: (s) => {
      const day = s.drawers.trend?.daily[trendCursor(s)];
      if (!day) return;
      s.showDrawersView("day");
      return s.loadDrawers({ from: day.date, to: day.date });
    },
    unavailable: only("trend", "Days are opened from the trend (c)."),
  },
  ...DATES,
  togglePane: {
    keys: [ch("v")],
    label: "v",
    description: "shift: reconciliation / events",
    short: "switch pane",
    hint: 6,
    run: (s) => s.setFlag(EVENTS_PANE, !s.flags[EVENTS_PANE]),
    unavailable: only("detail", IN_SHIFT),
  },
  filterEvents: {
    keys: [ch("f")],
    label: "f",
    description: "shift: filter events by type",
    short: "filter",
    hint: 7,
    run: (s) => {
      s.setFlag(EVENTS_PANE, true);
      s.openDrawersForm({ kind: "filter" });
    },
    unavailable: only("detail", IN_SHIFT),
  },
  paidOutNoSale: {
    keys: [ch("p")],
    label: "p",
    description: "shift: only paid outs and no-sale opens (again: all)",
    run: (s) => {
      s.setFlag(EVENTS_PANE, true);
      const f = s.drawers.filter;
      const on = f.length === PAID_OUT_AND_NO_SALE.length && PAID_OUT_AND_NO_SALE.every((t) => f.includes(t));
      s.setDrawerFilter(on ? [] : PAID_OUT_AND_NO_SALE);
    },
    unavailable: only("detail", IN_SHIFT),
  },
  export: {
    keys: [ch("e")],
    label: "e",
    description: "export CSV: the day, or the shift's events",
    short: "export",
    hint: 4,
    run: (s) => s.openDrawersForm({ kind: "export", what: s.drawers.view === "detail" ? "events" : "day" }),
    unavailable: (s) =>
      s.drawers.view === "trend"
        ? "The trend is not exported: export a day (esc, then e)."
        : s.drawers.view === "day" && !s.drawers.day
          ? "Nothing to export yet."
          : s.drawers.view === "detail" && !s.drawers.detail?.complete
            ? "The shift's events are still being read."
            : undefined,
  },
  back: {
    keys: [named("escape")],
    label: "esc",
    description: "back to the day",
    palette: false,
    run: (s) => s.showDrawersView("day"),
    unavailable: (s) => (s.drawers.view === "day" ? "Already on the day's drawers." : undefined),
  },
  chartLeft: {
    keys: [ch("h"), named("leftArrow")],
    label: "h/←",
    description: "trend: day before",
    palette: false,
    run: (s) => s.selectRow("drawers.trend", trendDays(s), trendCursor(s) - 1),
    unavailable: only("trend", "The days move on the trend (c)."),
  },
  chartRight: {
    keys: [ch("l"), named("rightArrow")],
    label: "l/→",
    description: "trend: day after",
    palette: false,
    run: (s) => s.selectRow("drawers.trend", trendDays(s), trendCursor(s) + 1),
    unavailable: only("trend", "The days move on the trend (c)."),
  },
});

/** What `r` reads again on the drawers screen. */
export function reloadDrawers(s: LoadedState): unknown {
  const d = s.drawers;
  if (d.view === "detail") return d.detail ? s.openDrawerShift(d.detail.shiftId) : undefined;
  if (d.view === "trend") return s.showDrawerTrend();
  return s.loadDrawers();
}
