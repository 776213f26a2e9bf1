/**
 * The customers screen's state as a pure machine: the search line and what it found, the views
 * over the list, this terminal's own changes, and the duplicates scan. The cursor is the store's
 * selection of `CUSTOMER_LIST`, by id (view-slice.ts): a refresh that reorders the rows leaves it
 * on its profile; the slice moves it to the top for a new search and onto a profile it creates.
 * `customersReducer` is the one way it changes; the slice (customers-slice.ts) does the I/O.
 */
import type { LookupFilters, LookupSort } from "../domain/customers.js";
import type { DuplicateGroup, DuplicateReason } from "../domain/customers-duplicates.js";
import type { ProfileField, ProfileValues } from "../domain/customers-profile.js";
import type { Customer, CustomerGroup, SearchCustomersRequest } from "../spec/generated/types.js";
import { INITIAL_INDEX_SYNC, type IndexSync, type IndexSyncEvent, indexSyncReducer } from "./customer-index-sync.js";

/** What the customers screen shows besides the list. */
export type CustomersView =
  | { kind: "list" }
  | { kind: "filters" }
  | { kind: "create" }
  /** `initial`: what the form shows first, when not the profile itself (a conflict's merge). */
  | { kind: "edit"; base: Customer; initial?: ProfileValues }
  | { kind: "conflict"; base: Customer; mine: ProfileValues; theirs: Customer; picked: ProfileField[] }
  | { kind: "groups"; customerId: string }
  | { kind: "cards"; customerId: string }
  | { kind: "duplicates" };

/** The answer of the current search: the loaded pages and where to continue. */
export interface CustomerResults {
  /**
   * Where the rows came from: the customer index on this machine (later pages by position), or
   * the service's search (when there is no index here).
   */
  from: "index" | "service";
  /** The first page's request (the cursor of later pages is tied to its query). */
  request: SearchCustomersRequest | undefined;
  rows: Customer[];
  cursor: string | undefined;
  /** How many profiles match, when known. */
  count: number | undefined;
  /** More match than `count` says: the index stopped counting there (a first key matches nearly everyone). */
  countIsFloor: boolean;
  phase: "idle" | "loading" | "ready" | "failed";
  /** A search line or filter that cannot be sent, in words. */
  problem: string | undefined;
}

/** The filter panel's fields, as typed. */
export interface CustomerFilterInput {
  group: string;
  sources: string;
  rule: string;
  from: string;
  to: string;
}

/** A duplicates scan over the current search. */
export interface DuplicateScan {
  /** The scan's number: pages of a scan stopped or started again are dropped. */
  seq: number;
  phase: "idle" | "scanning" | "done" | "stopped" | "failed";
  scanned: number;
  total: number | undefined;
  groups: DuplicateGroup[];
}

/** How the search line is being typed: keys close together are one burst, searched once at its end. */
export interface LineTyping {
  /** Changes of the line so far. */
  keys: number;
  /** When the line last changed, on the timers' clock. */
  lastKeyAt: number | undefined;
  /** The `keys` the last search was sent for. */
  searchedKeys: number;
}

/** The customers slice's state. */
export interface CustomersData {
  line: string;
  typing: LineTyping;
  filters: LookupFilters;
  sort: LookupSort;
  results: CustomerResults;
  /** The newest search's number: an answer is used only while its number is the newest. */
  searchSeq: number;
  /** A next page is on its way. */
  loadingMore: boolean;
  view: CustomersView;
  groups: CustomerGroup[];
  groupsLoaded: boolean;
  scan: DuplicateScan;
  /** Duplicates the service named for profiles opened on this terminal, by profile id. */
  probed: Record<string, DuplicateReason[]>;
  /**
   * Changes made on this terminal, by id (`null`: deleted), laid over every search answer: the
   * service's search may lag behind them, this terminal's own view must not.
   */
  local: Record<string, Customer | null>;
  /** Answers that came back after a newer search and were dropped. */
  staleAnswers: number;
  /** The idempotency key of the profile being created, kept while the same body is sent again. */
  createKey: { key: string; body: string } | undefined;
  /** The customer index on this machine: opening, filling, ready, or not to be had here. */
  index: IndexSync;
}

