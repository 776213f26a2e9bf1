import { CLOCK_SKEW_MS, MAX_INVENTORY_CHANGES_PER_BATCH } from "../../domain/limits.js";
import { parseQuantity } from "../../domain/quantity.js";
import type {
  InventoryAdjustment,
  InventoryChange,
  InventoryChangeType,
  InventoryPhysicalCount,
  InventoryTransfer,
} from "../../spec/generated/types.js";
import { objectTypes } from "../catalog/repo.js";
import type { Db } from "../db.js";
import { locationExists } from "../directory/repo.js";
import { invalid } from "../errors.js";
import { parseTime } from "../params.js";
import { isTracked, SUB_OBJECT } from "./ledger.js";

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
  /** RFC 3339 in UTC with milliseconds (the book keeps it as epoch milliseconds). */
  occurredAt: string;
  /** The fields the client set that the service only echoes back (reference_id, source, …), if any. */
  extras: Record<string, unknown> | null;
}

// The fields a client may set on each kind, echoed back as sent; anything else it sends is not.
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

/** The checks of one batch's fields, each naming the field it refuses (`changes[3].adjustment.quantity`). */
interface FieldChecks {
  object(id: unknown, type: unknown, at: string): string;
  location(id: unknown, at: string): string;
  state(state: unknown, at: string, tracked: boolean): string;
  quantity(q: unknown, at: string): number;
  time(value: unknown, at: string): string;
}

const required = (at: string) => invalid("MISSING_REQUIRED_PARAMETER", `Field must be set: ${at}.`, at);

/** Checks a catalog object id against the batch's known objects. */
function checkObject(knownObjects: ReadonlyMap<string, string>, id: unknown, type: unknown, at: string): string {
  if (typeof id !== "string" || id === "") throw required(`${at}.catalog_object_id`);
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
  // Read in one go (see objectTypes); the batch's length is checked first.
  const named = changes.map(
    (c) => c.physical_count?.catalog_object_id ?? c.adjustment?.catalog_object_id ?? c.transfer?.catalog_object_id,
  );
  const knownObjects = objectTypes(
    db,
    merchantId,
    named.filter((id): id is string => typeof id === "string" && id !== ""),
  );
  const knownLocations = new Map<string, boolean>();
  // A batch's changes mostly share a few times (a stocktake commits its counts at one moment).
  const knownTimes = new Map<unknown, string>();
  return {
    object: (id, type, at) => checkObject(knownObjects, id, type, at),
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
  extras: Record<string, unknown> | null;
}

function checkCommon(checks: FieldChecks, type: InventoryChangeType, sub: AnySubObject, p: string): CheckedCommon {
  const objectId = checks.object(sub.catalog_object_id, sub.catalog_object_type, p);
  const units = checks.quantity(sub.quantity, `${p}.quantity`);
  const occurredAt = checks.time(sub.occurred_at, `${p}.occurred_at`);
  let extras: Record<string, unknown> | null = null;
  for (const f of CLIENT_FIELDS[type]) {
    const v = (sub as Record<string, unknown>)[f];
    if (v === undefined) continue;
    extras ??= {};
    extras[f] = v;
  }
  return { objectId, units, occurredAt, extras };
}

/**
 * Checks one change of a batch (the i-th) and plans it. Built field by field: object spreads
 * (`{ ...base, locationId }`) take V8's slow path, about 1–2 µs each, and this runs for every
 * change of a batch.
 */
function planOne(checks: FieldChecks, change: InventoryChange, i: number): PlannedChange {
  const at = `changes[${i}]`;
  const { type, sub } = subObjectOf(change, at);
  const p = `${at}.${SUB_OBJECT[type]}`;
  const { objectId, units, occurredAt, extras } = checkCommon(checks, type, sub, p);
  if (type === "PHYSICAL_COUNT") {
    const state = checks.state(sub.state, `${p}.state`, true);
    const locationId = checks.location(sub.location_id, `${p}.location_id`);
    return { type, objectId, units, occurredAt, locationId, state, extras };
  }
  if (type === "ADJUSTMENT") {
    const from = checks.state(sub.from_state, `${p}.from_state`, false);
    const to = checks.state(sub.to_state, `${p}.to_state`, false);
    if (from === to) throw invalid("INVALID_VALUE", "from_state and to_state must differ.", `${p}.to_state`);
    const locationId = checks.location(sub.location_id, `${p}.location_id`);
    return { type, objectId, units, occurredAt, locationId, state: from, toState: to, extras };
  }
  const state = checks.state(sub.state, `${p}.state`, true);
  const fromId = checks.location(sub.from_location_id, `${p}.from_location_id`);
  const toId = checks.location(sub.to_location_id, `${p}.to_location_id`);
  if (fromId === toId) {
    throw invalid("INVALID_VALUE", "A transfer goes between two different locations.", `${p}.to_location_id`);
  }
  return { type, objectId, units, occurredAt, locationId: fromId, toLocationId: toId, state, extras };
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
