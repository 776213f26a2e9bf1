import type { Key } from "ink";
import type { Screen } from "../state/index.js";

/** Where a binding applies: everywhere, in any list, or on one screen. */
export type Scope = "global" | "list" | Screen["kind"];

/** One key of a binding: a typed character, or a named key, optionally with ctrl. */
export type KeySpec = { input: string; ctrl?: boolean } | { key: NamedKey; shift?: boolean };

type NamedKey = "upArrow" | "downArrow" | "pageUp" | "pageDown" | "home" | "end" | "return" | "escape" | "tab";

/** A named command with its keys, as shown in help and hints. */
export interface Binding {
  command: Command;
  scope: Scope;
  keys: readonly KeySpec[];
  /** The keys as the user reads them (`j/↓`). */
  label: string;
  description: string;
  /** Changes data: disabled in read-only mode. */
  write?: boolean;
  /** Shown in the status bar's hints (the rest only in help). */
  hint?: boolean;
}

/** Every command the app knows. */
export type Command =
  | "quit"
  | "forceQuit"
  | "help"
  | "palette"
  | "filter"
  | "location"
  | "nextScreen"
  | "prevScreen"
  | "screen1"
  | "screen2"
  | "screen3"
  | "up"
  | "down"
  | "pageUp"
  | "pageDown"
  | "top"
  | "bottom"
  | "open"
  | "back"
  | "reload"
  | "clockIn"
  | "clockOut"
  | "startBreak"
  | "endBreak"
  | "fixForgot"
  | "prevDay"
  | "nextDay"
  | "today"
  | "range"
  | "allShifts"
  | "editShift"
  | "export"
  | "addBreakType"
  | "editBreakType"
  | "deleteBreakType";

const ch = (input: string): KeySpec => ({ input });
const named = (key: NamedKey, shift = false): KeySpec => (shift ? { key, shift } : { key });

