import { Box } from "ink";
import { useTheme } from "../theme.js";
import { useCommands } from "../use-commands.js";
import { Txt } from "./Txt.js";

/** A yes/no question: y or enter confirms, n or esc cancels. */
export function ConfirmDialog({ message, onYes, onNo }: { message: string; onYes: () => void; onNo: () => void }) {
  const theme = useTheme();
  useCommands(
    [],
    () => undefined,
    true,
    (input, key) => {
      if (input === "y" || input === "Y" || key.return) onYes();
      else if (input === "n" || input === "N" || key.escape) onNo();
    },
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warn ?? "white"} paddingX={1}>
      <Txt>{message}</Txt>
      <Txt color={theme.muted}>y / enter: yes · n / esc: no</Txt>
    </Box>
  );
}
