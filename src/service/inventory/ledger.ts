import { formatQuantity } from "../../domain/quantity.js";
import type { InventoryChangeType } from "../../spec/generated/types.js";
import { invalid } from "../errors.js";

/**
 * The count engine. A count is kept per key (catalog object, location, state). Its value is the
 * latest physical count of the key, ordered by `occurred_at` and then by arrival, plus every
 * adjustment or transfer into or out of the key that comes after that count in the same order.
 *
 * The counts are kept in the inventory book (book.ts), applied change by change as they arrive:
 * an adjustment after the key's latest count just adds to it; one older than that count is
 * recorded but moves nothing; a physical count newer than the latest one becomes the new anchor
 * and its key is recomputed from the history (its quantity plus the moves that come after it);
 * an older physical count never overrides a newer one.
 */

/** States the service keeps no count of: quantities move into or out of them and vanish. */
const UNTRACKED_STATES: ReadonlySet<string> = new Set(["NONE", "SOLD", "UNLINKED_RETURN"]);

/** Whether a state has counts. */
export const isTracked = (state: string): boolean => !UNTRACKED_STATES.has(state);

/** One count's key. */
export interface CountKey {
  merchantId: string;
  objectId: string;
  objectType: string;
  locationId: string;
  state: string;
}

/** What a change does to quantities: the columns of a stored change, or a planned one. */
export interface Movement {
  type: string;
  objectId: string;
  /** The count's or adjustment's location; a transfer's origin. */
  locationId: string;
  toLocationId?: string | null | undefined;
  /** A physical count's or transfer's state; an adjustment's from_state. */
  state: string;
  toState?: string | null | undefined;
  units: number;
}

/** The keys an adjustment or transfer moves quantity out of (negative) and into (positive); tracked states only. */
export function deltasOf(m: Movement, merchantId: string): { key: CountKey; units: number }[] {
  const key = (locationId: string, state: string): CountKey => ({
    merchantId,
    objectId: m.objectId,
    objectType: "ITEM_VARIATION",
    locationId,
    state,
  });
  const out: { key: CountKey; units: number }[] = [];
  if (m.type === "ADJUSTMENT" && m.toState) {
    if (isTracked(m.state)) out.push({ key: key(m.locationId, m.state), units: -m.units });
    if (isTracked(m.toState)) out.push({ key: key(m.locationId, m.toState), units: m.units });
  } else if (m.type === "TRANSFER" && m.toLocationId) {
    out.push({ key: key(m.locationId, m.state), units: -m.units });
    out.push({ key: key(m.toLocationId, m.state), units: m.units });
  }
  return out;
}

/**
 * The largest count a key may reach, in units of 0.00001: what a quantity may spell (ten integer
 * digits). Beyond it the count could no longer be written exactly, so the change is refused.
 */
const MAX_COUNT_UNITS = 999_999_999_999_999;

/** Where a count is: its object, location and state. */
export type CountPlace = Pick<CountKey, "objectId" | "locationId" | "state">;

export function checkRange(k: CountPlace, units: number): void {
  if (Math.abs(units) > MAX_COUNT_UNITS) {
    throw invalid(
      "VALUE_TOO_HIGH",
      `The count of ${k.objectId} at ${k.locationId} (${k.state}) would go beyond ${formatQuantity(MAX_COUNT_UNITS)}.`,
      "changes",
    );
  }
}

/** The member of a wire change that holds its kind's sub-object. */
export const SUB_OBJECT = {
  PHYSICAL_COUNT: "physical_count",
  ADJUSTMENT: "adjustment",
  TRANSFER: "transfer",
} as const;

/** A change as the book holds it. */
export interface ChangeRec {
  /** Arrival order (see book.ts's ROW_SPAN); ties in occurred_at are broken by it. */
  order: number;
  id: string;
  type: InventoryChangeType;
  objectId: string;
  /** The count's or adjustment's location; a transfer's origin. */
  locationId: string;
  toLocationId: string | null;
  /** A physical count's or transfer's state; an adjustment's from_state. */
  state: string;
  toState: string | null;
  units: number;
  /**
   * When it happened and when the service received it, in epoch milliseconds: as numbers, a
   * scale-200 store's 210,000 changes hold about 15 MB less than as text (their wire shape writes
   * them out).
   */
  occurredMs: number;
  createdMs: number;
  extras: Record<string, unknown> | null;
  /** The same object's change before it, by (occurredMs, order): an object's changes are a list from its newest. */
  earlier: ChangeRec | null;
}

