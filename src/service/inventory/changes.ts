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

type SubKey = (typeof SUB_OBJECT)[InventoryChangeType];

/**
 * Where a field of a batch is: the change's place, its sub-object and the field
 * (`changes[3].adjustment.quantity`). Spelled only for a refusal: written for every field checked,
 * the paths were a fifth of a batch's checks.
 */
const pathOf = (i: number, key?: SubKey, field?: string): string =>
  `changes[${i}]${key === undefined ? "" : `.${key}`}${field === undefined ? "" : `.${field}`}`;

const required = (i: number, key?: SubKey, field?: string) => {
  const at = pathOf(i, key, field);
  return invalid("MISSING_REQUIRED_PARAMETER", `Field must be set: ${at}.`, at);
};

const refused = (detail: string, i: number, key: SubKey, field: string) =>
  invalid("INVALID_VALUE", detail, pathOf(i, key, field));

/** The checks of one batch's fields; each names the field it refuses by the change's place, sub-object and field. */
interface FieldChecks {
  object(sub: AnySubObject, i: number, key: SubKey): string;
  location(id: unknown, i: number, key: SubKey, field: string): string;
  quantity(sub: AnySubObject, i: number, key: SubKey): number;
  time(sub: AnySubObject, i: number, key: SubKey): string;
}

/** Checks a catalog object id against the batch's known objects. */
function checkObject(knownObjects: ReadonlyMap<string, string>, sub: AnySubObject, i: number, key: SubKey): string {
  const id: unknown = sub.catalog_object_id;
  if (typeof id !== "string" || id === "") throw required(i, key, "catalog_object_id");
  const found = knownObjects.get(id);
  if (found === undefined) throw refused(`No catalog object with id ${id}.`, i, key, "catalog_object_id");
  if (found !== "ITEM_VARIATION") {
    throw refused(
      `Catalog object ${id} is a ${found}; inventory is kept for item variations.`,
      i,
      key,
      "catalog_object_id",
    );
  }
  const type: unknown = sub.catalog_object_type;
  if (type !== undefined && type !== "ITEM_VARIATION") {
    throw refused("catalog_object_type must be ITEM_VARIATION.", i, key, "catalog_object_type");
  }
  return id;
}

function checkState(state: unknown, i: number, key: SubKey, field: string, tracked: boolean): string {
  if (typeof state !== "string" || state === "") throw required(i, key, field);
  if (tracked && !isTracked(state)) {
    throw refused(`${state} has no counts; use a state that is tracked, such as IN_STOCK.`, i, key, field);
  }
  return state;
}

function checkQuantity(sub: AnySubObject, i: number, key: SubKey): number {
  const q: unknown = sub.quantity;
  if (typeof q !== "string" || q === "") throw required(i, key, "quantity");
  // Exactly a decimal: the app's parser forgives spaces around a typed number, the service does not.
  const units = q.trim() === q ? parseQuantity(q) : undefined;
  if (units === undefined || units < 0 || q.startsWith("-")) {
    throw refused(
      `quantity must be a non-negative decimal string with at most 5 decimal places, got ${JSON.stringify(q)}.`,
      i,
      key,
      "quantity",
    );
  }
  return units;
}

