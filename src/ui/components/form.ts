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
  /**
   * Whether the focused field's value is selected: as in a browser's form after tab, what is typed
   * next replaces it (tab to a prefilled "15" and type 5: 5, not 155). Set by moving to a field
   * (and where the form opens); gone with the first change, or an arrow key in the field.
   */
  selected: boolean;
  /**
   * Nothing has been moved or typed since the last enter: an answer to it about one field may take
   * the focus there. Once the manager has moved on (tab, typing, a cursor key) while a slow answer
   * was on its way, the answer only shows its problem: it does not pull the focus from where they are.
   */
  untouched: boolean;
}

/** What can happen to a form. */
export type FormAction =
  | { type: "move"; delta: number; count: number }
  | { type: "change"; name: string; value: string }
  | { type: "deselect" }
  /** Enter: the values go to be checked; the answer comes as a `problem` (or the form closes). */
  | { type: "submit" }
  /**
   * A refusal; `focus`: the index of the field it is about, which the form moves to (value selected)
   * if nothing was moved or typed since the submit.
   */
  | { type: "problem"; problem: string | undefined; focus?: number }
  | { type: "reset"; values: Record<string, string>; problem?: string };

/**
 * A form with initial values, on the field named `first` (at index `focus`, the first unless told).
 * A value already there is selected, as one tabbed to is: a form opens on a suggestion (today's
 * date, the count so far, a file name), and what is typed replaces it rather than joining it
 * ("2026-11-272026-11-26").
 */
export function initialForm(values: Record<string, string>, first?: string, focus = 0): FormState {
  const selected = first !== undefined && (values[first] ?? "") !== "";
  return { values, focus, problem: undefined, dirty: false, selected, untouched: false };
}

/**
 * What a change to a selected value leaves: the text field reports the whole new value with the
 * cursor at the end, so text added after the old value is typed over it, and one character taken
 * off its end (backspace) takes the whole selection; any other change stands as it is.
 */
export function typedOverSelection(old: string, next: string): string {
  if (next.length > old.length && next.startsWith(old)) return next.slice(old.length);
  if (next.length < old.length && old.startsWith(next)) return "";
  return next;
}

/** The reducer of a form: tab/arrows move between fields, the text field changes values. */
export function formReducer(state: FormState, action: FormAction): FormState {
  switch (action.type) {
    case "move": {
      const n = Math.max(1, action.count);
      const focus = (((state.focus + action.delta) % n) + n) % n;
      return { ...state, focus, selected: focus !== state.focus || state.selected, untouched: false };
    }
    case "change": {
      const old = state.values[action.name] ?? "";
      const value = state.selected ? typedOverSelection(old, action.value) : action.value;
      if (old === value) return state.selected ? { ...state, selected: false, untouched: false } : state;
      return {
        ...state,
        values: { ...state.values, [action.name]: value },
        dirty: true,
        problem: undefined,
        selected: false,
        untouched: false,
      };
    }
    case "deselect":
      return state.selected ? { ...state, selected: false, untouched: false } : state;
    case "submit":
      return state.untouched ? state : { ...state, untouched: true };
    case "problem": {
      const focus = action.focus;
      if (focus === undefined || focus < 0 || !state.untouched) return { ...state, problem: action.problem };
      // Taken to the field the problem is about, its value selected: typing replaces the bad value.
      return { ...state, problem: action.problem, focus, selected: true };
    }
    case "reset":
      return {
        values: action.values,
        focus: state.focus,
        problem: action.problem,
        dirty: false,
        selected: false,
        untouched: state.untouched,
      };
  }
}
