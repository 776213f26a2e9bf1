import { ch, defineBindings } from "../../keymap.js";

/** The time clock's keys. */
export const TIMECLOCK_KEYS = defineBindings("timeclock", [
  { command: "filter", keys: [ch("/")], label: "/", description: "filter by name (esc clears)", hint: 2 },
  { command: "clockIn", keys: [ch("i")], label: "i", description: "clock in", write: true, hint: 3 },
  {
    command: "clockInAt",
    keys: [ch("I")],
    label: "I",
    description: "clock in at an earlier time",
    write: true,
  },
  { command: "startBreak", keys: [ch("b")], label: "b", description: "start break", write: true, hint: 4 },
  { command: "endBreak", keys: [ch("u")], label: "u", description: "end break", write: true, hint: 5 },
  { command: "clockOut", keys: [ch("o")], label: "o", description: "clock out", write: true, hint: 3 },
  {
    command: "clockOutAt",
    keys: [ch("O")],
    label: "O",
    description: "clock out at an earlier time",
    write: true,
  },
  {
    command: "addShift",
    keys: [ch("a")],
    label: "a",
    description: "add a past shift (forgot to clock in)",
    write: true,
    hint: 7,
  },
  {
    command: "fixForgot",
    keys: [ch("f")],
    label: "f",
    description: "set end of a forgotten shift",
    write: true,
    hint: 6,
  },
]);
