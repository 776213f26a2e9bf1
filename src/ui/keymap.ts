import type { Key } from "ink";
import type { ScreenKind } from "../state/index.js";

/** Where a binding applies: everywhere, in any list, or on one screen. */
export type Scope = "global" | "list" | ScreenKind;

/** One key of a binding: a typed character, or a named key, optionally with ctrl or shift. */
export type KeySpec = { input: string; ctrl?: boolean } | { key: NamedKey; shift?: boolean };

type NamedKey =
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

/** A command name. Each screen declares its own in its `keys.ts`; the shell's are below. */
export type Command = string;

/** A named command with its keys, as shown in help, hints and the palette. */
export interface Binding {
  command: Command;
  scope: Scope;
  keys: readonly KeySpec[];
  /** The keys as the user reads them (`j/↓`). */
  label: string;
  description: string;
  /** Changes data: disabled in read-only mode. */
  write?: boolean;
  /** Shown in the status bar's hints (the rest only in help); lower numbers stay longest on narrow terminals. */
  hint?: number;
  /** Not offered in the palette (movement keys, which mean nothing without a key press). */
  noPalette?: boolean;
}

/** A binding as a screen declares it: the scope is added by {@link defineBindings}. */
export type BindingSpec<C extends string> = Omit<Binding, "scope" | "command"> & { command: C };

/** Declares the bindings of one scope (a screen's `keys.ts` calls it once). */
export function defineBindings<const C extends string>(
  scope: Scope,
  bindings: readonly BindingSpec<C>[],
): readonly (Binding & { command: C })[] {
  return bindings.map((b) => ({ ...b, scope }));
}

/** A typed character. */
export const ch = (input: string): KeySpec => ({ input });
/** A named key. */
export const named = (key: NamedKey, shift = false): KeySpec => (shift ? { key, shift } : { key });

/** Keys that work on every screen. The screens' number keys come from the screen registry. */
export const GLOBAL_KEYS = defineBindings("global", [
  {
    command: "forceQuit",
    keys: [{ input: "c", ctrl: true }],
    label: "ctrl+c",
    description: "quit now",
    noPalette: true,
  },
  { command: "quit", keys: [ch("q")], label: "q", description: "quit", hint: 9 },
  { command: "help", keys: [ch("?")], label: "?", description: "help: every key", hint: 0 },
  { command: "palette", keys: [ch(":")], label: ":", description: "command palette", hint: 1, noPalette: true },
  { command: "location", keys: [ch("L")], label: "L", description: "pick location" },
  { command: "nextScreen", keys: [named("tab")], label: "tab", description: "next screen" },
  { command: "prevScreen", keys: [named("tab", true)], label: "shift+tab", description: "previous screen" },
  { command: "reload", keys: [ch("r")], label: "r", description: "reload from the service" },
]);

/** Movement in any list. */
export const LIST_KEYS = defineBindings("list", [
  { command: "up", keys: [ch("k"), named("upArrow")], label: "k/↑", description: "up", noPalette: true },
  { command: "down", keys: [ch("j"), named("downArrow")], label: "j/↓", description: "down", noPalette: true },
  {
    command: "pageUp",
    keys: [named("pageUp"), { input: "u", ctrl: true }],
    label: "pgup",
    description: "page up",
    noPalette: true,
  },
  {
    command: "pageDown",
    keys: [named("pageDown"), { input: "d", ctrl: true }],
    label: "pgdn",
    description: "page down",
    noPalette: true,
  },
  { command: "top", keys: [ch("g"), named("home")], label: "g", description: "first row" },
  { command: "bottom", keys: [ch("G"), named("end")], label: "G", description: "last row" },
  { command: "back", keys: [named("escape")], label: "esc", description: "back / clear", noPalette: true },
]);

function matches(spec: KeySpec, input: string, key: Key): boolean {
  if ("key" in spec) return key[spec.key] && (spec.shift === undefined || key.shift === spec.shift);
  if (spec.ctrl) return key.ctrl && input === spec.input;
  return !key.ctrl && !key.meta && input === spec.input;
}

/** The binding a key press means in the given scopes (earlier scopes win), if any. */
export function bindingFor(
  bindings: readonly Binding[],
  input: string,
  key: Key,
  scopes: readonly Scope[],
): Binding | undefined {
  for (const scope of scopes) {
    for (const b of bindings) {
      if (b.scope === scope && b.keys.some((k) => matches(k, input, key))) return b;
    }
  }
  return undefined;
}

/** The bindings of some scopes, in table order. */
export function bindingsIn(bindings: readonly Binding[], scopes: readonly Scope[]): Binding[] {
  return bindings.filter((b) => scopes.includes(b.scope));
}
