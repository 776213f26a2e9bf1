import { Box } from "ink";
import { useKeys } from "../keyboard.js";
import { useTheme } from "../theme.js";
import { TextField } from "./TextField.js";
import { Txt } from "./Txt.js";

/** The `/` filter line: typing filters live, Enter keeps the filter, Esc clears it; both close the line. */
export function FilterLine({
  value,
  onChange,
  onClose,
  what,
}: {
  value: string;
  onChange: (text: string) => void;
  /** Called on Enter (`clear` false) or Esc (`clear` true). */
  onClose: (clear: boolean) => void;
  /** What is filtered, shown dim after the field (e.g. "member name"). */
  what?: string;
}) {
  const theme = useTheme();
  useKeys(
    (_input, key) => {
      if (key.escape) onClose(true);
      else if (key.return) onClose(false);
    },
    { isActive: true },
  );
  return (
    <Box height={1}>
      <Txt color={theme.accent}>/</Txt>
      <TextField value={value} focus onChange={onChange} />
      <Txt color={theme.muted}> {what ? `${what} · ` : ""}enter keeps · esc clears</Txt>
    </Box>
  );
}
