import { Box } from "ink";
import { useHasFocus } from "../shell.js";
import { useTheme } from "../theme.js";
import { FieldHint } from "./FormView.js";
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
      {/* The / and what was typed keep their width; the hint is what a narrow terminal cuts (left to
          shrink alike, at 60 columns the / went and the end of the filter with it). */}
      <Box flexShrink={0}>
        <Txt color={theme.accent}>/</Txt>
        <TextField value={value} focus={focus} onChange={onChange} onSubmit={onDone} />
      </Box>
      <FieldHint text={`${what ? `${what} · ` : ""}enter or esc: back to the list · esc again clears`} />
    </Box>
  );
}