/** The one keymap: key handling, the help overlay and the status bar hints all read it. */
export const KEYMAP: readonly Binding[] = [
  {
    command: "forceQuit",
    scope: "global",
    keys: [{ input: "c", ctrl: true }],
    label: "ctrl+c",
    description: "quit now",
  },
  { command: "quit", scope: "global", keys: [ch("q")], label: "q", description: "quit", hint: true },
  { command: "help", scope: "global", keys: [ch("?")], label: "?", description: "help: every key", hint: true },
  { command: "palette", scope: "global", keys: [ch(":")], label: ":", description: "command palette", hint: true },
  { command: "location", scope: "global", keys: [ch("L")], label: "L", description: "pick location" },
  { command: "nextScreen", scope: "global", keys: [named("tab")], label: "tab", description: "next screen" },
  {
    command: "prevScreen",
    scope: "global",
    keys: [named("tab", true)],
    label: "shift+tab",
    description: "previous screen",
  },
  { command: "screen1", scope: "global", keys: [ch("1")], label: "1", description: "time clock" },
  { command: "screen2", scope: "global", keys: [ch("2")], label: "2", description: "review" },
  { command: "screen3", scope: "global", keys: [ch("3")], label: "3", description: "break types" },
  { command: "reload", scope: "global", keys: [ch("r")], label: "r", description: "reload" },
  { command: "up", scope: "list", keys: [ch("k"), named("upArrow")], label: "k/↑", description: "up" },
  { command: "down", scope: "list", keys: [ch("j"), named("downArrow")], label: "j/↓", description: "down" },
  {
    command: "pageUp",
    scope: "list",
    keys: [named("pageUp"), { input: "u", ctrl: true }],
    label: "pgup",
    description: "page up",
  },
  {
    command: "pageDown",
    scope: "list",
    keys: [named("pageDown"), { input: "d", ctrl: true }],
    label: "pgdn",
    description: "page down",
  },
  { command: "top", scope: "list", keys: [ch("g"), named("home")], label: "g", description: "first row" },
  { command: "bottom", scope: "list", keys: [ch("G"), named("end")], label: "G", description: "last row" },
  {
    command: "filter",
    scope: "timeclock",
    keys: [ch("/")],
    label: "/",
    description: "filter by name (esc clears)",
    hint: true,
  },
  { command: "back", scope: "list", keys: [named("escape")], label: "esc", description: "back / clear filter" },
  {
    command: "clockIn",
    scope: "timeclock",
    keys: [ch("i")],
    label: "i",
    description: "clock in",
    write: true,
    hint: true,
  },
  {
    command: "startBreak",
    scope: "timeclock",
    keys: [ch("b")],
    label: "b",
    description: "start break",
    write: true,
    hint: true,
  },
  {
    command: "endBreak",
    scope: "timeclock",
    keys: [ch("u")],
    label: "u",
    description: "end break",
    write: true,
    hint: true,
  },
  {
    command: "clockOut",
    scope: "timeclock",
    keys: [ch("o")],
    label: "o",
    description: "clock out",
    write: true,
    hint: true,
  },
  {
    command: "fixForgot",
    scope: "timeclock",
    keys: [ch("f")],
    label: "f",
    description: "set end of a forgotten shift",
    write: true,
    hint: true,
  },
  {
    command: "open",
    scope: "review",
    keys: [named("return")],
    label: "enter",
    description: "member's shifts / edit shift",
    hint: true,
  },
  { command: "allShifts", scope: "review", keys: [ch("s")], label: "s", description: "all shifts / by member" },
  { command: "prevDay", scope: "review", keys: [ch("[")], label: "[", description: "previous day", hint: true },
  { command: "nextDay", scope: "review", keys: [ch("]")], label: "]", description: "next day", hint: true },
  { command: "today", scope: "review", keys: [ch("t")], label: "t", description: "today" },
  { command: "range", scope: "review", keys: [ch("d")], label: "d", description: "date range" },
  { command: "editShift", scope: "review", keys: [ch("E")], label: "E", description: "edit shift times", write: true },
  { command: "export", scope: "review", keys: [ch("e")], label: "e", description: "export CSV", hint: true },
  {
    command: "addBreakType",
    scope: "break-types",
    keys: [ch("a")],
    label: "a",
    description: "add",
    write: true,
    hint: true,
  },
  {
    command: "editBreakType",
    scope: "break-types",
    keys: [named("return")],
    label: "enter",
    description: "rename / change",
    write: true,
    hint: true,
  },
  {
    command: "deleteBreakType",
    scope: "break-types",
    keys: [ch("x")],
    label: "x",
    description: "delete",
    write: true,
    hint: true,
  },
];

function matches(spec: KeySpec, input: string, key: Key): boolean {
  if ("key" in spec) return key[spec.key] && (spec.shift === undefined || key.shift === spec.shift);
  if (spec.ctrl) return key.ctrl && input === spec.input;
  return !key.ctrl && !key.meta && input === spec.input;
}

/** The command a key press means in the given scopes (earlier scopes win), if any. */
export function commandFor(input: string, key: Key, scopes: readonly Scope[]): Command | undefined {
  for (const scope of scopes) {
    for (const b of KEYMAP) {
      if (b.scope === scope && b.keys.some((k) => matches(k, input, key))) return b.command;
    }
  }
  return undefined;
}

/** The bindings of some scopes, in keymap order. */
export function bindingsFor(scopes: readonly Scope[]): Binding[] {
  return KEYMAP.filter((b) => scopes.includes(b.scope));
}

/** The binding of a command. */
export function bindingOf(command: Command): Binding | undefined {
  return KEYMAP.find((b) => b.command === command);
}

/** Names for the command palette, with the command each runs. */
export const PALETTE: readonly { name: string; command: Command }[] = [
  { name: "time-clock", command: "screen1" },
  { name: "review", command: "screen2" },
  { name: "break-types", command: "screen3" },
  { name: "location", command: "location" },
  { name: "clock-in", command: "clockIn" },
  { name: "clock-out", command: "clockOut" },
  { name: "start-break", command: "startBreak" },
  { name: "end-break", command: "endBreak" },
  { name: "fix-forgotten", command: "fixForgot" },
  { name: "today", command: "today" },
  { name: "range", command: "range" },
  { name: "export", command: "export" },
  { name: "add-break-type", command: "addBreakType" },
  { name: "reload", command: "reload" },
  { name: "help", command: "help" },
  { name: "quit", command: "quit" },
];
