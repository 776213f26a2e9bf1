import type { CustomerFilter, CustomerTextFilter, FilterValue, TimeRange } from "../../spec/generated/types.js";
import { type Db, limitSql, plucked } from "../db.js";
import { badRequest, invalid } from "../errors.js";
import { parseTime } from "../params.js";
import { emailKey, phoneDigits, type StoredCustomer } from "./rules.js";

/** Which column a customer list is ordered by: the name key (DEFAULT) or `created_at`. */
export type CustomerSortKey = "DEFAULT" | "CREATED_AT";

/** The columns the fuzzy filters look in, by the name of their column in `customer_text`. */
const TEXT_COLUMNS = { email: "email_key", phone: "phone_key", reference: "reference_id" } as const;

/** A column of `customer_text`. */
export type TextColumn = keyof typeof TEXT_COLUMNS;

/** One fuzzy term: it must occur somewhere in the column's text. Lower-case; letters and digits only. */
export interface TextTerm {
  column: TextColumn;
  term: string;
}

/**
 * A compiled customer query: SQL conditions over the `customers` table, the fuzzy terms, and the
 * order. Each condition comes in two forms with the same parameters: one for reading a page,
 * written so that SQLite walks the sort index and stops once the page is full, and one for
 * counting, written so that SQLite may start from the filter's own index. Fuzzy terms are kept
 * apart: where they are looked up (the trigram index, or the sort index walked) is chosen when
 * the query runs, from how many profiles they match.
 */
export interface CompiledQuery {
  page: string[];
  count: string[];
  params: unknown[];
  text: TextTerm[];
  sort: CustomerSortKey;
  order: "ASC" | "DESC";
}

/**
 * The longest fuzzy text accepted, in characters: longer than any email address (320), so no
 * real search is refused, and short enough that no query built from it reaches SQLite's limits
 * on expressions and patterns.
 */
export const MAX_FUZZY_LENGTH = 320;

/** Adds a condition; `count` defaults to the page form. */
function add(out: CompiledQuery, page: string, params: readonly unknown[], count = page): void {
  out.page.push(page);
  out.count.push(count);
  out.params.push(...params);
}

/** A keyset position: the sort column's value and the id of the last record of a page. */
export type Position = [string, string];

const SORT_COLUMN: Record<CustomerSortKey, string> = { DEFAULT: "name_key", CREATED_AT: "created_at" };

/** Fuzzy terms: the query split into words; every word must occur. */
const terms = (q: string): string[] =>
  q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");

/** The terms without repeats and without those inside another (which the other already requires). */
function essentialTerms(words: readonly string[]): string[] {
  const unique = [...new Set(words)].sort((a, b) => b.length - a.length);
  return unique.filter((w, i) => !unique.slice(0, i).some((longer) => longer.includes(w)));
}

