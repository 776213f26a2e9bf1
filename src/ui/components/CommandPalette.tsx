import { Box } from "ink";
import { useReducer } from "react";
import { useAppStoreApi } from "../../state/index.js";
import type { Command } from "../keymap.js";
import { useTheme } from "../theme.js";
import { useCommands } from "../use-commands.js";
import { paletteMatches, paletteReducer } from "./palette.js";
import { Txt } from "./Txt.js";

/** The `:` palette: type a command name (tab completes), enter runs it, esc closes. */
export function CommandPalette({ onRun }: { onRun: (command: Command) => void }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const [state, dispatch] = useReducer(paletteReducer, { text: "", selected: 0 });
  const matches = paletteMatches(state.text);
  // Letters are text here, so only the named keys count as commands.
  useCommands(
    [],
    () => undefined,
    true,
    (input, key) => {
      if (key.escape) store.getState().closeOverlay();
      else if (key.return) {
        const match = matches[state.selected];
        store.getState().closeOverlay();
        if (match) onRun(match.command);
      } else if (key.tab) dispatch({ type: "complete" });
      else if (key.upArrow) dispatch({ type: "move", delta: -1 });
      else if (key.downArrow) dispatch({ type: "move", delta: 1 });
      else dispatch({ type: "key", input, key });
    },
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Txt>
        <Txt color={theme.accent}>:</Txt>
        {state.text}
        <Txt inverse> </Txt>
      </Txt>
      {matches.slice(0, 8).map((m, i) => (
        <Txt
          key={m.name}
          color={i === state.selected ? theme.accent : theme.muted}
          inverse={!theme.color && i === state.selected}
        >
          {i === state.selected ? "› " : "  "}
          {m.name}
        </Txt>
      ))}
      {matches.length === 0 ? <Txt color={theme.muted}>no command by that name</Txt> : null}
    </Box>
  );
}
