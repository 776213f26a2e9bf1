import { Box } from "ink";
import { useMemo, useReducer } from "react";
import { useAppStore, useAppStoreApi } from "../../state/index.js";
import { useKeys } from "../keyboard.js";
import type { Command, Scope } from "../keymap.js";
import { useShell } from "../shell.js";
import { useTheme } from "../theme.js";
import { fitCell } from "./columns.js";
import { paletteEntries, paletteMatches, paletteReducer } from "./palette.js";
import { TextField } from "./TextField.js";
import { Txt } from "./Txt.js";

/**
 * The `:` palette: every command with its key and description; typing filters, ↑/↓ scroll,
 * enter runs (a screen's name goes to that screen), esc closes. What does not apply here is
 * greyed out with the reason, and says it when run.
 */
export function CommandPalette({
  scopes,
  height,
  width,
  onRun,
}: {
  scopes: readonly Scope[];
  height: number;
  width: number;
  onRun: (command: Command) => void;
}) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const { bindings, screens } = useShell();
  const readOnly = useAppStore((s) => s.readOnly);
  const [state, dispatch] = useReducer(paletteReducer, { text: "", selected: 0, offset: 0 });
  const entries = useMemo(
    () =>
      paletteEntries(bindings, {
        scopes,
        readOnly,
        screenTitle: (scope) => screens.find((d) => d.kind === scope)?.title,
      }),
    [bindings, screens, scopes, readOnly],
  );
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
        if (!match) store.getState().setStatus({ kind: "info", text: `No command matches "${state.text}".` });
        else if (match.disabled)
          store.getState().setStatus({ kind: "rule", text: `${match.description}: only ${match.disabled}.` });
        else onRun(match.command);
      }
    },
    { isActive: true },
  );
  const shown = matches.slice(state.offset, state.offset + rows);
  const inner = Math.max(10, width - 4);
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
      {shown.map((m, i) => {
        const selected = state.offset + i === state.selected;
        const line = `${selected ? "›" : " "} ${fitCell(m.label, 9)} ${m.description}${m.disabled ? ` — ${m.disabled}` : ""}`;
        return (
          <Txt
            key={m.command}
            color={m.disabled ? theme.muted : selected ? theme.accent : undefined}
            inverse={!theme.color && selected}
            bold={selected}
            wrap="truncate-end"
          >
            {fitCell(line, inner)}
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
