import { formatQuantity } from "../../domain/quantity.js";
import type {
  InventoryAdjustment,
  InventoryChange,
  InventoryChangeType,
  InventoryCount,
  InventoryPhysicalCount,
  InventoryState,
  InventoryTransfer,
} from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { loggedChanges, sellerBook, wordText } from "./book.js";
import {
  byCalculated,
  byTimeOrder,
  type ChangeRec,
  type CountKey,
  type CountRec,
  countAt,
  countRecord,
  countsOfPairsIn,
  deltasOf,
  type MerchantBook,
  objectChanges,
  objectCounts,
  SUB_OBJECT,
  sortCalculated,
} from "./ledger.js";

/**
 * What the inventory book answers: counts and changes by their keys, pages of them in the
 * service's orders, and their wire shapes.
 */

/** The counts of some (object, location) pairs, in the order given, all their states (by state). */
export function countsOfPairs(
  db: Db,
  merchantId: string,
  pairs: readonly { objectId: string; locationId: string }[],
): CountRec[] {
  const m = sellerBook(db, merchantId);
  return m ? countsOfPairsIn(m, pairs) : [];
}

/** The current count of a key, if it has one. */
export function countOf(db: Db, k: Omit<CountKey, "objectType">): CountRec | undefined {
  const m = sellerBook(db, k.merchantId);
  return m ? countAt(m, k.objectId, k.locationId, k.state) : undefined;
}

/** One change by id and kind. */
export function changeById(db: Db, merchantId: string, id: string, type: InventoryChangeType): ChangeRec | undefined {
  const m = sellerBook(db, merchantId);
  if (!m) return undefined;
  if (!m.byId) m.byId = new Map(changesByTime(m).map((c) => [c.id, c]));
  const c = m.byId.get(id);
  return c?.type === type ? c : undefined;
}

