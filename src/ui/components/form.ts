import type { Key } from "ink";

/** One field of a form. */
export interface FieldSpec {
  name: string;
  label: string;
  /** Shown dim after the field: format or allowed values. */
  hint?: string;
}

/** A form's values, the focused field, and the problem to show (if any). */
export interface FormState {
  values: Record<string, string>;
  focus: number;
  problem: string | undefined;
  dirty: boolean;
}

/** What can happen to a form. */
export type FormAction =
  | {
      type: "key";
      input: string;
      key: Pick<Key, "tab" | "shift" | "backspace" | "delete" | "upArrow" | "downArrow" | "ctrl" | "meta">;
      fields: readonly FieldSpec[];
    }
  | { type: "problem"; problem: string | undefined }
  | { type: "reset"; values: Record<string, string>; problem?: string };

/** A form with initial values. */
export function initialForm(values: Record<string, string>): FormState {
  return { values, focus: 0, problem: undefined, dirty: false };
}

/** Edits text by one key press: typed characters append, backspace removes the last one. */
export function editText(
  value: string,
  input: string,
  key: { backspace: boolean; delete: boolean; ctrl: boolean; meta: boolean },
): string {
  // Terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`: both remove backwards.
  if (key.backspace || key.delete) return value.slice(0, -1);
  if (key.ctrl && input === "u") return "";
  if (key.ctrl || key.meta || !input) return value;
  // Pasted text arrives as one input; drop control characters that would garble the frame.
  return (
    value +
    [...input]
      .filter((c) => {
        const code = c.charCodeAt(0);
        return code >= 0x20 && code !== 0x7f;
      })
      .join("")
  );
}

/** The reducer of a form: tab/arrows move between fields, other keys edit the focused one. */
export function formReducer(state: FormState, action: FormAction): FormState {
  switch (action.type) {
    case "problem":
      return { ...state, problem: action.problem };
    case "reset":
      return { values: action.values, focus: state.focus, problem: action.problem, dirty: false };
    case "key": {
      const n = action.fields.length;
      const { key, input } = action;
      if (key.tab || key.downArrow || key.upArrow) {
        const back = (key.tab && key.shift) || key.upArrow;
        return { ...state, focus: (state.focus + (back ? n - 1 : 1)) % Math.max(1, n) };
      }
      const field = action.fields[state.focus];
      if (!field) return state;
      const before = state.values[field.name] ?? "";
      const after = editText(before, input, key);
      if (after === before) return state;
      return { ...state, values: { ...state.values, [field.name]: after }, dirty: true, problem: undefined };
    }
  }
}
