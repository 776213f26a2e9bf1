import { CLOCK_SKEW_MS, MAX_INVENTORY_CHANGES_PER_BATCH } from "../../domain/limits.js";
import { formatQuantity, parseQuantity } from "../../domain/quantity.js";
import type {
  InventoryAdjustment,
  InventoryChange,
  InventoryChangeType,
  InventoryPhysicalCount,
  InventoryTransfer,
} from "../../spec/generated/types.js";
import { objectType } from "../catalog/repo.js";
import type { Db } from "../db.js";
import { placeholders, stmt } from "../db.js";
import { locationExists } from "../directory/repo.js";
import { invalid } from "../errors.js";
import { parseTime } from "../params.js";
import { isTracked } from "./ledger.js";

/** A requested change, checked and normalised, not yet stored. */
export interface PlannedChange {
  type: InventoryChangeType;
  objectId: string;
  /** The count's or adjustment's location; a transfer's origin. */
  locationId: string;
  /** A transfer's destination. */
  toLocationId?: string;
  /** A physical count's or transfer's state; an adjustment's from_state. */
  state: string;
  /** An adjustment's to_state. */
  toState?: string;
  units: number;
  /** RFC 3339 in UTC with milliseconds: stored timestamps compare as text. */
  occurredAt: string;
  /** The wire sub-object without the fields the service assigns (id, created_at). */
  wire: Record<string, unknown>;
}

const SUB_OBJECT = {
  PHYSICAL_COUNT: "physical_count",
  ADJUSTMENT: "adjustment",
  TRANSFER: "transfer",
} as const;

// The fields a client may set on each kind; anything else it sends is not echoed back.
const CLIENT_FIELDS = {
  PHYSICAL_COUNT: ["reference_id", "source", "employee_id", "team_member_id"],
  ADJUSTMENT: [
    "reference_id",
    "total_price_money",
    "source",
    "employee_id",
    "team_member_id",
    "transaction_id",
    "refund_id",
    "purchase_order_id",
    "goods_receipt_id",
    "adjustment_group",
  ],
  TRANSFER: ["reference_id", "source", "employee_id", "team_member_id"],
} as const;

/**
 * The types of the live catalog objects among `ids`, in one query instead of one per change;
 * ids not found are left out (the checks below look those up again, and refuse them).
 */
function objectTypes(db: Db, merchantId: string, ids: readonly unknown[]): Map<string, string | undefined> {
  // At most MAX_CHANGES_PER_BATCH: the batch's length is checked first.
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === "string" && id !== ""))];
  const found = new Map<string, string | undefined>();
  if (wanted.length === 0) return found;
  const rows = stmt(
    db,
    // "+": by id, one probe each; a long IN list would otherwise tempt SQLite to walk the
    // seller's whole catalog instead.
    `SELECT id, type FROM catalog_objects WHERE +merchant_id = ? AND +is_deleted = 0 AND id IN (${placeholders(wanted.length)})`,
  ).all(merchantId, ...wanted) as { id: string; type: string }[];
  for (const r of rows) found.set(r.id, r.type);
  return found;
}

/** The checks of one batch's fields, each naming the field it refuses (`changes[3].adjustment.quantity`). */
interface FieldChecks {
  object(id: unknown, type: unknown, at: string): string;
  location(id: unknown, at: string): string;
  state(state: unknown, at: string, tracked: boolean): string;
  quantity(q: unknown, at: string): number;
  time(value: unknown, at: string): string;
}

const required = (at: string) => invalid("MISSING_REQUIRED_PARAMETER", `Field must be set: ${at}.`, at);

/** Checks a catalog object id against the batch's known objects (looking up any not yet known). */
function checkObject(
  db: Db,
  merchantId: string,
  knownObjects: Map<string, string | undefined>,
  id: unknown,
  type: unknown,
  at: string,
): string {
  if (typeof id !== "string" || id === "") throw required(`${at}.catalog_object_id`);
  if (!knownObjects.has(id)) knownObjects.set(id, objectType(db, merchantId, id));
  const found = knownObjects.get(id);
  if (found === undefined) {
    throw invalid("INVALID_VALUE", `No catalog object with id ${id}.`, `${at}.catalog_object_id`);
  }
  if (found !== "ITEM_VARIATION") {
    throw invalid(
      "INVALID_VALUE",
      `Catalog object ${id} is a ${found}; inventory is kept for item variations.`,
      `${at}.catalog_object_id`,
    );
  }
  if (type !== undefined && type !== "ITEM_VARIATION") {
    throw invalid("INVALID_VALUE", "catalog_object_type must be ITEM_VARIATION.", `${at}.catalog_object_type`);
  }
  return id;
}