/** What happens on the customers screen: I/O the slice did, or a choice made on the screen. */
export type CustomersEvent =
  | { type: "line-changed"; line: string; at: number }
  /**
   * The line changed and the index answered it at once: the change, the search and its answer as
   * one step, so the frame that shows the typed key shows its results.
   */
  | {
      type: "line-searched";
      line: string;
      at: number;
      rows: Customer[];
      cursor: string | undefined;
      total: number;
      exact: boolean;
    }
  /** A search goes out (its number is the new `searchSeq`), or cannot (`problem`). */
  | { type: "search-started"; problem?: string }
  | {
      type: "search-answered";
      seq: number;
      /** The service's search; none for the index's answer. */
      request: SearchCustomersRequest | undefined;
      rows: Customer[];
      cursor: string | undefined;
      /** The index's answer, with how many match in all (`exact: false`: at least that many). */
      index?: { total: number; exact: boolean };
    }
  | { type: "search-failed"; seq: number }
  | { type: "count-answered"; seq: number; count: number | undefined }
  | { type: "page-asked" }
  | { type: "page-answered"; seq: number; rows: Customer[] | undefined; cursor: string | undefined; total?: number }
  | { type: "sort-toggled" }
  | { type: "filters-set"; filters: LookupFilters; view?: CustomersView }
  | { type: "view"; view: CustomersView }
  | { type: "groups-read"; groups: CustomerGroup[] }
  /** A profile as the service has it now (read, saved, or changed by a group or a card). */
  | { type: "profile-read"; customer: Customer }
  | { type: "profile-created"; customer: Customer }
  | { type: "profile-deleted"; id: string }
  /** Who shares an email or a phone with a profile opened on this terminal. */
  | { type: "duplicates-probed"; id: string; found: { reason: DuplicateReason; others: Customer[] }[] }
  | { type: "create-key"; key: { key: string; body: string } | undefined }
  | { type: "pick-toggled"; field: ProfileField }
  | { type: "scan-started"; total: number | undefined }
  | { type: "scan-page"; seq: number; scanned: number; total: number | undefined; groups?: DuplicateGroup[] }
  | { type: "scan-ended"; seq: number; phase: "done" | "failed"; groups?: DuplicateGroup[] }
  | { type: "scan-stopped" }
  | { type: "index"; event: IndexSyncEvent };

/** The customers screen before anything is read. */
export const INITIAL_CUSTOMERS: CustomersData = {
  line: "",
  typing: { keys: 0, lastKeyAt: undefined, searchedKeys: 0 },
  filters: {},
  sort: "name",
  results: {
    from: "service",
    request: undefined,
    rows: [],
    cursor: undefined,
    count: undefined,
    countIsFloor: false,
    phase: "idle",
    problem: undefined,
  },
  searchSeq: 0,
  loadingMore: false,
  view: { kind: "list" },
  groups: [],
  groupsLoaded: false,
  scan: { seq: 0, phase: "idle", scanned: 0, total: undefined, groups: [] },
  probed: {},
  local: {},
  staleAnswers: 0,
  createKey: undefined,
  index: INITIAL_INDEX_SYNC,
};

/**
 * Rows of a search answer with this terminal's own changes laid over them: a profile deleted here
 * is left out, and one saved here replaces the service's copy unless that copy is newer (changed
 * again elsewhere since). The service's search may lag a minute behind; this terminal must not.
 */
export function withLocalChanges(
  rows: readonly Customer[],
  local: Readonly<Record<string, Customer | null>>,
): Customer[] {
  const out: Customer[] = [];
  for (const row of rows) {
    const mine = row.id ? local[row.id] : undefined;
    if (mine === null) continue;
    out.push(mine && (mine.version ?? 0) >= (row.version ?? 0) ? mine : row);
  }
  return out;
}

