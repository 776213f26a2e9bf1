import type { InventoryChange, InventoryCount } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { limitSql, placeholders, stmt } from "../db.js";
import { type PlannedChange, toWireChange } from "./changes.js";
import {
  applyDelta,
  applyPhysicalCount,
  type CountKey,
  type CountRow,
  checkRange,
  countNow,
  deltasOf,
  getCount,
  laterMoves,
  sumFor,
  supersededBy,
  writeCount,
} from "./ledger.js";

/** A stored change row. */
export interface ChangeRow {
  seq: number;
  id: string;
  type: string;
  occurred_at: string;
  data: string;
}

/** The wire change of a row. */
export const changeOf = (row: Pick<ChangeRow, "data">): InventoryChange => JSON.parse(row.data) as InventoryChange;

/** Stores one change row; returns its arrival sequence. */
function insertChange(
  db: Db,
  merchantId: string,
  p: PlannedChange,
  change: InventoryChange,
  id: string,
  createdAt: string,
): number {
  const r = stmt(
    db,
    `INSERT INTO inventory_changes (id, merchant_id, type, catalog_object_id, location_id, to_location_id, state, to_state, units, occurred_at, created_at, data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    merchantId,
    p.type,
    p.objectId,
    p.locationId,
    p.toLocationId ?? null,
    p.state,
    p.toState ?? null,
    p.units,
    p.occurredAt,
    createdAt,
    JSON.stringify(change),
  );
  return Number(r.lastInsertRowid);
}

/**
 * The counts a batch works on, by {@link keyName}: every state of every (object, location) pair
 * the batch names, read in one query before it starts and kept as it writes, so that no change
 * reads its key again and the answer needs no second read. A key missing here has no count.
 */
export type CountBook = Map<string, CountRow>;

const rowKey = (c: Pick<CountRow, "catalog_object_id" | "location_id" | "state">): string =>
  keyName(c.catalog_object_id, c.location_id, c.state);

/** A key's current count: from the batch's book when there is one, else from the store. */
function currentCount(db: Db, k: CountKey, book: CountBook | undefined): CountRow | undefined {
  return book ? book.get(keyName(k.objectId, k.locationId, k.state)) : getCount(db, k);
}

/** What one recorded change answers: the stored change and the counts it moved. */
export interface Recorded {
  change: InventoryChange;
  changed: InventoryCount[];
}

/**
 * Records one checked change and updates the counts it touches. Returns the stored change and
 * the counts that changed; or undefined when `ignoreUnchanged` skips a physical count equal to
 * the key's current count. With a `book`, counts are read from and written through it.
 */
export function recordChange(
  db: Db,
  merchantId: string,
  p: PlannedChange,
  newId: () => string,
  now: string,
  ignoreUnchanged: boolean,
  book?: CountBook,
): Recorded | undefined {
  const keep = (u: { row?: CountRow }) => {
    if (book && u.row) book.set(rowKey(u.row), u.row);
  };
  if (p.type === "PHYSICAL_COUNT") {
    const key: CountKey = {
      merchantId,
      objectId: p.objectId,
      objectType: "ITEM_VARIATION",
      locationId: p.locationId,
      state: p.state,
    };
    const current = currentCount(db, key, book);
    if (ignoreUnchanged && current && current.units === p.units) return undefined;
    const id = newId();
    const change = toWireChange(p, id, now);
    const seq = insertChange(db, merchantId, p, change, id, now);
    const done = applyPhysicalCount(db, key, seq, p.occurredAt, p.units, now, current);
    keep(done);
    return { change, changed: done.changed ? [done.changed] : [] };
  }
  const id = newId();
  const change = toWireChange(p, id, now);
  insertChange(db, merchantId, p, change, id, now);
  const changed: InventoryCount[] = [];
  for (const d of deltasOf(p, merchantId)) {
    const done = applyDelta(db, d.key, p.occurredAt, d.units, now, currentCount(db, d.key, book));
    keep(done);
    if (done.changed) changed.push(done.changed);
  }
  return { change, changed };
}

/** A count key as one string. */
export const keyName = (objectId: string, locationId: string, state: string): string =>
  `${objectId}\u0000${locationId}\u0000${state}`;

/**
 * Records physical counts of distinct keys together, as {@link recordChange} records each: their
 * current counts come from the batch's book, one query reads the moves after the earliest of
 * them, then each change is stored and its count written (and kept in the book). Answers per
 * change (in order) what recordChange would.
 */
export function recordPhysicalCounts(
  db: Db,
  merchantId: string,
  run: readonly PlannedChange[],
  newId: () => string,
  now: string,
  ignoreUnchanged: boolean,
  book: CountBook,
): (Recorded | undefined)[] {
  if (run.length === 0) return [];
  const before = run.map((p) => book.get(keyName(p.objectId, p.locationId, p.state)));
  const skip = (i: number) => ignoreUnchanged && before[i] !== undefined && before[i]?.units === run[i]?.units;
  const counted = run.filter((p, i) => !skip(i) && !supersededBy(before[i], p.occurredAt));
  const earliest = counted.reduce((min, p) => (p.occurredAt < min ? p.occurredAt : min), "\uffff");
  const objects = [...new Set(counted.map((p) => p.objectId))];
  const moves = objects.length > 0 ? laterMoves(db, merchantId, objects, earliest) : [];
  return run.map((p, i) => {
    if (skip(i)) return undefined;
    const was = before[i];
    const id = newId();
    const change = toWireChange(p, id, now);
    const seq = insertChange(db, merchantId, p, change, id, now);
    if (supersededBy(was, p.occurredAt)) return { change, changed: [] };
    const k: CountKey = {
      merchantId,
      objectId: p.objectId,
      objectType: "ITEM_VARIATION",
      locationId: p.locationId,
      state: p.state,
    };
    const value = p.units + sumFor(k, moves, p.occurredAt);
    checkRange(k, value);
    const row = writeCount(db, k, value, { at: p.occurredAt, seq }, now, was?.id);
    book.set(rowKey(row), row);
    return { change, changed: was === undefined || was.units !== value ? [countNow(k, value, now)] : [] };
  });
}

/** Every (object, location) pair a batch names, each once, in the order first named (a transfer names both ends). */
function pairsOf(planned: readonly PlannedChange[]): { objectId: string; locationId: string }[] {
  const pairs = new Map<string, { objectId: string; locationId: string }>();
  for (const p of planned) {
    for (const locationId of p.toLocationId ? [p.locationId, p.toLocationId] : [p.locationId]) {
      pairs.set(`${p.objectId}\u0000${locationId}`, { objectId: p.objectId, locationId });
    }
  }
  return [...pairs.values()];
}

/** The book's counts of the pairs, in the pairs' order, each pair's states in order. */
function countsInBook(book: CountBook, pairs: readonly { objectId: string; locationId: string }[]): CountRow[] {
  const byPair = new Map<string, CountRow[]>();
  for (const row of book.values()) {
    const name = `${row.catalog_object_id}\u0000${row.location_id}`;
    const list = byPair.get(name);
    if (list) list.push(row);
    else byPair.set(name, [row]);
  }
  return pairs.flatMap((p) =>
    (byPair.get(`${p.objectId}\u0000${p.locationId}`) ?? []).sort((a, b) =>
      a.state < b.state ? -1 : a.state > b.state ? 1 : 0,
    ),
  );
}

/**
 * Records a checked batch in order: runs of physical counts of distinct keys together
 * ({@link recordPhysicalCounts}), every other change on its own. Answers the changes recorded,
 * the counts that changed (a key moved twice reported once, as it ends up), and the current
 * counts of every (object, location) the batch names, every state, in the order first named.
 */
export function recordBatch(
  db: Db,
  merchantId: string,
  planned: readonly PlannedChange[],
  newId: () => string,
  now: string,
  ignoreUnchanged: boolean,
): { changes: InventoryChange[]; changed: InventoryCount[]; counts: CountRow[] } {
  const pairs = pairsOf(planned);
  const book: CountBook = new Map(countsOfPairs(db, merchantId, pairs).map((c) => [rowKey(c), c]));
  const changes: InventoryChange[] = [];
  const changed = new Map<string, InventoryCount>();
  const take = (done: Recorded | undefined) => {
    if (!done) return;
    changes.push(done.change);
    for (const c of done.changed)
      changed.set(keyName(c.catalog_object_id ?? "", c.location_id ?? "", c.state ?? ""), c);
  };
  let run: PlannedChange[] = [];
  let runKeys = new Set<string>();
  const flush = () => {
    for (const done of recordPhysicalCounts(db, merchantId, run, newId, now, ignoreUnchanged, book)) take(done);
    run = [];
    runKeys = new Set();
  };
  for (const p of planned) {
    const name = keyName(p.objectId, p.locationId, p.state);
    if (p.type !== "PHYSICAL_COUNT" || runKeys.has(name)) flush();
    if (p.type === "PHYSICAL_COUNT") {
      run.push(p);
      runKeys.add(name);
    } else {
      take(recordChange(db, merchantId, p, newId, now, ignoreUnchanged, book));
    }
  }
  flush();
  return { changes, changed: [...changed.values()], counts: countsInBook(book, pairs) };
}

/** One change by id and kind; undefined when there is none of that kind. */
export function findChange(db: Db, merchantId: string, id: string, type: string): InventoryChange | undefined {
  const row = stmt(db, "SELECT data FROM inventory_changes WHERE id = ? AND merchant_id = ? AND type = ?").get(
    id,
    merchantId,
    type,
  ) as { data: string } | undefined;
  return row ? changeOf(row) : undefined;
}

/** Filters of a changes search. */
export interface ChangeFilter {
  objectIds?: readonly string[];
  locationIds?: readonly string[];
  types: readonly string[];
  states?: readonly string[];
  /** Server receipt time (`created_at`), exclusive bounds. */
  createdAfter?: string;
  createdBefore?: string;
}

/** A keyset position in a changes listing: `occurred_at`, then arrival. */
export interface ChangePosition {
  o: string;
  s: number;
}

/** One page of changes by `occurred_at` (then arrival), ascending or descending, after a position. */
export function pageChanges(
  db: Db,
  merchantId: string,
  f: ChangeFilter,
  order: "ASC" | "DESC",
  after: ChangePosition | undefined,
  limit: number,
): { rows: ChangeRow[]; more: boolean } {
  const where = ["merchant_id = ?"];
  const args: unknown[] = [merchantId];
  const inList = (column: string, values: readonly string[] | undefined) => {
    if (!values || values.length === 0) return;
    where.push(`${column} IN (${placeholders(values.length)})`);
    args.push(...values);
  };
  inList("catalog_object_id", f.objectIds);
  inList("type", f.types);
  if (f.locationIds && f.locationIds.length > 0) {
    const list = placeholders(f.locationIds.length);
    where.push(`(location_id IN (${list}) OR to_location_id IN (${list}))`);
    args.push(...f.locationIds, ...f.locationIds);
  }
  if (f.states && f.states.length > 0) {
    const list = placeholders(f.states.length);
    where.push(`(state IN (${list}) OR to_state IN (${list}))`);
    args.push(...f.states, ...f.states);
  }
  if (f.createdAfter !== undefined) {
    where.push("created_at > ?");
    args.push(f.createdAfter);
  }
  if (f.createdBefore !== undefined) {
    where.push("created_at < ?");
    args.push(f.createdBefore);
  }
  if (after) {
    where.push(order === "ASC" ? "(occurred_at, seq) > (?, ?)" : "(occurred_at, seq) < (?, ?)");
    args.push(after.o, after.s);
  }
  const rows = stmt(
    db,
    `SELECT seq, id, type, occurred_at, data FROM inventory_changes WHERE ${where.join(" AND ")} ORDER BY occurred_at ${order}, seq ${order} LIMIT ${limitSql(limit + 1)}`,
  ).all(...args) as ChangeRow[];
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/** Filters of a counts search. */
export interface CountFilter {
  objectIds?: readonly string[];
  locationIds?: readonly string[];
  states?: readonly string[];
  /** Exclusive, on `calculated_at` (the server time of the latest change). */
  calculatedAfter?: string;
}

/** A keyset position in a counts listing: `calculated_at`, then row id, both descending. */
export interface CountPosition {
  c: string;
  i: number;
}

/**
 * A stored quantity (units of 0.00001, in `column`) as {@link formatQuantity} writes it, in SQL:
 * the shortest decimal, "-" before a negative one (30000 → "0.3", 200000 → "2", -50 → "-0.0005").
 */
export const quantitySql = (column: string): string =>
  `(CASE WHEN ${column} < 0 THEN '-' ELSE '' END) || (abs(${column}) / 100000) ||
   (CASE WHEN abs(${column}) % 100000 = 0 THEN ''
         ELSE '.' || rtrim(substr('0000' || (abs(${column}) % 100000), -5), '0') END)`;

/** A count row as its wire count (see {@link toCount}), a JSON object made in SQL. */
const COUNT_JSON = `json_object('catalog_object_id', catalog_object_id, 'catalog_object_type', catalog_object_type,
  'state', state, 'location_id', location_id, 'quantity', ${quantitySql("units")}, 'calculated_at', calculated_at,
  'is_estimated', json('false'))`;

/** A page of counts: their wire counts as one JSON array, and where the next page starts, if there is one. */
export interface CountsPage {
  /** A JSON array of wire counts, newest first. */
  json: string;
  /** The page's last count's position, when counts come after it. */
  next?: CountPosition;
}

/**
 * One page of counts, newest `calculated_at` first, after a position. The page is written as JSON
 * by SQLite, and sent as it is written: rows as objects, parsed, mapped and serialised again cost
 * a page of 100 counts about twice as much (185 against 105 µs of CPU, a location's page at scale
 * 200). The page's last position comes with it, as the least `(calculated_at, id)` of the page.
 * Whether counts come after it is a second, one-row look-up, made only when the page is full.
 */
export function pageCounts(
  db: Db,
  merchantId: string,
  f: CountFilter,
  after: CountPosition | undefined,
  limit: number,
): CountsPage {
  const where = ["merchant_id = ?"];
  const args: unknown[] = [merchantId];
  const byObject = f.objectIds !== undefined && f.objectIds.length > 0;
  for (const [column, values] of [
    ["catalog_object_id", f.objectIds],
    ["location_id", f.locationIds],
    ["state", f.states],
  ] as const) {
    if (!values || values.length === 0) continue;
    where.push(`${column} IN (${placeholders(values.length)})`);
    args.push(...values);
  }
  if (f.calculatedAfter !== undefined) {
    where.push("calculated_at > ?");
    args.push(f.calculatedAfter);
  }
  // With a few objects named, their keys are looked up directly and the handful sorted; otherwise
  // the calculated_at index is walked backwards and stops after one page.
  const index = byObject ? "inventory_counts_by_key" : "inventory_counts_by_calculated";
  const rowsAfter = (position: CountPosition | undefined, rows: number, columns: string) =>
    `SELECT ${columns} FROM inventory_counts INDEXED BY ${index}
     WHERE ${[...where, ...(position ? ["(calculated_at, id) < (?, ?)"] : [])].join(" AND ")}
     ORDER BY calculated_at DESC, id DESC LIMIT ${limitSql(rows)}`;
  const at = (position: CountPosition | undefined) => (position ? [...args, position.c, position.i] : args);
  const page = stmt(
    db,
    // The least position of the page is its last row's. As text: calculated_at, a space (below
    // every character of a time, so a shorter time still comes first), then the id zero-padded,
    // so the text compares as the pair (calculated_at, id) does.
    `SELECT json_group_array(${COUNT_JSON}) AS json, count(*) AS rows,
            min(calculated_at || printf(' %020d', id)) AS last
     FROM (${rowsAfter(after, limit, "catalog_object_id, catalog_object_type, state, location_id, units, calculated_at, id")})`,
  ).get(...at(after)) as { json: string; rows: number; last: string | null };
  if (page.rows < limit || page.last === null) return { json: page.json };
  const space = page.last.lastIndexOf(" ");
  const next: CountPosition = { c: page.last.slice(0, space), i: Number(page.last.slice(space + 1)) };
  const more = stmt(db, rowsAfter(next, 1, "1")).get(...at(next)) !== undefined;
  return more ? { json: page.json, next } : { json: page.json };
}

/** The counts of some (object, location) pairs, in the order given, all their states. */
export function countsOfPairs(
  db: Db,
  merchantId: string,
  pairs: readonly { objectId: string; locationId: string }[],
): CountRow[] {
  if (pairs.length === 0) return [];
  return stmt(
    db,
    `SELECT c.* FROM json_each(?) j CROSS JOIN inventory_counts c
       ON c.merchant_id = ? AND c.catalog_object_id = j.value ->> 0 AND c.location_id = j.value ->> 1
     ORDER BY j.key, c.state`,
  ).all(JSON.stringify(pairs.map((p) => [p.objectId, p.locationId])), merchantId) as CountRow[];
}