/** A count as the book holds it: one per (object, location, state) a change ever touched. */
export interface CountRec {
  /** In order of the counts' creation: ties in calculated_at are broken by it. */
  id: number;
  objectId: string;
  locationId: string;
  state: string;
  units: number;
  /** The latest physical count of the key (its occurred_at and arrival order): changes before it move nothing. */
  anchorMs: number | null;
  anchorOrder: number | null;
  /** The server time of the latest change that moved it (its created_at), in epoch milliseconds. */
  calculatedMs: number;
  /**
   * The same as the wire writes it, once written out (or given by the batch that wrote the count):
   * made from the number for each count of a page, it took half of the page's time.
   */
  calculatedAt: string | null;
  /** Its neighbours in its seller's calculated order (see {@link MerchantBook.newestCount}). */
  older: CountRec | null;
  newer: CountRec | null;
  /** Its neighbours in the same order among its location's counts (see {@link MerchantBook.newestAt}). */
  olderHere: CountRec | null;
  newerHere: CountRec | null;
  /** The same object's next count, by location and state: an object's counts are a list. */
  next: CountRec | null;
}

/** One catalog object's share of a seller's book. */
export interface ObjectBook {
  /** The object's id: the book's one copy of it. */
  id: string;
  /**
   * Its first count, by location and state; the others follow through `next`. A handful each,
   * found by a walk (a look-up by a key made of three ids makes and hashes a new string each time,
   * which costs more).
   */
  firstCount: CountRec | null;
  /**
   * Its newest change, by (occurredMs, order); the others follow through `earlier`. Lists threaded
   * through the records, not arrays: 90,000 small arrays held 24 MB at scale 200.
   */
  newestChange: ChangeRec | null;
}

/** One seller's share of the book. */
export interface MerchantBook {
  /**
   * The changes by id, made on the first look-up by id (a retrieve of one change) and kept from
   * then on: a batch's hundred inserts into a map of 210,000 ids cost it 5 %, for a look-up few
   * sessions make.
   */
  byId: Map<string, ChangeRec> | null;
  /**
   * Each catalog object's counts and changes: one look-up by id finds both (a change reads the
   * counts it moves and the later changes of its object, and joins its object's changes).
   */
  objects: Map<string, ObjectBook>;
  /** Every change by (occurredMs, order), but for `unsorted`: merged in when a listing needs them. */
  byTime: ChangeRec[];
  unsorted: ChangeRec[];
  /** How many counts there are: the last count's id. */
  countTotal: number;
  /**
   * The counts by (calculatedMs, id), as a list from the newest through `older` (and back through
   * `newer`): a count a batch writes moves to the newest end, the batch's counts together in id
   * order (they share their time), so the order holds without sorting. A count that would move
   * back in time (a clock set back) has the order sorted again when next read. A list, not an
   * array with the moved counts' old places left as holes: sweeping 270,000 places for holes held
   * a batch up for tens of milliseconds.
   */
  newestCount: CountRec | null;
  /**
   * The same order within each location, from its newest count through `olderHere` (and back
   * through `newerHere`): a listing of one location's counts reads its own, where walking the
   * seller's order for them read two to three counts for each it kept (two locations, four
   * states), a cache miss each.
   */
  newestAt: Map<string, CountRec>;
  calculatedSorted: boolean;
}

export const byTimeOrder = (a: ChangeRec, b: ChangeRec): number => a.occurredMs - b.occurredMs || a.order - b.order;

export const byCalculated = (a: CountRec, b: CountRec): number => a.calculatedMs - b.calculatedMs || a.id - b.id;

export function emptyMerchant(): MerchantBook {
  return {
    byId: null,
    objects: new Map(),
    byTime: [],
    unsorted: [],
    countTotal: 0,
    newestCount: null,
    newestAt: new Map(),
    calculatedSorted: true,
  };
}

/**
 * An object's share of the book, made on its first change; `intern` gives the book's copy of the
 * id, kept by the object's share and its records.
 */
export function objectBook(m: MerchantBook, objectId: string, intern: (s: string) => string): ObjectBook {
  let ob = m.objects.get(objectId);
  if (!ob) {
    ob = { id: intern(objectId), firstCount: null, newestChange: null };
    m.objects.set(ob.id, ob);
  }
  return ob;
}

/** Links a change into its object's list, by (occurredMs, order); most arrive newest. */
function linkByTime(ob: ObjectBook, c: ChangeRec): void {
  const newest = ob.newestChange;
  if (!newest || byTimeOrder(newest, c) <= 0) {
    c.earlier = newest;
    ob.newestChange = c;
    return;
  }
  let later = newest;
  while (later.earlier && byTimeOrder(later.earlier, c) > 0) later = later.earlier;
  c.earlier = later.earlier;
  later.earlier = c;
}

