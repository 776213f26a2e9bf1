import { Box, type DOMElement, measureElement } from "ink";
import { type Dispatch, type ReactNode, type RefObject, useEffect, useReducer, useRef, useState } from "react";
import stringWidth from "string-width";
import { type FormProblem, problemField, problemText } from "../../domain/form-problem.js";
import { useKeys } from "../keyboard.js";
import { useFocus } from "../shell.js";
import { useTheme } from "../theme.js";
import { type FieldSpec, type FormAction, type FormState, formReducer, initialForm } from "./form.js";
import { TextField } from "./TextField.js";
import { Txt } from "./Txt.js";

/** Props of {@link FormView}. */
export interface FormViewProps {
  title: string;
  fields: readonly FieldSpec[];
  initial: Record<string, string>;
  /**
   * Returns a problem to keep the form open (in words, or `{ text, field }` when it is about one
   * field: the form then moves there), or undefined when done.
   */
  onSubmit: (values: Record<string, string>) => Promise<FormProblem> | FormProblem;
  onCancel: () => void;
  /** One line above the fields (limits, conflicts). */
  note?: ReactNode;
  /** Re-initialises the values when it changes (e.g. after a conflict brought newer ones). */
  resetKey?: string;
  /** Values to put in instead of `initial` on reset (the manager's own, to re-apply). */
  resetValues?: Record<string, string>;
  /** The field the form opens on (its value selected), when not the first. */
  startAt?: string | undefined;
}

/** The most lines the field being edited takes: a value longer than its room goes on under it. */
export const EDITED_FIELD_LINES = 3;

/**
 * The terminal rows a form takes at most: border, title, note, fields (the one being edited on up
 * to three lines), and two lines for a problem.
 */
export function formHeight(fields: readonly FieldSpec[], hasNote: boolean): number {
  return 2 + 1 + (hasNote ? 1 : 0) + fields.length + (EDITED_FIELD_LINES - 1) + 2;
}

/**
 * A form's state and its keys: tab or ↑/↓ move between the `fields`, Enter submits (once, however
 * often it is pressed before the answer), Esc cancels. The text fields do the editing. A refusal
 * about one field (`{ text, field }`) moves the focus to that field with its value selected —
 * unless the manager has moved or typed since enter (a slow answer): then it only shows. A form
 * closed before its answer (unmounted) takes nothing from it. It opens on the field named
 * `startAt` (else the first), its value selected.
 */
export function useFormKeys(
  initial: Record<string, string>,
  fields: readonly Pick<FieldSpec, "name">[],
  onSubmit: (values: Record<string, string>) => Promise<FormProblem> | FormProblem,
  onCancel: () => void,
  isActive = true,
  startAt?: string,
): [FormState, Dispatch<FormAction>] {
  const count = fields.length;
  const [state, dispatch] = useReducer(formReducer, initial, (values) => {
    const at = Math.max(
      0,
      fields.findIndex((f) => f.name === startAt),
    );
    return initialForm(values, fields[at]?.name, at);
  });
  const submitting = useRef(false);
  const submit = () => {
    if (submitting.current) return;
    submitting.current = true;
    dispatch({ type: "submit" });
    void Promise.resolve(onSubmit(state.values))
      .then((problem) => {
        const text = problemText(problem);
        if (!text) return;
        const field = problemField(problem);
        const at = field === undefined ? -1 : fields.findIndex((f) => f.name === field);
        dispatch({ type: "problem", problem: text, ...(at >= 0 ? { focus: at } : {}) });
      })
      .finally(() => {
        submitting.current = false;
      });
  };
  useKeys(
    (_input, key) => {
      if (key.escape) onCancel();
      else if (key.return) submit();
      else if (key.tab || key.downArrow || key.upArrow) {
        const back = (key.tab && key.shift) || key.upArrow;
        dispatch({ type: "move", delta: back ? -1 : 1, count });
      }
      // A form has every key: its fields take the typed ones (src/ui/focus.ts says why tab stays here).
      return true;
    },
    { isActive },
  );
  return [state, dispatch];
}

/** A field's hint after its value: it is what a narrow row cuts, never the value before it. */
export function FieldHint({ text }: { text: string }) {
  const theme = useTheme();
  return (
    <Box flexShrink={1} minWidth={0}>
      <Txt color={theme.muted} wrap="truncate-end">
        {" "}
        {text}
      </Txt>
    </Box>
  );
}

/**
 * The columns a form's values have: inside its border and padding, after a label of `labelWidth`
 * ("› Label:" padded). Measured once the form is drawn, and again after each draw, so a terminal
 * made narrower is followed; undefined before the first draw. The ref goes on the form's box.
 */
