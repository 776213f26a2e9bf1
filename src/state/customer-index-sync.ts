/**
 * Keeping the customer index in step with the service. The first fill pages through every
 * profile (ListCustomers, 100 a page) and records its cursor after each page, so a fill cut short
 * goes on where it stopped; a refresh asks for the profiles changed since the newest change seen
 * (SearchCustomers on `updated_at`, from that instant on, so a change saved in the same second is
 * read again rather than missed). Profiles created, saved or deleted on this terminal go in (or
 * out) at once; one found deleted elsewhere goes out when the service says so (reading it answers
 * NOT_FOUND).
 *
 * The sync's state, for the screen, is a small pure machine (`indexSyncReducer`); the functions
 * below do the reading and take what they need, so `customers search` uses them too.
 */
import { partOf, plural } from "../domain/plural.js";
import type { CustomerIndex } from "../local/customer-index.js";
import type {
  Customer,
  ListCustomersResponse,
  SearchCustomersRequest,
  SearchCustomersResponse,
} from "../spec/generated/types.js";
import type { ListCustomersQuery } from "../square/index.js";
import { hasErrorCode } from "./errors.js";
import type { StoreClient } from "./types.js";

/** Profiles a page of the fill and of a refresh asks for: the most the service gives. */
export const INDEX_PAGE = 100;

/** What the sync reads from: a page of all profiles, and the pages of a search. */
export interface IndexSource {
  listPage(query: ListCustomersQuery): Promise<ListCustomersResponse>;
  searchPages(body: SearchCustomersRequest): AsyncIterable<SearchCustomersResponse>;
}

/** The service's customers as the sync reads them. */
export function indexSourceOf(
  customers: Pick<StoreClient["customers"], "listCustomers" | "searchCustomers">,
): IndexSource {
  return {
    listPage: async (query) => await customers.listCustomers(query),
    searchPages: (body) => customers.searchCustomers(body).pages(),
  };
}

/** Where the index stands, for the screen. */
export interface IndexSync {
  phase: "closed" | "opening" | "filling" | "ready" | "unavailable";
  /** Profiles in the index. */
  size: number;
  /** How many profiles the service said it has when the fill began. */
  expected: number | undefined;
  /** A fill or refresh is on its way. */
  refreshing: boolean;
  /** Another refresh was asked for while one was on its way: it runs when that one ends. */
  again: boolean;
  /** When it was last brought up to date. */
  refreshedAt: Date | undefined;
  /** Why the fill stopped (it goes on at the next refresh), or why there is no index here. */
  problem: string | undefined;
}

/** The index before anything is opened. */
export const INITIAL_INDEX_SYNC: IndexSync = {
  phase: "closed",
  size: 0,
  expected: undefined,
  refreshing: false,
  again: false,
  refreshedAt: undefined,
  problem: undefined,
};

/** What happens to the index. */
export type IndexSyncEvent =
  | { type: "opening" }
  | { type: "opened"; size: number; filled: boolean; expected: number | undefined }
  | { type: "unavailable"; problem: string }
  | { type: "fill-page"; size: number; expected: number | undefined }
  | { type: "fill-stopped"; problem: string }
  | { type: "filled"; size: number }
  | { type: "refresh-started" }
  /** A refresh was asked for while one was on its way. */
  | { type: "refresh-asked" }
  | { type: "refreshed"; at: Date; size: number }
  | { type: "refresh-failed" }
  | { type: "changed"; size: number };

/** How the sync's state changes. */
export function indexSyncReducer(state: IndexSync, event: IndexSyncEvent): IndexSync {
  switch (event.type) {
    case "opening":
      return { ...state, phase: "opening" };
    case "opened":
      return {
        ...state,
        phase: event.filled ? "ready" : "filling",
        size: event.size,
        expected: event.expected,
        problem: undefined,
      };
    case "unavailable":
      return { ...state, phase: "unavailable", problem: event.problem };
    case "fill-page":
      return {
        ...state,
        phase: "filling",
        size: event.size,
        expected: event.expected ?? state.expected,
        problem: undefined,
      };
    case "fill-stopped":
      return { ...state, problem: event.problem };
    case "filled":
      return { ...state, phase: "ready", size: event.size, problem: undefined };
    case "refresh-started":
      return { ...state, refreshing: true, again: false };
    case "refresh-asked":
      return { ...state, again: true };
    case "refreshed":
      return { ...state, refreshing: false, refreshedAt: event.at, size: event.size };
    case "refresh-failed":
      return { ...state, refreshing: false };
    case "changed":
      return { ...state, size: event.size };
  }
}

/** The index's fill in words: `reading 23,400 of 100,000 profiles`. */
export function describeIndexSync(s: IndexSync): string {
  switch (s.phase) {
    case "closed":
    case "opening":
      return "opening the customer index";
    case "filling": {
      const read = s.expected === undefined ? plural(s.size, "profile") : partOf(s.size, s.expected, "profile");
      return `building the customer index: ${read} read${s.problem ? ` (paused: ${s.problem})` : ""}`;
    }
    case "ready":
      return s.refreshing ? "reading changes" : "customer index";
    case "unavailable":
      return "no customer index here: the service's search (emails, phones, reference ids)";
  }
}

/**
 * Fills the index from where it stopped, a page at a time; `onPage` hears after each page how
 * many profiles the index holds and how many the service has. Stops early, resumable, when
 * `stop()` says so. A cursor the service no longer takes starts the pages over (what was read
 * stays: a profile read twice is put in once).
 */
export async function fillIndex(
  source: IndexSource,
  index: CustomerIndex,
  onPage: (size: number, expected: number | undefined) => void,
  stop: () => boolean = () => false,
): Promise<"filled" | "stopped"> {
  let cursor = index.progress().fillCursor;
  for (;;) {
    if (stop()) return "stopped";
    const at = cursor;
    let page: ListCustomersResponse;
    try {
      page = await source.listPage({ limit: INDEX_PAGE, ...(at === undefined ? { count: true } : { cursor: at }) });
    } catch (err) {
      if (at !== undefined && hasErrorCode(err, "INVALID_CURSOR")) {
        cursor = undefined;
        continue;
      }
      throw err;
    }
    index.upsert(page.customers ?? []);
    const next = page.cursor || undefined;
    index.fillReached(next, page.count);
    onPage(index.size(), page.count ?? index.progress().expected);
    if (!next) return "filled";
    cursor = next;
  }
}

/**
 * Reads the profiles changed since the newest change the index has seen and puts them in;
 * returns how many were read. A refresh of an index never filled reads nothing.
 */
export async function refreshIndex(source: IndexSource, index: CustomerIndex, now: Date): Promise<number> {
  const since = index.progress().newestUpdate;
  let read = 0;
  if (since !== undefined) {
    const pages = source.searchPages({ query: { filter: { updated_at: { start_at: since } } }, limit: INDEX_PAGE });
    for await (const page of pages) {
      const customers: Customer[] = page.customers ?? [];
      index.upsert(customers);
      read += customers.length;
    }
  }
  index.refreshed(now);
  return read;
}
