import { checkBreakTypeRoom } from "../../../domain/shifts.js";
import { type AppState, selectBreakTypes } from "../../../state/index.js";
import { ch, defineCommands, type ListRows, listCommands, named, selectedRow } from "../../commands.js";
import { fitCell } from "../../components/columns.js";

/** The break types list: its rows' ids. */
export function breakTypeRows(s: AppState): ListRows {
  return { list: "break-types", ids: selectBreakTypes(s).map((t) => t.id ?? t.break_name) };
}

/** The break type under the cursor. */
function selected(s: AppState) {
  const id = selectedRow(s, breakTypeRows(s));
  return selectBreakTypes(s).find((t) => (t.id ?? t.break_name) === id);
}

const noneSelected = (s: AppState) => (selected(s)?.id ? undefined : "There is no break type here yet: a adds one.");

/** The break types screen's commands. */
export const BREAK_TYPES_COMMANDS = defineCommands({
  ...listCommands(breakTypeRows),
  add: {
    keys: [ch("a")],
    label: "a",
    description: "add a break type",
    short: "add",
    write: true,
    hint: 2,
    run: (s) => s.openBreakTypeForm({ kind: "add" }),
    // At the limit the form would only refuse on submit: the reason is said before anything opens.
    unavailable: (s) =>
      s.breakTypes.loaded ? checkBreakTypeRoom(selectBreakTypes(s)) : "The break types are still being read.",
  },
  edit: {
    keys: [named("return")],
    label: "enter",
    description: "rename / change",
    short: "change",
    write: true,
    hint: 3,
    run: (s) => {
      const id = selected(s)?.id;
      if (id) s.openBreakTypeForm({ kind: "edit", id });
    },
    unavailable: noneSelected,
  },
  delete: {
    keys: [ch("x")],
    label: "x",
    description: "delete",
    write: true,
    hint: 4,
    run: (s) => {
      const t = selected(s);
      const id = t?.id;
      if (!t || !id) return;
      s.ask({
        message: `Delete the break type "${fitCell(t.break_name, 40).trimEnd()}"? Shifts that used it keep their breaks.`,
        risky: true,
        yes: "Delete",
        onYes: () => s.deleteBreakType(id),
      });
    },
    unavailable: noneSelected,
  },
});
