/**
 * The customers slice and its index: the index is opened when the screen first needs it, filled
 * in the background while the screen stays usable (the list grows as pages arrive), refreshed
 * with what changed elsewhere, and told at once of every profile this terminal reads, creates,
 * saves or deletes. Searches are answered from it; without one (the data folder cannot be
 * written), the service's own search answers instead.
 */

import { customerSearchOf } from "../domain/customer-search.js";
import { createdRange } from "../domain/customers.js";
import { isKeptId } from "../domain/kept-writes.js";
import type { CustomerIndex, IndexFilters, IndexPage } from "../local/customer-index.js";
import {
  fillIndex,
  type IndexSource,
  type IndexSyncEvent,
  indexSourceOf,
  refreshIndex,
} from "./customer-index-sync.js";
import { CUSTOMER_LIST, type CustomersEvent, customerIds } from "./customers-machine.js";
import { type CustomersIo, customersOf } from "./customers-search.js";
import { hasErrorCode, problemOf } from "./errors.js";
import { countryOf, timeZoneOf } from "./shell-slice.js";

/**
 * While the index fills, the list is searched again at most this often, so it grows as pages
 * arrive; the progress is said at most every {@link FILL_PROGRESS_MS}. A page arrives every few
 * milliseconds from a local service: drawing each would keep the event loop busy enough to split a
 * scanner's burst on another screen (its characters must arrive within 30 ms of each other).
 */
export const FILL_RESEARCH_MS = 1_000;
/** How often the fill's progress is drawn. */
export const FILL_PROGRESS_MS = 250;

const sync = (io: CustomersIo, event: IndexSyncEvent) => io.dispatch({ type: "index", event });
const state = (io: CustomersIo) => io.get().customers.index;

/**
 * Runs one read of the sync through the shell, so a service that stops answering shows in the
 * header and status bar as any read does; the read's own error is kept for the sync. A refused
 * cursor is the sync's to handle (the fill starts its pages over): no failure to report.
 */
async function viaShell<T>(io: CustomersIo, label: string, read: () => Promise<T>): Promise<T> {
  let error: unknown;
  const got = await io.get().runRead(
    label,
    async () => {
      try {
        return { value: await read() };
      } catch (err) {
        error = err;
        if (hasErrorCode(err, "INVALID_CURSOR")) return undefined;
        throw err;
      }
    },
    { quiet: true },
  );
  if (!got) throw error;
  return got.value;
}

/** The service's customers, each read reported through the shell. */
function sourceOf(io: CustomersIo): IndexSource {
  const direct = indexSourceOf(io.deps.client.customers);
  return {
    listPage: (query) => viaShell(io, "Building the customer index", () => direct.listPage(query)),
    searchPages: (body) => ({
      async *[Symbol.asyncIterator]() {
        const pages = direct.searchPages(body)[Symbol.asyncIterator]();
        for (;;) {
          const next = await viaShell(io, "Reading customer changes", () => pages.next());
          if (next.done) return;
          yield next.value;
        }
      },
    }),
  };
}

/**
 * The index, when this machine can keep one: opened on first use, and then filled (or
 * refreshed) in the background. Undefined when it cannot be opened; the reason is said once.
 */
export async function indexFor(io: CustomersIo): Promise<CustomerIndex | undefined> {
  const before = state(io).phase;
  if (before === "unavailable") return undefined;
  if (before === "closed") sync(io, { type: "opening" });
  let index: CustomerIndex;
  try {
    index = await io.deps.customerIndex.open();
  } catch (err) {
    const problem = problemOf(err).headline;
    if (state(io).phase !== "unavailable") {
      sync(io, { type: "unavailable", problem });
      io.get().setStatus({
        screen: "customers",
        kind: "info",
        text: "The customer index cannot be kept on this machine: names are not searchable, emails, phones and reference ids are.",
        details: `${io.deps.customerIndex.path} · ${problem}`,
      });
    }
    return undefined;
  }
  if (before === "closed") {
    const s = io.get();
    const merchant = s.merchantId ?? s.locations.find((l) => l.merchant_id)?.merchant_id;
    if (merchant) index.claim(merchant);
    const p = index.progress();
    sync(io, { type: "opened", size: index.size(), filled: p.filled, expected: p.expected });
    void bringUpToDate(io, index);
  }
  return index;
}

/** Fills the index if it is not filled yet (the list searched again as it grows), then refreshes it. */
async function bringUpToDate(io: CustomersIo, index: CustomerIndex): Promise<void> {
  if (state(io).refreshing) {
    // A change made elsewhere since that read began would be missed: one more follows it.
    sync(io, { type: "refresh-asked" });
    return;
  }
  sync(io, { type: "refresh-started" });
  await fillAndRefresh(io, index);
  if (state(io).again && state(io).phase === "ready") await bringUpToDate(io, index);
}

