import type { Key } from "ink";
import { useEffect, useLayoutEffect, useRef } from "react";
import { useAppStoreApi } from "../state/index.js";
import { useKeyboard } from "./keyboard.js";
import { bindingOf, type Command, commandFor, type Scope } from "./keymap.js";

/**
 * Takes the keyboard while `isActive` (only one part of the screen passes true at a time) and
 * turns key presses into named commands; writes are refused in read-only mode. Keys that are no
 * command go to `onOther` (text fields).
 */
export function useCommands(
  scopes: readonly Scope[],
  onCommand: (command: Command) => void,
  isActive: boolean,
  onOther?: (input: string, key: Key) => void,
): void {
  const store = useAppStoreApi();
  const kb = useKeyboard();
  const slot = kb.slot;
  const owner = useRef({}).current;
  if (isActive) {
    // Registered during render with this render's handlers, so they always see fresh state.
    slot.current = {
      owner,
      handle: (input, key) => {
        const command = commandFor(input, key, scopes);
        if (!command) {
          onOther?.(input, key);
          return;
        }
        if (bindingOf(command)?.write && store.getState().readOnly) {
          store
            .getState()
            .setStatus({ kind: "rule", text: `Read-only mode: ${bindingOf(command)?.description} is disabled.` });
          return;
        }
        onCommand(command);
      },
    };
  }
  // This part's commit shows the last key's result: the next queued key may go.
  useLayoutEffect(() => {
    if (isActive) kb.drain();
  });
  useEffect(() => {
    if (!isActive) return;
    return () => {
      if (slot.current?.owner === owner) slot.current = undefined;
    };
  }, [isActive, slot, owner]);
}

/** Handles the commands every screen shares; returns false for the rest. */
export function useGlobalCommands(): (command: Command) => boolean {
  const store = useAppStoreApi();
  return (command) => {
    const s = store.getState();
    switch (command) {
      case "quit":
        s.requestQuit();
        return true;
      case "forceQuit":
        s.quit();
        return true;
      case "help":
        s.openOverlay({ kind: "help" });
        return true;
      case "palette":
        s.openOverlay({ kind: "palette" });
        return true;
      case "location":
        if (s.locations.length > 1) s.openOverlay({ kind: "locations" });
        else s.setStatus({ kind: "info", text: "This merchant has only one location." });
        return true;
      case "nextScreen":
        s.cycleScreen(1);
        return true;
      case "prevScreen":
        s.cycleScreen(-1);
        return true;
      case "screen1":
        s.showScreen("timeclock");
        return true;
      case "screen2":
        s.showScreen("review");
        return true;
      case "screen3":
        s.showScreen("break-types");
        return true;
      default:
        return false;
    }
  };
}
