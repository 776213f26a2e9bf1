import type { Key } from "ink";
import { useLayoutEffect, useReducer, useRef } from "react";
import { selectedIndex, useAppStore } from "../../state/index.js";
import { listMoveOf } from "../commands.js";
import { fitList, initialList, type ListState, listReducer } from "./windowed-list.js";

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
    if (!move) return false;
    const size = { count, height };
    if (move === "up" || move === "down") dispatch({ type: "move", delta: move === "up" ? -1 : 1, ...size });
    else if (move === "pageUp" || move === "pageDown")
      dispatch({ type: "page", direction: move === "pageUp" ? -1 : 1, ...size });
    else dispatch({ type: move, ...size });
    return true;
  };
  return [state, onKey];
}
