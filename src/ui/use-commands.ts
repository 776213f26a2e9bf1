import type { Key } from "ink";
import { useAppStoreApi } from "../state/index.js";
import { useKeys } from "./keyboard.js";
import { bindingFor, type Command, type Scope } from "./keymap.js";
import { useShell } from "./shell.js";

/**
 * Takes the keyboard while `isActive` and turns key presses into named commands of the given
 * scopes; a write command is refused in read-only mode before anything opens. Keys that are no
 * command go to `onOther`.
 */
export function useCommands(
  scopes: readonly Scope[],
  onCommand: (command: Command) => void,
  isActive: boolean,
  onOther?: (input: string, key: Key) => void,
): void {
  const store = useAppStoreApi();
  const { bindings } = useShell();
  useKeys(
    (input, key) => {
      const binding = bindingFor(bindings, input, key, scopes);
      if (!binding) {
        onOther?.(input, key);
        return;
      }
      if (binding.write && store.getState().readOnly) {
        store.getState().setStatus({ kind: "rule", text: `Read-only mode: ${binding.description} is disabled.` });
        return;
      }
      onCommand(binding.command);
    },
    { isActive },
  );
}
