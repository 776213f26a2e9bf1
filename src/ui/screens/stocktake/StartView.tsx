import { memberName } from "../../../domain/shifts.js";
import type { CountScope } from "../../../domain/stocktake.js";
import { type LoadedState, useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import type { Column } from "../../components/columns.js";
import { FormView } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useHasFocus } from "../../shell.js";
import { Picker } from "./forms.js";

interface ScopeChoice {
  label: string;
  scope: CountScope | "category" | "search" | "skus";
}

const SCOPE_COLUMNS: Column<ScopeChoice>[] = [{ header: "What to count", width: 20, flex: 1, render: (r) => r.label }];
const CATEGORY_COLUMNS: Column<LoadedState["stocktake"]["categories"][number]>[] = [
  { header: "Category", width: 20, flex: 1, render: (c) => c.name },
];
const MEMBER_COLUMNS: Column<LoadedState["stocktake"]["members"][number]>[] = [
  { header: "Team member", width: 20, flex: 1, render: (m) => `${memberName(m)}${m.is_owner ? " (signed in)" : ""}` },
];
const SEARCH_FIELDS: FieldSpec[] = [{ name: "text", label: "Search", hint: "words of the item's name, SKU or UPC" }];
const SKU_FIELDS: FieldSpec[] = [{ name: "skus", label: "SKUs", hint: "separated by spaces or commas" }];

interface StepProps {
  height: number;
  width: number;
  active: boolean;
}

/** The store's actions, read when called. */
function useActions(): () => LoadedState {
  const store = useLoadedStoreApi();
  return () => store.getState();
}

const toKind = (s: LoadedState) => s.stocktakeShow({ kind: "start", step: "kind" });

/** What to count: everything, or a cycle count of a category, a search or a list of SKUs. */
function KindStep({ height, width, active }: StepProps) {
  const s = useActions();
  const locationName = useLoadedStore(
    (st) => st.locations.find((l) => l.id === st.locationId)?.name ?? "this location",
  );
  const choices: ScopeChoice[] = [
    { label: `Full count: every tracked item at ${locationName}`, scope: { kind: "full" } },
    { label: "Cycle count: one category", scope: "category" },
    { label: "Cycle count: the items a search finds", scope: "search" },
    { label: "Cycle count: a list of SKUs", scope: "skus" },
  ];
  return (
    <Picker
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
      onBack={() => s().stocktakeShow({ kind: "home" })}
    />
  );
}

function CategoryStep({ height, width, active }: StepProps) {
  const s = useActions();
  const categories = useLoadedStore((st) => st.stocktake.categories);
  return (
    <Picker
      title="Which category?"
      rows={categories}
      columns={CATEGORY_COLUMNS}
      rowKey={(c) => c.id}
      height={height}
      width={width}
      active={active}
      onPick={(i) => {
        const c = categories[i];
        if (c) void s().stocktakeChooseScope({ kind: "category", categoryIds: [c.id], label: c.name });
      }}
      onBack={() => toKind(s())}
      empty="The catalog has no categories."
    />
  );
}

function SearchStep() {
  const s = useActions();
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
      onCancel={() => toKind(s())}
    />
  );
}

function SkusStep() {
  const s = useActions();
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
      onCancel={() => toKind(s())}
    />
  );
}

/** Whether the count being started is blind (the counter picker's b). */
const BLIND_FLAG = "stocktake.blind";

function CounterStep({ height, width, active }: StepProps) {
  const s = useActions();
  const members = useLoadedStore((st) => st.stocktake.members);
  const blind = useLoadedStore((st) => st.flags[BLIND_FLAG] ?? false);
  const toggle = () => s().setFlag(BLIND_FLAG, !blind);
  return (
    <Picker
      title="Who is counting?"
      note="Each line records who counted it; with a personal access token the account owner is the one signed in."
      rows={members}
      columns={MEMBER_COLUMNS}
      rowKey={(m) => m.id ?? memberName(m)}
      height={height}
      width={width}
      active={active}
      option={{ key: "b", label: "blind count (expected hidden while counting)", on: blind, toggle }}
      onPick={(i) => {
        const m = members[i];
        void s()
          .stocktakeStart(m?.id ?? "", { blind })
          .then((problem) => {
            if (problem) s().setStatus({ kind: "rule", text: problem });
          });
      }}
      onBack={() => toKind(s())}
      empty="No active team members at this location."
    />
  );
}

/** Starting a count: what to count (full, or a cycle count of a category, a search or SKUs), then who counts. */
export function StartView({ height, width }: { height: number; width: number }) {
  const active = useHasFocus("start");
  const view = useLoadedStore((s) => s.stocktake.view);
  const busy = useLoadedStore((s) => s.stocktake.busy);
  if (view.kind !== "start") return null;
  if (busy) return <Txt>{busy}…</Txt>;
  const props = { height, width, active };
  switch (view.step) {
    case "kind":
      return <KindStep key="kind" {...props} />;
    case "category":
      return <CategoryStep key="category" {...props} />;
    case "search":
      return <SearchStep />;
    case "skus":
      return <SkusStep />;
    case "counter":
      return <CounterStep key="counter" {...props} />;
  }
}
