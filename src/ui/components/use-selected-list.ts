import { useEffect, useState } from "react";
import { fitList, type ListState, listActionOf, listReducer } from "./windowed-list.js";

/**
 * A windowed list whose selection lives in the store, by id: the cursor is wherever the selected
 * row is now, so it follows its row when the rows reorder or a refresh moves it. Only the window
 * (which row is at the top) is the view's own. Returns the list's state and a handler for the
 * list commands (false for others), which selects the row the command moves to.
 */
export function useSelectedList(
  ids: readonly string[],
  selectedId: string | undefined,
  select: (id: string) => void,
  height: number,
): [ListState, (command: string) => boolean] {
  const rows = Math.max(1, height - 1);
  const [offset, setOffset] = useState(0);
  const at = selectedId === undefined ? -1 : ids.indexOf(selectedId);
  const state = fitList({ cursor: Math.max(0, at), offset }, ids.length, rows);
  // The window follows the cursor when the rows change under it.
  useEffect(() => {
    if (state.offset !== offset) setOffset(state.offset);
  }, [state.offset, offset]);
  const onCommand = (command: string): boolean => {
    const action = listActionOf(command, ids.length, rows);
    if (!action) return false;
    const next = listReducer(state, action);
    setOffset(next.offset);
    const id = ids[next.cursor];
    if (id !== undefined && id !== selectedId) select(id);
    return true;
  };
  return [state, onCommand];
}
