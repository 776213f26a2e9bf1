import { Box } from "ink";
import { durationMinutes } from "../../../domain/time.js";
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
import { FormView } from "../../components/FormView.js";
import { Txt } from "../../components/Txt.js";
import { useList } from "../../components/use-list.js";
import { WindowedList } from "../../components/WindowedList.js";
import type { Command } from "../../keymap.js";
import { useScreenCommands } from "../../screen-commands.js";
import { useTheme } from "../../theme.js";

const FIELDS = [
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
export function BreakTypesScreen({ active, height, width }: { active: boolean; height: number; width: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const types = useAppStore(useShallow(selectBreakTypes));
  const form = useAppStore((s) => s.breakTypes.form);
  const location = useAppStore(selectLocation);
  const listHeight = Math.max(3, height - 3 - (form.kind === "none" ? 0 : 8));
  const [list, onList] = useList(types.length, listHeight);
  const s = () => store.getState();
  const atLimit = types.length >= MAX_BREAK_TYPES_PER_LOCATION;

  const onCommand = (c: Command) => {
    if (onList(c)) return;
    const t = types[list.cursor];
    switch (c) {
      case "addBreakType":
        s().openBreakTypeForm({ kind: "add" });
        return;
      case "editBreakType":
        if (t?.id) s().openBreakTypeForm({ kind: "edit", id: t.id });
        return;
      case "deleteBreakType":
        if (t?.id) {
          const id = t.id;
          s().openOverlay({
            kind: "confirm",
            message: `Delete the break type "${t.break_name}"? Shifts that used it keep their breaks.`,
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
      <Txt>
        <Txt bold>Break types</Txt>
        <Txt color={atLimit ? theme.warn : theme.muted}>
          {" "}
          at {location?.name ?? "—"} · {types.length} of {MAX_BREAK_TYPES_PER_LOCATION}
          {atLimit ? " (the limit)" : ""}
        </Txt>
      </Txt>
      <Txt color={theme.muted}>{`  ${"Name".padEnd(24)}${"Length".padStart(8)}  Pay`}</Txt>
      <WindowedList
        items={types}
        state={list}
        height={listHeight}
        rowKey={(t) => t.id ?? t.break_name}
        empty="No break types at this location; a adds one."
        renderRow={(t) => (
          <Txt>
            {" "}
            {t.break_name.slice(0, 23).padEnd(24)}
            {`${Math.round(durationMinutes(t.expected_duration) ?? 0)} min`.padStart(8)}
            {"  "}
            {t.is_paid ? "paid" : "unpaid"}
          </Txt>
        )}
      />
      {form.kind === "add" ? (
        <FormView
          title="Add a break type"
          note={
            atLimit
              ? `This location already has ${MAX_BREAK_TYPES_PER_LOCATION} break types, the most allowed; delete or change one instead.`
              : `At most ${MAX_BREAK_TYPES_PER_LOCATION} per location; ${MAX_BREAK_TYPES_PER_LOCATION - types.length} left.`
          }
          fields={FIELDS}
          initial={{ name: "", minutes: "15", paid: "n" }}
          onSubmit={(v) => s().addBreakType(asInput(v))}
          onCancel={() => s().openBreakTypeForm({ kind: "none" })}
        />
      ) : null}
      {editing?.id ? (
        <FormView
          title={`Change ${editing.break_name}`}
          fields={FIELDS}
          initial={{ ...breakTypeInputOf(editing) }}
          onSubmit={(v) => s().updateBreakTypeFields(editing.id ?? "", asInput(v))}
          onCancel={() => s().openBreakTypeForm({ kind: "none" })}
        />
      ) : null}
    </Box>
  );
}