function checkState(state: unknown, at: string, tracked: boolean): string {
  if (typeof state !== "string" || state === "") throw required(at);
  if (tracked && !isTracked(state)) {
    throw invalid("INVALID_VALUE", `${state} has no counts; use a state that is tracked, such as IN_STOCK.`, at);
  }
  return state;
}

function checkQuantity(q: unknown, at: string): number {
  if (typeof q !== "string" || q === "") throw required(at);
  // Exactly a decimal: the app's parser forgives spaces around a typed number, the service does not.
  const units = q.trim() === q ? parseQuantity(q) : undefined;
  if (units === undefined || units < 0 || q.startsWith("-")) {
    throw invalid(
      "INVALID_VALUE",
      `quantity must be a non-negative decimal string with at most 5 decimal places, got ${JSON.stringify(q)}.`,
      at,
    );
  }
  return units;
}

/** The field checks of one batch: catalog objects read in one query, locations once each. */
function fieldChecks(db: Db, merchantId: string, changes: readonly InventoryChange[], now: Date): FieldChecks {
  const knownObjects = objectTypes(
    db,
    merchantId,
    changes.map(
      (c) => c.physical_count?.catalog_object_id ?? c.adjustment?.catalog_object_id ?? c.transfer?.catalog_object_id,
    ),
  );
  const knownLocations = new Map<string, boolean>();
  // A batch's changes mostly share a few times (a stocktake commits its counts at one moment).
  const knownTimes = new Map<unknown, string>();
  return {
    object: (id, type, at) => checkObject(db, merchantId, knownObjects, id, type, at),
    location(id, at) {
      if (typeof id !== "string" || id === "") throw required(at);
      if (!knownLocations.has(id)) knownLocations.set(id, locationExists(db, merchantId, id));
      if (!knownLocations.get(id)) throw invalid("INVALID_VALUE", `No location with id ${id}.`, at);
      return id;
    },
    state: checkState,
    quantity: checkQuantity,
    time(value, at) {
      const known = knownTimes.get(value);
      if (known !== undefined) return known;
      if (value === undefined || value === null || value === "") throw required(at);
      const d = parseTime(value, at);
      if (d.getTime() > now.getTime() + CLOCK_SKEW_MS) throw invalid("INVALID_VALUE", `${at} is in the future.`, at);
      const iso = d.toISOString();
      knownTimes.set(value, iso);
      return iso;
    },
  };
}

type AnySubObject = InventoryPhysicalCount & InventoryAdjustment & InventoryTransfer;

/** A change's sub-object (the one its type names), refusing a missing one or one of another kind. */
function subObjectOf(change: InventoryChange, at: string): { type: InventoryChangeType; sub: AnySubObject } {
  const type = change.type;
  if (!type) throw required(`${at}.type`);
  const key = SUB_OBJECT[type];
  for (const other of Object.values(SUB_OBJECT)) {
    if (other !== key && change[other] !== undefined) {
      throw invalid("CONFLICTING_PARAMETERS", `A ${type} change carries no ${other}.`, `${at}.${other}`);
    }
  }
  const sub = change[key] as AnySubObject | undefined;
  if (!sub) throw required(`${at}.${key}`);
  return { type, sub };
}

/** The fields of a change every kind shares, checked; `p` is the sub-object's path. */
interface CheckedCommon {
  objectId: string;
  units: number;
  occurredAt: string;
  /** The client's own fields and the common ones, as the wire echoes them. */
  wire: Record<string, unknown>;
}

