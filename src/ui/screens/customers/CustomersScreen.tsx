import { Box } from "ink";
import { useEffect, useMemo, useRef } from "react";
import { classifyQuery, customerName, describeQuery, sourceLabel } from "../../../domain/customers.js";
import { type DuplicateReason, duplicateGroups, duplicateMarks } from "../../../domain/customers-duplicates.js";
import { profileValues } from "../../../domain/customers-profile.js";
import type { Customer } from "../../../spec/generated/types.js";
import {
  type CustomerResults,
  filterInputOf,
  selectTimeZone,
  useAppStore,
  useAppStoreApi,
  useShallow,
} from "../../../state/index.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { fitCell } from "../../components/columns.js";
import { FormView } from "../../components/FormView.js";
import { TextField } from "../../components/TextField.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { customerColumns, DUPLICATE_MARK } from "./columns.js";
import { customerRows, PROFILE_ONLY, paneLayout, SEARCH_FIELD } from "./commands.js";
import { FILTER_FIELDS, ProfileForm } from "./forms.js";
import { ProfilePane } from "./ProfilePane.js";
import { CardsView, ConflictView, DuplicatesView, GroupsView } from "./views.js";

/** Rows of the profile pane when it sits below the list. */
const PANE_BELOW_HEIGHT = 7;
/** Load the next page when the cursor comes this close to the last loaded row. */
const PREFETCH_ROWS = 10;

function countText(r: CustomerResults): string {
  if (r.phase === "loading" && r.rows.length === 0) return "searching…";
  const n = r.count;
  const text =
    n === undefined
      ? `${r.rows.length.toLocaleString("en-US")}+ shown`
      : `${n.toLocaleString("en-US")} match${n === 1 ? "" : "es"}`;
  return r.phase === "loading" ? `${text} · searching…` : text;
}

