import { Box } from "ink";
import { useAppStore, useAppStoreApi } from "../../state/index.js";
import { bindingsIn, type Scope } from "../keymap.js";
import { useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { useCommands } from "../use-commands.js";
import { wrapLines } from "./columns.js";
import { Txt } from "./Txt.js";

/**
 * Every key of the current screen, read from the keymap, and the screen's note; esc, ? or q
 * closes it. The keys come first: the note has the rows they leave (at least one, cut with `…`).
 */
export function HelpOverlay({
  scopes,
  height,
  width,
  note,
}: {
  scopes: readonly Scope[];
  height: number;
  width: number;
  note?: string;
}) {
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
  // Inside the box: its border and title, and the closing line, take 4 rows; border and padding 4 columns.
  const inside = Math.max(1, height - 4);
  // As many key columns as one note line leaves room for; the note then has the rows those columns do not use.
  const keyColumns = Math.max(1, Math.ceil(bindings.length / Math.max(1, inside - (note ? 1 : 0))));
  const room = Math.max(1, Math.ceil(bindings.length / keyColumns));
  const noteLines = note ? wrapLines(note, width - 4, Math.max(1, inside - room)) : [];
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
      {noteLines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text, in order.
        <Txt key={i} color={theme.muted} wrap="truncate-end">
          {line}
        </Txt>
      ))}
      <Txt color={theme.muted}>esc or ? closes</Txt>
    </Box>
  );
}
