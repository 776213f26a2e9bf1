import { Box } from "ink";
import { memberName } from "../../../domain/shifts.js";
import type { CountScope } from "../../../domain/stocktake.js";
import { useAppStore, useAppStoreApi, writeProblem } from "../../../state/index.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { type Column, wrapLines } from "../../components/columns.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useWidgetList } from "../../components/use-list.js";
import { useKeys } from "../../keyboard.js";
import { useHasFocus } from "../../shell.js";
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
      <Txt color={theme.muted}>j/k move · enter choose · esc back</Txt>
    </Box>
  );
}

interface ScopeChoice {
  label: string;
  scope: CountScope | "category" | "search" | "skus";
}

const SCOPE_COLUMNS: Column<ScopeChoice>[] = [{ header: "What to count", width: 20, flex: 1, render: (r) => r.label }];

const SEARCH_FIELDS: FieldSpec[] = [{ name: "text", label: "Search", hint: "words of the item's name, SKU or UPC" }];
const SKU_FIELDS: FieldSpec[] = [{ name: "skus", label: "SKUs", hint: "separated by spaces or commas" }];

/** Starting a count: what to count (full, or a cycle count of a category, a search or SKUs), then who counts. */
export function StartView({ height, width }: { height: number; width: number }) {
  const store = useAppStoreApi();
  const active = useHasFocus("start");
  const view = useAppStore((s) => s.stocktake.view);
  const categories = useAppStore((s) => s.stocktake.categories);
  const members = useAppStore((s) => s.stocktake.members);
  const busy = useAppStore((s) => s.stocktake.busy);
  const locationName = useAppStore((s) => s.locations.find((l) => l.id === s.locationId)?.name ?? "this location");
  const s = () => store.getState();
  const back = () => s().stocktakeShow({ kind: "home" });
  if (view.kind !== "start") return null;
  if (busy) return <Txt>{busy}…</Txt>;
  switch (view.step) {
    case "kind": {
      const choices: ScopeChoice[] = [
        { label: `Full count: every tracked item at ${locationName}`, scope: { kind: "full" } },
        { label: "Cycle count: one category", scope: "category" },
        { label: "Cycle count: the items a search finds", scope: "search" },
        { label: "Cycle count: a list of SKUs", scope: "skus" },
      ];
      return (
        <Picker
          key="kind"
          title={`Start a count at ${locationName}`}
          rows={choices}
          columns={SCOPE_COLUMNS}
          rowKey={(r) => r.label}
          height={height}
          width={width}
          active={active}
          onPick={(i) => {
            const c = choices[i];
            if (c) void s().stocktakeChooseScope(c.scope);
          }}
          onBack={back}
        />
      );
    }
    case "category":
      return (
        <Picker
          key="category"
          title="Which category?"
          rows={categories}
          columns={[{ header: "Category", width: 20, flex: 1, render: (c) => c.name }]}
          rowKey={(c) => c.id}
          height={height}
          width={width}
          active={active}
          onPick={(i) => {
            const c = categories[i];
            if (c) void s().stocktakeChooseScope({ kind: "category", categoryIds: [c.id], label: c.name });
          }}
          onBack={() => s().stocktakeShow({ kind: "start", step: "kind" })}
          empty="The catalog has no categories."
        />
      );
    case "search":
      return (
        <FormView
          title="Count the items a search finds"
          fields={SEARCH_FIELDS}
          initial={{ text: "" }}
          onSubmit={async (v) => {
            const text = (v.text ?? "").trim();
            if (!text) return "Type words to search by.";
            await s().stocktakeChooseScope({ kind: "search", text });
            return undefined;
          }}
          onCancel={() => s().stocktakeShow({ kind: "start", step: "kind" })}
        />
      );
    case "skus":
      return (
        <FormView
          title="Count a list of SKUs"
          fields={SKU_FIELDS}
          initial={{ skus: "" }}
          onSubmit={async (v) => {
            const skus = [...new Set((v.skus ?? "").split(/[\s,;]+/).filter(Boolean))];
            if (skus.length === 0) return "Type at least one SKU.";
            await s().stocktakeChooseScope({ kind: "skus", skus });
            return undefined;
          }}
          onCancel={() => s().stocktakeShow({ kind: "start", step: "kind" })}
        />
      );
    case "counter":
      return (
        <Picker
          key="counter"
          title="Who is counting?"
          note="Each line records who counted it; with a personal access token the account owner is the one signed in."
          rows={members}
          columns={[
            {
              header: "Team member",
              width: 20,
              flex: 1,
              render: (m) => `${memberName(m)}${m.is_owner ? " (signed in)" : ""}`,
            },
          ]}
          rowKey={(m) => m.id ?? memberName(m)}
          height={height}
          width={width}
          active={active}
          onPick={(i) => {
            const m = members[i];
            void s()
              .stocktakeStart(m?.id ?? "")
              .then((problem) => {
                if (problem) s().setStatus({ kind: "rule", text: problem });
              });
          }}
          onBack={() => s().stocktakeShow({ kind: "start", step: "kind" })}
          empty="No active team members at this location."
        />
      );
  }
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
  const store = useAppStoreApi();
  const form = useAppStore((s) => s.stocktake.form);
  const count = useAppStore((s) => s.stocktake.count);
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
          note={`SKU ${item?.sku ?? "—"} · expected ${count?.expected.get(form.variationId)?.quantity ?? "0"} · counted ${counted ?? "nothing yet"}`}
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
            return written.ok ? undefined : writeProblem(written.error);
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
