import { Box } from "ink";
import { checkBreakTypeRoom } from "../../../domain/shifts.js";
import { durationMinutes } from "../../../domain/time.js";
import type { BreakType } from "../../../spec/generated/types.js";
import {
  type BreakTypeInput,
  breakTypeInputOf,
  MAX_BREAK_TYPES_PER_LOCATION,
  selectBreakTypes,
  selectLocation,
  useAppStore,
  useAppStoreApi,
  useShallow,
} from "../../../state/index.js";
import { ColumnList } from "../../components/ColumnList.js";
import { type Column, fitCell } from "../../components/columns.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useList } from "../../components/use-list.js";
import type { Command } from "../../keymap.js";
import { useScreenCommands } from "../../screen-commands.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";

const COLUMNS: Column<BreakType>[] = [
  { header: "Name", width: 16, flex: 1, render: (t) => t.break_name },
  {
    header: "Length",
    width: 8,
    align: "right",
    render: (t) => `${Math.round(durationMinutes(t.expected_duration) ?? 0)} min`,
  },
  { header: "Pay", width: 6, render: (t) => (t.is_paid ? "paid" : "unpaid") },
];

const FIELDS: FieldSpec[] = [
  { name: "name", label: "Name" },
  { name: "minutes", label: "Minutes", hint: "expected length" },
  { name: "paid", label: "Paid", hint: "y or n" },
];

const asInput = (v: Record<string, string>): BreakTypeInput => ({
  name: v.name ?? "",
  minutes: v.minutes ?? "",
  paid: v.paid ?? "",
});

/** The location's break types: add (at most 3), rename, change length and pay, delete. */
export function BreakTypesScreen({ active, height, width }: ScreenProps) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const types = useAppStore(useShallow(selectBreakTypes));
  const form = useAppStore((s) => s.breakTypes.form);
  const location = useAppStore(selectLocation);
  const listHeight = Math.max(3, height - 1 - (form.kind === "none" ? 0 : formHeight(FIELDS, true)));
  const [list, onList] = useList(types.length, listHeight - 1);
  const s = () => store.getState();
  const atLimit = types.length >= MAX_BREAK_TYPES_PER_LOCATION;

  const onCommand = (c: Command) => {
    if (onList(c)) return;
    const t = types[list.cursor];
    switch (c) {
      case "addBreakType": {
        // At the limit the form would only refuse on submit: say why now, before anything opens.
        const full = checkBreakTypeRoom(types);
        if (full) s().setStatus({ kind: "rule", text: full });
        else s().openBreakTypeForm({ kind: "add" });
        return;
      }
      case "editBreakType":
        if (t?.id) s().openBreakTypeForm({ kind: "edit", id: t.id });
        return;
      case "deleteBreakType":
        if (t?.id) {
          const id = t.id;
          s().openOverlay({
            kind: "confirm",
            message: `Delete the break type "${fitCell(t.break_name, 40).trimEnd()}"? Shifts that used it keep their breaks.`,
            destructive: true,
            onYes: () => s().deleteBreakType(id),
          });
        }
        return;
      case "reload":
        void s().loadBreakTypes();
        return;
      default:
        return;
    }
  };
  useScreenCommands(["list", "break-types"], onCommand, active && form.kind === "none");

  const editing = form.kind === "edit" ? types.find((t) => t.id === form.id) : undefined;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>Break types</Txt>
        <Txt color={atLimit ? theme.warn : theme.muted}>
          {" "}
          at {location?.name ?? "—"} · {types.length} of {MAX_BREAK_TYPES_PER_LOCATION}
          {atLimit ? " (the limit)" : ""}
        </Txt>
      </Txt>
      <ColumnList
        columns={COLUMNS}
        rows={types}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(t) => t.id ?? t.break_name}
        empty="No break types at this location; a adds one."
      />
      {form.kind === "add" ? (
        <FormView
          title="Add a break type"
          note={`At most ${MAX_BREAK_TYPES_PER_LOCATION} per location, each name once; ${Math.max(0, MAX_BREAK_TYPES_PER_LOCATION - types.length)} left.`}
          fields={FIELDS}
          initial={{ name: "", minutes: "15", paid: "n" }}
          onSubmit={(v) => s().addBreakType(asInput(v))}
          onCancel={() => s().openBreakTypeForm({ kind: "none" })}
        />
      ) : null}
      {editing?.id ? (
        <FormView
          title={`Change ${fitCell(editing.break_name, 40).trimEnd()}`}
          note="Shifts already recorded keep the break they had."
          fields={FIELDS}
          initial={{ ...breakTypeInputOf(editing) }}
          onSubmit={(v) => s().updateBreakTypeFields(editing.id ?? "", asInput(v))}
          onCancel={() => s().openBreakTypeForm({ kind: "none" })}
        />
      ) : null}
    </Box>
  );
}
