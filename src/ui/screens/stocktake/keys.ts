import { ch, defineBindings, named } from "../../keymap.js";

/**
 * The Stocktake screen's keys. While the counting line has the keyboard every printable key is
 * typed into it; esc lets go of it, and these apply (enter or i gives it back).
 */
export const STOCKTAKE_KEYS = defineBindings("stocktake", [
  { command: "stNew", keys: [ch("n")], label: "n", description: "start a new count", hint: 2 },
  {
    command: "stOpen",
    keys: [named("return")],
    label: "enter",
    description: "resume the open count · type on the counting line · edit the line",
    hint: 2,
  },
  { command: "stType", keys: [ch("i")], label: "i", description: "type on the counting line" },
  { command: "stReview", keys: [ch("v")], label: "v", description: "review the count before committing", hint: 3 },
  {
    command: "stCommit",
    keys: [ch("c")],
    label: "c",
    description: "commit the count (or finish a commit that stopped)",
    write: true,
    hint: 4,
  },
  { command: "stScanOne", keys: [ch("s")], label: "s", description: "scan = 1 unit on/off", hint: 5 },
  {
    command: "stUncounted",
    keys: [ch("z")],
    label: "z",
    description: "uncounted items: set to zero / leave untouched",
    hint: 5,
  },
  { command: "stUnknown", keys: [ch("u")], label: "u", description: "unknown codes", hint: 6 },
  { command: "stHistory", keys: [ch("h")], label: "h", description: "the item's counts and adjustments" },
  { command: "stRemove", keys: [ch("x")], label: "x", description: "remove the line / dismiss the code" },
  { command: "stDiscard", keys: [ch("D")], label: "D", description: "discard the open count" },
  { command: "stExportItems", keys: [ch("e")], label: "e", description: "export the items as CSV", hint: 7 },
  { command: "stExportSummary", keys: [ch("E")], label: "E", description: "export the summary as CSV" },
]);
