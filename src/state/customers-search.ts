/**
 * The customers slice's reads: the search as the line is typed (one request per burst of keys),
 * its count and next pages, the filters and the order, the groups, and the duplicates scan. Every
 * answer carries the number of the search it belongs to; a late one is dropped by the reducer.
 */
import { classifyQuery, type LookupFilters, lookupQuery, parseSources, searchRequest } from "../domain/customers.js";
import { duplicateGroups } from "../domain/customers-duplicates.js";
import { parseDate } from "../domain/time.js";
import type { CustomerIndex } from "../local/customer-index.js";
import type { Customer, SearchCustomersRequest } from "../spec/generated/types.js";
import { answer, indexFor, searchPage } from "./customers-index.js";
import {
  CUSTOMER_LIST,
  type CustomerFilterInput,
  type CustomersData,
  type CustomersEvent,
  customerIds,
  withLocalChanges,
} from "./customers-machine.js";
import { countryOf, timeZoneOf } from "./shell-slice.js";
import type { LoadedState, StoreDeps } from "./store.js";

/** Profiles asked for per page: a screenful or three, never the whole directory. */
export const CUSTOMERS_PAGE_SIZE = 50;
/** Keys closer together than this are one burst: only the burst's last line is searched. */
export const SEARCH_DEBOUNCE_MS = 120;
/** The count of matches is asked for once typing rests this long (it costs the service a full count). */
export const COUNT_DELAY_MS = 250;
/** Most profiles the duplicates view reads in one scan. */
export const DUPLICATE_SCAN_LIMIT = 200_000;

/** What the customers slice's I/O works with. */
export interface CustomersIo {
  get: () => LoadedState;
  dispatch: (event: CustomersEvent) => void;
  deps: StoreDeps;
}

/** The customers screen's state now. */
export const customersOf = (io: CustomersIo): CustomersData => io.get().customers;

/** Asks how many profiles match, once typing has rested; dropped if another search went out meanwhile. */
function askCount(io: CustomersIo, seq: number, request: SearchCustomersRequest): void {
  io.deps.timers.after(COUNT_DELAY_MS, async () => {
    if (seq !== customersOf(io).searchSeq) return;
    const page = await io
      .get()
      .runRead(
        "Counting customers",
        async () => await io.deps.client.customers.searchCustomers({ ...request, limit: 1, count: true }),
        {
          quiet: true,
        },
      );
    io.dispatch({ type: "count-answered", seq, count: page?.count });
  });
}

/** Searches the line and filters; `keep` leaves the selection on its profile (a refresh), else on the first. */
export async function search(io: CustomersIo, keep = false): Promise<void> {
  // Known to be missing: the service is asked at once, before the next key can change the line.
  const index = customersOf(io).index.phase === "unavailable" ? undefined : await indexFor(io);
  if (index) {
    const found = searchPage(io, index, 0, CUSTOMERS_PAGE_SIZE);
    io.dispatch(found.ok ? { type: "search-started" } : { type: "search-started", problem: found.problem });
    if (found.ok) answer(io, found.page, CUSTOMERS_PAGE_SIZE, keep);
    return;
  }
  const s = customersOf(io);
  const country = countryOf(io.get());
  const built = lookupQuery(classifyQuery(s.line, country), s.filters, s.sort, timeZoneOf(io.get()), country);
  if (!built.ok) {
    io.dispatch({ type: "search-started", problem: built.problem });
    return;
  }
  const request = searchRequest(built.value, CUSTOMERS_PAGE_SIZE, false);
  io.dispatch({ type: "search-started" });
  const seq = customersOf(io).searchSeq;
  const page = await io
    .get()
    .runRead("Searching customers", async () => await io.deps.client.customers.searchCustomers(request), {
      quiet: true,
    });
  if (!page) {
    io.dispatch({ type: "search-failed", seq });
    return;
  }
  const cursor = page.cursor || undefined;
  io.dispatch({ type: "search-answered", seq, request, rows: page.customers ?? [], cursor });
  if (seq !== customersOf(io).searchSeq) return;
  // A new search starts at the top; a refresh (`keep`) leaves the cursor on its profile, by id.
  if (!keep) io.get().selectRow(CUSTOMER_LIST, customerIds(customersOf(io).results.rows), 0);
  if (cursor) askCount(io, seq, request);
}

