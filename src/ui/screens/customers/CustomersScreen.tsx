import { Box } from "ink";
import { useEffect, useMemo } from "react";
import { customerSearchOf, describeCustomerSearch } from "../../../domain/customer-search.js";
import { classifyQuery, customerName, describeQuery, sourceLabel } from "../../../domain/customers.js";
import { type DuplicateReason, duplicateGroups, duplicateMarks } from "../../../domain/customers-duplicates.js";
import { profileValues } from "../../../domain/customers-profile.js";
import type { Customer } from "../../../spec/generated/types.js";
import {
  selectCountry,
  selectKeptCustomers,
  selectTimeZone,
  useLoadedStore,
  useLoadedStoreApi,
  useShallow,
} from "../../../state/index.js";
import {
  CUSTOMER_LIST,
  type CustomerResults,
  type CustomersView,
  describeIndexSync,
  filterInputOf,
} from "../../../state/screens.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { fitCell } from "../../components/columns.js";
import { EntryLine } from "../../components/EntryLine.js";
import { FormView } from "../../components/FormView.js";
import { useNotReadText } from "../../components/NotRead.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { customerColumns, DUPLICATE_MARK, KEPT_SIGN } from "./columns.js";
import { customerRows, PROFILE_ONLY, paneLayout, SEARCH_FIELD } from "./commands.js";
import { FILTER_FIELDS, ProfileForm } from "./forms.js";
import { ProfilePane } from "./ProfilePane.js";
import { CardsView, ConflictView, DuplicatesView, GroupsView } from "./views.js";

/** Rows of the profile pane when it sits below the list. */
const PANE_BELOW_HEIGHT = 7;
/** Load the next page when the cursor comes this close to the last loaded row. */
const PREFETCH_ROWS = 10;

/** How many match: the one number the list's position line counts to as well. */
function countText(r: CustomerResults, filling: boolean): string {
  if (r.phase === "loading" && r.rows.length === 0) return "searching…";
  const n = r.count;
  const many = r.countIsFloor ? "+" : "";
  const text =
    n === undefined
      ? `${r.rows.length.toLocaleString("en-US")}+ shown`
      : `${n.toLocaleString("en-US")}${many} match${n === 1 && !many ? "" : "es"}${filling ? " so far" : ""}`;
  return r.phase === "loading" ? `${text} · searching…` : text;
}

/** The search line: its own component, so a typed key re-renders it and not the list. */
function SearchLine({ width }: { width: number }) {
  const store = useLoadedStoreApi();
  const line = useLoadedStore((st) => st.customers.line);
  return (
    <EntryLine
      field={SEARCH_FIELD}
      label="Find: "
      value={line}
      onChange={(v) => store.getState().customersSetLine(v)}
      typing="name, email, phone or reference id"
      resting="/ to search"
      maxLength={200}
      width={width}
    />
  );
}

/** What the search line was taken to mean, the filters, the count and the order, on one line. */
function InfoLine({ width }: { width: number }) {
  const theme = useTheme();
  const i = useLoadedStore(
    useShallow((st) => ({
      line: st.customers.line,
      filters: st.customers.filters,
      sort: st.customers.sort,
      results: st.customers.results,
      groups: st.customers.groups,
      index: st.customers.index,
      country: selectCountry(st),
    })),
  );
  if (i.results.problem) {
    return (
      <Box height={1} width={width} overflow="hidden">
        <Txt color={theme.warn}>{fitCell(`! ${i.results.problem}`, width).trimEnd()}</Txt>
      </Box>
    );
  }
  const f = i.filters;
  const filterWords = [
    f.groupId ? `group ${i.groups.find((g) => g.id === f.groupId)?.name ?? f.groupId}` : "",
    f.sources ? `${f.sources.rule === "EXCLUDE" ? "not " : ""}from ${f.sources.values.map(sourceLabel).join("/")}` : "",
    f.createdFrom || f.createdTo ? `created ${f.createdFrom ?? "…"}–${f.createdTo ?? "…"}` : "",
  ].filter(Boolean);
  // Where it looked, in plain words: the index on this machine, or the service's search.
  const fromIndex = i.results.from === "index";
  const filling = i.index.phase === "filling" || i.index.phase === "opening";
  const info = [
    fromIndex ? describeCustomerSearch(customerSearchOf(i.line, i.country)) : describeQuery(classifyQuery(i.line)),
    filterWords.length ? `filters: ${filterWords.join(", ")}` : "",
    countText(i.results, fromIndex && filling),
    i.sort === "name" ? "by name" : "newest first",
    // Said while it fills; that there is none here, the status bar said once.
    filling ? describeIndexSync(i.index) : "",
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <Box height={1} width={width} overflow="hidden">
      <Txt color={theme.muted}>{fitCell(info, width).trimEnd()}</Txt>
    </Box>
  );
}

