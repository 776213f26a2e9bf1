// The command table: every key of a screen is one entry — its keys, its words, whether it writes,
// how much its hint matters, what it does and why it cannot now. The keyboard, the help, the hint
// bar and the palette all read the same table; a screen component only draws.
import type { Key } from "ink";
import { type AppState, type LoadedState, selectedIndex } from "../state/index.js";

/** One key of a command: a typed character (optionally with ctrl), or a named key (optionally with shift). */
export type KeySpec = { input: string; ctrl?: boolean } | { key: NamedKey; shift?: boolean };

/** The keys Ink names. */
export type NamedKey =
  | "upArrow"
  | "downArrow"
  | "leftArrow"
  | "rightArrow"
  | "pageUp"
  | "pageDown"
  | "home"
  | "end"
  | "return"
  | "escape"
  | "tab";

/** A typed character. */
export const ch = (input: string): KeySpec => ({ input });
/** A named key. */
export const named = (key: NamedKey, shift = false): KeySpec => (shift ? { key, shift } : { key });
/** A character with ctrl. */
export const ctrl = (input: string): KeySpec => ({ input, ctrl: true });

/** Whether a key press is this key. */
export function keyMatches(spec: KeySpec, input: string, key: Key): boolean {
  if ("key" in spec) return key[spec.key] && (spec.shift === undefined || key.shift === spec.shift);
  if (spec.ctrl) return key.ctrl && input === spec.input;
  return !key.ctrl && !key.meta && input === spec.input;
}

/** Whether two key specs can match the same key press (a screen's key must not shadow the shell's). */
export function sameKey(a: KeySpec, b: KeySpec): boolean {
  if ("input" in a && "input" in b) return a.input === b.input && Boolean(a.ctrl) === Boolean(b.ctrl);
  if ("key" in a && "key" in b)
    return a.key === b.key && (a.shift === undefined || b.shift === undefined || a.shift === b.shift);
  return false;
}

/** What a command gets besides the state: what only the terminal knows. */
export interface CommandDeps {
  /** Rows a page key moves in a list (about a screenful). */
  page: number;
  /** The screen's room, for commands whose effect depends on the layout (a pane shown or not). */
  width: number;
  height: number;
}

/**
 * One command of a screen. `S` is the state it reads: a screen loaded on first use reads its slices
 * loaded ({@link defineLoadedCommands}).
 */
export interface Command<S extends AppState = AppState> {
  keys: readonly KeySpec[];
  /** The keys as the manager reads them: `j/↓`, `enter`. */
  label: string;
  /** What it does, in the manager's words; the palette finds it by these words. */
  description: string;
  /** Changes data at the service: unavailable in read-only mode. */
  write?: boolean;
  /** Shown in the hint bar while available; a lower number stays longest on a narrow terminal. */
  hint?: number;
  /** The hint bar's words, when shorter than the description (`break` for "start break"). */
  short?: string;
  /** Left out of the palette (moving in a list means nothing without a key press). */
  palette?: false;
  /** Does it. Reads the state as it is at the key press; calls the store's actions. */
  run(s: S, deps: CommandDeps): unknown;
  /** Why it cannot be done now, in the manager's words (a sentence); nothing when it can. */
  unavailable?(s: S): string | undefined;
}

/** A command of a screen loaded on first use: it reads the screen's slices loaded. */
export type LoadedCommand = Command<LoadedState>;

/** A screen's commands by name: the names are a union, so a misspelt one does not compile. */
export type CommandTable<C extends string, S extends AppState = AppState> = { readonly [K in C]: Command<S> };

/** Declares a command table, keeping its names as a union type. */
export function defineCommands<const C extends string>(table: CommandTable<C>): CommandTable<C> {
  return table;
}

/**
 * Declares the command table of a screen loaded on first use: its commands read its slices loaded.
 * The shell runs them only once the screen is in, after the slices its registry entry names.
 */
export function defineLoadedCommands<const C extends string>(
  table: CommandTable<C, LoadedState>,
): CommandTable<C, LoadedState> {
  return table;
}

/** The reason a command cannot run now: read-only mode for writes, else its own; nothing when it can. */
export function unavailableReason(command: Command, s: AppState): string | undefined {
  if (command.write && s.readOnly) return "Read-only mode: changes are disabled.";
  return command.unavailable?.(s);
}

/**
 * Runs a command, or says why it cannot: the reason goes to the status bar, never a silent
 * nothing. Returns whether it ran.
 */
export function runCommand(command: Command, s: AppState, deps: CommandDeps): boolean {
  const reason = unavailableReason(command, s);
  if (reason) {
    s.setStatus({ kind: "rule", text: reason });
    return false;
  }
  // Why an earlier key did nothing ("Look a card up first") is answered once a command runs: it
  // goes, rather than stay under what that command now shows.
  if (s.status.kind === "rule") s.setStatus({ kind: "idle" });
  void Promise.resolve(command.run(s, deps)).catch((err: unknown) =>
    s.setStatus({ kind: "error", text: err instanceof Error ? err.message : String(err) }),
  );
  return true;
}

