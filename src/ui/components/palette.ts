import { type Command, PALETTE } from "../keymap.js";
import { editText } from "./form.js";

/** The palette's text and the highlighted match. */
export interface PaletteState {
  text: string;
  selected: number;
}

/** What can happen in the palette. */
export type PaletteAction =
  | { type: "text"; text: string }
  | { type: "key"; input: string; key: { backspace: boolean; delete: boolean; ctrl: boolean; meta: boolean } }
  | { type: "move"; delta: number }
  | { type: "complete" };

/** Palette entries matching the text: prefix matches first, then substring matches. */
export function paletteMatches(text: string): { name: string; command: Command }[] {
  const t = text.trim().toLowerCase();
  if (!t) return [...PALETTE];
  const prefix = PALETTE.filter((p) => p.name.startsWith(t));
  const inner = PALETTE.filter((p) => !p.name.startsWith(t) && p.name.includes(t));
  return [...prefix, ...inner];
}

/** The palette reducer: typing filters, arrows move, tab completes to the highlighted name. */
export function paletteReducer(state: PaletteState, action: PaletteAction): PaletteState {
  switch (action.type) {
    case "text":
      return { text: action.text, selected: 0 };
    case "key": {
      const text = editText(state.text, action.input, action.key);
      return text === state.text ? state : { text, selected: 0 };
    }
    case "move": {
      const n = paletteMatches(state.text).length;
      return n === 0 ? state : { ...state, selected: (state.selected + action.delta + n) % n };
    }
    case "complete": {
      const match = paletteMatches(state.text)[state.selected];
      return match ? { text: match.name, selected: 0 } : state;
    }
  }
}