/** The search line: its own component, so a typed key re-renders it and not the list. */
function SearchLine({ width }: { width: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const line = useAppStore((st) => st.customers.line);
  const editing = useHasFocus(SEARCH_FIELD);
  return (
    <Box height={1} width={width} overflow="hidden">
      <Txt color={editing ? theme.accent : theme.muted} bold>
        {"Find: "}
      </Txt>
      <TextField
        // Mounted afresh when the line takes the keyboard, so its cursor starts at the end of the text.
        key={editing ? "editing" : "resting"}
        value={line}
        focus={editing}
        placeholder={editing ? "name, email, phone or reference id" : "/ to search"}
        maxLength={200}
        onChange={(v) => store.getState().customersSetLine(v)}
      />
    </Box>
  );
}

/** What the search line was taken to mean, the filters, the count and the order, on one line. */
function InfoLine({ width }: { width: number }) {
  const theme = useTheme();
  const i = useAppStore(
    useShallow((st) => ({
      line: st.customers.line,
      filters: st.customers.filters,
      sort: st.customers.sort,
      results: st.customers.results,
      groups: st.customers.groups,
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
  const info = [
    describeQuery(classifyQuery(i.line)),
    filterWords.length ? `filters: ${filterWords.join(", ")}` : "",
    countText(i.results),
    i.sort === "name" ? "by name" : "newest first",
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <Box height={1} width={width} overflow="hidden">
      <Txt color={theme.muted}>{fitCell(info, width).trimEnd()}</Txt>
    </Box>
  );
}

/**
 * Customer lookup: one search line, always ready (email, phone in any spelling, reference id, or
 * a name); a windowed result list that pages as the cursor moves; the profile beside or below it;
 * create, edit, delete, groups, cards on file, duplicates, and version conflicts side by side.
 */
export function CustomersScreen({ height, width }: ScreenProps) {
  const kind = useAppStore((st) => st.customers.view.kind);
  return kind === "list" ? (
    <CustomerList height={height} width={width} />
  ) : (
    <CustomerView height={height} width={width} />
  );
}

/** Every profile's duplicate marks: from the rows shown, the duplicate scan, and the service's answers. */
function useDuplicateMarks(rows: readonly Customer[]): Map<string, DuplicateReason[]> {
  const scanGroups = useAppStore((st) => st.customers.scan.groups);
  const probed = useAppStore((st) => st.customers.probed);
  return useMemo(() => {
    const all = new Map<string, DuplicateReason[]>(duplicateMarks(duplicateGroups(rows)));
    const add = (id: string, reasons: readonly DuplicateReason[]) => {
      const have = all.get(id) ?? [];
      all.set(id, [...have, ...reasons.filter((r) => !have.includes(r))]);
    };
    for (const [id, reasons] of duplicateMarks(scanGroups)) add(id, reasons);
    for (const [id, reasons] of Object.entries(probed)) add(id, reasons);
    return all;
  }, [rows, scanGroups, probed]);
}

/**
 * The cursor the slice asks for after a search, a new profile or a deletion: on a profile, or (no
 * id) on the one selected before the rows changed, if still listed, else the first. (It becomes a
 * selected id in the slice with issue 21's item 5; until then this carries it over.) And the next
 * page, read as the cursor nears the end of what is loaded, never all at once.
 */
function useCursorRequests(ids: readonly string[], cursor: number, visibleRows: number) {
  const store = useAppStoreApi();
  const request = useAppStore((st) => st.customers.cursorTo);
  const more = useAppStore((st) => st.customers.results.cursor !== undefined);
  const lastSelected = useRef<string | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new request moves the cursor.
  useEffect(() => {
    const wanted = request.id ?? lastSelected.current;
    store.getState().selectRow("customers", ids, Math.max(0, wanted === undefined ? 0 : ids.indexOf(wanted)));
  }, [request.seq]);
  useEffect(() => {
    lastSelected.current = ids[cursor];
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the cursor or the rows move.
  useEffect(() => {
    if (more && cursor >= ids.length - visibleRows - PREFETCH_ROWS) void store.getState().customersLoadMore();
  }, [cursor, ids.length, more]);
}

/** The search line, the info line, the results and the profile beside, below or alone. */
function CustomerList({ height, width }: { height: number; width: number }) {
  const theme = useTheme();
  const rows = useAppStore((st) => st.customers.results.rows);
  const phase = useAppStore((st) => (st.customers.results.rows.length === 0 ? st.customers.results.phase : "ready"));
  const groups = useAppStore((st) => st.customers.groups);
  const profileOnly = useAppStore((st) => st.flags[PROFILE_ONLY] === true);
  const timeZone = useAppStore(selectTimeZone);
  const now = useAppStore((st) => st.now);
  const layout = paneLayout(width, height);
  const paneWidth = layout === "side" ? Math.min(48, Math.floor(width * 0.38)) : width;
  const listWidth = layout === "side" ? width - paneWidth - 1 : width;
  const below = layout === "below" ? PANE_BELOW_HEIGHT + 1 : 0;
  const listHeight = Math.max(3, height - 2 - below);
  const ids = useAppStore((st) => customerRows(st).ids);
  const list = useListWindow("customers", ids, listRows(listHeight));
  const selected: Customer | undefined = rows[list.cursor];
  const marks = useDuplicateMarks(rows);
  const columns = useMemo(() => customerColumns(marks, timeZone), [marks, timeZone]);
  useCursorRequests(ids, list.cursor, listRows(listHeight));
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
      empty={
        phase === "loading"
          ? "Searching…"
          : phase === "failed"
            ? "The search did not go through; r tries again."
            : "No profile matches. n makes a new one."
      }
    />
  );
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
          <Txt color={theme.muted}>
            {fitCell(
              marks.size > 0 ? `── profile · ${DUPLICATE_MARK} shares an email or phone` : "── profile",
              width,
            ).trimEnd()}
          </Txt>
          {pane(width, PANE_BELOW_HEIGHT)}
        </Box>
      ) : null}
    </Box>
  );
}

/** The views over the list: the filters and profile forms, a conflict, groups, cards, duplicates. */
function CustomerView({ height, width }: { height: number; width: number }) {
  const store = useAppStoreApi();
  const s = () => store.getState();
  const v = useAppStore((st) => st.customers.view);
  const groups = useAppStore((st) => st.customers.groups);
  const filters = useAppStore((st) => st.customers.filters);
  const now = useAppStore((st) => st.now);
  const local = useAppStore((st) => st.customers.local);
  const rows = useAppStore((st) => st.customers.results.rows);
  const viewCustomer = (id: string) => local[id] ?? rows.find((r) => r.id === id);
  const back = () => s().customersOpenView({ kind: "list" });
  switch (v.kind) {
    case "list":
      return null;
    case "filters":
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
            onCancel={back}
          />
        </Box>
      );
    case "create":
      return (
        <ProfileForm
          title="New customer profile"
          initial={profileValues()}
          height={height}
          onSubmit={(values) => s().customersCreate(values)}
          onCancel={back}
        />
      );
    case "edit":
      return (
        <ProfileForm
          key={`${v.base.id}:${v.base.version}`}
          title={`Edit ${customerName(v.base)} (version ${v.base.version ?? 0})`}
          initial={v.initial ?? profileValues(v.base)}
          height={height}
          onSubmit={(values) => s().customersSave(values)}
          onCancel={back}
        />
      );
    case "conflict":
      return <ConflictView view={v} height={height} width={width} />;
    case "groups":
    case "cards": {
      const customer = viewCustomer(v.customerId);
      if (!customer) return <Txt>That profile is no longer here.</Txt>;
      return v.kind === "groups" ? (
        <GroupsView customer={customer} groups={groups} height={height} width={width} />
      ) : (
        <CardsView customer={customer} now={now} height={height} width={width} />
      );
    }
    case "duplicates":
      return <DuplicatesView height={height} width={width} />;
    default: {
      const unhandled: never = v;
      throw new Error(`unhandled view ${JSON.stringify(unhandled)}`);
    }
  }
}
