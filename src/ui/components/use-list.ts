import type { Key } from "ink";
import { useLayoutEffect, useReducer, useRef } from "react";
import { selectedIndex, useAppStore } from "../../state/index.js";
import { listMoveOf } from "../commands.js";
import { fitList, initialList, type ListState, listActionOf, listReducer } from "./windowed-list.js";

/**
 * The window of a screen's list: the cursor is the store's selection for `list` (by id, moved by
 * the screen's command table), and the first row shown follows it, kept between renders.
 */
export function useListWindow(list: string, ids: readonly string[], visible: number): ListState {
  const cursor = useAppStore((s) => selectedIndex(s.selection[list], ids));
  const offset = useRef(0);
  const state = fitList({ cursor, offset: offset.current }, ids.length, Math.max(1, visible));
  useLayoutEffect(() => {
    offset.current = state.offset;
  });
  return state;
}

/**
 * A list of a widget's own (a picker, the location picker): its state, and a key handler for the
 * movement keys that returns whether it took the key.
 */
export function useWidgetList(count: number, visible: number): [ListState, (input: string, key: Key) => boolean] {
  const [raw, dispatch] = useReducer(listReducer, initialList);
  const height = Math.max(1, visible);
  const state = fitList(raw, count, height);
  const onKey = (input: string, key: Key): boolean => {
    const move = listMoveOf(input, key);
    const action = move ? listActionOf(move, count, height) : undefined;
    if (action) dispatch(action);
    return action !== undefined;
  };
  return [state, onKey];
}
