import { Box } from "ink";
import { useReducer } from "react";
import { useAppStore, useAppStoreApi } from "../../state/index.js";
import { type CommandDeps, runCommand } from "../commands.js";
import { useKeys } from "../keyboard.js";
import { currentScreen, useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { paletteEntries, paletteEntryLines, paletteMatches, paletteReducer, paletteWindow } from "./palette.js";
import { TextField } from "./TextField.js";
import { Txt } from "./Txt.js";

/**
 * The `:` palette: every command of the screen and the shell with its key and description, and
 * the screens by name; typing filters, ↑/↓ scroll, enter runs, esc closes. A command that cannot
 * run now is greyed out with the reason, and running it says the reason.
 */
export function CommandPalette({ height, width, deps }: { height: number; width: number; deps: CommandDeps }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const shell = useShell();
  // Re-reads the entries when anything they depend on for availability changes.
  useAppStore((s) => s.readOnly);
  const [state, dispatch] = useReducer(paletteReducer, { text: "", selected: 0, offset: 0 });
  const s = store.getState();
  const entries = paletteEntries(s, currentScreen(shell.screens, s), shell.commands, shell.screens);
  const matches = paletteMatches(entries, state.text);
  // Border (2), the input line, and the position line.
  const rows = Math.max(1, height - 4);
  useKeys(
    (_input, key) => {
      if (key.escape) store.getState().closeOverlay();
      else if (key.upArrow) dispatch({ type: "move", delta: -1, count: matches.length, height: rows });
      else if (key.downArrow || key.tab) dispatch({ type: "move", delta: 1, count: matches.length, height: rows });
      else if (key.pageDown) dispatch({ type: "move", delta: rows, count: matches.length, height: rows });
      else if (key.pageUp) dispatch({ type: "move", delta: -rows, count: matches.length, height: rows });
      else if (key.return) {
        const match = matches[state.selected];
        store.getState().closeOverlay();
        // `:` then Enter with nothing typed or chosen closes the palette; it does not run the first
        // command of the list.
        if (state.text.trim() === "" && state.selected === 0) return true;
        if (!match) store.getState().setStatus({ kind: "info", text: `No command matches "${state.text}".` });
        else runCommand(match.command, store.getState(), deps);
      }
      // The text field takes the typed keys; nothing else goes past the palette.
      return true;
    },
    { isActive: true },
  );
  const inner = Math.max(10, width - 4);
  const selectedEntry = matches[state.selected];
  const selectedLines = selectedEntry ? paletteEntryLines(selectedEntry, true, inner) : [];
  const { from, to } = paletteWindow(state, matches.length, rows, selectedLines.length);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} flexShrink={0}>
      <Box>
        <Txt color={theme.accent}>:</Txt>
        <TextField
          value={state.text}
          focus
          placeholder="type to filter; enter runs"
          onChange={(text) => dispatch({ type: "text", text })}
        />
      </Box>
      {matches.slice(from, to).map((m) => {
        const selected = m === selectedEntry;
        return (
          <Txt
            key={m.id}
            color={m.disabled ? theme.muted : selected ? theme.accent : undefined}
            inverse={!theme.color && selected}
            bold={selected}
          >
            {(selected ? selectedLines : paletteEntryLines(m, false, inner)).join("\n")}
          </Txt>
        );
      })}
      <Txt color={theme.muted}>
        {matches.length === 0
          ? "no command matches"
          : `${state.selected + 1} of ${matches.length}${matches.length > rows ? " · ↑/↓ scroll" : ""}`}
      </Txt>
    </Box>
  );
}