/** The field checks of one batch: catalog objects read in one query, locations once each. */
function fieldChecks(db: Db, merchantId: string, changes: readonly InventoryChange[], now: Date): FieldChecks {
  // Read in one go (see objectTypes); the batch's length is checked first.
  const named: string[] = [];
  for (const c of changes) {
    const id = c.physical_count?.catalog_object_id ?? c.adjustment?.catalog_object_id ?? c.transfer?.catalog_object_id;
    if (typeof id === "string" && id !== "") named.push(id);
  }
  const knownObjects = objectTypes(db, merchantId, named);
  const knownLocations = new Map<string, boolean>();
  // A batch's changes mostly share a few times (a stocktake commits its counts at one moment).
  const knownTimes = new Map<unknown, string>();
  return {
    object: (sub, i, key) => checkObject(knownObjects, sub, i, key),
    location(id, i, key, field) {
      if (typeof id !== "string" || id === "") throw required(i, key, field);
      let known = knownLocations.get(id);
      if (known === undefined) {
        known = locationExists(db, merchantId, id);
        knownLocations.set(id, known);
      }
      if (!known) throw refused(`No location with id ${id}.`, i, key, field);
      return id;
    },
    quantity: checkQuantity,
    time(sub, i, key) {
      const value: unknown = sub.occurred_at;
      const known = knownTimes.get(value);
      if (known !== undefined) return known;
      if (value === undefined || value === null || value === "") throw required(i, key, "occurred_at");
      const at = pathOf(i, key, "occurred_at");
      const d = parseTime(value, at);
      if (d.getTime() > now.getTime() + CLOCK_SKEW_MS) throw invalid("INVALID_VALUE", `${at} is in the future.`, at);
      const iso = d.toISOString();
      knownTimes.set(value, iso);
      return iso;
    },
  };
}

type AnySubObject = InventoryPhysicalCount & InventoryAdjustment & InventoryTransfer;

const SUB_KEYS: readonly SubKey[] = Object.values(SUB_OBJECT);

/** A change's sub-object (the one its type names), refusing a missing one or one of another kind. */
function subObjectOf(change: InventoryChange, i: number, type: InventoryChangeType): AnySubObject {
  const key = SUB_OBJECT[type];
  for (const other of SUB_KEYS) {
    if (other !== key && change[other] !== undefined) {
      throw invalid("CONFLICTING_PARAMETERS", `A ${type} change carries no ${other}.`, pathOf(i, other));
    }
  }
  const sub = change[key] as AnySubObject | undefined;
  if (!sub) throw required(i, key);
  return sub;
}

/** The fields a client set that the service only echoes, or null. */
function extrasOf(type: InventoryChangeType, sub: AnySubObject): Record<string, unknown> | null {
  let extras: Record<string, unknown> | null = null;
  for (const f of CLIENT_FIELDS[type]) {
    const v = (sub as Record<string, unknown>)[f];
    if (v === undefined) continue;
    extras ??= {};
    extras[f] = v;
  }
  return extras;
}

/**
 * Checks one change of a batch (the i-th) and plans it. Built field by field: object spreads
 * (`{ ...base, locationId }`) take V8's slow path, about 1–2 µs each, and this runs for every
 * change of a batch.
 */
function planOne(checks: FieldChecks, change: InventoryChange, i: number): PlannedChange {
  const type = change.type;
  if (!type) throw required(i, undefined, "type");
  const sub = subObjectOf(change, i, type);
  const key = SUB_OBJECT[type];
  const objectId = checks.object(sub, i, key);
  const units = checks.quantity(sub, i, key);
  const occurredAt = checks.time(sub, i, key);
  const extras = extrasOf(type, sub);
  if (type === "PHYSICAL_COUNT") {
    const state = checkState(sub.state, i, key, "state", true);
    const locationId = checks.location(sub.location_id, i, key, "location_id");
    return { type, objectId, units, occurredAt, locationId, state, extras };
  }
  if (type === "ADJUSTMENT") {
    const from = checkState(sub.from_state, i, key, "from_state", false);
    const to = checkState(sub.to_state, i, key, "to_state", false);
    if (from === to) throw refused("from_state and to_state must differ.", i, key, "to_state");
    const locationId = checks.location(sub.location_id, i, key, "location_id");
    return { type, objectId, units, occurredAt, locationId, state: from, toState: to, extras };
  }
  const state = checkState(sub.state, i, key, "state", true);
  const fromId = checks.location(sub.from_location_id, i, key, "from_location_id");
  const toId = checks.location(sub.to_location_id, i, key, "to_location_id");
  if (fromId === toId) throw refused("A transfer goes between two different locations.", i, key, "to_location_id");
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
  const planned: PlannedChange[] = new Array(changes.length);
  for (let i = 0; i < changes.length; i++) planned[i] = planOne(checks, changes[i] as InventoryChange, i);
  return planned;
}