/** Duplicate marks of the rows: shared emails or phones among them, found by a scan, or named by the service. */
function useMarks(rows: readonly Customer[]): Map<string, DuplicateReason[]> {
  const scanGroups = useLoadedStore((st) => st.customers.scan.groups);
  const probed = useLoadedStore((st) => st.customers.probed);
  const country = useLoadedStore(selectCountry);
  return useMemo(() => {
    const all = new Map<string, DuplicateReason[]>(duplicateMarks(duplicateGroups(rows, country)));
    const add = (id: string, reasons: readonly DuplicateReason[]) => {
      const have = all.get(id) ?? [];
      all.set(id, [...have, ...reasons.filter((r) => !have.includes(r))]);
    };
    for (const [id, reasons] of duplicateMarks(scanGroups)) add(id, reasons);
    for (const [id, reasons] of Object.entries(probed)) add(id, reasons);
    return all;
  }, [rows, scanGroups, probed, country]);
}

/** The filter panel over the search line. */
function FiltersView({ width }: { width: number }) {
  const store = useLoadedStoreApi();
  const s = () => store.getState();
  const filters = useLoadedStore((st) => st.customers.filters);
  const groups = useLoadedStore((st) => st.customers.groups);
  return (
    <Box flexDirection="column" width={width}>
      <SearchLine width={width} />
      <InfoLine width={width} />
      <FormView
        title="Filters (they combine: every one must hold)"
        fields={FILTER_FIELDS}
        initial={{ ...filterInputOf(filters, groups) }}
        note={`Groups: ${groups.map((g) => g.name).join(", ") || "none"}`}
        onSubmit={(values) =>
          s().customersApplyFilters({
            group: values.group ?? "",
            sources: values.sources ?? "",
            rule: values.rule ?? "",
            from: values.from ?? "",
            to: values.to ?? "",
          })
        }
        onCancel={() => s().customersOpenView({ kind: "list" })}
      />
    </Box>
  );
}

