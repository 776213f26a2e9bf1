import { Box } from "ink";
import { useHasFocus } from "../shell.js";
import { useTheme } from "../theme.js";
import { TextField } from "./TextField.js";
import { Txt } from "./Txt.js";

/**
 * A labelled line a screen's text field lives on (the customers' search, the gift card look-up):
 * it takes typed keys only while its field has the keyboard, and says, when it does not, how to
 * give them to it. Mounted afresh on taking the keys, so the cursor starts at the end of the text.
 */
export function EntryLine({
  field,
  label,
  value,
  onChange,
  typing,
  resting,
  maxLength,
  width,
}: {
  /** The screen's name for the field (its focus place). */
  field: string;
  /** `Find: `, `Card: `. */
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** The placeholder while it has the keys, and while it has not. */
  typing: string;
  resting: string;
  maxLength: number;
  width: number;
}) {
  const theme = useTheme();
  const editing = useHasFocus(field);
  return (
    <Box height={1} width={width} overflow="hidden">
      <Txt color={editing ? theme.accent : theme.muted} bold>
        {label}
      </Txt>
      <TextField
        key={editing ? "editing" : "resting"}
        value={value}
        focus={editing}
        placeholder={editing ? typing : resting}
        maxLength={maxLength}
        onChange={onChange}
      />
    </Box>
  );
}
