// Telling a paste from typing. Byte for byte, `tmux send-keys 'Till' Tab 'url'`, a password
// manager's auto-type and a fast typist over SSH arrive just as a paste does: one read of the
// terminal, "Till\turl" (measured here: tmux writes a whole send-keys as one read). Only the
// terminal knows which was pasted, and it says so in bracketed paste mode (xterm's mode 2004, which
// the app turns on): a paste comes wrapped in ESC [200~ … ESC [201~. So a tab or a line break
// inside those brackets is part of the pasted text (a space, in a one-line field), and one outside
// them is a key: tab moves on, Enter submits.

import { isControl, nextKey } from "./terminal-keys.js";

/** Turns bracketed paste on (written when the app takes the terminal). */
export const BRACKETED_PASTE_ON = "\u001b[?2004h";
/** Turns it off again (written when the app gives the terminal back). */
export const BRACKETED_PASTE_OFF = "\u001b[?2004l";
const START = "\u001b[200~";
const END = "\u001b[201~";

/** Whether a paste has begun and not ended, and what of it has arrived. */
export interface PasteState {
  open: boolean;
  text: string;
}

/** Nothing being pasted. */
export const noPaste: PasteState = { open: false, text: "" };

/** A piece of one read: keys as typed, or a whole paste (its brackets taken off). */
export type ReadPart = { kind: "typed"; text: string } | { kind: "paste"; text: string };

/**
 * Splits one read into typed keys and pastes. A paste may span reads (a long one arrives in
 * pieces): it is held in the state and comes out whole once its end arrives.
 */
export function splitPastes(state: PasteState, read: string): { state: PasteState; parts: ReadPart[] } {
  const parts: ReadPart[] = [];
  let open = state.open;
  let pasted = state.text;
  let rest = read;
  while (rest !== "") {
    if (open) {
      const end = rest.indexOf(END);
      if (end < 0) {
        pasted += rest;
        break;
      }
      parts.push({ kind: "paste", text: pasted + rest.slice(0, end) });
      open = false;
      pasted = "";
      rest = rest.slice(end + END.length);
    } else {
      const start = rest.indexOf(START);
      const typed = start < 0 ? rest : rest.slice(0, start);
      if (typed !== "") parts.push({ kind: "typed", text: typed });
      if (start < 0) break;
      open = true;
      rest = rest.slice(start + START.length);
    }
  }
  return { state: { open, text: pasted }, parts };
}

/**
 * Pasted text as a one-line field takes it: line breaks at the end dropped (a cell copied from a
 * spreadsheet ends in one), the others and tabs made spaces, escape sequences (a colour, a
 * clear-screen) and other control characters dropped. A paste never presses Enter or tab.
 */
export function pastedLine(text: string): string {
  let rest = text.replace(/[\r\n]+$/u, "").replace(/\r\n|[\r\n\t]/gu, " ");
  let line = "";
  while (rest !== "") {
    const key = nextKey(rest, true);
    rest = rest.slice(key.length);
    if (!isControl(key)) line += key;
  }
  return line;
}
