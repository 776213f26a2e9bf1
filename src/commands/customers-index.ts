// `customers search` on the store's customer index: the same file the app keeps, filled on first
// use (with its progress on stderr) and brought up to date with the changes since the newest one
// seen before each search, so part of a name finds the profile as in the app.

import { type CustomerSearch, customerSearchOf, describeCustomerSearch } from "../domain/customer-search.js";
import { partOf, plural } from "../domain/plural.js";
import { type CustomerIndex, type IndexFilters, openCustomerIndex } from "../local/customer-index.js";
import type { Customer, Location } from "../spec/generated/types.js";
import { fillIndex, indexSourceOf, refreshIndex } from "../state/customer-index-sync.js";
import type { StoreClient } from "../state/index.js";
import { fileProblem } from "./file-problem.js";
import { say } from "./io.js";

/** What a search asks of the index. */
export interface IndexAsk {
  query: string | undefined;
  name: string | undefined;
  email: string | undefined;
  phone: string | undefined;
  groupId: string | undefined;
  limit: number;
}

/** The index's answer: a page of profiles, how many match in all, and where it looked in words. */
export interface IndexAnswer {
  customers: Customer[];
  total: number;
  /** False when more match than `total` (the index stops counting at 10,000). */
  exact: boolean;
  heading: string;
}

/** The fill's progress is said at most this often on stderr. */
const PROGRESS_EVERY_MS = 2_000;

/** The searches of a command line: its QUERY and each of `--name`, `--email`, `--phone`. */
export function searchesOf(ask: IndexAsk, country: string | undefined): CustomerSearch[] {
  const out: CustomerSearch[] = [];
  if (ask.query !== undefined) out.push(customerSearchOf(ask.query, country));
  if (ask.name !== undefined) out.push(customerSearchOf(ask.name, country, true));
  if (ask.email !== undefined) out.push(customerSearchOf(`email:${ask.email}`, country));
  if (ask.phone !== undefined) out.push(customerSearchOf(`phone:${ask.phone}`, country));
  return out.filter((s) => s.terms.length > 0);
}

/** Where a search looked, in words: `“summit roofing” in names, emails, phones, reference ids`. */
export function headingOf(searches: readonly CustomerSearch[], group: string | undefined): string {
  const what = searches.length === 0 ? "everyone" : searches.map(describeCustomerSearch).join(" and ");
  return `${what}${group ? ` in group ${group}` : ""}, from the customer index on this machine`;
}

/**
 * Opens the store's index (undefined when this machine cannot keep it), makes it the seller's,
 * fills it if it was never filled — saying how far on stderr — and reads the changes since.
 */
export async function readyIndex(
  client: { customers: Pick<StoreClient["customers"], "listCustomers" | "searchCustomers"> },
  path: string,
  locations: readonly Location[],
  stderr: NodeJS.WritableStream,
): Promise<CustomerIndex | undefined> {
  let index: CustomerIndex;
  try {
    index = await openCustomerIndex(path);
  } catch (err) {
    const why = fileProblem(err);
    say(
      stderr,
      `backroom: the customer index cannot be kept at ${path}${why ? `: ${why}` : ` (${(err as Error).message})`}; asking the service`,
    );
    return undefined;
  }
  try {
    const merchant = locations.find((l) => l.merchant_id)?.merchant_id;
    if (merchant) index.claim(merchant);
    const source = indexSourceOf(client.customers);
    if (!index.progress().filled) {
      say(stderr, "backroom: building the customer index on this machine (first use)…");
      let saidAt = Date.now();
      await fillIndex(source, index, (size, expected) => {
        if (Date.now() - saidAt < PROGRESS_EVERY_MS) return;
        saidAt = Date.now();
        const read = expected === undefined ? plural(size, "profile") : partOf(size, expected, "profile");
        say(stderr, `backroom: ${read} read`);
      });
    }
    await refreshIndex(source, index, new Date());
    return index;
  } catch (err) {
    index.close();
    throw err;
  }
}

/** The first `limit` profiles the index finds for the searches and group, by name, with the total. */
export function findInIndex(
  index: CustomerIndex,
  ask: IndexAsk,
  country: string | undefined,
  group: string | undefined,
): IndexAnswer {
  const searches = searchesOf(ask, country);
  const filters: IndexFilters = ask.groupId ? { groupId: ask.groupId } : {};
  const page = index.search(searches, filters, "name", { offset: 0, limit: ask.limit });
  return { customers: page.rows, total: page.total, exact: page.exact, heading: headingOf(searches, group) };
}
