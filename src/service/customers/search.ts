import type { CustomerFilter, CustomerTextFilter, FilterValue, TimeRange } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { badRequest, invalid } from "../errors.js";
import { parseTime } from "../params.js";
import { emailKey, phoneDigits, type StoredCustomer } from "./rules.js";

/** Which column a customer list is ordered by: the name key (DEFAULT) or `created_at`. */
export type CustomerSortKey = "DEFAULT" | "CREATED_AT";

/**
 * A compiled customer query: SQL conditions over the `customers` table, and the order. Each
 * condition comes in two forms with the same parameters: one for reading a page, written so that
 * SQLite walks the sort index and stops once the page is full, and one for counting, written so
 * that SQLite may start from the filter's own index.
 */
export interface CompiledQuery {
  page: string[];
  count: string[];
  params: unknown[];
  sort: CustomerSortKey;
  order: "ASC" | "DESC";
}

/** Adds a condition; `count` defaults to the page form. */
function add(out: CompiledQuery, page: string, params: readonly unknown[], count = page): void {
  out.page.push(page);
  out.count.push(count);
  out.params.push(...params);
}

/** A keyset position: the sort column's value and the id of the last record of a page. */
export type Position = [string, string];

const SORT_COLUMN: Record<CustomerSortKey, string> = { DEFAULT: "name_key", CREATED_AT: "created_at" };

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
const contains = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Fuzzy terms: the query split into words; every word must occur. */
const terms = (q: string): string[] =>
  q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");

function textFilter(
  f: CustomerTextFilter,
  field: string,
  column: string,
  normalize: (v: string) => string,
  fuzzyTerms: (v: string) => string[],
  out: CompiledQuery,
): void {
  const hasExact = f.exact !== undefined && f.exact !== "";
  const hasFuzzy = f.fuzzy !== undefined && f.fuzzy !== "";
  if (hasExact && hasFuzzy) throw invalid("CONFLICTING_PARAMETERS", `Use exact or fuzzy, not both: ${field}.`, field);
  if (!hasExact && !hasFuzzy) throw invalid("MISSING_REQUIRED_PARAMETER", `Set exact or fuzzy: ${field}.`, field);
  if (hasExact) {
    // Selective: both forms may start from the column's index.
    add(out, `${column} = ?`, [normalize(f.exact ?? "")]);
    return;
  }
  const words = fuzzyTerms(f.fuzzy ?? "");
  if (words.length === 0) throw invalid("INVALID_VALUE", `Nothing to search for: ${field}.fuzzy.`, `${field}.fuzzy`);
  for (const w of words) add(out, `${column} LIKE ? ESCAPE '\\'`, [contains(w)]);
}

function timeRange(r: TimeRange, field: string, column: string, out: CompiledQuery): void {
  const start = r.start_at ? parseTime(r.start_at, `${field}.start_at`) : undefined;
  const end = r.end_at ? parseTime(r.end_at, `${field}.end_at`) : undefined;
  if (start && end && start.getTime() > end.getTime()) {
    throw invalid("INVALID_TIME_RANGE", `${field}.start_at is after end_at.`, field);
  }
  // Both ends inclusive; the stored timestamps are fixed-width UTC, so text order is time order.
  // A page sorted by another column reads the range off the sort index ("+" keeps SQLite from
  // starting at the range's index and sorting everything in it).
  const pageColumn = out.sort === "CREATED_AT" && column === "created_at" ? column : `+${column}`;
  if (start) add(out, `${pageColumn} >= ?`, [start.toISOString()], `${column} >= ?`);
  if (end) add(out, `${pageColumn} <= ?`, [end.toISOString()], `${column} <= ?`);
}

/**
 * Membership conditions: in every group of `all`, in one of `any`, in none of `none`. `probe`
 * tests one row (for pages: the likelihood hint keeps SQLite walking the sort index and probing);
 * `set` is the matching ids (for counts, driven from the membership's index).
 */
function memberFilter(
  f: FilterValue,
  probe: (ids: readonly string[]) => string,
  set: (ids: readonly string[]) => string,
  out: CompiledQuery,
): void {
  for (const id of f.all ?? []) add(out, `likelihood(${probe([id])}, 0.5)`, [id], `id IN (${set([id])})`);
  if (f.any && f.any.length > 0) add(out, `likelihood(${probe(f.any)}, 0.5)`, f.any, `id IN (${set(f.any)})`);
  if (f.none && f.none.length > 0) {
    add(out, `likelihood(NOT ${probe(f.none)}, 0.5)`, f.none, `id NOT IN (${set(f.none)})`);
  }
}

