import { Box } from "ink";
import { useAppStore, useAppStoreApi } from "../../state/index.js";
import { bindingsIn, type Scope } from "../keymap.js";
import { useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { useCommands } from "../use-commands.js";
import { Txt } from "./Txt.js";

/** Every key of the current screen, read from the keymap; esc, ? or q closes it. */
export function HelpOverlay({ scopes, height, note }: { scopes: readonly Scope[]; height: number; note?: string }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const readOnly = useAppStore((s) => s.readOnly);
  const { bindings: all } = useShell();
  useCommands(
    ["global", "list"],
    (c) => {
      if (c === "help" || c === "back" || c === "quit") store.getState().closeOverlay();
    },
    true,
  );
  const bindings = bindingsIn(all, scopes);
  const room = Math.max(1, height - 4 - (note ? 1 : 0));
  const columns: (typeof bindings)[] = [];
  for (let i = 0; i < bindings.length; i += room) columns.push(bindings.slice(i, i + room));
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} flexShrink={0}>
      <Txt bold>Keys {readOnly ? "(read-only: changes disabled)" : ""}</Txt>
      <Box gap={3}>
        {columns.map((col) => (
          <Box key={col[0]?.command ?? "none"} flexDirection="column">
            {col.map((b) => (
              <Txt
                key={b.command}
                color={readOnly && b.write ? theme.muted : undefined}
                strikethrough={Boolean(readOnly && b.write)}
                wrap="truncate-end"
              >
                <Txt color={theme.accent}>{b.label.padEnd(10)}</Txt>
                {b.description}
              </Txt>
            ))}
          </Box>
        ))}
      </Box>
      {note ? (
        <Txt color={theme.muted} wrap="truncate-end">
          {note}
        </Txt>
      ) : null}
      <Txt color={theme.muted}>esc or ? closes</Txt>
    </Box>
  );
}
