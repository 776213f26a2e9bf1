import { formatQuantity } from "../../domain/quantity.js";
import type { InventoryCount, InventoryState } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { stmt } from "../db.js";
import { invalid } from "../errors.js";

/**
 * The count engine. A count is kept per key (catalog object, location, state). Its value is the
 * latest physical count of the key, ordered by `occurred_at` and then by arrival, plus every
 * adjustment or transfer into or out of the key that comes after that count in the same order.
 *
 * Counts are materialised in `inventory_counts` and kept up to date in the writing transaction:
 * an adjustment after the key's latest count just adds to it; one older than that count is
 * recorded but moves nothing; a physical count newer than the latest one becomes the new anchor
 * and its key is recomputed from the ledger (its quantity plus the deltas that come after it);
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

const sameKey = (a: Omit<CountKey, "objectType">, b: Omit<CountKey, "objectType">) =>
  a.objectId === b.objectId && a.locationId === b.locationId && a.state === b.state;

/** A stored move (adjustment or transfer) as the moves index holds it. */
export interface MovementRow {
  catalog_object_id: string;
  type: string;
  location_id: string;
  to_location_id: string | null;
  state: string;
  to_state: string | null;
  units: number;
  occurred_at: string;
}

const movementOf = (objectId: string, r: MovementRow): Movement => ({
  type: r.type,
  objectId,
  locationId: r.location_id,
  toLocationId: r.to_location_id,
  state: r.state,
  toState: r.to_state,
  units: r.units,
});

/**
 * The moves of some objects that happened after `occurredAt` (moves at that same instant arrived
 * earlier, so they come before it), from the moves index alone.
 */
export function laterMoves(
  db: Db,
  merchantId: string,
  objectIds: readonly string[],
  occurredAt: string,
): MovementRow[] {
  return stmt(
    db,
    `SELECT catalog_object_id, type, location_id, to_location_id, state, to_state, units, occurred_at
     FROM inventory_changes INDEXED BY inventory_moves_by_object
     WHERE merchant_id = ? AND type != 'PHYSICAL_COUNT' AND catalog_object_id IN (SELECT value FROM json_each(?))
       AND occurred_at > ?`,
  ).all(merchantId, JSON.stringify(objectIds), occurredAt) as MovementRow[];
}

/** What the moves among `rows` of the key's object, after `after` when given, add to one key. */
export function sumFor(k: Omit<CountKey, "objectType">, rows: readonly MovementRow[], after?: string): number {
  let units = 0;
  for (const r of rows) {
    if (r.catalog_object_id !== k.objectId || (after !== undefined && r.occurred_at <= after)) continue;
    for (const d of deltasOf(movementOf(k.objectId, r), k.merchantId)) if (sameKey(d.key, k)) units += d.units;
  }
  return units;
}

/** A materialised count row. */
export interface CountRow {
  id: number;
  catalog_object_id: string;
  catalog_object_type: string;
  location_id: string;
  state: string;
  units: number;
  anchor_at: string | null;
  anchor_seq: number | null;
  calculated_at: string;
}

/** The wire count of a row. */
export function toCount(
  row: Pick<
    CountRow,
    "catalog_object_id" | "catalog_object_type" | "location_id" | "state" | "units" | "calculated_at"
  >,
): InventoryCount {
  return {
    catalog_object_id: row.catalog_object_id,
    catalog_object_type: row.catalog_object_type as InventoryCount["catalog_object_type"] & string,
    state: row.state as InventoryState,
    location_id: row.location_id,
    quantity: formatQuantity(row.units),
    calculated_at: row.calculated_at,
    is_estimated: false,
  };
}

/** The current count of a key, if it has one. */
export function getCount(db: Db, k: Omit<CountKey, "objectType">): CountRow | undefined {
  return stmt(
    db,
    "SELECT * FROM inventory_counts WHERE merchant_id = ? AND catalog_object_id = ? AND location_id = ? AND state = ?",
  ).get(k.merchantId, k.objectId, k.locationId, k.state) as CountRow | undefined;
}

/**
 * Writes a key's count: in place when its row is known (`rowId`), else insert or replace. Returns
 * the row as written; its id is exact when the caller knew whether the key had a row.
 */
