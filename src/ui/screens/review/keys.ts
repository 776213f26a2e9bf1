import { ch, defineBindings, named } from "../../keymap.js";

/** The review's keys. */
export const REVIEW_KEYS = defineBindings("review", [
  { command: "open", keys: [named("return")], label: "enter", description: "member's shifts / edit shift", hint: 2 },
  { command: "allShifts", keys: [ch("s")], label: "s", description: "all shifts / by member", hint: 5 },
  { command: "filter", keys: [ch("/")], label: "/", description: "filter by member (esc clears)", hint: 6 },
  { command: "prevDay", keys: [ch("[")], label: "[", description: "previous day", hint: 3 },
  { command: "nextDay", keys: [ch("]")], label: "]", description: "next day", hint: 3 },
  { command: "prevWeek", keys: [ch("{")], label: "{", description: "previous workweek", hint: 4 },
  { command: "nextWeek", keys: [ch("}")], label: "}", description: "next workweek", hint: 4 },
  { command: "payPeriod", keys: [ch("p")], label: "p", description: "this pay period" },
  { command: "today", keys: [ch("t")], label: "t", description: "today" },
  { command: "range", keys: [ch("d")], label: "d", description: "date range" },
  {
    command: "editShift",
    keys: [ch("E")],
    label: "E",
    description: "edit shift times and breaks",
    write: true,
  },
  { command: "deleteShift", keys: [ch("x")], label: "x", description: "delete shift (asks first)", write: true },
  { command: "export", keys: [ch("e")], label: "e", description: "export CSV", hint: 5 },
]);
