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
  const theme = useTheme();
  const store = useAppStoreApi();
  const s = () => store.getState();
  // Only what the list and pane need: a typed key re-renders the search line, not the list.
  const c = useAppStore(
    useShallow((st) => ({
      rows: st.customers.results.rows,
      more: st.customers.results.cursor !== undefined,
      phase: st.customers.results.rows.length === 0 ? st.customers.results.phase : "ready",
      filters: st.customers.filters,
      view: st.customers.view,
      groups: st.customers.groups,
      scanGroups: st.customers.scan.groups,
      probed: st.customers.probed,
      cursorTo: st.customers.cursorTo,
      local: st.customers.local,
      profileOnly: st.flags[PROFILE_ONLY] === true,
    })),
  );
  const timeZone = useAppStore(selectTimeZone);
  const now = useAppStore((st) => st.now);
  const rows = c.rows;

  const layout = paneLayout(width, height);
  const paneWidth = layout === "side" ? Math.min(48, Math.floor(width * 0.38)) : width;
  const listWidth = layout === "side" ? width - paneWidth - 1 : width;
  const below = layout === "below" ? PANE_BELOW_HEIGHT + 1 : 0;
  const listHeight = Math.max(3, height - 2 - below);

  const ids = useAppStore((st) => customerRows(st).ids);
  const list = useListWindow("customers", ids, listRows(listHeight));
  const selected: Customer | undefined = rows[list.cursor];

  const marks = useMemo(() => {
    const all = new Map<string, DuplicateReason[]>(duplicateMarks(duplicateGroups(rows)));
    const add = (id: string, reasons: readonly DuplicateReason[]) => {
      const have = all.get(id) ?? [];
      all.set(id, [...have, ...reasons.filter((r) => !have.includes(r))]);
    };
    for (const [id, reasons] of duplicateMarks(c.scanGroups)) add(id, reasons);
    for (const [id, reasons] of Object.entries(c.probed)) add(id, reasons);
    return all;
  }, [rows, c.scanGroups, c.probed]);
  const columns = useMemo(() => customerColumns(marks, timeZone), [marks, timeZone]);

  // The slice asks for the cursor after a search, a new profile or a deletion: on a profile, or
  // (no id) on the one selected before the rows changed, if still listed, else the first. (It
  // becomes a selected id in the slice with issue 21's item 5; until then this carries it over.)
  const lastSelected = useRef<string | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new request moves the cursor.
  useEffect(() => {
    const wanted = c.cursorTo.id ?? lastSelected.current;
    s().selectRow("customers", ids, Math.max(0, wanted === undefined ? 0 : ids.indexOf(wanted)));
  }, [c.cursorTo.seq]);
  useEffect(() => {
    lastSelected.current = selected?.id;
  });
  // Pages are read as the cursor nears the end of what is loaded, never all at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the cursor or the rows move.
  useEffect(() => {
    if (c.more && list.cursor >= rows.length - listRows(listHeight) - PREFETCH_ROWS) {
      void s().customersLoadMore();
    }
  }, [list.cursor, rows.length, c.more]);

  const profileOnly = c.profileOnly;
  const searchLine = <SearchLine width={width} />;
  const infoLine = <InfoLine width={width} />;

  const bodyHeight = height - 2;
  const viewCustomer = (id: string) => c.local[id] ?? rows.find((r) => r.id === id);
  const v = c.view;
  switch (v.kind) {
    case "list":
      break;
    case "filters":
      return (
        <Box flexDirection="column" width={width}>
          {searchLine}
          {infoLine}
          <FormView
            title="Filters (they combine: every one must hold)"
            fields={FILTER_FIELDS}
            initial={{ ...filterInputOf(c.filters, c.groups) }}
            note={`Groups: ${c.groups.map((g) => g.name).join(", ") || "none"}`}
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
    case "create":
      return (
        <ProfileForm
          title="New customer profile"
          initial={profileValues()}
          height={height}
          onSubmit={(values) => s().customersCreate(values)}
          onCancel={() => s().customersOpenView({ kind: "list" })}
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
          onCancel={() => s().customersOpenView({ kind: "list" })}
        />
      );
    case "conflict":
      return <ConflictView view={v} height={height} width={width} />;
    case "groups": {
      const customer = viewCustomer(v.customerId);
      if (!customer) return <Txt>That profile is no longer here.</Txt>;
      return <GroupsView customer={customer} groups={c.groups} height={height} width={width} />;
    }
    case "cards": {
      const customer = viewCustomer(v.customerId);
      if (!customer) return <Txt>That profile is no longer here.</Txt>;
      return <CardsView customer={customer} now={now} height={height} width={width} />;
    }
    case "duplicates":
      return <DuplicatesView height={height} width={width} />;
    default: {
      const unhandled: never = v;
      throw new Error(`unhandled view ${JSON.stringify(unhandled)}`);
    }
  }

  const pane = (w: number, h: number) => (
    <ProfilePane
      customer={selected}
      groups={c.groups}
      duplicates={selected?.id ? marks.get(selected.id) : undefined}
      now={now}
      timeZone={timeZone}
      width={w}
      height={h}
    />
  );
  if (profileOnly) {
    return (
      <Box flexDirection="column" width={width}>
        {searchLine}
        {infoLine}
        {pane(width, bodyHeight)}
      </Box>
    );
  }
  const listView = (
    <ColumnList
      columns={columns}
      rows={rows}
      state={list}
      height={listHeight}
      width={listWidth}
      rowKey={(r, i) => r.id ?? String(i)}
      empty={
        c.phase === "loading"
          ? "Searching…"
          : c.phase === "failed"
            ? "The search did not go through; r tries again."
            : "No profile matches. n makes a new one."
      }
    />
  );
  return (
    <Box flexDirection="column" width={width}>
      {searchLine}
      {infoLine}
      {layout === "side" ? (
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
      {layout === "below" ? (
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
