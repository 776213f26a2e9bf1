import { Box } from "ink";
import { type ReactNode, useEffect, useReducer, useRef } from "react";
import { useTheme } from "../theme.js";
import { useCommands } from "../use-commands.js";
import { type FieldSpec, formReducer, initialForm } from "./form.js";
import { Txt } from "./Txt.js";

/** Props of {@link FormView}. */
export interface FormViewProps {
  title: string;
  fields: readonly FieldSpec[];
  initial: Record<string, string>;
  /** Returns a problem in words to keep the form open, or undefined when done. */
  onSubmit: (values: Record<string, string>) => Promise<string | undefined> | string | undefined;
  onCancel: () => void;
  /** Shown above the fields (limits, conflicts). */
  note?: ReactNode;
  /** Re-initialises the values when it changes (e.g. after a conflict brought newer ones). */
  resetKey?: string;
}

/** A form: tab moves between fields, enter submits, esc cancels; problems show under it. */
export function FormView({ title, fields, initial, onSubmit, onCancel, note, resetKey }: FormViewProps) {
  const theme = useTheme();
  const [state, dispatch] = useReducer(formReducer, initial, initialForm);
  const submitting = useRef(false);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new resetKey re-initialises.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    dispatch({ type: "reset", values: initial });
  }, [resetKey]);
  useCommands(
    [],
    () => undefined,
    true,
    (input, key) => {
      if (key.escape) return onCancel();
      if (key.return) {
        // Enter pressed twice before the answer would submit twice; the ref holds the second.
        if (submitting.current) return;
        submitting.current = true;
        void Promise.resolve(onSubmit(state.values))
          .then((problem) => {
            if (problem) dispatch({ type: "problem", problem });
          })
          .finally(() => {
            submitting.current = false;
          });
        return;
      }
      dispatch({ type: "key", input, key, fields });
    },
  );
  const width = Math.max(...fields.map((f) => f.label.length)) + 2;
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Txt bold>{title}</Txt>
      {note ? <Box>{typeof note === "string" ? <Txt color={theme.warn}>{note}</Txt> : note}</Box> : null}
      {fields.map((f, i) => (
        <Txt key={f.name}>
          <Txt color={i === state.focus ? theme.accent : undefined} bold={i === state.focus}>
            {(i === state.focus ? "› " : "  ") + `${f.label}:`.padEnd(width)}
          </Txt>
          {state.values[f.name] ?? ""}
          {i === state.focus ? <Txt inverse> </Txt> : null}
          {f.hint ? <Txt color={theme.muted}> {f.hint}</Txt> : null}
        </Txt>
      ))}
      {state.problem ? <Txt color={theme.bad}>! {state.problem}</Txt> : null}
      <Txt color={theme.muted}>tab next field · enter save · esc cancel</Txt>
    </Box>
  );
}
