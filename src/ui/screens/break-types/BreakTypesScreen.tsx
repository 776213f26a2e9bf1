import { Box } from "ink";
import { useMemo } from "react";
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
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { type Column, fitCell } from "../../components/columns.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
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
export function BreakTypesScreen({ height, width }: ScreenProps) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const types = useAppStore(useShallow(selectBreakTypes));
  const form = useAppStore((s) => s.breakTypes.form);
  const location = useAppStore(selectLocation);
  const listHeight = Math.max(3, height - 1 - (form.kind === "none" ? 0 : formHeight(FIELDS, true)));
  const ids = useMemo(() => types.map((t) => t.id ?? t.break_name), [types]);
  const list = useListWindow("break-types", ids, listRows(listHeight));
  const s = () => store.getState();
  const atLimit = types.length >= MAX_BREAK_TYPES_PER_LOCATION;

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
