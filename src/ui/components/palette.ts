import type { Binding, Command } from "../keymap.js";

/** One entry of the palette: a command with its key and description, or a screen to go to. */
export interface PaletteEntry {
  /** What the manager types: the description's words, or the screen's title. */
  name: string;
  command: Command;
  label: string;
  description: string;
  /** Why it does nothing here (another screen's command, read-only); undefined when it applies. */
  disabled: string | undefined;
}

/** The palette's text, the highlighted entry and the first entry shown. */
export interface PaletteState {
  text: string;
  selected: number;
  offset: number;
}

/** What can happen in the palette. */
export type PaletteAction =
  | { type: "text"; text: string }
  | { type: "move"; delta: number; count: number; height: number };

/** The palette's entries for the bindings of the app, as they apply on the current screen. */
export function paletteEntries(
  bindings: readonly Binding[],
  here: { scopes: readonly string[]; readOnly: boolean; screenTitle: (scope: string) => string | undefined },
): PaletteEntry[] {
  const out: PaletteEntry[] = [];
  const seen = new Set<string>();
  for (const b of bindings) {
    if (b.noPalette || seen.has(b.command)) continue;
    seen.add(b.command);
    const elsewhere = here.scopes.includes(b.scope) ? undefined : here.screenTitle(b.scope);
    const disabled = elsewhere ? `on the ${elsewhere} screen` : b.write && here.readOnly ? "read-only mode" : undefined;
    out.push({ name: b.description, command: b.command, label: b.label, description: b.description, disabled });
  }
  // What applies here first; the rest keep their table order.
  return [...out.filter((e) => !e.disabled), ...out.filter((e) => e.disabled)];
}

/** Entries matching the text: every word must appear; matches at a word's start first. */
export function paletteMatches(entries: readonly PaletteEntry[], text: string): PaletteEntry[] {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  const hay = (e: PaletteEntry) => `${e.name} ${e.label}`.toLowerCase();
  const hits = entries.filter((e) => words.every((w) => hay(e).includes(w)));
  const starts = (e: PaletteEntry) => words.every((w) => new RegExp(`(^|\\W)${escapeRe(w)}`).test(hay(e)));
  return [...hits.filter(starts), ...hits.filter((e) => !starts(e))];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The palette reducer: typing filters from the top, arrows move with the window following. */
export function paletteReducer(state: PaletteState, action: PaletteAction): PaletteState {
  switch (action.type) {
    case "text":
      return action.text === state.text ? state : { text: action.text, selected: 0, offset: 0 };
    case "move": {
      if (action.count === 0) return state;
      const selected = (state.selected + action.delta + action.count) % action.count;
      const h = Math.max(1, action.height);
      let offset = Math.min(state.offset, selected);
      if (selected >= offset + h) offset = selected - h + 1;
      return { ...state, selected, offset };
    }
  }
}
