import { Box } from "ink";
import { useKeys } from "../keyboard.js";
import { useTheme } from "../theme.js";
import { Txt } from "./Txt.js";

/**
 * A yes/no question: y confirms, n or esc cancels. Enter means the default answer, which is "no"
 * for destructive questions (`destructive`), so a stray Enter never deletes anything.
 */
export function ConfirmDialog({
  message,
  onYes,
  onNo,
  destructive = false,
}: {
  message: string;
  onYes: () => void;
  onNo: () => void;
  destructive?: boolean;
}) {
  const theme = useTheme();
  useKeys(
    (input, key) => {
      if (input === "y" || input === "Y" || (key.return && !destructive)) onYes();
      else if (input === "n" || input === "N" || key.escape || (key.return && destructive)) onNo();
    },
    { isActive: true },
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warn ?? "white"} paddingX={1}>
      <Txt>{message}</Txt>
      <Txt color={theme.muted}>{destructive ? "y: yes · n / esc / enter: no" : "y / enter: yes · n / esc: no"}</Txt>
    </Box>
  );
}