/**
 * The index, when it is open and answering, searches the new line in the same step as the key:
 * one change of the screen's state, so one frame shows the key and its results. False when it
 * cannot (not open yet, a filter it cannot read): the line then goes the usual way.
 */
function searchNow(io: CustomersIo, line: string, at: number): boolean {
  const phase = customersOf(io).index.phase;
  const index = phase === "filling" || phase === "ready" ? io.deps.customerIndex.opened() : undefined;
  const found = index ? searchPage(io, index, 0, CUSTOMERS_PAGE_SIZE, line) : undefined;
  if (!found?.ok) return false;
  const { rows, total, exact } = found.page;
  const cursor = rows.length >= CUSTOMERS_PAGE_SIZE && total > rows.length ? String(rows.length) : undefined;
  io.dispatch({ type: "line-searched", line, at, rows, cursor, total, exact });
  io.get().selectRow(CUSTOMER_LIST, customerIds(customersOf(io).results.rows), 0);
  return true;
}

/**
 * The search line changed. The index answers every key at once. The service is asked for the
 * first key after a rest at once (no wait for a typist); keys that follow within the burst wait
 * until it ends, and only the last line goes out.
 */
export function setLine(io: CustomersIo, line: string): void {
  const before = customersOf(io);
  if (line === before.line) return;
  const at = io.deps.timers.elapsed();
  if (searchNow(io, line, at)) return;
  const resting = before.typing.lastKeyAt === undefined || at - before.typing.lastKeyAt > SEARCH_DEBOUNCE_MS;
  io.dispatch({ type: "line-changed", line, at });
  if (resting || before.index.phase === "filling" || before.index.phase === "ready") {
    void search(io);
    return;
  }
  const keys = customersOf(io).typing.keys;
  io.deps.timers.after(SEARCH_DEBOUNCE_MS, () => {
    const now = customersOf(io).typing;
    // A later key has its own wait; a search sent since (enter, a refresh) already has this line.
    if (now.keys === keys && now.searchedKeys < keys) void search(io);
  });
}

/** The next page, when the cursor nears the end of what is loaded. */
export async function loadMore(io: CustomersIo): Promise<void> {
  const s = customersOf(io);
  const { request, cursor } = s.results;
  if (s.results.from === "index") {
    const index = cursor && s.results.phase === "ready" ? await indexFor(io) : undefined;
    const found = index ? searchPage(io, index, s.results.rows.length, CUSTOMERS_PAGE_SIZE) : undefined;
    if (!found?.ok) return;
    const rows = found.page.rows;
    const next = rows.length >= CUSTOMERS_PAGE_SIZE && found.page.total > s.results.rows.length + rows.length;
    const more = next ? String(s.results.rows.length + rows.length) : undefined;
    io.dispatch({ type: "page-answered", seq: s.searchSeq, rows, cursor: more, total: found.page.total });
    return;
  }
  if (!cursor || !request || s.loadingMore || s.results.phase !== "ready") return;
  const seq = s.searchSeq;
  io.dispatch({ type: "page-asked" });
  const page = await io
    .get()
    .runRead("More customers", async () => await io.deps.client.customers.searchCustomers({ ...request, cursor }), {
      quiet: true,
    });
  io.dispatch({ type: "page-answered", seq, rows: page?.customers ?? (page ? [] : undefined), cursor: page?.cursor });
}

/**
 * The filters of a filled-in panel, or the problem with them in words and the field it is about
 * (a group, sources, their rule, a day that is not a date); a range that ends before it starts is
 * about both, and names none.
 */
export function filtersOf(
  input: CustomerFilterInput,
  s: Pick<CustomersData, "groups">,
  timeZone: string,
): { ok: true; filters: LookupFilters } | { ok: false; problem: string; field?: keyof CustomerFilterInput } {
  const filters: LookupFilters = {};
  const group = input.group.trim();
  if (group !== "") {
    const found =
      s.groups.find((g) => g.id === group) ?? s.groups.find((g) => g.name.toLowerCase() === group.toLowerCase());
    if (!found?.id) {
      const names = s.groups.map((g) => g.name).join(", ");
      return {
        ok: false,
        problem: `No group called “${group}”${names ? `; there are: ${names}` : ""}.`,
        field: "group",
      };
    }
    filters.groupId = found.id;
  }
  const sources = parseSources(input.sources);
  if (!sources.ok) return { ...sources, field: "sources" };
  const rule = input.rule.trim().toLowerCase();
  if (!["", "include", "exclude", "i", "e"].includes(rule)) {
    return { ok: false, problem: "Sources are kept (include) or left out (exclude).", field: "rule" };
  }
  if (sources.value.length > 0) {
    filters.sources = { rule: rule.startsWith("e") ? "EXCLUDE" : "INCLUDE", values: sources.value };
  }
  if (input.from.trim() !== "") filters.createdFrom = input.from.trim();
  if (input.to.trim() !== "") filters.createdTo = input.to.trim();
  const check = lookupQuery({ kind: "all" }, filters, "name", timeZone);
  if (check.ok) return { ok: true, filters };
  const notADay = (typed: string) => typed.trim() !== "" && !parseDate(typed.trim());
  const field = notADay(input.from) ? "from" : notADay(input.to) ? "to" : undefined;
  return { ...check, ...(field ? { field } : {}) };
}

