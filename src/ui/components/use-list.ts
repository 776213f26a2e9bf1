import { useReducer } from "react";
import type { Command } from "../keymap.js";
import { fitList, initialList, type ListState, listReducer } from "./windowed-list.js";

/** A windowed list's state plus a handler for the list commands; returns false for others. */
export function useList(
  count: number,
  height: number,
): [ListState, (command: Command) => boolean, (index: number) => void] {
  const [raw, dispatch] = useReducer(listReducer, initialList);
  const rows = Math.max(1, height - 1);
  const state = fitList(raw, count, rows);
  const size = { count, height: rows };
  const onCommand = (command: Command): boolean => {
    switch (command) {
      case "up":
        dispatch({ type: "move", delta: -1, ...size });
        return true;
      case "down":
        dispatch({ type: "move", delta: 1, ...size });
        return true;
      case "pageUp":
        dispatch({ type: "page", direction: -1, ...size });
        return true;
      case "pageDown":
        dispatch({ type: "page", direction: 1, ...size });
        return true;
      case "top":
        dispatch({ type: "top", ...size });
        return true;
      case "bottom":
        dispatch({ type: "bottom", ...size });
        return true;
      default:
        return false;
    }
  };
  return [state, onCommand, (index) => dispatch({ type: "select", index, ...size })];
}
