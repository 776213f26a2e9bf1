import type { SliceCreator } from "./store.js";
import type { ScreenKind } from "./types.js";

/** Which row of a list is selected: its id, and its place, to fall back on when the row goes. */
export interface Selection {
  id: string | undefined;
  index: number;
}

/**
 * What the keyboard is on, screen by screen: the selected row of each list (by id, so it follows
 * its row when a refresh reorders the rows) and the text field that has the keys, if any. The
 * screens' command tables read and move them; the components only draw them.
 */
export interface ViewSlice {
  /** List name (e.g. `timeclock`, `review.shifts`) → its selection. */
  selection: Readonly<Record<string, Selection>>;
  /** The text field that has the keyboard on a screen; none means the screen's list has it. */
  field: Readonly<Partial<Record<ScreenKind, string>>>;
  /** What is typed in a text field that outlives its focus (`stocktake.count`: the counting line). */
  drafts: Readonly<Record<string, string>>;
  /** Switches of how a screen shows itself (`drawers.events`: the events pane rather than the reconciliation). */
  flags: Readonly<Record<string, boolean>>;
  /** Selects the row at `index` of a list whose rows have these ids (clamped to the rows). */
  selectRow(list: string, ids: readonly string[], index: number): void;
  /** Gives the keyboard to a screen's text field (a visible act: `/`, `i`, …), or back to its list. */
  focusField(screen: ScreenKind, name: string | undefined): void;
  setFlag(name: string, on: boolean): void;
  setDraft(name: string, text: string): void;
}

/** The place of the selected row among `ids`: by id while it is listed, else near where it was. */
export function selectedIndex(selection: Selection | undefined, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  if (!selection) return 0;
  const at = selection.id === undefined ? -1 : ids.indexOf(selection.id);
  return at >= 0 ? at : Math.min(Math.max(0, selection.index), ids.length - 1);
}

/** The id of the selected row of a list, if it has rows. */
export function selectedId(
  s: { selection: Readonly<Record<string, Selection>> },
  list: string,
  ids: readonly string[],
): string | undefined {
  return ids[selectedIndex(s.selection[list], ids)];
}

/** Builds the view slice. */
export const createViewSlice: SliceCreator<ViewSlice> = (set, _get, deps) => ({
  selection: {},
  field: {},
  flags: {},
  drafts: {},
  selectRow(list, ids, index) {
    const at = ids.length === 0 ? 0 : Math.min(Math.max(0, index), ids.length - 1);
    set((s) => ({ selection: { ...s.selection, [list]: { id: ids[at], index: at } } }));
    // A slice that follows its list's cursor (the customers pane reads the profile it rests on).
    deps.events.emit({ type: "row-selected", list, id: ids[at] });
  },
  focusField(screen, name) {
    set((s) => ({ field: { ...s.field, [screen]: name } }));
  },
  setFlag(name, on) {
    set((s) => ({ flags: { ...s.flags, [name]: on } }));
  },
  setDraft(name, text) {
    set((s) => ({ drafts: { ...s.drafts, [name]: text } }));
  },
});
