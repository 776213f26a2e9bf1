import { Box } from "ink";
import { exportProblem, useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import { expectedOf } from "../../../state/screens.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { type Column, wrapLines } from "../../components/columns.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useWidgetList } from "../../components/use-list.js";
import { useKeys } from "../../keyboard.js";
import { useTheme } from "../../theme.js";

/**
 * A list to choose from: j/k or ↑/↓, enter chooses, esc goes back; has the keyboard while
 * `active` (the number keys stay the shell's: they show screens).
 */
export function Picker<T>({
  title,
  note,
  rows,
  columns,
  rowKey,
  height,
  width,
  onPick,
  onBack,
  active,
  empty,
  option,
}: {
  title: string;
  note?: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T, index: number) => string;
  height: number;
  width: number;
  onPick: (index: number) => void;
  onBack: () => void;
  active: boolean;
  empty?: string;
  /** A one-key switch of the picker (a letter), said under the list with whether it is on. */
  option?: { key: string; label: string; on: boolean; toggle: () => void };
}) {
  const theme = useTheme();
  // The note is read whole: wrapped, never cut.
  const noteLines = note ? wrapLines(note, width, 3) : [];
  const listHeight = Math.max(3, height - 2 - noteLines.length);
  const [list, onList] = useWidgetList(rows.length, listRows(listHeight));
  useKeys(
    (input, key) => {
      if (onList(input, key)) return true;
      if (key.escape) onBack();
      else if (key.return && rows.length > 0) onPick(Math.min(list.cursor, rows.length - 1));
      else if (option && input === option.key) option.toggle();
      else return false;
      return true;
    },
    { isActive: active },
  );
  return (
    <Box flexDirection="column">
      <Txt bold wrap="truncate-end">
        {title}
      </Txt>
      {noteLines.map((line) => (
        <Txt key={line} color={theme.muted}>
          {line}
        </Txt>
      ))}
      <ColumnList
        columns={columns}
        rows={rows}
        state={list}
        height={listHeight}
        width={width}
        rowKey={rowKey}
        empty={empty ?? "Nothing to choose."}
      />
      <Txt color={theme.muted}>
        j/k move · enter choose · esc back
        {option ? ` · ${option.key} ${option.label}: ${option.on ? "on" : "off"}` : ""}
      </Txt>
    </Box>
  );
}

const EDIT_FIELDS: FieldSpec[] = [{ name: "count", label: "Count", hint: "a quantity, or +N / -N" }];
const EXPORT_FIELDS: FieldSpec[] = [{ name: "path", label: "File" }];
const RESOLVE_FIELDS: FieldSpec[] = [{ name: "text", label: "Item", hint: "its SKU, UPC or name" }];

/** The rows the open form takes. */
export function stocktakeFormHeight(kind: string): number {
  if (kind === "edit") return formHeight(EDIT_FIELDS, true);
  if (kind === "export") return formHeight(EXPORT_FIELDS, true);
  if (kind === "resolve") return formHeight(RESOLVE_FIELDS, true);
  return 0;
}

/** The form open over the Stocktake screen: edit a line, export, or resolve an unknown code. */
export function StocktakeForm() {
  const store = useLoadedStoreApi();
  const form = useLoadedStore((s) => s.stocktake.form);
  const count = useLoadedStore((s) => s.stocktake.count);
  const s = () => store.getState();
  const close = () => s().stocktakeOpenForm({ kind: "none" });
  switch (form.kind) {
    case "none":
      return null;
    case "edit": {
      const item = count?.items.get(form.variationId);
      const at = count?.lineAt.get(form.variationId);
      const counted = at === undefined ? undefined : count?.lines[at]?.quantity;
      return (
        <FormView
          title={`Count of ${item?.name ?? form.variationId}`}
          note={`SKU ${item?.sku ?? "—"} · expected ${(count && expectedOf(count, form.variationId)) ?? "…"} · counted ${counted ?? "nothing yet"}`}
          fields={EDIT_FIELDS}
          initial={{ count: counted ?? "" }}
          onSubmit={(v) => s().stocktakeSetLine(form.variationId, v.count ?? "")}
          onCancel={close}
        />
      );
    }
    case "export":
      return (
        <FormView
          title={`Export the ${form.what} of ${form.countId} as CSV`}
          note={
            form.what === "items"
              ? "SKU, UPC, name, expected, counted, variance, unit price, variance value, counted at, counted by."
              : "Location, kind, counted by, started, committed, lines, units and value over and short."
          }
          fields={EXPORT_FIELDS}
          initial={{ path: s().stocktakeExportPath(form.what, form.countId) }}
          onSubmit={async (v) => {
            // A file already there is asked about in the one confirmation; the form has closed by then.
            const written = await s().stocktakeExport(form.what, form.countId, v.path ?? "");
            return written.ok ? undefined : exportProblem(written.error);
          }}
          onCancel={close}
        />
      );
    case "resolve":
      return (
        <FormView
          title={`Which item is ${form.code}?`}
          note="It is then counted as that item; the code stays listed as resolved."
          fields={RESOLVE_FIELDS}
          initial={{ text: "" }}
          onSubmit={(v) => s().stocktakeResolveUnknown(form.code, v.text ?? "")}
          onCancel={close}
        />
      );
  }
}
