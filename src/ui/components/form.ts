/** One field of a form. */
export interface FieldSpec {
  name: string;
  label: string;
  /** Shown dim after the field: format or allowed values. */
  hint?: string;
  /** Shown as `•` per character (a secret). */
  secret?: boolean;
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
  | { type: "move"; delta: number; count: number }
  | { type: "change"; name: string; value: string }
  | { type: "problem"; problem: string | undefined }
  | { type: "reset"; values: Record<string, string>; problem?: string };

/** A form with initial values. */
export function initialForm(values: Record<string, string>): FormState {
  return { values, focus: 0, problem: undefined, dirty: false };
}

/** The reducer of a form: tab/arrows move between fields, the text field changes values. */
export function formReducer(state: FormState, action: FormAction): FormState {
  switch (action.type) {
    case "move": {
      const n = Math.max(1, action.count);
      return { ...state, focus: (((state.focus + action.delta) % n) + n) % n };
    }
    case "change":
      if (state.values[action.name] === action.value) return state;
      return { ...state, values: { ...state.values, [action.name]: action.value }, dirty: true, problem: undefined };
    case "problem":
      return { ...state, problem: action.problem };
    case "reset":
      return { values: action.values, focus: state.focus, problem: action.problem, dirty: false };
  }
}
