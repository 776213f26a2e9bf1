import { useEffect, useReducer, useRef } from "react";
import type { Command } from "../keymap.js";
import { fitList, initialList, type ListState, listActionOf, listReducer } from "./windowed-list.js";

/**
 * A windowed list's state plus a handler for the list commands (false for others) and a way to
 * select a row. With `keys`, the selection follows its row when the rows reorder (a member who
 * clocks in moves up; the cursor moves with them, so the next key acts on the same person).
 */
export function useList(
  count: number,
  height: number,
  keys?: readonly string[],
): [ListState, (command: Command) => boolean, (index: number) => void] {
  const [raw, dispatch] = useReducer(listReducer, initialList);
  const rows = Math.max(1, height - 1);
  const last = useRef<{ keys: readonly string[] | undefined; key: string | undefined }>({ keys, key: undefined });
  let state = fitList(raw, count, rows);
  // Only a new set of rows moves the cursor to its row; j/k on the same rows move it as asked.
  const moved =
    keys && keys !== last.current.keys && last.current.key !== undefined ? keys.indexOf(last.current.key) : -1;
  if (moved >= 0 && moved !== state.cursor) state = fitList({ ...state, cursor: moved }, count, rows);
  const size = { count, height: rows };
  useEffect(() => {
    if (state.cursor !== raw.cursor || state.offset !== raw.offset)
      dispatch({ type: "select", index: state.cursor, ...size });
    last.current = { keys, key: keys?.[state.cursor] };
  });
  const onCommand = (command: Command): boolean => {
    const action = listActionOf(command, count, rows);
    if (action) dispatch(action);
    return action !== undefined;
  };
  return [state, onCommand, (index) => dispatch({ type: "select", index, ...size })];
}
