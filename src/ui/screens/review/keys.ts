import { ch, defineBindings, named } from "../../keymap.js";

/** The review's keys. */
export const REVIEW_KEYS = defineBindings("review", [
  { command: "open", keys: [named("return")], label: "enter", description: "member's shifts / edit shift", hint: 2 },
  { command: "allShifts", keys: [ch("s")], label: "s", description: "all shifts / by member", hint: 5 },
  { command: "prevDay", keys: [ch("[")], label: "[", description: "previous day", hint: 3 },
  { command: "nextDay", keys: [ch("]")], label: "]", description: "next day", hint: 3 },
  { command: "today", keys: [ch("t")], label: "t", description: "today" },
  { command: "range", keys: [ch("d")], label: "d", description: "date range" },
  { command: "editShift", keys: [ch("E")], label: "E", description: "edit shift times", write: true },
  { command: "export", keys: [ch("e")], label: "e", description: "export CSV", hint: 4 },
]);