async function fillAndRefresh(io: CustomersIo, index: CustomerIndex): Promise<void> {
  try {
    if (!index.progress().filled) {
      // The first page is shown at once; then the list is searched again as the fill goes on.
      let searchedAt = Number.NEGATIVE_INFINITY;
      let saidAt = Number.NEGATIVE_INFINITY;
      await fillIndex(sourceOf(io), index, (size, expected) => {
        const now = io.deps.timers.elapsed();
        if (now - saidAt >= FILL_PROGRESS_MS) {
          saidAt = now;
          sync(io, { type: "fill-page", size, expected });
        }
        if (now - searchedAt >= FILL_RESEARCH_MS) {
          searchedAt = now;
          researchQuietly(io, index);
        }
      });
      sync(io, { type: "filled", size: index.size() });
      researchQuietly(io, index);
    }
    const read = await refreshIndex(sourceOf(io), index, io.deps.clock.now());
    sync(io, { type: "refreshed", at: io.deps.clock.now(), size: index.size() });
    if (read > 0) researchQuietly(io, index);
  } catch (err) {
    // The fill goes on from its last page at the next refresh; the shell has said what failed.
    if (state(io).phase === "filling") sync(io, { type: "fill-stopped", problem: problemOf(err).headline });
    sync(io, { type: "refresh-failed" });
  }
}

/** Reads what changed elsewhere (or goes on with the fill); the list is searched again if anything did. */
export async function refreshCustomerIndex(io: CustomersIo): Promise<void> {
  const index = await indexFor(io);
  if (index) await bringUpToDate(io, index);
}

/** The index's filters for the panel's filters: creation days as instants in the store's time zone. */
function indexFilters(io: CustomersIo): { ok: true; value: IndexFilters } | { ok: false; problem: string } {
  const f = io.get().customers.filters;
  const range = createdRange(f.createdFrom, f.createdTo, timeZoneOf(io.get()));
  if (!range.ok) return range;
  const value: IndexFilters = {};
  if (f.groupId) value.groupId = f.groupId;
  if (f.sources) value.sources = f.sources;
  if (range.value?.start_at) value.createdFrom = range.value.start_at;
  if (range.value?.end_at) value.createdTo = range.value.end_at;
  return { ok: true, value };
}

/** One page of the current line and filters from the index, from `offset`. */
export function searchPage(
  io: CustomersIo,
  index: CustomerIndex,
  offset: number,
  limit: number,
  line = io.get().customers.line,
): { ok: true; page: IndexPage } | { ok: false; problem: string } {
  const s = io.get().customers;
  const filters = indexFilters(io);
  if (!filters.ok) return filters;
  const search = customerSearchOf(line, countryOf(io.get()));
  return { ok: true, page: index.search(search, filters.value, s.sort, { offset, limit }) };
}

/** Searches the index again with the selection kept (the index grew or changed underneath). */
function researchQuietly(io: CustomersIo, index: CustomerIndex): void {
  const s = io.get().customers;
  if (s.results.from !== "index" || s.results.phase === "idle") return;
  const limit = Math.max(s.results.rows.length, 50);
  const found = searchPage(io, index, 0, limit);
  if (!found.ok) return;
  io.dispatch({ type: "search-started" });
  answer(io, found.page, limit, true);
}

/** Hands an index page to the screen as the answer of the newest search. */
export function answer(io: CustomersIo, page: IndexPage, limit: number, keep: boolean): void {
  const seq = io.get().customers.searchSeq;
  const cursor = page.rows.length >= limit && page.total > page.rows.length ? String(page.rows.length) : undefined;
  io.dispatch({
    type: "search-answered",
    seq,
    request: undefined,
    rows: page.rows,
    cursor,
    index: { total: page.total, exact: page.exact },
  });
  // A new search starts at the top; a refresh (`keep`) leaves the cursor on its profile, by id.
  if (!keep) io.get().selectRow(CUSTOMER_LIST, customerIds(customersOf(io).results.rows), 0);
}

/**
 * Tells the index what this terminal learnt of a profile: one read, created or saved goes in (a
 * newer version than the index's wins), one deleted goes out.
 */
export function mirrorToIndex(io: CustomersIo, event: CustomersEvent): void {
  if (event.type !== "profile-read" && event.type !== "profile-created" && event.type !== "profile-deleted") return;
  // A profile added offline is not the service's yet: its stand-in stays out of the index.
  if (isKeptId(event.type === "profile-deleted" ? event.id : event.customer.id)) return;
  const phase = state(io).phase;
  if (phase === "closed" || phase === "unavailable") return;
  void io.deps.customerIndex.open().then(
    (index) => {
      if (event.type === "profile-deleted") index.remove([event.id]);
      else index.upsert([event.customer]);
      sync(io, { type: "changed", size: index.size() });
    },
    () => undefined,
  );
}