/** A view over the list: the filters, a profile form, a conflict, a profile's groups or cards, the duplicates. */
function CustomerView({ view: v, height, width }: { view: CustomersView; height: number; width: number }) {
  const store = useLoadedStoreApi();
  const s = () => store.getState();
  const groups = useLoadedStore((st) => st.customers.groups);
  const now = useLoadedStore((st) => st.now);
  const customerId = v.kind === "groups" || v.kind === "cards" ? v.customerId : undefined;
  const customer = useLoadedStore((st) =>
    customerId
      ? (st.customers.local[customerId] ?? st.customers.results.rows.find((r) => r.id === customerId))
      : undefined,
  );
  const country = useLoadedStore(selectCountry);
  const toList = () => s().customersOpenView({ kind: "list" });
  switch (v.kind) {
    case "list":
      return null;
    case "filters":
      return <FiltersView width={width} />;
    case "create":
      return (
        <ProfileForm
          title="New customer profile"
          initial={profileValues()}
          height={height}
          onSubmit={(values) => s().customersCreate(values)}
          onCancel={toList}
        />
      );
    case "edit":
      return (
        <ProfileForm
          key={`${v.base.id}:${v.base.version}`}
          title={`Edit ${customerName(v.base, country)} (version ${v.base.version ?? 0})`}
          initial={v.initial ?? profileValues(v.base, country)}
          height={height}
          onSubmit={(values) => s().customersSave(values)}
          onCancel={toList}
        />
      );
    case "conflict":
      return <ConflictView view={v} height={height} width={width} />;
    case "groups":
      if (!customer) return <Txt>That profile is no longer here.</Txt>;
      return <GroupsView customer={customer} groups={groups} height={height} width={width} />;
    case "cards":
      if (!customer) return <Txt>That profile is no longer here.</Txt>;
      return <CardsView customer={customer} now={now} height={height} width={width} />;
    case "duplicates":
      return <DuplicatesView height={height} width={width} />;
    default: {
      const unhandled: never = v;
      throw new Error(`unhandled view ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Where the list and the profile go at a size. */
function resultsLayout(width: number, height: number) {
  const layout = paneLayout(width, height);
  const paneWidth = layout === "side" ? Math.min(48, Math.floor(width * 0.38)) : width;
  const below = layout === "below" ? PANE_BELOW_HEIGHT + 1 : 0;
  return {
    layout,
    paneWidth,
    listWidth: layout === "side" ? width - paneWidth - 1 : width,
    listHeight: Math.max(3, height - 2 - below),
  };
}

/** The search line, the results (paged as the cursor nears their end) and the selected profile beside, below or alone. */
const NO_MATCH = "No profile matches. n makes a new one.";
/** What the list says when it has no rows, by the search's phase. */
const EMPTY: Record<string, string> = {
  loading: "Searching…",
  failed: "The search did not go through; r tries again.",
};

function ResultsView({ height, width }: { height: number; width: number }) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const rows = useLoadedStore((st) => st.customers.results.rows);
  const more = useLoadedStore((st) => st.customers.results.cursor !== undefined);
  const phase = useLoadedStore((st) => (st.customers.results.rows.length === 0 ? st.customers.results.phase : "ready"));
  const groups = useLoadedStore((st) => st.customers.groups);
  const profileOnly = useLoadedStore((st) => st.flags[PROFILE_ONLY] === true);
  const timeZone = useLoadedStore(selectTimeZone);
  const now = useLoadedStore((st) => st.now);
  const { layout, paneWidth, listWidth, listHeight } = resultsLayout(width, height);
  const ids = useLoadedStore((st) => customerRows(st).ids);
  const list = useListWindow(CUSTOMER_LIST, ids, listRows(listHeight));
  const selected: Customer | undefined = rows[list.cursor];
  const country = useLoadedStore(selectCountry);
  const count = useLoadedStore(useShallow((st) => [st.customers.results.count, st.customers.results.countIsFloor]));
  const marks = useMarks(rows);
  const kept = useLoadedStore(selectKeptCustomers);
  // Nothing found in an index that is still filling is not "no profile": while the service cannot be
  // reached, that is what the list says.
  const filling = useLoadedStore(
    (st) => st.customers.results.from === "index" && ["filling", "opening"].includes(st.customers.index.phase),
  );
  const unread = useNotReadText("the customers", NO_MATCH);
  const columns = useMemo(() => customerColumns(marks, timeZone, country, kept), [marks, timeZone, country, kept]);

  // Pages are read as the cursor nears the end of what is loaded, never all at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the cursor or the rows move.
  useEffect(() => {
    if (more && list.cursor >= rows.length - listRows(listHeight) - PREFETCH_ROWS) {
      void store.getState().customersLoadMore();
    }
  }, [list.cursor, rows.length, more]);

  const pane = (w: number, h: number) => (
    <ProfilePane
      customer={selected}
      groups={groups}
      duplicates={selected?.id ? marks.get(selected.id) : undefined}
      now={now}
      timeZone={timeZone}
      width={w}
      height={h}
    />
  );
  const listView = (
    <ColumnList
      columns={columns}
      rows={rows}
      state={list}
      height={listHeight}
      width={listWidth}
      rowKey={(r, i) => r.id ?? String(i)}
      {...(typeof count[0] === "number" ? { total: count[0], totalIsFloor: count[1] === true } : {})}
      empty={EMPTY[phase] ?? (filling ? unread : NO_MATCH)}
    />
  );
  const legend = [
    kept.size > 0 ? `${KEPT_SIGN} changes kept, not yet sent` : "",
    marks.size > 0 ? `${DUPLICATE_MARK} shares an email or phone` : "",
  ].filter(Boolean);
  const paneTitle = ["── profile", ...legend].join(" · ");
  return (
    <Box flexDirection="column" width={width}>
      <SearchLine width={width} />
      <InfoLine width={width} />
      {profileOnly ? (
        pane(width, height - 2)
      ) : layout === "side" ? (
        <Box flexDirection="row" width={width}>
          <Box width={listWidth} flexShrink={0}>
            {listView}
          </Box>
          <Box width={1} flexShrink={0} />
          {pane(paneWidth, listHeight)}
        </Box>
      ) : (
        listView
      )}
      {layout === "below" && !profileOnly ? (
        <Box flexDirection="column" width={width}>
          <Txt color={theme.muted}>{fitCell(paneTitle, width).trimEnd()}</Txt>
          {pane(width, PANE_BELOW_HEIGHT)}
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * Customer lookup: one search line, always ready (email, phone in any spelling, reference id, or
 * a name); a windowed result list that pages as the cursor moves; the profile beside or below it;
 * create, edit, delete, groups, cards on file, duplicates, and version conflicts side by side.
 */
export function CustomersScreen({ height, width }: ScreenProps) {
  const view = useLoadedStore((st) => st.customers.view);
  if (view.kind === "list") return <ResultsView height={height} width={width} />;
  return <CustomerView view={view} height={height} width={width} />;
}