/** Loads the customer groups (for the filter, the groups view and the profile). */
export async function loadGroups(io: CustomersIo): Promise<void> {
  const groups = await io
    .get()
    .runRead("Loading customer groups", () => io.deps.client.customers.listCustomerGroups().all());
  if (groups) io.dispatch({ type: "groups-read", groups });
}

/** Only what grouping duplicates needs: the whole directory may be read. */
const slim = (c: Customer): Customer => ({
  ...(c.id ? { id: c.id } : {}),
  ...(c.given_name ? { given_name: c.given_name } : {}),
  ...(c.family_name ? { family_name: c.family_name } : {}),
  ...(c.company_name ? { company_name: c.company_name } : {}),
  ...(c.email_address ? { email_address: c.email_address } : {}),
  ...(c.phone_number ? { phone_number: c.phone_number } : {}),
});

/** Reads every profile of the current search, page by page, and groups shared emails and phones. */
export async function scanDuplicates(io: CustomersIo): Promise<void> {
  const index = await indexFor(io);
  if (index) {
    scanIndex(io, index);
    return;
  }
  const s = customersOf(io);
  const request = s.results.request ?? searchRequest({}, CUSTOMERS_PAGE_SIZE, false);
  io.dispatch({ type: "scan-started", total: s.results.count });
  const seq = customersOf(io).scan.seq;
  const read: Customer[] = [];
  let cursor: string | undefined;
  do {
    const after = cursor;
    const page = await io.get().runRead(
      "Looking for duplicates",
      async () =>
        await io.deps.client.customers.searchCustomers({
          ...request,
          limit: 100,
          ...(after ? { cursor: after } : {}),
          count: !after,
        }),
      { quiet: true },
    );
    if (seq !== customersOf(io).scan.seq) return;
    if (!page) {
      io.dispatch({ type: "scan-ended", seq, phase: "failed" });
      return;
    }
    for (const c of withLocalChanges(page.customers ?? [], customersOf(io).local)) read.push(slim(c));
    cursor = page.cursor || undefined;
    const groups = cursor ? undefined : duplicateGroups(read, countryOf(io.get()));
    io.dispatch({ type: "scan-page", seq, scanned: read.length, total: page.count, ...(groups ? { groups } : {}) });
  } while (cursor && read.length < DUPLICATE_SCAN_LIMIT);
  io.dispatch({ type: "scan-ended", seq, phase: "done", groups: duplicateGroups(read, countryOf(io.get())) });
}

/** Profiles read from the index at a time by its duplicates scan. */
const INDEX_SCAN_PAGE = 5_000;

/** The duplicates of the current search, read from the index on this machine. */
function scanIndex(io: CustomersIo, index: CustomerIndex): void {
  io.dispatch({ type: "scan-started", total: customersOf(io).results.count });
  const seq = customersOf(io).scan.seq;
  const read: Customer[] = [];
  for (;;) {
    const found = searchPage(io, index, read.length, INDEX_SCAN_PAGE);
    if (!found.ok) {
      io.dispatch({ type: "scan-ended", seq, phase: "failed" });
      return;
    }
    for (const c of found.page.rows) read.push(slim(c));
    io.dispatch({ type: "scan-page", seq, scanned: read.length, total: found.page.total });
    if (found.page.rows.length < INDEX_SCAN_PAGE || read.length >= DUPLICATE_SCAN_LIMIT) break;
  }
  io.dispatch({ type: "scan-ended", seq, phase: "done", groups: duplicateGroups(read, countryOf(io.get())) });
}