/** In-stock totals per variation, over some locations (or all). */
export function inStockTotals(
  db: Db,
  merchantId: string,
  locationIds: readonly string[] | undefined,
): Map<string, number> {
  const totals = new Map<string, number>();
  const m = sellerBook(db, merchantId);
  if (!m) return totals;
  const at = locationIds && locationIds.length > 0 ? new Set(locationIds) : undefined;
  for (const [objectId, ob] of m.objects) {
    let units = 0;
    let any = false;
    for (let c = ob.firstCount; c; c = c.next) {
      if (c.state !== "IN_STOCK" || (at && !at.has(c.locationId))) continue;
      units += c.units;
      any = true;
    }
    if (any) totals.set(objectId, units);
  }
  return totals;
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

const setOf = (values: readonly string[] | undefined) => (values && values.length > 0 ? new Set(values) : undefined);

/** A seller's changes by (occurredMs, order): its unsorted newest merged in first. */
function changesByTime(m: MerchantBook): ChangeRec[] {
  if (m.unsorted.length > 0) {
    const fresh = m.unsorted.sort(byTimeOrder);
    const merged: ChangeRec[] = new Array(m.byTime.length + fresh.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < m.byTime.length && j < fresh.length) {
      merged[k++] =
        byTimeOrder(m.byTime[i] as ChangeRec, fresh[j] as ChangeRec) <= 0
          ? (m.byTime[i++] as ChangeRec)
          : (fresh[j++] as ChangeRec);
    }
    while (i < m.byTime.length) merged[k++] = m.byTime[i++] as ChangeRec;
    while (j < fresh.length) merged[k++] = fresh[j++] as ChangeRec;
    m.byTime = merged;
    m.unsorted = [];
  }
  return m.byTime;
}

/** The first index of a list by (occurredMs, order) whose change comes after a position (ms, order). */
function firstAfter(list: readonly ChangeRec[], ms: number, order: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = list[mid] as ChangeRec;
    if (c.occurredMs < ms || (c.occurredMs === ms && c.order <= order)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A time given as text (a filter, a cursor), in epoch milliseconds. */
const msOf = (at: string | undefined): number | undefined => (at === undefined ? undefined : Date.parse(at));

/** One page of changes by `occurred_at` (then arrival), ascending or descending, after a position. */
export function pageChanges(
  db: Db,
  merchantId: string,
  f: ChangeFilter,
  order: "ASC" | "DESC",
  after: ChangePosition | undefined,
  limit: number,
): { rows: ChangeRec[]; more: boolean } {
  const m = sellerBook(db, merchantId);
  if (!m) return { rows: [], more: false };
  const objects = setOf(f.objectIds);
  const list = objects ? [...objects].flatMap((id) => objectChanges(m, id)).sort(byTimeOrder) : changesByTime(m);
  const createdAfter = msOf(f.createdAfter);
  const createdBefore = msOf(f.createdBefore);
  const types = setOf(f.types);
  const locations = setOf(f.locationIds);
  const states = setOf(f.states);
  const wanted = (c: ChangeRec) =>
    (!types || types.has(c.type)) &&
    (!locations || locations.has(c.locationId) || (c.toLocationId !== null && locations.has(c.toLocationId))) &&
    (!states || states.has(c.state) || (c.toState !== null && states.has(c.toState))) &&
    (createdAfter === undefined || c.createdMs > createdAfter) &&
    (createdBefore === undefined || c.createdMs < createdBefore);
  const rows: ChangeRec[] = [];
  if (order === "ASC") {
    for (
      let i = after ? firstAfter(list, Date.parse(after.o), after.s) : 0;
      i < list.length && rows.length <= limit;
      i++
    ) {
      const c = list[i] as ChangeRec;
      if (wanted(c)) rows.push(c);
    }
  } else {
    // Before the position: everything ahead of the first change at or after it.
    let i = after ? firstAfter(list, Date.parse(after.o), after.s - 1) - 1 : list.length - 1;
    for (; i >= 0 && rows.length <= limit; i--) {
      const c = list[i] as ChangeRec;
      if (wanted(c)) rows.push(c);
    }
  }
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

/** A keyset position in a counts listing: `calculated_at`, then count id, both descending. */
export interface CountPosition {
  c: string;
  i: number;
}

/** A page of counts: their wire counts as one JSON array, and where the next page starts, if there is one. */
export interface CountsPage {
  /** A JSON array of wire counts, newest first. */
  json: string;
  /** The page's last count's position, when counts come after it. */
  next?: CountPosition;
}

// The two times last written: a batch's changes share an occurred_at and a created_at, and the
// counts it moved their calculated_at.
let msA = Number.NaN;
let isoA = "";
let msB = Number.NaN;
let isoB = "";

/** A time of the book (epoch milliseconds) as the wire writes it. */
export function isoOf(ms: number): string {
  if (ms === msA) return isoA;
  if (ms === msB) return isoB;
  // The older of the two gives way.
  msB = msA;
  isoB = isoA;
  msA = ms;
  isoA = new Date(ms).toISOString();
  return isoA;
}

/** A count's calculated_at as the wire writes it (kept on the count once written out). */
const calculatedAt = (c: CountRec): string => {
  c.calculatedAt ??= isoOf(c.calculatedMs);
  return c.calculatedAt;
};

/** A count's wire JSON (what JSON.stringify of {@link wireCount} writes), written field by field: a page holds up to 1,000. */
export const countJson = (c: CountRec): string =>
  `{"catalog_object_id":"${wordText(c.objectId)}","catalog_object_type":"ITEM_VARIATION","state":"${wordText(
    c.state,
  )}","location_id":"${wordText(c.locationId)}","quantity":"${formatQuantity(c.units)}","calculated_at":"${calculatedAt(
    c,
  )}","is_estimated":false}`;

/**
 * A change's wire JSON (what JSON.stringify of {@link wireChange} writes), written field by field:
 * a batch answers up to 100. Its id is the service's own (ids.ts: letters and digits).
 */
export function changeJson(c: ChangeRec): string {
  const extras = c.extras ? JSON.stringify(c.extras).slice(1, -1) : "";
  const where =
    c.type === "ADJUSTMENT"
      ? `"from_state":"${wordText(c.state)}","to_state":"${wordText(c.toState ?? "")}","location_id":"${wordText(c.locationId)}"`
      : c.type === "TRANSFER"
        ? `"state":"${wordText(c.state)}","from_location_id":"${wordText(c.locationId)}","to_location_id":"${wordText(
            c.toLocationId ?? "",
          )}"`
        : `"state":"${wordText(c.state)}","location_id":"${wordText(c.locationId)}"`;
  return `{"type":"${c.type}","${SUB_OBJECT[c.type]}":{"id":"${c.id}"${extras === "" ? "" : `,${extras}`},"catalog_object_id":"${wordText(
    c.objectId,
  )}","catalog_object_type":"ITEM_VARIATION","quantity":"${formatQuantity(c.units)}",${where},"occurred_at":"${isoOf(
    c.occurredMs,
  )}","created_at":"${isoOf(c.createdMs)}"}}`;
}

/**
 * Records' JSON as an array: each record's appended onto one string, which the answer writes out
 * flat in one go (a join of 100 records' strings took a tenth to a fifth longer).
 */
function arrayJson<T>(records: readonly T[], json: (r: T) => string): string {
  let out = "[";
  for (let i = 0; i < records.length; i++) out += `${i === 0 ? "" : ","}${json(records[i] as T)}`;
  return `${out}]`;
}

/** One page of counts, newest `calculated_at` (then id) first, after a position. */
export function pageCounts(
  db: Db,
  merchantId: string,
  f: CountFilter,
  after: CountPosition | undefined,
  limit: number,
): CountsPage {
  const m = sellerBook(db, merchantId);
  if (!m) return { json: "[]" };
  if (!m.calculatedSorted) sortCalculated(m);
  const locations = setOf(f.locationIds);
  const states = setOf(f.states);
  const afterMs = after ? Date.parse(after.c) : 0;
  const calculatedAfter = msOf(f.calculatedAfter);
  const before = (c: CountRec) => !after || c.calculatedMs < afterMs || (c.calculatedMs === afterMs && c.id < after.i);
  const wanted = (c: CountRec) =>
    (!locations || locations.has(c.locationId)) && (!states || states.has(c.state)) && before(c);
  const rows: CountRec[] = [];
  const objects = setOf(f.objectIds);
  if (objects) {
    const found = [...objects]
      .flatMap((id) => objectCounts(m, id))
      .filter((c) => wanted(c) && (calculatedAfter === undefined || c.calculatedMs > calculatedAfter))
      .sort((a, b) => byCalculated(b, a));
    rows.push(...found.slice(0, limit + 1));
  } else if (locations) {
    // Each location's own order, merged: the newest of their heads next.
    const heads = [...locations].map((l) => m.newestAt.get(l) ?? null).filter((c) => c !== null);
    while (heads.length > 0 && rows.length <= limit) {
      let at = 0;
      for (let i = 1; i < heads.length; i++) if (byCalculated(heads[i] as CountRec, heads[at] as CountRec) > 0) at = i;
      const c = heads[at] as CountRec;
      if (calculatedAfter !== undefined && c.calculatedMs <= calculatedAfter) break;
      if (wanted(c)) rows.push(c);
      if (c.olderHere) heads[at] = c.olderHere;
      else heads.splice(at, 1);
    }
  } else {
    for (let c = m.newestCount; c && rows.length <= limit; c = c.older) {
      if (calculatedAfter !== undefined && c.calculatedMs <= calculatedAfter) break;
      if (wanted(c)) rows.push(c);
    }
  }
  const page = rows.slice(0, limit);
  const json = arrayJson(page, countJson);
  const last = page.at(-1);
  return rows.length > limit && last ? { json, next: { c: calculatedAt(last), i: last.id } } : { json };
}

// ---------------------------------------------------------------------------------------------
// A batch's answer, and the note its idempotency record keeps to write it again.

/** A batch's answer (BatchChangeInventoryResponse: counts, then changes) as JSON. */
export const batchAnswerJson = (counts: readonly CountRec[], changes: readonly ChangeRec[]): string =>
  `{"counts":${arrayJson(counts, countJson)},"changes":${arrayJson(changes, changeJson)}}`;

/**
 * A count as a batch's note keeps it: what its wire JSON is written from. Its calculated_at is
 * kept as milliseconds before the batch's own time, 0 for the counts the batch wrote: a time in
 * epoch milliseconds is no small integer, and writing 100 of them took a third of the note's time.
 */
type KeptCount = [objectId: string, locationId: string, state: string, units: number, msBefore: number];

/**
 * The note a batch's idempotency record keeps instead of its answer: the log row its changes were
 * recorded in (null: none), the batch's time, and its counts as the batch left them (they move on
 * after). About 7 kB for 100 counts where the answer is 58 kB; writing the answer for every batch
 * cost it about 0.15 ms.
 */
export function keptBatch(seq: number | null, atMs: number, counts: readonly CountRec[]): string {
  // What JSON.stringify writes of [seq, atMs, KeptCount[]], written field by field, as the answer is.
  const kept = arrayJson(
    counts,
    (c) =>
      `["${wordText(c.objectId)}","${wordText(c.locationId)}","${wordText(c.state)}",${c.units},${atMs - c.calculatedMs}]`,
  );
  return `[${seq},${atMs},${kept}]`;
}

/** A batch's answer, written again from its note ({@link keptBatch}) and its log row. */
export function replayBatch(db: Db, merchantId: string, kept: string): string {
  // The book knows which words JSON must escape (wordText): it is read before any is written.
  sellerBook(db, merchantId);
  const [seq, atMs, counts] = JSON.parse(kept) as [number | null, number, KeptCount[]];
  const recs = counts.map(([objectId, locationId, state, units, msBefore], i) =>
    countRecord(i, { objectId, locationId, state }, units, atMs - msBefore),
  );
  return batchAnswerJson(recs, seq === null ? [] : loggedChanges(db, merchantId, seq));
}

// ---------------------------------------------------------------------------------------------
// Wire shapes.

/** A count as the wire shows it. */
export const wireCount = (c: CountRec): InventoryCount => ({
  catalog_object_id: c.objectId,
  catalog_object_type: "ITEM_VARIATION",
  state: c.state as InventoryState,
  location_id: c.locationId,
  quantity: formatQuantity(c.units),
  calculated_at: calculatedAt(c),
  is_estimated: false,
});

/** A change as the wire shows it: the client's own fields first, then the service's, in a fixed order. */
export function wireChange(c: ChangeRec): InventoryChange {
  const sub: Record<string, unknown> = { id: c.id };
  if (c.extras) Object.assign(sub, c.extras);
  sub.catalog_object_id = c.objectId;
  sub.catalog_object_type = "ITEM_VARIATION";
  sub.quantity = formatQuantity(c.units);
  if (c.type === "ADJUSTMENT") {
    sub.from_state = c.state;
    sub.to_state = c.toState;
    sub.location_id = c.locationId;
  } else if (c.type === "TRANSFER") {
    sub.state = c.state;
    sub.from_location_id = c.locationId;
    sub.to_location_id = c.toLocationId;
  } else {
    sub.state = c.state;
    sub.location_id = c.locationId;
  }
  sub.occurred_at = isoOf(c.occurredMs);
  sub.created_at = isoOf(c.createdMs);
  if (c.type === "PHYSICAL_COUNT") return { type: c.type, physical_count: sub as InventoryPhysicalCount };
  if (c.type === "ADJUSTMENT") return { type: c.type, adjustment: sub as InventoryAdjustment };
  return { type: c.type, transfer: sub as InventoryTransfer };
}

/**
 * A key's count replayed from its object's whole history in the book, in (occurred_at, order):
 * what the incremental counts must always agree with. Undefined when nothing touched the key.
 */
export function replayedUnits(db: Db, k: Omit<CountKey, "objectType">): number | undefined {
  const m = sellerBook(db, k.merchantId);
  const list = m ? objectChanges(m, k.objectId) : [];
  let value: number | undefined;
  for (const c of list) {
    if (c.type === "PHYSICAL_COUNT") {
      if (c.locationId === k.locationId && c.state === k.state) value = c.units;
      continue;
    }
    for (const d of deltasOf(c, k.merchantId)) {
      if (d.key.locationId === k.locationId && d.key.state === k.state) value = (value ?? 0) + d.units;
    }
  }
  return value;
}