/** The name of the result list in the store's selections (`selection.customers`): the cursor, by id. */
export const CUSTOMER_LIST = "customers";

const idsOfRows = new WeakMap<readonly Customer[], readonly string[]>();

/** The ids of the result rows, in order: the same array while the rows are the same (a selector may return it). */
export function customerIds(rows: readonly Customer[]): readonly string[] {
  let ids = idsOfRows.get(rows);
  if (!ids) {
    ids = rows.map((r, i) => r.id ?? String(i));
    idsOfRows.set(rows, ids);
  }
  return ids;
}

/** A filter panel's values for the filters in force. */
export function filterInputOf(filters: LookupFilters, groups: readonly CustomerGroup[]): CustomerFilterInput {
  const group = groups.find((g) => g.id === filters.groupId)?.name ?? filters.groupId ?? "";
  return {
    group,
    sources: (filters.sources?.values ?? []).join(", "),
    rule: filters.sources?.rule === "EXCLUDE" ? "exclude" : "include",
    from: filters.createdFrom ?? "",
    to: filters.createdTo ?? "",
  };
}

/** Who is marked as sharing an email or phone, after a profile's probe: its marks are replaced. */
function probedAfter(
  probed: Readonly<Record<string, DuplicateReason[]>>,
  id: string,
  found: Extract<CustomersEvent, { type: "duplicates-probed" }>["found"],
): Record<string, DuplicateReason[]> {
  const out = { ...probed };
  delete out[id];
  const mark = (pid: string, reason: DuplicateReason) => {
    const reasons = out[pid] ?? [];
    if (!reasons.includes(reason)) out[pid] = [...reasons, reason];
  };
  for (const { reason, others } of found) {
    for (const o of others) {
      mark(id, reason);
      if (o.id) mark(o.id, reason);
    }
  }
  return out;
}

/** How the search and its pages change. */
function searchReducer(state: CustomersData, event: CustomersEvent): CustomersData {
  const results = state.results;
  switch (event.type) {
    case "line-changed":
      return {
        ...state,
        line: event.line,
        typing: { ...state.typing, keys: state.typing.keys + 1, lastKeyAt: event.at },
      };
    case "line-searched": {
      const changed = searchReducer(state, { type: "line-changed", line: event.line, at: event.at });
      const started = searchReducer(changed, { type: "search-started" });
      const { rows, cursor, total, exact } = event;
      const index = { total, exact };
      const seq = started.searchSeq;
      return searchReducer(started, { type: "search-answered", seq, request: undefined, rows, cursor, index });
    }
    case "search-started": {
      const searchSeq = state.searchSeq + 1;
      const typing = { ...state.typing, searchedKeys: state.typing.keys };
      if (event.problem !== undefined) {
        return { ...state, searchSeq, typing, results: { ...results, problem: event.problem, phase: "failed" } };
      }
      return { ...state, searchSeq, typing, results: { ...results, phase: "loading", problem: undefined } };
    }
    case "search-answered": {
      // A newer search went out while this one was on its way: its answer no longer applies.
      if (event.seq !== state.searchSeq) return { ...state, staleAnswers: state.staleAnswers + 1 };
      const rows = withLocalChanges(event.rows, state.local);
      const cursor = event.cursor || undefined;
      return {
        ...state,
        results: {
          from: event.index ? "index" : "service",
          request: event.request,
          rows,
          cursor,
          count: event.index ? event.index.total : cursor ? undefined : rows.length,
          countIsFloor: event.index ? !event.index.exact : false,
          phase: "ready",
          problem: undefined,
        },
      };
    }
    case "search-failed":
      return event.seq === state.searchSeq ? { ...state, results: { ...results, phase: "failed" } } : state;
    case "count-answered":
      return event.seq === state.searchSeq && event.count !== undefined
        ? { ...state, results: { ...results, count: event.count } }
        : state;
    case "page-asked":
      return { ...state, loadingMore: true };
    case "page-answered": {
      if (event.seq !== state.searchSeq || !event.rows) return { ...state, loadingMore: false };
      const have = new Set(results.rows.map((c) => c.id));
      const more = withLocalChanges(event.rows, state.local).filter((c) => !have.has(c.id));
      const rows = [...results.rows, ...more];
      const cursor = event.cursor || undefined;
      return {
        ...state,
        loadingMore: false,
        results: { ...results, rows, cursor, count: event.total ?? (cursor ? results.count : rows.length) },
      };
    }
    default:
      return state;
  }
}

