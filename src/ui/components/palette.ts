import type { AppState, ScreenKind } from "../../state/index.js";
import { type Command, type CommandTable, unavailableReason } from "../commands.js";
import { fitCell, wrapLines } from "./columns.js";

/** One entry of the palette: a command with its key and description, or a screen to go to. */
export interface PaletteEntry {
  /** Unique among the entries (`screen:clockIn`, `shell:quit`, `go:review`). */
  id: string;
  /** What the manager types: the description's words, or the screen's title. */
  name: string;
  label: string;
  description: string;
  /** Why it cannot run now, in words; undefined when it can. */
  disabled: string | undefined;
  command: Command;
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

function entriesOf(prefix: string, table: CommandTable<string>, s: AppState): PaletteEntry[] {
  return Object.entries(table)
    .filter(([, c]) => c.palette !== false)
    .map(([name, c]) => ({
      id: `${prefix}:${name}`,
      name: c.description,
      label: c.label,
      description: c.description,
      disabled: unavailableReason(c, s),
      command: c,
    }));
}

/**
 * The palette's entries: every command of the current screen (those that cannot run now greyed
 * out with the reason), the shell's commands, and the other screens by name. What can run comes
 * first; the rest keep their table order.
 */
export function paletteEntries(
  s: AppState,
  screen: { kind: string; commands: CommandTable<string> } | undefined,
  shell: CommandTable<string>,
  screens: readonly { kind: ScreenKind; title: string; key?: string | undefined }[],
): PaletteEntry[] {
  const out = [...(screen ? entriesOf("screen", screen.commands, s) : []), ...entriesOf("shell", shell, s)];
  for (const d of screens) {
    if (d.kind === screen?.kind) continue;
    out.push({
      id: `go:${d.kind}`,
      name: d.title,
      label: d.key ?? "tab",
      description: `${d.title} screen`,
      disabled: undefined,
      command: { keys: [], label: d.key ?? "", description: `${d.title} screen`, run: (st) => st.showScreen(d.kind) },
    });
  }
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

/** The cells before an entry's words: the marker, the key in 9 cells, and a space either side. */
const KEY_CELLS = 12;

/** The most lines the highlighted entry takes: its words and the reason it cannot run. */
const MOST_LINES = 4;

/** An entry's words: its description, and why it cannot run now. */
const wordsOf = (e: PaletteEntry) => `${e.description}${e.disabled ? ` — ${e.disabled}` : ""}`;

/**
 * One entry as the palette draws it, `width` cells wide: any entry on one line (its words cut to
 * fit), the highlighted one in full, its words wrapped under themselves, so that at 60 columns a
 * long description or the reason a command cannot run is read whole by moving onto it.
 */
export function paletteEntryLines(e: PaletteEntry, selected: boolean, width: number): string[] {
  const head = `${selected ? "›" : " "} ${fitCell(e.label, 9)} `;
  if (!selected) return [fitCell(head + wordsOf(e), width)];
  const lines = wrapLines(wordsOf(e), Math.max(1, width - KEY_CELLS), MOST_LINES);
  return lines.map((l, i) => fitCell(`${i === 0 ? head : " ".repeat(KEY_CELLS)}${l}`, width));
}

/**
 * The entries shown in `rows` lines from the reducer's `offset`, moved as little as needed for the
 * highlighted entry to be seen with all its lines: as many fewer entries as it takes extra lines.
 */
export function paletteWindow(
  state: Pick<PaletteState, "selected" | "offset">,
  count: number,
  rows: number,
  selectedLines: number,
): { from: number; to: number } {
  const shown = Math.max(1, rows - Math.max(0, selectedLines - 1));
  const from = Math.max(Math.min(state.offset, state.selected), state.selected - shown + 1, 0);
  return { from, to: Math.min(count, from + shown) };
}