export function useValueRoom(labelWidth: number): [RefObject<DOMElement | null>, number | undefined] {
  const ref = useRef<DOMElement>(null);
  const [inner, setInner] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!ref.current) return;
    // Two columns of border and two of padding.
    const measured = measureElement(ref.current).width - 4;
    if (measured !== inner) setInner(measured);
  });
  return [ref, inner === undefined ? undefined : inner - 2 - labelWidth];
}

/** Whether a field's value is wider than its room, the cursor's column included (a wide character takes two). */
export const isLongValue = (value: string, room: number | undefined): boolean =>
  room !== undefined && stringWidth(value) + 1 > room;

/** Props of {@link FieldRow}. */
interface FieldRowProps {
  field: FieldSpec & { max?: number };
  labelWidth: number;
  room: number | undefined;
  editing: boolean;
  /** Whether the form has the keys. */
  active: boolean;
  state: FormState;
  dispatch: Dispatch<FormAction>;
  /** Whether its hint shows only while it is being edited. */
  hintWhileEditing?: boolean;
}

/**
 * One field of a form: its label, its value, its hint. The field being edited shows its value
 * whole: one longer than its room goes on over up to three lines, under the value's column (its
 * hint left out), so the end of a long path and the cursor stay in sight. The other fields keep
 * one line each and are cut on the right.
 */
export function FieldRow({
  field: f,
  labelWidth,
  room,
  editing,
  active,
  state,
  dispatch,
  hintWhileEditing = false,
}: FieldRowProps) {
  const theme = useTheme();
  const value = state.values[f.name] ?? "";
  const long = editing && isLongValue(value, room);
  const hint = f.hint && !long && (editing || !hintWhileEditing) ? f.hint : undefined;
  return (
    <Box overflow="hidden" {...(long ? { maxHeight: EDITED_FIELD_LINES } : { height: 1 })}>
      {/* The label keeps its width: on a narrow terminal the value (or its hint) is what is cut. */}
      <Box flexShrink={0}>
        <Txt color={editing ? theme.accent : undefined} bold={editing}>
          {(editing ? "› " : "  ") + `${f.label}:`.padEnd(labelWidth)}
        </Txt>
      </Box>
      {/* The value keeps its room (left to shrink alike, the two wrapped and the value lost its
          end behind the one-line row); the hint after it is what a narrow terminal cuts. */}
      <Box flexShrink={long ? 1 : 0}>
        <TextField
          value={value}
          focus={active && editing}
          selected={state.selected && editing}
          onDeselect={() => dispatch({ type: "deselect" })}
          {...(f.secret ? { mask: "•" } : {})}
          {...(f.max ? { maxLength: f.max } : {})}
          onChange={(next) => dispatch({ type: "change", name: f.name, value: next })}
        />
      </Box>
      {hint ? <FieldHint text={hint} /> : null}
    </Box>
  );
}

/** A form: tab or ↑/↓ between fields, enter submits, esc cancels; a problem shows under it. */
export function FormView(props: FormViewProps) {
  const { title, fields, initial, onSubmit, onCancel, note, resetKey, resetValues, startAt } = props;
  const theme = useTheme();
  // One form is on screen at a time: it has the keys while the screen's focus is a form.
  const active = useFocus().kind === "form";
  const [state, dispatch] = useFormKeys(initial, fields, onSubmit, onCancel, active, startAt);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new resetKey re-initialises.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    dispatch({ type: "reset", values: resetValues ?? initial });
  }, [resetKey]);
  const width = Math.max(...fields.map((f) => f.label.length)) + 2;
  const [ref, room] = useValueRoom(width);
  return (
    <Box ref={ref} flexDirection="column" borderStyle="round" paddingX={1} flexShrink={0}>
      <Txt bold wrap="truncate-end">
        {title}
      </Txt>
      {note ? (
        <Box height={1} overflow="hidden">
          {typeof note === "string" ? (
            <Txt color={theme.warn} wrap="truncate-end">
              {note}
            </Txt>
          ) : (
            note
          )}
        </Box>
      ) : null}
      {fields.map((f, i) => (
        <FieldRow
          key={f.name}
          field={f}
          labelWidth={width}
          room={room}
          editing={i === state.focus}
          active={active}
          state={state}
          dispatch={dispatch}
        />
      ))}
      {state.problem ? (
        <Box height={2} overflow="hidden">
          <Txt color={theme.bad}>! {state.problem}</Txt>
        </Box>
      ) : (
        <Txt color={theme.muted} wrap="truncate-end">
          tab/↓ next field · enter save · esc cancel
        </Txt>
      )}
    </Box>
  );
}
