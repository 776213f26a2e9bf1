import { Box } from "ink";
import InkTextInput from "ink-text-input";
import { useTextFocus } from "../keyboard.js";
import { stripControl } from "./columns.js";
import { Txt } from "./Txt.js";

/** Props of {@link TextField}. */
export interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  onSubmit?: (value: string) => void;
  /** Whether it takes typed keys (one field at a time). */
  focus: boolean;
  /** Shown instead of each character (a secret). */
  mask?: string;
  placeholder?: string;
  /** The most characters kept; a longer paste is cut there (the status says so via `onCut`). */
  maxLength?: number;
  onCut?: (dropped: number) => void;
  /**
   * The value is selected (a form's field just moved to): it is drawn highlighted, what is typed
   * goes over it (the form's reducer replaces it), and ←/→/home/end let go of it (`onDeselect`).
   */
  selected?: boolean;
  onDeselect?: () => void;
}

const CTRL_C = "\u0003";
const CTRL_U = "\u0015";
const CTRL_W = "\u0017";
/** ←, →, home and end, in the forms terminals send them. */
const CURSOR_KEYS: ReadonlySet<string> = new Set(
  ["[C", "[D", "OC", "OD", "[H", "[F", "OH", "OF", "[1~", "[4~", "[7~", "[8~"].map((tail) => `\u001b${tail}`),
);

function isCtrlLetter(key: string): boolean {
  const code = key.charCodeAt(0);
  // 0x01–0x1a are ctrl+a … ctrl+z, except Tab (0x09), Enter (0x0d) and line feed (0x0a); Backspace is 0x08.
  return code >= 0x01 && code <= 0x1a && ![0x08, 0x09, 0x0a, 0x0d].includes(code);
}

// Control characters in a paste (escape sequences, bells) would garble the frame; tabs become spaces.
const clean = (text: string) => stripControl(text, "");

/**
 * A one-line text field on ink-text-input: cursor with ←/→, insert in the middle, Backspace,
 * paste. While focused it tells the key stream, so a paste arrives whole rather than key by key.
 */
export function TextField({
  value,
  onChange,
  onSubmit,
  focus,
  mask,
  placeholder,
  maxLength,
  onCut,
  selected = false,
  onDeselect,
}: TextFieldProps) {
  // ink-text-input would type the letter of a ctrl key; take the line-editing ones here.
  useTextFocus(focus, (key) => {
    // A cursor key lets go of the selection and moves the cursor as it would anyway.
    if (selected && CURSOR_KEYS.has(key)) onDeselect?.();
    if (key === CTRL_U) {
      onChange("");
      return true;
    }
    if (key === CTRL_W) {
      onChange(value.replace(/\S*\s*$/, ""));
      return true;
    }
    // Other control keys (ctrl+letters) mean nothing in a text field; ctrl+c, Enter, Tab, Esc,
    // Backspace and escape sequences go on.
    return key.length === 1 && key !== CTRL_C && isCtrlLetter(key);
  });
  const limit = maxLength ?? 1000;
  const input = (
    <InkTextInput
      value={value}
      focus={focus}
      showCursor
      {...(mask ? { mask } : {})}
      {...(placeholder ? { placeholder } : {})}
      onChange={(next) => {
        let text = clean(next);
        if (text.length > limit) {
          onCut?.(text.length - limit);
          text = text.slice(0, limit);
        }
        onChange(text);
      }}
      {...(onSubmit ? { onSubmit: (v: string) => onSubmit(clean(v)) } : {})}
    />
  );
  const shown = selected && focus && value !== "";
  // Selected, the value is drawn highlighted; the field itself stays in the same place of the tree
  // (it takes the keys and keeps its cursor when the selection goes), folded out of sight.
  return (
    <Box>
      {/* Every size given both ways: a style left out is not reset (Ink applies what it is given). */}
      <Box width={shown ? 0 : undefined} height={shown ? 1 : undefined} overflow={shown ? "hidden" : "visible"}>
        {input}
      </Box>
      {shown ? <Txt inverse>{mask ? mask.repeat(value.length) : value}</Txt> : null}
    </Box>
  );
}