/** An object's changes, oldest first. */
export function objectChanges(m: MerchantBook, objectId: string): ChangeRec[] {
  const out: ChangeRec[] = [];
  for (let c = m.objects.get(objectId)?.newestChange ?? null; c; c = c.earlier) out.push(c);
  return out.reverse();
}

/** An object's counts, by location and state. */
export function objectCounts(m: MerchantBook, objectId: string): CountRec[] {
  const out: CountRec[] = [];
  for (let c = m.objects.get(objectId)?.firstCount ?? null; c; c = c.next) out.push(c);
  return out;
}

/** The counts of some (object, location) pairs, in the order given, each pair's by state. */
export function countsOfPairsIn(
  m: MerchantBook,
  pairs: readonly { objectId: string; locationId: string }[],
): CountRec[] {
  const out: CountRec[] = [];
  for (const p of pairs) {
    const ob = m.objects.get(p.objectId);
    if (ob) countsHere(ob, p.locationId, out);
  }
  return out;
}

/** Adds an object's counts at a location, by state, to `out`. */
export function countsHere(ob: ObjectBook, locationId: string, out: CountRec[]): void {
  for (let c = ob.firstCount; c; c = c.next) if (c.locationId === locationId) out.push(c);
}

// ---------------------------------------------------------------------------------------------
// The count rule, applied to the book: the same for a change arriving now and for one read from
// the log, so that a book built from the log equals the book that wrote it.

/** Told of each count a change writes, and whether its quantity moved (a new count always has). */
export type OnWrite = (count: CountRec, moved: boolean) => void;

export function countAt(m: MerchantBook, objectId: string, locationId: string, state: string): CountRec | undefined {
  const ob = m.objects.get(objectId);
  return ob ? countIn(ob, locationId, state) : undefined;
}

/** An object's count at a location in a state, if it has one. */
export function countIn(ob: ObjectBook, locationId: string, state: string): CountRec | undefined {
  for (let c = ob.firstCount; c; c = c.next) {
    if (c.locationId === locationId && c.state === state) return c;
  }
  return undefined;
}

/** Every count of a seller. */
export function allCounts(m: MerchantBook): CountRec[] {
  const out: CountRec[] = [];
  for (const ob of m.objects.values()) for (let c = ob.firstCount; c; c = c.next) out.push(c);
  return out;
}

/** A count record, in no list yet and with no anchor. */
export function countRecord(id: number, k: CountPlace, units: number, calculatedMs: number): CountRec {
  return {
    id,
    objectId: k.objectId,
    locationId: k.locationId,
    state: k.state,
    units,
    anchorMs: null,
    anchorOrder: null,
    calculatedMs,
    calculatedAt: null,
    older: null,
    newer: null,
    olderHere: null,
    newerHere: null,
    next: null,
  };
}

/** Writes a key's count (creating it if new); it moves to the end of the calculated order later, with its batch. */
export function writeCount(
  m: MerchantBook,
  ob: ObjectBook,
  k: CountPlace,
  current: CountRec | undefined,
  units: number,
  /** A physical count's change that becomes the count's anchor (its time and arrival order), or null. */
  anchor: ChangeRec | null,
  calculatedMs: number,
): CountRec {
  if (current) {
    current.units = units;
    if (anchor) {
      current.anchorMs = anchor.occurredMs;
      current.anchorOrder = anchor.order;
    }
    current.calculatedMs = calculatedMs;
    current.calculatedAt = null;
    return current;
  }
  // In order of creation: one more than the count of counts.
  const rec = countRecord(
    m.countTotal + 1,
    { objectId: ob.id, locationId: k.locationId, state: k.state },
    units,
    calculatedMs,
  );
  if (anchor) {
    rec.anchorMs = anchor.occurredMs;
    rec.anchorOrder = anchor.order;
  }
  m.countTotal++;
  const after = (c: CountRec) =>
    c.locationId > rec.locationId || (c.locationId === rec.locationId && c.state > rec.state);
  let before: CountRec | null = null;
  let c = ob.firstCount;
  while (c && !after(c)) {
    before = c;
    c = c.next;
  }
  rec.next = c;
  if (before) before.next = rec;
  else ob.firstCount = rec;
  return rec;
}

/** Whether a change at `occurredMs` comes before the key's latest physical count (and so moves nothing). */
export const supersededBy = (count: CountRec | undefined, occurredMs: number): boolean =>
  count?.anchorMs != null && occurredMs < count.anchorMs;

