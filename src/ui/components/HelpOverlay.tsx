import { Box } from "ink";
import { useAppStore, useAppStoreApi } from "../../state/index.js";
import { bindingsFor, type Scope } from "../keymap.js";
import { useTheme } from "../theme.js";
import { useCommands } from "../use-commands.js";
import { Txt } from "./Txt.js";

/** Every key of the current screen, read from the keymap; esc, ? or q closes it. */
export function HelpOverlay({ scopes, height }: { scopes: readonly Scope[]; height: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const readOnly = useAppStore((s) => s.readOnly);
  useCommands(
    ["global", "list"],
    (c) => {
      if (c === "help" || c === "back" || c === "quit") store.getState().closeOverlay();
    },
    true,
  );
  const bindings = bindingsFor(scopes);
  const half = Math.ceil(bindings.length / 2);
  const columns = height - 3 >= bindings.length ? [bindings] : [bindings.slice(0, half), bindings.slice(half)];
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Txt bold>Keys {readOnly ? "(read-only: changes disabled)" : ""}</Txt>
      <Box gap={4}>
        {columns.map((col) => (
          <Box key={col[0]?.command ?? "none"} flexDirection="column">
            {col.map((b) => (
              <Txt
                key={b.command}
                color={readOnly && b.write ? theme.muted : undefined}
                strikethrough={Boolean(readOnly && b.write)}
              >
                <Txt color={theme.accent}>{b.label.padEnd(10)}</Txt>
                {b.description}
              </Txt>
            ))}
          </Box>
        ))}
      </Box>
      <Txt color={theme.muted}>esc or ? closes</Txt>
    </Box>
  );
}
