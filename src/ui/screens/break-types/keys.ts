import { ch, defineBindings, named } from "../../keymap.js";

/** The break types screen's keys. */
export const BREAK_TYPES_KEYS = defineBindings("break-types", [
  { command: "addBreakType", keys: [ch("a")], label: "a", description: "add a break type", write: true, hint: 2 },
  {
    command: "editBreakType",
    keys: [named("return")],
    label: "enter",
    description: "rename / change",
    write: true,
    hint: 3,
  },
  { command: "deleteBreakType", keys: [ch("x")], label: "x", description: "delete", write: true, hint: 4 },
]);