function textFilter(
  f: CustomerTextFilter,
  field: string,
  column: TextColumn,
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
    add(out, `${TEXT_COLUMNS[column]} = ?`, [normalize(f.exact ?? "")]);
    return;
  }
  const fuzzy = f.fuzzy ?? "";
  if (fuzzy.length > MAX_FUZZY_LENGTH) {
    throw invalid(
      "VALUE_TOO_LONG",
      `Must be at most ${MAX_FUZZY_LENGTH} characters: ${field}.fuzzy.`,
      `${field}.fuzzy`,
    );
  }
  const words = essentialTerms(fuzzyTerms(fuzzy));
  if (words.length === 0) throw invalid("INVALID_VALUE", `Nothing to search for: ${field}.fuzzy.`, `${field}.fuzzy`);
  for (const term of words) out.text.push({ column, term });
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
  const out: CompiledQuery = { page: [], count: [], params: [], text: [], sort, order };
  if (!filter) return out;
  const cs = filter.creation_source;
  if (cs?.values && cs.values.length > 0) {
    add(out, `creation_source ${cs.rule === "EXCLUDE" ? "NOT IN" : "IN"} (${marks(cs.values.length)})`, cs.values);
  }
  if (filter.created_at) timeRange(filter.created_at, `${at}.created_at`, "created_at", out);
  if (filter.updated_at) timeRange(filter.updated_at, `${at}.updated_at`, "updated_at", out);
  if (filter.email_address) {
    textFilter(filter.email_address, `${at}.email_address`, "email", emailKey, terms, out);
  }
  if (filter.phone_number) {
    const digits = (v: string) => {
      const d = phoneDigits(v);
      return d === "" ? [] : [d];
    };
    textFilter(filter.phone_number, `${at}.phone_number`, "phone", phoneDigits, digits, out);
  }
  if (filter.reference_id) {
    textFilter(filter.reference_id, `${at}.reference_id`, "reference", (v) => v, terms, out);
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

/** Whether the trigram index can look a term up: it needs three characters (code points). */
const indexable = (term: string): boolean => [...term].length >= 3;

/** The terms as a MATCH expression of `customer_text`: each a phrase in its column, all required. */
const matchExpression = (text: readonly TextTerm[]): string =>
  text.map((t) => `${t.column} : "${t.term.replaceAll('"', '""')}"`).join(" AND ");

/**
 * The text each column is searched in, as the trigram index holds it: emails and phone digits are
 * stored lower-cased and as digits; reference ids as given, so lower-cased here as LIKE would
 * compare them (ASCII letters only, like SQLite's lower()).
 */
const SEARCHED_TEXT: Record<TextColumn, string> = {
  email: "email_key",
  phone: "phone_key",
  reference: "lower(reference_id)",
};

/**
 * Terms as conditions on the profile's own columns: the term occurs in the column's text. Not
 * `LIKE ?`: SQLite plans with a LIKE pattern's bound value, so such a statement is parsed and
 * planned again at every run.
 */
function likeConditions(text: readonly TextTerm[]): { where: string[]; params: string[] } {
  return {
    where: text.map((t) => `instr(${SEARCHED_TEXT[t.column]}, ?) > 0`),
    params: text.map((t) => t.term),
  };
}

/**
 * Up to this many profiles matched by the trigram index are read and put in order to answer a
 * page (about a millisecond); beyond it, matches are dense enough that walking the sort index
 * finds a page sooner.
 */
const SORT_AT_MOST = 1000;

/** How far along the sort index a page of dense matches is looked for before the index takes over. */
const WALK_AT_MOST = 2000;

/**
 * One page in SQL: the next `limit` profiles after the keyset position, and the position to
 * continue from when there are more. Fuzzy terms of three characters or more are looked up in the
 * trigram index when they match few profiles; when they match many, the sort index is walked a
 * bounded distance, which finds a page of dense matches at once; what neither settles is answered
 * from the index in full. Every way gives the same rows in the same order.
 */
export function findPage(
  db: Db,
  merchantId: string,
  q: CompiledQuery,
  after: Position | undefined,
  limit: number,
): CustomerPage {
  const col = SORT_COLUMN[q.sort];
  const dir = q.order;
  const where = ["merchant_id = ?", ...q.page];
  const params: unknown[] = [merchantId, ...q.params];
  if (after) {
    where.push(`(${col}, id) ${dir === "ASC" ? ">" : "<"} (?, ?)`);
    params.push(after[0], after[1]);
  }
  const indexed = q.text.filter((t) => indexable(t.term));
  const short = likeConditions(q.text.filter((t) => !indexable(t.term)));
  const run = (extra: string[], extraParams: unknown[]) =>
    plucked(
      db,
      `SELECT data FROM customers WHERE ${[...where, ...short.where, ...extra].join(" AND ")}
       ORDER BY ${col} ${dir}, id ${dir} LIMIT ${limitSql(limit + 1)}`,
    ).all(...params, ...short.params, ...extraParams) as string[];

  let rows: string[];
  if (indexed.length === 0) {
    rows = run([], []);
  } else if (q.sort === "DEFAULT") {
    const filters = { where: [...q.page, ...short.where], params: [...q.params, ...short.params] };
    rows = inNameOrder(db, merchantId, matchExpression(indexed), after, dir, filters, limit + 1);
  } else {
    const match = matchExpression(indexed);
    const found = db
      .prepare(`SELECT rowid AS r FROM customer_text WHERE customer_text MATCH ? LIMIT ${SORT_AT_MOST + 1}`)
      .all(match) as { r: number }[];
    if (found.length <= SORT_AT_MOST) {
      rows = run(["name_rank IN (SELECT value FROM json_each(?))"], [JSON.stringify(found.map((f) => f.r))]);
    } else {
      const like = likeConditions(indexed);
      const walked = plucked(
        db,
        `SELECT data FROM customers WHERE rowid IN (
           SELECT rid FROM (
             SELECT rowid AS rid, ${col} AS k2, id AS i2, email_key, phone_key, reference_id FROM customers
             WHERE ${[...where, ...short.where].join(" AND ")} ORDER BY ${col} ${dir}, id ${dir} LIMIT ${WALK_AT_MOST}
           ) WHERE ${like.where.join(" AND ")} ORDER BY k2 ${dir}, i2 ${dir} LIMIT ${limitSql(limit + 1)}
         ) ORDER BY ${col} ${dir}, id ${dir}`,
      ).all(...params, ...short.params, ...like.params) as string[];
      rows =
        walked.length > limit
          ? walked
          : run(["name_rank IN (SELECT rowid FROM customer_text WHERE customer_text MATCH ?)"], [match]);
    }
  }
  return pageOf(db, col, rows, limit);
}

/**
 * The first `limit` of the records a page query read (it reads one more to tell whether more
 * follow), and then the position after the last of them: its sort column as stored, read by its id.
 */
function pageOf(db: Db, col: string, records: string[], limit: number): CustomerPage {
  if (records.length <= limit) return customerPage(records, undefined);
  const page = records.slice(0, limit);
  const id = recordId(page[limit - 1] as string);
  const key = plucked(db, `SELECT ${col} FROM customers WHERE id = ?`).get(id) as string;
  return customerPage(page, [key, id]);
}

const ID_FIRST = '{"id":"';

/**
 * A stored profile's id. Profiles are stored with their keys in the wire order, id first, so it
 * is read off the front of the text when it is there as plain characters (no escapes); any
 * other text is parsed.
 */
export function recordId(record: string): string {
  if (record.startsWith(ID_FIRST)) {
    const end = record.indexOf('"', ID_FIRST.length);
    const id = record.slice(ID_FIRST.length, end);
    if (end > 0 && !id.includes("\\")) return id;
  }
  return (JSON.parse(record) as StoredCustomer).id;
}

/** A page of profiles: their stored JSON (sent as is), and where the next page starts. */
export interface CustomerPage {
  records: string[];
  next?: Position;
  /** The profiles as objects (parsed when asked for). */
  readonly customers: StoredCustomer[];
}

/**
 * A class, its getter on the prototype: an object literal with a getter (and a spread) is built on
 * V8's slow path, on every page.
 */
class StoredPage implements CustomerPage {
  declare readonly next?: Position;

  constructor(
    readonly records: string[],
    next: Position | undefined,
  ) {
    if (next) this.next = next;
  }

  get customers(): StoredCustomer[] {
    return this.records.map((r) => JSON.parse(r) as StoredCustomer);
  }
}

const customerPage = (records: string[], next: Position | undefined): CustomerPage => new StoredPage(records, next);

/**
 * The statements of {@link inNameOrder} without filters, per database, by their shape (order,
 * position or none, rows): looked up by a short key, not by their text, which would be written
 * and hashed again at every page.
 */
const pagesByShape = new WeakMap<Db, Map<string, ReturnType<typeof plucked>>>();

/**
 * A page's records in the default order straight off the search index: it is keyed by each
 * profile's rank in that order, so it yields its matches in the order of the page, and reading
 * stops at the page's end. The index is read between the ranks of the merchant's first profile
 * after the position and its last one (first, descending), both found inside the statement; the
 * merchant's profiles hold every rank between those two, and only theirs. `filters` are the page's
 * other conditions on the profile, `take` the rows wanted. With none, each match is read from
 * `customer_pages` (its JSON by rank: one look-up); with some, from the profile's row.
 */
function inNameOrder(
  db: Db,
  merchantId: string,
  match: string,
  after: Position | undefined,
  dir: "ASC" | "DESC",
  filters: { where: readonly string[]; params: readonly unknown[] },
  take: number,
): string[] {
  const nextParams = after ? [merchantId, after[0], after[1]] : [merchantId];
  const bounds = dir === "ASC" ? [...nextParams, merchantId] : [merchantId, ...nextParams];
  if (filters.where.length === 0) {
    const shape = `${dir} ${after ? "after" : "first"} ${take}`;
    let statements = pagesByShape.get(db);
    if (!statements) {
      statements = new Map();
      pagesByShape.set(db, statements);
    }
    let page = statements.get(shape);
    if (!page) {
      page = plucked(
        db,
        `SELECT data FROM customer_text CROSS JOIN customer_pages ON customer_pages.name_rank = customer_text.rowid
         WHERE ${rankRange(after, dir)} AND customer_pages.merchant_id = ? ${rankOrder(dir, take)}`,
      );
      statements.set(shape, page);
    }
    return page.all(match, ...bounds, merchantId) as string[];
  }
  const position = after ? [`(name_key, id) ${dir === "ASC" ? ">" : "<"} (?, ?)`] : [];
  return plucked(
    db,
    `SELECT data FROM customer_text CROSS JOIN customers ON customers.name_rank = customer_text.rowid
     WHERE ${rankRange(after, dir)} AND ${["merchant_id = ?", ...position, ...filters.where].join(" AND ")}
     ${rankOrder(dir, take)}`,
  ).all(match, ...bounds, merchantId, ...(after ?? []), ...filters.params) as string[];
}

/**
 * The matches of the search index between the ranks of the merchant's first profile after the
 * position and its last one (first, descending). Parameters: the MATCH expression, then the
 * merchant (and the position) for each bound, in the order of the bounds.
 */
function rankRange(after: Position | undefined, dir: "ASC" | "DESC"): string {
  const back = dir === "ASC" ? "DESC" : "ASC";
  const next = `SELECT name_rank FROM customers WHERE merchant_id = ?${after ? ` AND (name_key, id) ${dir === "ASC" ? ">" : "<"} (?, ?)` : ""}
       ORDER BY name_key ${dir}, id ${dir} LIMIT 1`;
  const end = `SELECT name_rank FROM customers WHERE merchant_id = ? ORDER BY name_key ${back}, id ${back} LIMIT 1`;
  const [lo, hi] = dir === "ASC" ? [next, end] : [end, next];
  return `customer_text MATCH ? AND customer_text.rowid BETWEEN (${lo}) AND (${hi})`;
}

/**
 * The index's order, which is the page's: CROSS JOIN keeps the index as the outer loop. A bound
 * that is NULL (the merchant has no profile there) selects nothing.
 */
const rankOrder = (dir: "ASC" | "DESC", take: number) => `ORDER BY customer_text.rowid ${dir} LIMIT ${limitSql(take)}`;

/** How many profiles match, all pages together. */
export function countMatching(db: Db, merchantId: string, q: CompiledQuery): number {
  const indexed = q.text.filter((t) => indexable(t.term));
  const short = likeConditions(q.text.filter((t) => !indexable(t.term)));
  const where = ["merchant_id = ?", ...q.count, ...short.where];
  const params: unknown[] = [merchantId, ...q.params, ...short.params];
  if (indexed.length > 0) {
    where.push("name_rank IN (SELECT rowid FROM customer_text WHERE customer_text MATCH ?)");
    params.push(matchExpression(indexed));
  }
  const row = db.prepare(`SELECT COUNT(*) AS n FROM customers WHERE ${where.join(" AND ")}`).get(...params) as {
    n: number;
  };
  return row.n;
}

/**
 * Fills the trigram index and `customer_pages` from the profiles in one pass each: for a bulk
 * load, which drops the triggers that keep them in step while it inserts (see the demo seed).
 * Both must be empty.
 */
export function indexAllCustomers(db: Db): void {
  db.exec(
    "INSERT INTO customer_text (rowid, email, phone, reference) SELECT name_rank, email_key, phone_key, lower(reference_id) FROM customers NOT INDEXED ORDER BY name_rank",
  );
  // In rank order, so the index appends (out of order it writes a segment at every step back);
  // then one segment instead of the several a bulk insert leaves: a look-up reads each term once.
  db.exec("INSERT INTO customer_text (customer_text) VALUES ('optimize')");
  db.exec(
    "INSERT INTO customer_pages (name_rank, merchant_id, data) SELECT name_rank, merchant_id, data FROM customers WHERE name_rank IS NOT NULL ORDER BY name_rank",
  );
}

/** A keyset position from a decoded cursor, or INVALID_CURSOR. */
export function asPosition(p: unknown): Position | undefined {
  if (p === undefined) return undefined;
  if (Array.isArray(p) && p.length === 2 && typeof p[0] === "string" && typeof p[1] === "string") {
    return [p[0], p[1]];
  }
  throw invalid("INVALID_CURSOR", "The cursor is not valid.", "cursor");
}