const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/**
 * Compiles a search filter and sort to SQL. Text filters: `exact` compares the whole value
 * (emails without regard to case, phone numbers by their digits); `fuzzy` requires every word of
 * the query to occur in the value.
 */
export function compileQuery(
  filter: CustomerFilter | undefined,
  sort: CustomerSortKey,
  order: "ASC" | "DESC",
  at = "query.filter",
): CompiledQuery {
  const out: CompiledQuery = { page: [], count: [], params: [], sort, order };
  if (!filter) return out;
  const cs = filter.creation_source;
  if (cs?.values && cs.values.length > 0) {
    add(out, `creation_source ${cs.rule === "EXCLUDE" ? "NOT IN" : "IN"} (${marks(cs.values.length)})`, cs.values);
  }
  if (filter.created_at) timeRange(filter.created_at, `${at}.created_at`, "created_at", out);
  if (filter.updated_at) timeRange(filter.updated_at, `${at}.updated_at`, "updated_at", out);
  if (filter.email_address) {
    textFilter(filter.email_address, `${at}.email_address`, "email_key", emailKey, terms, out);
  }
  if (filter.phone_number) {
    const digits = (v: string) => {
      const d = phoneDigits(v);
      return d === "" ? [] : [d];
    };
    textFilter(filter.phone_number, `${at}.phone_number`, "phone_key", phoneDigits, digits, out);
  }
  if (filter.reference_id) {
    textFilter(filter.reference_id, `${at}.reference_id`, "reference_id", (v) => v, terms, out);
  }
  if (filter.group_ids) {
    memberFilter(
      filter.group_ids,
      (ids) =>
        `EXISTS (SELECT 1 FROM customer_group_members m WHERE m.customer_id = customers.id AND m.group_id IN (${marks(ids.length)}))`,
      (ids) => `SELECT customer_id FROM customer_group_members WHERE group_id IN (${marks(ids.length)})`,
      out,
    );
  }
  if (filter.segment_ids) {
    memberFilter(
      filter.segment_ids,
      (ids) =>
        `EXISTS (SELECT 1 FROM json_each(customers.data, '$.segment_ids') s WHERE s.value IN (${marks(ids.length)}))`,
      (ids) =>
        `SELECT c.id FROM customers c, json_each(c.data, '$.segment_ids') s WHERE s.value IN (${marks(ids.length)})`,
      out,
    );
  }
  if (filter.custom_attribute) {
    throw badRequest("Custom attribute filters are not supported by this service.", `${at}.custom_attribute`);
  }
  return out;
}

/**
 * One page in SQL: the next `limit` profiles after the keyset position, and the position to
 * continue from when there are more.
 */
export function findPage(
  db: Db,
  merchantId: string,
  q: CompiledQuery,
  after: Position | undefined,
  limit: number,
): { customers: StoredCustomer[]; next?: Position } {
  const col = SORT_COLUMN[q.sort];
  const where = ["merchant_id = ?", ...q.page];
  const params: unknown[] = [merchantId, ...q.params];
  if (after) {
    where.push(`(${col}, id) ${q.order === "ASC" ? ">" : "<"} (?, ?)`);
    params.push(after[0], after[1]);
  }
  const rows = db
    .prepare(
      `SELECT ${col} AS k, id, data FROM customers WHERE ${where.join(" AND ")}
       ORDER BY ${col} ${q.order}, id ${q.order} LIMIT ?`,
    )
    .all(...params, limit + 1) as { k: string; id: string; data: string }[];
  const page = rows.slice(0, limit);
  const customers = page.map((r) => JSON.parse(r.data) as StoredCustomer);
  const last = page[page.length - 1];
  return rows.length > limit && last ? { customers, next: [last.k, last.id] } : { customers };
}

/** How many profiles match, all pages together. */
export function countMatching(db: Db, merchantId: string, q: CompiledQuery): number {
  const row = db
    .prepare(`SELECT COUNT(*) AS n FROM customers WHERE ${["merchant_id = ?", ...q.count].join(" AND ")}`)
    .get(merchantId, ...q.params) as { n: number };
  return row.n;
}

/** A keyset position from a decoded cursor, or INVALID_CURSOR. */
export function asPosition(p: unknown): Position | undefined {
  if (p === undefined) return undefined;
  if (Array.isArray(p) && p.length === 2 && typeof p[0] === "string" && typeof p[1] === "string") {
    return [p[0], p[1]];
  }
  throw invalid("INVALID_CURSOR", "The cursor is not valid.", "cursor");
}