/** How this terminal's changes to profiles change what it shows. */
function profileReducer(state: CustomersData, event: CustomersEvent): CustomersData {
  const results = state.results;
  switch (event.type) {
    case "profile-read": {
      const c = event.customer;
      if (!c.id) return state;
      const id = c.id;
      const rows = results.rows.map((r) => (r.id === id ? c : r));
      return { ...state, local: { ...state.local, [id]: c }, results: { ...results, rows } };
    }
    case "profile-created": {
      const c = event.customer;
      if (!c.id) return { ...state, view: { kind: "list" } };
      const id = c.id;
      const rows = [c, ...results.rows.filter((r) => r.id !== id)];
      const count = results.count === undefined ? undefined : results.count + 1;
      return {
        ...state,
        local: { ...state.local, [id]: c },
        results: { ...results, rows, count },
        view: { kind: "list" },
      };
    }
    case "profile-deleted": {
      const rows = results.rows.filter((r) => r.id !== event.id);
      const count = results.count === undefined ? undefined : Math.max(0, results.count - 1);
      return { ...state, local: { ...state.local, [event.id]: null }, results: { ...results, rows, count } };
    }
    case "duplicates-probed":
      return { ...state, probed: probedAfter(state.probed, event.id, event.found) };
    case "create-key":
      return { ...state, createKey: event.key };
    case "pick-toggled": {
      const view = state.view;
      if (view.kind !== "conflict") return state;
      const picked = view.picked.includes(event.field)
        ? view.picked.filter((f) => f !== event.field)
        : [...view.picked, event.field];
      return { ...state, view: { ...view, picked } };
    }
    default:
      return state;
  }
}

/** How the duplicates scan changes. */
function scanReducer(state: CustomersData, event: CustomersEvent): CustomersData {
  const scan = state.scan;
  switch (event.type) {
    case "scan-started":
      return {
        ...state,
        view: { kind: "duplicates" },
        scan: { seq: scan.seq + 1, phase: "scanning", scanned: 0, total: event.total, groups: [] },
      };
    case "scan-page":
      if (event.seq !== scan.seq) return state;
      return {
        ...state,
        scan: {
          ...scan,
          scanned: event.scanned,
          total: event.total ?? scan.total,
          groups: event.groups ?? scan.groups,
        },
      };
    case "scan-ended":
      if (event.seq !== scan.seq) return state;
      return { ...state, scan: { ...scan, phase: event.phase, groups: event.groups ?? scan.groups } };
    case "scan-stopped":
      // The scan's number moves on: a page still on its way is dropped.
      return scan.phase === "scanning" ? { ...state, scan: { ...scan, seq: scan.seq + 1, phase: "stopped" } } : state;
    default:
      return state;
  }
}

/** The customers screen's reducer: every change of its state is one of these events. */
export function customersReducer(state: CustomersData, event: CustomersEvent): CustomersData {
  switch (event.type) {
    case "sort-toggled":
      return { ...state, sort: state.sort === "name" ? "created" : "name" };
    case "filters-set":
      return { ...state, filters: event.filters, ...(event.view ? { view: event.view } : {}) };
    case "view":
      return { ...state, view: event.view };
    case "groups-read":
      return { ...state, groups: event.groups, groupsLoaded: true };
    case "index":
      return { ...state, index: indexSyncReducer(state.index, event.event) };
    default:
      return scanReducer(profileReducer(searchReducer(state, event), event), event);
  }
}