/** What the moves of an object after `afterMs` (in time) add to one key. */
export function laterMovesInto(ob: ObjectBook, merchantId: string, k: CountPlace, afterMs: number): number {
  let units = 0;
  // By time: walk back from the newest while the moves are later.
  for (let r = ob.newestChange; r && r.occurredMs > afterMs; r = r.earlier) {
    if (r.type === "PHYSICAL_COUNT") continue;
    for (const d of deltasOf(r, merchantId)) {
      if (d.key.locationId === k.locationId && d.key.state === k.state) units += d.units;
    }
  }
  return units;
}

/**
 * Applies one change to the counts, before it joins the book's change lists (the rule reads the
 * moves that came before it), telling `onWrite` of each count it writes. A physical count older
 * than the key's latest moves nothing; a newer one becomes the anchor and its count is its
 * quantity plus the moves after it; a move after the key's anchor adds to the count, one before
 * it moves nothing.
 */
export function applyChange(
  m: MerchantBook,
  merchantId: string,
  /** The change's object's share of the book: `c.objectId` is its id. */
  ob: ObjectBook,
  c: ChangeRec,
  onWrite: OnWrite,
  /** A physical count's key's count, when the caller has looked it up already. */
  known?: CountRec,
): void {
  if (c.type === "PHYSICAL_COUNT") {
    const current = known ?? countIn(ob, c.locationId, c.state);
    if (supersededBy(current, c.occurredMs)) return;
    const value = c.units + laterMovesInto(ob, merchantId, c, c.occurredMs);
    checkRange(c, value);
    const was = current?.units;
    const rec = writeCount(m, ob, c, current, value, c, c.createdMs);
    onWrite(rec, was === undefined || was !== value);
    return;
  }
  for (const d of deltasOf(c, merchantId)) {
    const current = countIn(ob, d.key.locationId, d.key.state);
    if (supersededBy(current, c.occurredMs)) continue;
    const value = (current?.units ?? 0) + d.units;
    checkRange(d.key, value);
    const rec = writeCount(m, ob, d.key, current, value, null, c.createdMs);
    onWrite(rec, current === undefined || d.units !== 0);
  }
}

/** Adds a change to the seller's lists (after its counts were applied). */
export function addChange(m: MerchantBook, ob: ObjectBook, c: ChangeRec): void {
  m.byId?.set(c.id, c);
  linkByTime(ob, c);
  m.unsorted.push(c);
}

/** Takes a count out of the calculated orders (if it is in them). */
function unlinkCalculated(m: MerchantBook, rec: CountRec): void {
  if (rec.newer) rec.newer.older = rec.older;
  else if (m.newestCount === rec) m.newestCount = rec.older;
  else return;
  if (rec.older) rec.older.newer = rec.newer;
  rec.older = null;
  rec.newer = null;
  if (rec.newerHere) rec.newerHere.olderHere = rec.olderHere;
  else if (rec.olderHere) m.newestAt.set(rec.locationId, rec.olderHere);
  else m.newestAt.delete(rec.locationId);
  if (rec.olderHere) rec.olderHere.newerHere = rec.newerHere;
  rec.olderHere = null;
  rec.newerHere = null;
}

/** Puts a count at the newest end of the calculated orders. */
function linkNewest(m: MerchantBook, rec: CountRec): void {
  rec.older = m.newestCount;
  rec.newer = null;
  if (m.newestCount) m.newestCount.newer = rec;
  m.newestCount = rec;
  const newestHere = m.newestAt.get(rec.locationId) ?? null;
  rec.olderHere = newestHere;
  rec.newerHere = null;
  if (newestHere) newestHere.newerHere = rec;
  m.newestAt.set(rec.locationId, rec);
}

/**
 * Moves a batch's written counts to the newest end of the calculated order, in id order: they
 * share their calculated time, the batch's, so the order holds unless a count left where it was
 * is later (a clock set back), which has the order sorted again when next read.
 */
export function reorder(m: MerchantBook, written: ReadonlySet<CountRec>): void {
  const recs = Array.from(written).sort((a, b) => a.id - b.id);
  for (const rec of recs) unlinkCalculated(m, rec);
  const first = recs[0];
  if (first && m.newestCount && byCalculated(m.newestCount, first) > 0) m.calculatedSorted = false;
  for (const rec of recs) linkNewest(m, rec);
}

/** Lays the calculated order out again from all the counts, sorted. */
export function sortCalculated(m: MerchantBook): void {
  m.newestCount = null;
  m.newestAt.clear();
  for (const rec of allCounts(m).sort(byCalculated)) linkNewest(m, rec);
  m.calculatedSorted = true;
}
