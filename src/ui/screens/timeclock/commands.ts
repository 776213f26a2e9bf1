import { checkClockIn, checkEndBreak, checkStartBreak, onShiftElsewhere } from "../../../domain/clock-rules.js";
import { type AppState, selectTimeZone, selectWhoIsHere, type WhoIsHereRow } from "../../../state/index.js";
import { ch, defineCommands, type ListRows, listCommands, named, selectedRow } from "../../commands.js";

/** The "who is here" list: its rows' ids. */
export function timeClockRows(s: AppState): ListRows {
  return { list: "timeclock", ids: selectWhoIsHere(s).map((r) => r.id) };
}

/** The member under the cursor. */
function selected(s: AppState): WhoIsHereRow | undefined {
  const id = selectedRow(s, timeClockRows(s));
  return selectWhoIsHere(s).find((r) => r.id === id);
}

const NOBODY = "There is no team member here to act on.";

/** Why the selected member cannot be clocked in now. */
function cannotClockIn(s: AppState): string | undefined {
  const r = selected(s);
  if (!r) return NOBODY;
  if (r.elsewhere)
    return `${r.name}: ${onShiftElsewhere(r.elsewhere.shift, r.elsewhere.locationName, selectTimeZone(s))}; clock out there first.`;
  const problem = checkClockIn(openShift(r), s.now, s.now, selectTimeZone(s));
  return problem ? `${r.name}: ${problem}` : undefined;
}

/** Why the selected member cannot be clocked out now. */
function cannotClockOut(s: AppState): string | undefined {
  const r = selected(s);
  if (!r) return NOBODY;
  if (r.elsewhere) return `${r.name} is on shift at ${r.elsewhere.locationName}, not here; clock out there.`;
  if (r.state.kind === "clocked-out") return `${r.name} is not clocked in, so there is nothing to clock out of.`;
  return undefined;
}

/** The shift open here for the selected member, if any. */
function openShift(r: WhoIsHereRow | undefined) {
  return r && r.state.kind !== "clocked-out" ? r.state.shift : undefined;
}

/** The time clock's commands. */
export const TIMECLOCK_COMMANDS = defineCommands({
  ...listCommands(timeClockRows),
  filter: {
    keys: [ch("/")],
    label: "/",
    description: "filter by name (esc clears)",
    short: "filter",
    hint: 2,
    run: (s) => s.openTimeClockForm({ kind: "filter" }),
  },
  clearFilter: {
    keys: [named("escape")],
    label: "esc",
    description: "clear the filter",
    palette: false,
    run: (s) => s.setFilter(""),
    unavailable: (s) => (s.timeclock.filter ? undefined : "No filter is set."),
  },
  clockIn: {
    keys: [ch("i")],
    label: "i",
    description: "clock in",
    write: true,
    hint: 3,
    run: (s) => {
      const id = selected(s)?.id;
      if (id) return s.clockIn(id);
    },
    unavailable: cannotClockIn,
  },
  clockInAt: {
    keys: [ch("I")],
    label: "I",
    description: "clock in at an earlier time",
    write: true,
    run: (s) => {
      const id = selected(s)?.id;
      if (id) s.openClockForm("clock-in-at", id);
    },
    unavailable: cannotClockIn,
  },
  startBreak: {
    keys: [ch("b")],
    label: "b",
    description: "start break",
    short: "break",
    write: true,
    hint: 4,
    run: (s) => {
      const id = selected(s)?.id;
      if (id) s.openBreakPicker(id);
    },
    unavailable: (s) => {
      const r = selected(s);
      if (!r) return NOBODY;
      if (r.elsewhere) return `${r.name} is on shift at ${r.elsewhere.locationName}; breaks are taken there.`;
      const problem = checkStartBreak(openShift(r), selectTimeZone(s));
      if (problem) return `${r.name}: ${problem}`;
      return s.breakTypes.items.length === 0
        ? "This location has no break types; add one on the Break types screen (3)."
        : undefined;
    },
  },
  endBreak: {
    keys: [ch("u")],
    label: "u",
    description: "end break",
    write: true,
    hint: 5,
    run: (s) => {
      const id = selected(s)?.id;
      if (id) return s.endBreak(id);
    },
    unavailable: (s) => {
      const r = selected(s);
      if (!r) return NOBODY;
      const problem = checkEndBreak(openShift(r));
      return problem ? `${r.name}: ${problem}` : undefined;
    },
  },
  clockOut: {
    keys: [ch("o")],
    label: "o",
    description: "clock out",
    write: true,
    hint: 3,
    run: (s) => {
      const id = selected(s)?.id;
      if (!id) return;
      const question = s.clockOutQuestion(id);
      if (!question) return s.clockOut(id);
      // A very short shift is more likely a mistaken press: then enter answers no, to be sure, not
      // because a clock-out is final (the review edits one).
      s.ask({
        message: question.text,
        risky: question.shortShift,
        reversible: true,
        yes: "Clock out",
        onYes: () => s.clockOut(id),
      });
    },
    unavailable: cannotClockOut,
  },
  clockOutAt: {
    keys: [ch("O")],
    label: "O",
    description: "clock out at an earlier time",
    write: true,
    run: (s) => {
      const id = selected(s)?.id;
      if (id) s.openClockForm("clock-out-at", id);
    },
    unavailable: cannotClockOut,
  },
  addShift: {
    keys: [ch("a")],
    label: "a",
    description: "add a past shift (forgot to clock in)",
    short: "past shift",
    write: true,
    hint: 7,
    run: (s) => {
      const id = selected(s)?.id;
      if (id) s.openClockForm("add-shift", id);
    },
    unavailable: (s) => (selected(s) ? undefined : NOBODY),
  },
  fixForgot: {
    keys: [ch("f")],
    label: "f",
    description: "set end of a forgotten shift",
    short: "forgotten end",
    write: true,
    hint: 6,
    run: (s) => {
      const target = selected(s)?.forgotten ?? selectWhoIsHere(s).find((r) => r.forgotten)?.forgotten;
      if (target?.id) s.openTimeClockForm({ kind: "fix-forgot", shiftId: target.id });
    },
    unavailable: (s) => (selectWhoIsHere(s).some((r) => r.forgotten) ? undefined : "No open shifts from earlier days."),
  },
});
