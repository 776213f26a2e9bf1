import { Box } from "ink";
import { useHasFocus } from "../shell.js";
import { useTheme } from "../theme.js";
import { TextField } from "./TextField.js";
import { Txt } from "./Txt.js";

/**
 * The `/` filter line: typing filters live; enter or esc give the keys back to the list with the
 * filter kept (the shell's esc rule); a second esc, in the list, clears it.
 */
export function FilterLine({
  field,
  value,
  onChange,
  onDone,
  what,
}: {
  /** The screen's name for this field (its focus place). */
  field: string;
  value: string;
  onChange: (text: string) => void;
  /** Enter: the filter stays, the list has the keys again. */
  onDone: () => void;
  /** What is filtered, shown dim after the field (e.g. "member name"). */
  what?: string;
}) {
  const theme = useTheme();
  const focus = useHasFocus(field);
  return (
    <Box height={1} overflow="hidden">
      <Txt color={theme.accent}>/</Txt>
      <TextField value={value} focus={focus} onChange={onChange} onSubmit={onDone} />
      <Txt color={theme.muted}> {what ? `${what} · ` : ""}enter or esc: back to the list · esc again clears</Txt>
    </Box>
  );
}
