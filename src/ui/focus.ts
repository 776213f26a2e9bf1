// Where the keyboard is. A screen says, from the state, which of its places has the keys now; the
// shell enforces the same rules on every screen (src/ui/keyboard.tsx, tested once for every
// registered screen in test/ui-focus.test.tsx):
//
// - a text field has the keys only while it is focused, and focusing it is a visible act (`/`,
//   `i`, `n`, `enter` on a form, or arriving on a screen whose job is typing, which says so);
// - `esc` in a field leaves it and gives the keys back to the screen (the text stays: a second
//   `esc` is the screen's, and clears it); it never toggles back into the field;
// - `tab`, the number keys, `?`, `:` and `q` reach the shell whenever no field is focused; in a
//   field, `tab` and ctrl keys still do;
// - a list, empty or not, takes only its own keys.
//
// A form of several fields is different on one point: `tab` moves to its next field, as in every
// form a manager has filled in, rather than leaving for another screen with the form half done
// (where the form would then wait, out of sight). `esc` cancels the form; then `tab` is the shell's.
//
// Bursts. A burst is printable keys and Enter arriving faster than a person types
// (src/ui/scan-detector.ts): a barcode scanner, but also a paste from a terminal that does not
// bracket pastes, `tmux send-keys "2026-11-20" Enter`, or a password manager's auto-type. Where it
// goes is decided by where the keys are (`burstRoute` in src/ui/shell.tsx), and nothing typed is
// ever lost:
//
// - no field or form has the keys (a list, a picker, an overlay without a text field): it is a
//   scan — the screen's `onScan`, or refused in words ("this screen does not take scans") with
//   nothing run (a confirmation refuses it too: it is never an answer);
// - a field or form has the keys and the screen has `onScan`: it is a scan, whatever has focus
//   (the counting line counts it, the gift card look-up line looks the card up) — unless the
//   place says `scans: "text"`: a place where a code is never what a scan would mean (an export
//   path, an amount, a date, a name, a quantity, an item's SKU typed to resolve an unknown code);
// - a field or form has the keys and the screen has no `onScan`: it is typed text and Enter,
//   delivered as such (the date goes in the field, Enter submits).
//
// Where a burst can only be text, the keys are handed over at once (nothing waits the scan gap).
// A bracketed paste is never a scan: it goes whole into the field that has the keys, or is
// dropped, with a message, when none has (src/ui/bracketed-paste.ts).
import type { Key } from "ink";
import type { AppState, ScreenKind } from "../state/index.js";
import type { CommandDeps } from "./commands.js";

/** A place of a screen that can have the keyboard. */
export type FocusPlace =
  /** The screen's list or view: its command table, and the shell's keys. */
  | { kind: "list"; name: string }
  /** A one-line text field: typed keys go into it. */
  | {
      kind: "field";
      name: string;
      /** Gives the keys back to the screen (esc); what was typed stays. */
      leave(s: AppState): void;
      /** Keys the field's screen takes while typing (↑/↓ move the list under a search line). */
      onKey?(s: AppState, input: string, key: Key, deps: CommandDeps): boolean;
      /** What the hint bar says while the field has the keys (`enter counts it`). */
      hint?: string;
      /** A burst here is typed text, not a scan, even on a screen that takes scans (see above). */
      scans?: "text";
    }
  /** A form of several fields: it has every key but ctrl+c (tab moves between its fields). */
  | {
      kind: "form";
      name: string;
      /** A burst here is typed text, not a scan, even on a screen that takes scans (see above). */
      scans?: "text";
    }
  /** A chooser or view with keys of its own (j/k, space, enter, esc); the shell's keys still work. */
  | { kind: "picker"; name: string };

/** A list place. */
export const listPlace = (name: string): FocusPlace => ({ kind: "list", name });
/** A form place; `scans: "text"` where a burst is typed text (see above). */
export const formPlace = (name: string, more: { scans?: "text" } = {}): FocusPlace => ({
  kind: "form",
  name,
  ...more,
});
/** A picker place. */
export const pickerPlace = (name: string): FocusPlace => ({ kind: "picker", name });

/**
 * The screen's text field `name` while it has the keys (the store's `field[screen]`), else
 * nothing: esc leaves it, giving the keys back to the screen's list.
 */
export function focusedField(
  s: AppState,
  screen: ScreenKind,
  name: string,
  more: Parameters<typeof fieldPlace>[2] = {},
): FocusPlace | undefined {
  return s.field[screen] === name ? fieldPlace(name, (st) => st.focusField(screen, undefined), more) : undefined;
}

/** Where the keyboard is as the components read it: the place's kind and name (`overlay` while one is open). */
export interface FocusName {
  kind: FocusPlace["kind"] | "overlay";
  name: string;
}

/**
 * A one-line text field place: `leave` gives the keys back (esc); `hint` is what the hint bar
 * says; `scans: "text"` where a burst is typed text (see above).
 */
export function fieldPlace<S extends AppState = AppState>(
  name: string,
  leave: (s: S) => void,
  more: Pick<Extract<FocusPlace, { kind: "field" }>, "hint" | "onKey" | "scans"> = {},
): FocusPlace {
  return { kind: "field", name, leave, ...more };
}
