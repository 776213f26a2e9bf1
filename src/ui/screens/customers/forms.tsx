import { Box } from "ink";
import {
  IDENTIFYING_FIELDS,
  IDENTIFYING_RULE,
  PROFILE_FIELDS,
  type ProfileValues,
} from "../../../domain/customers-profile.js";
import type { FormProblem } from "../../../domain/form-problem.js";
import { EDITED_FIELD_LINES, FieldRow, isLongValue, useFormKeys, useValueRoom } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";

/** The filter panel's fields. */
export const FILTER_FIELDS: FieldSpec[] = [
  { name: "group", label: "Group", hint: "a group's name; empty for any" },
  { name: "sources", label: "Sources", hint: "e.g. import, instant profile" },
  { name: "rule", label: "Sources are", hint: "include or exclude" },
  { name: "from", label: "Created from", hint: "YYYY-MM-DD" },
  { name: "to", label: "Created to", hint: "YYYY-MM-DD" },
];

/** Rows a profile form takes besides its fields: border, title, the rule line, the footer. */
const FORM_CHROME = 2 + 1 + 1 + 1;

/** The profile form's height when it has `height` rows to use: every field, or a window of them. */
export function profileFormHeight(height: number): number {
  return Math.min(height, FORM_CHROME + PROFILE_FIELDS.length);
}

/** Props of {@link ProfileForm}. */
export interface ProfileFormProps {
  title: string;
  initial: ProfileValues;
  /** A problem keeps the form open (one naming a field takes the manager there); undefined closes it. */
  onSubmit: (values: ProfileValues) => Promise<FormProblem>;
  onCancel: () => void;
  /** The rows it may take; fewer than its fields scroll with the focus. */
  height: number;
}

/**
 * A profile's fields in a form that fits the terminal: when there are more fields than rows, the
 * window follows the focused field. The identifying rule is shown before anything is sent, in
 * warning colour while no identifying field is filled.
 */
export function ProfileForm({ title, initial, onSubmit, onCancel, height }: ProfileFormProps) {
  const theme = useTheme();
  const count = PROFILE_FIELDS.length;
  const active = useFocus().kind === "form";
  const [state, dispatch] = useFormKeys(
    initial as Record<string, string>,
    PROFILE_FIELDS,
    (v) => onSubmit(v as ProfileValues),
    onCancel,
    active,
  );
  const labelWidth = Math.max(...PROFILE_FIELDS.map((f) => f.label.length)) + 2;
  const [ref, room] = useValueRoom(labelWidth);
  // A long value being edited takes more lines: the window of fields gives them up.
  const focusedLong = isLongValue(state.values[PROFILE_FIELDS[state.focus]?.name ?? ""] ?? "", room);
  const extra = focusedLong ? EDITED_FIELD_LINES - 1 : 0;
  const rows = Math.max(1, Math.min(count, height - FORM_CHROME - extra));
  const offset = Math.min(Math.max(0, state.focus - Math.floor(rows / 2)), count - rows);
  const shown = PROFILE_FIELDS.slice(offset, offset + rows);
  const identified = IDENTIFYING_FIELDS.some((f) => (state.values[f] ?? "").trim() !== "");
  return (
    <Box ref={ref} flexDirection="column" borderStyle="round" paddingX={1} flexShrink={0}>
      <Txt bold wrap="truncate-end">
        {title}
      </Txt>
      <Txt color={identified ? theme.muted : theme.warn} wrap="truncate-end">
        {IDENTIFYING_RULE}
      </Txt>
      {shown.map((f, i) => (
        <FieldRow
          key={f.name}
          field={f}
          labelWidth={labelWidth}
          room={room}
          editing={offset + i === state.focus}
          active={active}
          state={state}
          dispatch={dispatch}
          hintWhileEditing
        />
      ))}
      {state.problem ? (
        <Box height={1} overflow="hidden">
          <Txt color={theme.bad} wrap="truncate-end">
            ! {state.problem}
          </Txt>
        </Box>
      ) : (
        <Txt color={theme.muted} wrap="truncate-end">
          {`field ${state.focus + 1} of ${count} · tab/↓ next · enter save · esc cancel · an emptied field is removed`}
        </Txt>
      )}
    </Box>
  );
}