/**
 * The command a key press means in a table. Several commands may share a key when they apply in
 * different views (enter opens a member here, edits a shift there): the first available one wins;
 * when none is, the first is returned, so its reason is what the manager reads.
 */
export function commandFor<C extends string>(
  table: CommandTable<C>,
  input: string,
  key: Key,
  s: AppState,
): [C, Command] | undefined {
  let first: [C, Command] | undefined;
  for (const name of Object.keys(table) as C[]) {
    const command = table[name];
    if (!command.keys.some((k) => keyMatches(k, input, key))) continue;
    if (!unavailableReason(command, s)) return [name, command];
    first ??= [name, command];
  }
  return first;
}

/** The list the movement keys act on now: its name and its rows' ids, in the order shown. */
export interface ListRows {
  list: string;
  ids: readonly string[];
}

/** The movement keys of a list. */
export type ListCommand = "up" | "down" | "pageUp" | "pageDown" | "top" | "bottom";

/** The keys of each movement in a list, the same in every list. */
export const LIST_KEYS: Readonly<Record<ListCommand, readonly KeySpec[]>> = {
  up: [ch("k"), named("upArrow")],
  down: [ch("j"), named("downArrow")],
  pageUp: [named("pageUp"), ctrl("u")],
  pageDown: [named("pageDown"), ctrl("d")],
  top: [ch("g"), named("home")],
  bottom: [ch("G"), named("end")],
};

/** The movement a key press means in a list, if any. */
export function listMoveOf(input: string, key: Key): ListCommand | undefined {
  for (const [move, keys] of Object.entries(LIST_KEYS) as [ListCommand, readonly KeySpec[]][]) {
    if (keys.some((k) => keyMatches(k, input, key))) return move;
  }
  return undefined;
}

/**
 * The movement keys of a screen's list, for its command table. `rows` says which list is shown
 * (a screen with several views has several) and its rows; the selection is kept by id in the
 * store, so it follows its row when the rows reorder.
 */
export function listCommands<S extends AppState = AppState>(
  rows: (s: S) => ListRows | undefined,
): CommandTable<ListCommand, S> {
  const move =
    (to: (at: number, count: number, page: number) => number) =>
    (s: S, deps: CommandDeps): void => {
      const r = rows(s);
      if (!r) return;
      const at = selectedIndex(s.selection[r.list], r.ids);
      s.selectRow(r.list, r.ids, to(at, r.ids.length, Math.max(1, deps.page)));
    };
  // Moving in an empty list does nothing, visibly so (the list says it is empty): no message.
  const unavailable = (s: S) => (rows(s) ? undefined : "There is no list here.");
  const entry = (which: ListCommand, label: string, description: string, to: Parameters<typeof move>[0]) => ({
    keys: LIST_KEYS[which],
    label,
    description,
    palette: false as const,
    run: move(to),
    unavailable,
  });
  return {
    up: entry("up", "k/↑", "up", (at) => at - 1),
    down: entry("down", "j/↓", "down", (at) => at + 1),
    pageUp: entry("pageUp", "pgup", "page up", (at, _n, page) => at - page),
    pageDown: entry("pageDown", "pgdn", "page down", (at, _n, page) => at + page),
    top: entry("top", "g", "first row", () => 0),
    bottom: entry("bottom", "G", "last row", (_at, n) => n - 1),
  };
}

/** The id of the row the list's cursor is on, if the list has rows. */
export function selectedRow(s: AppState, rows: ListRows | undefined): string | undefined {
  return rows ? rows.ids[selectedIndex(s.selection[rows.list], rows.ids)] : undefined;
}

/**
 * `enter` on a list: opens what the row under the cursor names. `target` reads it — nothing on a
 * view that opens nothing, or on an empty list — and `why` then says why nothing opens.
 */
export function openRowCommand<T, S extends AppState = AppState>(o: {
  description: string;
  short?: string;
  hint?: number;
  target(s: S): T | undefined;
  open(s: S, target: T): unknown;
  why(s: S): string;
}): Command<S> {
  return {
    keys: [named("return")],
    label: "enter",
    description: o.description,
    ...(o.short === undefined ? {} : { short: o.short }),
    ...(o.hint === undefined ? {} : { hint: o.hint }),
    run: (s) => {
      const target = o.target(s);
      if (target !== undefined) return o.open(s, target);
    },
    unavailable: (s) => (o.target(s) === undefined ? o.why(s) : undefined),
  };
}

/**
 * While a text field has the keyboard the letters are typed, but ↑/↓ and the page keys still move
 * the list under it (a search line over its results, the counting line over the counted lines).
 */
export function moveFromField<S extends AppState = AppState>(
  moves: CommandTable<ListCommand, S>,
): (s: S, input: string, key: Key, deps: CommandDeps) => boolean {
  return (s, _input, key, deps) => {
    const move = key.upArrow
      ? moves.up
      : key.downArrow
        ? moves.down
        : key.pageUp
          ? moves.pageUp
          : key.pageDown
            ? moves.pageDown
            : undefined;
    if (!move) return false;
    if (!unavailableReason(move, s)) void move.run(s, deps);
    return true;
  };
}
