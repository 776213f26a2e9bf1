import { ch, defineBindings, named } from "../../keymap.js";

/** The cash drawers screen's keys. */
export const DRAWERS_KEYS = defineBindings("drawers", [
  { command: "openShift", keys: [named("return")], label: "enter", description: "open the shift / the day", hint: 2 },
  { command: "prevDay", keys: [ch("[")], label: "[", description: "previous day", hint: 3 },
  { command: "nextDay", keys: [ch("]")], label: "]", description: "next day", hint: 3 },
  { command: "today", keys: [ch("t")], label: "t", description: "today" },
  { command: "range", keys: [ch("d")], label: "d", description: "date or date range" },
  { command: "trend", keys: [ch("c")], label: "c", description: "trend: 30 days of over/short", hint: 5 },
  {
    command: "togglePane",
    keys: [ch("v")],
    label: "v",
    description: "shift: reconciliation / events",
    hint: 6,
  },
  { command: "filterEvents", keys: [ch("f")], label: "f", description: "shift: filter events by type", hint: 7 },
  {
    command: "paidOutNoSale",
    keys: [ch("p")],
    label: "p",
    description: "shift: only paid outs and no-sale opens (again: all)",
  },
  {
    command: "export",
    keys: [ch("e")],
    label: "e",
    description: "export CSV: the day, or the shift's events",
    hint: 4,
  },
  {
    command: "chartLeft",
    keys: [ch("h"), named("leftArrow")],
    label: "h/←",
    description: "trend: day before",
    noPalette: true,
  },
  {
    command: "chartRight",
    keys: [ch("l"), named("rightArrow")],
    label: "l/→",
    description: "trend: day after",
    noPalette: true,
  },
]);