function checkCommon(checks: FieldChecks, type: InventoryChangeType, sub: AnySubObject, p: string): CheckedCommon {
  const objectId = checks.object(sub.catalog_object_id, sub.catalog_object_type, p);
  const units = checks.quantity(sub.quantity, `${p}.quantity`);
  const occurredAt = checks.time(sub.occurred_at, `${p}.occurred_at`);
  const wire: Record<string, unknown> = {};
  for (const f of CLIENT_FIELDS[type]) {
    const v = (sub as Record<string, unknown>)[f];
    if (v !== undefined) wire[f] = v;
  }
  wire.catalog_object_id = objectId;
  wire.catalog_object_type = "ITEM_VARIATION";
  wire.quantity = formatQuantity(units);
  return { objectId, units, occurredAt, wire };
}

/**
 * Checks one change of a batch (the i-th) and plans it. The wire sub-object checkCommon made is
 * this change's own: its remaining fields are set on it in place, in the order the wire shows
 * them. (Object spreads here, `{ ...base, wire: { ...wire, state } }`, cost about 5 µs a change
 * on this path, measured; a batch of 100 spent half its checking time in them.)
 */
function planOne(checks: FieldChecks, change: InventoryChange, i: number): PlannedChange {
  const at = `changes[${i}]`;
  const { type, sub } = subObjectOf(change, at);
  const p = `${at}.${SUB_OBJECT[type]}`;
  const { objectId, units, occurredAt, wire } = checkCommon(checks, type, sub, p);
  if (type === "PHYSICAL_COUNT") {
    const state = checks.state(sub.state, `${p}.state`, true);
    const locationId = checks.location(sub.location_id, `${p}.location_id`);
    wire.state = state;
    wire.location_id = locationId;
    wire.occurred_at = occurredAt;
    return { type, objectId, units, occurredAt, locationId, state, wire };
  }
  if (type === "ADJUSTMENT") {
    const from = checks.state(sub.from_state, `${p}.from_state`, false);
    const to = checks.state(sub.to_state, `${p}.to_state`, false);
    if (from === to) throw invalid("INVALID_VALUE", "from_state and to_state must differ.", `${p}.to_state`);
    const locationId = checks.location(sub.location_id, `${p}.location_id`);
    wire.from_state = from;
    wire.to_state = to;
    wire.location_id = locationId;
    wire.occurred_at = occurredAt;
    return { type, objectId, units, occurredAt, locationId, state: from, toState: to, wire };
  }
  const state = checks.state(sub.state, `${p}.state`, true);
  const fromId = checks.location(sub.from_location_id, `${p}.from_location_id`);
  const toId = checks.location(sub.to_location_id, `${p}.to_location_id`);
  if (fromId === toId) {
    throw invalid("INVALID_VALUE", "A transfer goes between two different locations.", `${p}.to_location_id`);
  }
  wire.state = state;
  wire.from_location_id = fromId;
  wire.to_location_id = toId;
  wire.occurred_at = occurredAt;
  return { type, objectId, units, occurredAt, locationId: fromId, toLocationId: toId, state, wire };
}

/**
 * Checks every change of a batch before anything is applied, so that one bad change refuses the
 * whole request; the error's field names the change (`changes[3].adjustment.quantity`).
 */
export function planChanges(
  db: Db,
  merchantId: string,
  changes: readonly InventoryChange[],
  now: Date,
): PlannedChange[] {
  if (changes.length > MAX_INVENTORY_CHANGES_PER_BATCH) {
    throw invalid(
      "ARRAY_LENGTH_TOO_LONG",
      `At most ${MAX_INVENTORY_CHANGES_PER_BATCH} changes per request; got ${changes.length}.`,
      "changes",
    );
  }
  const checks = fieldChecks(db, merchantId, changes, now);
  return changes.map((change, i) => planOne(checks, change, i));
}

/** The wire change of a planned one, once stored under `id` at `createdAt`. */
export function toWireChange(p: PlannedChange, id: string, createdAt: string): InventoryChange {
  // Object.assign, not `{ id, ...p.wire }`: a spread after a field takes V8's slow path (~2 µs).
  const sub: Record<string, unknown> = Object.assign({ id }, p.wire);
  sub.created_at = createdAt;
  if (p.type === "PHYSICAL_COUNT") return { type: p.type, physical_count: sub as InventoryPhysicalCount };
  if (p.type === "ADJUSTMENT") return { type: p.type, adjustment: sub as InventoryAdjustment };
  return { type: p.type, transfer: sub as InventoryTransfer };
}