export function writeCount(
  db: Db,
  k: CountKey,
  units: number,
  anchor: { at: string; seq: number } | null,
  calculatedAt: string,
  rowId?: number,
): CountRow {
  const row: CountRow = {
    id: rowId ?? 0,
    catalog_object_id: k.objectId,
    catalog_object_type: k.objectType,
    location_id: k.locationId,
    state: k.state,
    units,
    anchor_at: anchor?.at ?? null,
    anchor_seq: anchor?.seq ?? null,
    calculated_at: calculatedAt,
  };
  if (rowId !== undefined) {
    // By the row's own key: cheaper than an upsert, which first tries the insert.
    stmt(
      db,
      "UPDATE inventory_counts SET units = ?, anchor_at = ?, anchor_seq = ?, calculated_at = ? WHERE id = ?",
    ).run(units, row.anchor_at, row.anchor_seq, calculatedAt, rowId);
    return row;
  }
  const r = stmt(
    db,
    `INSERT INTO inventory_counts (merchant_id, catalog_object_id, catalog_object_type, location_id, state, units, anchor_at, anchor_seq, calculated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (merchant_id, catalog_object_id, location_id, state) DO UPDATE SET
       units = excluded.units, anchor_at = excluded.anchor_at, anchor_seq = excluded.anchor_seq, calculated_at = excluded.calculated_at`,
  ).run(
    k.merchantId,
    k.objectId,
    k.objectType,
    k.locationId,
    k.state,
    units,
    row.anchor_at,
    row.anchor_seq,
    calculatedAt,
  );
  row.id = Number(r.lastInsertRowid);
  return row;
}

/** Whether a change at `occurredAt` comes before the key's latest physical count (and so moves nothing). */
export const supersededBy = (row: CountRow | undefined, occurredAt: string): boolean =>
  row?.anchor_at != null && occurredAt < row.anchor_at;

/**
 * The largest count a key may reach, in units of 0.00001: what a quantity may spell (ten integer
 * digits). Beyond it the count could no longer be written exactly, so the change is refused.
 */
const MAX_COUNT_UNITS = 999_999_999_999_999;

export function checkRange(k: CountKey, units: number): void {
  if (Math.abs(units) > MAX_COUNT_UNITS) {
    throw invalid(
      "VALUE_TOO_HIGH",
      `The count of ${k.objectId} at ${k.locationId} (${k.state}) would go beyond ${formatQuantity(MAX_COUNT_UNITS)}.`,
      "changes",
    );
  }
}

/** A count as it now stands, when a change moved it. */
export const countNow = (k: CountKey, units: number, now: string): InventoryCount => ({
  catalog_object_id: k.objectId,
  catalog_object_type: k.objectType as InventoryCount["catalog_object_type"] & string,
  state: k.state as InventoryState,
  location_id: k.locationId,
  quantity: formatQuantity(units),
  calculated_at: now,
  is_estimated: false,
});

/** What a count update did: the row written (none when a newer physical count prevails) and the count, when it moved. */
export interface CountUpdate {
  row?: CountRow;
  changed?: InventoryCount;
}

/**
 * Updates a key's count for a physical count just stored as change `seq` (the newest arrival);
 * `current` is the key's count before it.
 */
export function applyPhysicalCount(
  db: Db,
  k: CountKey,
  seq: number,
  occurredAt: string,
  units: number,
  now: string,
  current: CountRow | undefined = getCount(db, k),
): CountUpdate {
  if (supersededBy(current, occurredAt)) return {};
  // Moves at the same instant arrived earlier, so they come before this count: only later ones add.
  const value = units + sumFor(k, laterMoves(db, k.merchantId, [k.objectId], occurredAt));
  checkRange(k, value);
  const row = writeCount(db, k, value, { at: occurredAt, seq }, now, current?.id);
  return current === undefined || current.units !== value ? { row, changed: countNow(k, value, now) } : { row };
}

/**
 * Updates a key's count for a signed move of quantity into (positive) or out of (negative) it,
 * just stored, unless a newer physical count already accounts for it; `current` is the key's
 * count before it.
 */
export function applyDelta(
  db: Db,
  k: CountKey,
  occurredAt: string,
  units: number,
  now: string,
  current: CountRow | undefined = getCount(db, k),
): CountUpdate {
  if (supersededBy(current, occurredAt)) return {};
  const anchor =
    current?.anchor_at != null && current.anchor_seq != null
      ? { at: current.anchor_at, seq: current.anchor_seq }
      : null;
  const value = (current?.units ?? 0) + units;
  checkRange(k, value);
  const row = writeCount(db, k, value, anchor, now, current?.id);
  return current === undefined || units !== 0 ? { row, changed: countNow(k, value, now) } : { row };
}

/**
 * A key's count replayed from the object's whole change history, ignoring the materialised row:
 * what the incremental updates must always agree with. Undefined when nothing touched the key.
 */
export function recomputeUnits(db: Db, k: Omit<CountKey, "objectType">): number | undefined {
  const rows = db
    .prepare(
      "SELECT catalog_object_id, type, location_id, to_location_id, state, to_state, units, occurred_at FROM inventory_changes WHERE merchant_id = ? AND catalog_object_id = ? ORDER BY occurred_at, seq",
    )
    .all(k.merchantId, k.objectId) as MovementRow[];
  let value: number | undefined;
  for (const r of rows) {
    if (r.type === "PHYSICAL_COUNT") {
      if (r.location_id === k.locationId && r.state === k.state) value = r.units;
      continue;
    }
    for (const d of deltasOf(movementOf(k.objectId, r), k.merchantId)) {
      if (sameKey(d.key, k)) value = (value ?? 0) + d.units;
    }
  }
  return value;
}
