import { type Key, useInput, useStdin } from "ink";
import { useRef } from "react";
import { useAppStoreApi } from "../state/index.js";
import { bindingOf, type Command, commandFor, type Scope } from "./keymap.js";

/**
 * Turns key presses into named commands for one part of the screen. Only the part that owns the
 * keyboard passes `isActive`; ctrl+c always quits, and writes are refused in read-only mode.
 * Keys that are no command go to `onOther` (text fields).
 */
export function useCommands(
  scopes: readonly Scope[],
  onCommand: (command: Command) => void,
  isActive: boolean,
  onOther?: (input: string, key: Key) => void,
): void {
  const store = useAppStoreApi();
  const { isRawModeSupported } = useStdin();
  // The latest handlers, so the input subscription does not churn on every render.
  const handlers = useRef({ onCommand, onOther, scopes });
  handlers.current = { onCommand, onOther, scopes };
  useInput(
    (input, key) => {
      if (key.ctrl && input === "c") {
        store.getState().quit();
        return;
      }
      const h = handlers.current;
      const command = commandFor(input, key, h.scopes);
      if (!command) {
        h.onOther?.(input, key);
        return;
      }
      if (bindingOf(command)?.write && store.getState().readOnly) {
        store
          .getState()
          .setStatus({ kind: "rule", text: `Read-only mode: ${bindingOf(command)?.description} is disabled.` });
        return;
      }
      h.onCommand(command);
    },
    // Without a TTY there is no raw mode; the app still renders and can be quit by signal.
    { isActive: isActive && isRawModeSupported },
  );
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
