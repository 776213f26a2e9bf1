import type { CatalogObject, CatalogObjectType } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { limitSql, placeholders, plucked, stmt } from "../db.js";

/** A catalog row: the indexed columns and the object as the wire returns it. */
export interface CatalogRow {
  id: string;
  type: CatalogObjectType;
  seq: number;
  name: string;
  item_id: string | null;
  category_id: string | null;
  product_type: string | null;
  sku: string | null;
  upc: string | null;
  search_text: string;
  updated_at: string;
  version: number;
  is_deleted: number;
  data: string;
}

/** Every catalog object type the interface names. */
export const CATALOG_OBJECT_TYPES: readonly CatalogObjectType[] = [
  "ITEM",
  "IMAGE",
  "CATEGORY",
  "ITEM_VARIATION",
  "TAX",
  "DISCOUNT",
  "MODIFIER_LIST",
  "MODIFIER",
  "PRICING_RULE",
  "PRODUCT_SET",
  "TIME_PERIOD",
  "MEASUREMENT_UNIT",
  "SUBSCRIPTION_PLAN_VARIATION",
  "ITEM_OPTION",
  "ITEM_OPTION_VAL",
  "CUSTOM_ATTRIBUTE_DEFINITION",
  "QUICK_AMOUNTS_SETTINGS",
  "SUBSCRIPTION_PLAN",
  "AVAILABILITY_PERIOD",
];

/**
 * The types a search or a listing returns when none are named: the top-level ones. Variations
 * (nested in their items) and the like are returned only when asked for by name.
 */
export const TOP_LEVEL_TYPES: readonly CatalogObjectType[] = [
  "ITEM",
  "CATEGORY",
  "TAX",
  "DISCOUNT",
  "MODIFIER_LIST",
  "PRICING_RULE",
  "PRODUCT_SET",
  "TIME_PERIOD",
  "MEASUREMENT_UNIT",
  "SUBSCRIPTION_PLAN",
  "ITEM_OPTION",
  "CUSTOM_ATTRIBUTE_DEFINITION",
  "QUICK_AMOUNTS_SETTINGS",
];

/** The wire object of a row. */
export const toObject = (row: Pick<CatalogRow, "data">): CatalogObject => JSON.parse(row.data) as CatalogObject;

/** One object by id (deleted ones only when asked). */
export function findObject(db: Db, merchantId: string, id: string, includeDeleted = false): CatalogRow | undefined {
  const row = stmt(db, "SELECT * FROM catalog_objects WHERE id = ? AND merchant_id = ?").get(id, merchantId) as
    | CatalogRow
    | undefined;
  return row && (includeDeleted || !row.is_deleted) ? row : undefined;
}

/** Several objects by id, in the order asked, unknown ids left out. */
export function findObjects(db: Db, merchantId: string, ids: readonly string[], includeDeleted = false): CatalogRow[] {
  const out: CatalogRow[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const row = findObject(db, merchantId, id, includeDeleted);
    if (row) out.push(row);
  }
  return out;
}

/**
 * The types of live catalog objects, as this connection last read them: per seller, by id, with
 * the `PRAGMA data_version` they were read at. Objects are written only by insertObject (a seed),
 * which drops them; another connection's commit changes the data version, and they are read again.
 */
const knownTypes = new WeakMap<Db, { dataVersion: unknown; bySeller: Map<string, Map<string, string>> }>();

/**
 * The types of the live catalog objects among `ids`, for inventory's checks (a batch names up to
 * 100 variations, each checked; read from SQLite, 3–4 µs each here, they cost a batch 0.35 ms).
 * The map answered is this connection's cache of the seller's types: it knows every live object
 * among `ids`, and may know others; an id with no live object is not in it, and is asked again
 * next time. Answering the cache itself, not a map of the ids asked, saves a batch 100 inserts.
 */
export function objectTypes(db: Db, merchantId: string, ids: readonly string[]): ReadonlyMap<string, string> {
  const dataVersion = plucked(db, "PRAGMA data_version").get();
  let known = knownTypes.get(db);
  if (!known || known.dataVersion !== dataVersion) {
    known = { dataVersion, bySeller: new Map<string, Map<string, string>>() };
    knownTypes.set(db, known);
  }
  let types = known.bySeller.get(merchantId);
  if (!types) {
    types = new Map();
    known.bySeller.set(merchantId, types);
  }
  const missing = new Set<string>();
  for (const id of ids) if (!types.has(id)) missing.add(id);
  if (missing.size > 0) {
    const wanted = [...missing];
    const rows = stmt(
      db,
      // "+": by id, one probe each; a long IN list would otherwise tempt SQLite to walk the
      // seller's whole catalog instead.
      `SELECT id, type FROM catalog_objects WHERE +merchant_id = ? AND +is_deleted = 0 AND id IN (${placeholders(wanted.length)})`,
    ).all(merchantId, ...wanted) as { id: string; type: string }[];
    for (const r of rows) types.set(r.id, r.type);
  }
  return types;
}

/** Rows of some types, in catalog order, after a keyset position. */
export function rowsOfTypes(
  db: Db,
  merchantId: string,
  types: readonly string[],
  opts: { afterSeq?: number; limit?: number; includeDeleted?: boolean } = {},
): CatalogRow[] {
  if (types.length === 0) return [];
  // One type: walk that type's index in order. Several: walk catalog order and skip the others,
  // rather than gather every match and sort it for each page.
  const index = types.length === 1 ? "catalog_by_type" : "catalog_by_seq";
  const sql = `SELECT * FROM catalog_objects INDEXED BY ${index} WHERE merchant_id = ? AND type IN (${placeholders(types.length)})${
    opts.includeDeleted ? "" : " AND is_deleted = 0"
  } AND seq > ? ORDER BY seq${opts.limit === undefined ? "" : ` LIMIT ${limitSql(opts.limit)}`}`;
  const args: unknown[] = [merchantId, ...types, opts.afterSeq ?? -1];
  return stmt(db, sql).all(...args) as CatalogRow[];
}

/** The look-up of a variation by code, each on its own index (a scan at the counter must be instant). */
export const CODE_LOOKUP_SQL = {
  sku: "SELECT * FROM catalog_objects INDEXED BY catalog_by_sku WHERE merchant_id = ? AND sku = ? ORDER BY seq",
  upc: "SELECT * FROM catalog_objects INDEXED BY catalog_by_upc WHERE merchant_id = ? AND upc = ? ORDER BY seq",
} as const;

/** Variations whose SKU or UPC equals a value, ignoring case. */
export function variationsByCode(db: Db, merchantId: string, attribute: "sku" | "upc", value: string): CatalogRow[] {
  return stmt(db, CODE_LOOKUP_SQL[attribute]).all(merchantId, value) as CatalogRow[];
}

/** When the catalog last changed (the newest `updated_at`). */
export function latestTime(db: Db, merchantId: string): string | undefined {
  const row = stmt(db, "SELECT MAX(updated_at) AS t FROM catalog_objects WHERE merchant_id = ?").get(merchantId) as {
    t: string | null;
  };
  return row.t ?? undefined;
}

/** The ids an object refers to: an item's categories, a variation's item. One level deep. */
function referencedIds(o: CatalogObject): string[] {
  const ids: string[] = [];
  if (o.item_data) {
    if (o.item_data.category_id) ids.push(o.item_data.category_id);
    for (const c of o.item_data.categories ?? []) if (c.id) ids.push(c.id);
    if (o.item_data.reporting_category?.id) ids.push(o.item_data.reporting_category.id);
    for (const t of o.item_data.tax_ids ?? []) ids.push(t);
    for (const i of o.item_data.image_ids ?? []) ids.push(i);
  }
  if (o.item_variation_data?.item_id) ids.push(o.item_variation_data.item_id);
  if (o.category_data?.parent_category?.id) ids.push(o.category_data.parent_category.id);
  return ids;
}

/** The objects the given ones refer to, each once, leaving out those already among them. */
export function relatedObjects(db: Db, merchantId: string, objects: readonly CatalogObject[]): CatalogObject[] {
  const have = new Set(objects.map((o) => o.id));
  const want: string[] = [];
  for (const o of objects) {
    for (const id of referencedIds(o)) {
      if (!have.has(id)) {
        have.add(id);
        want.push(id);
      }
    }
  }
  return findObjects(db, merchantId, want).map(toObject);
}

/** What the seed (or a future write) stores for one object. */
export interface NewCatalogObject {
  object: CatalogObject;
  merchantId: string;
  name: string;
  itemId?: string;
  categoryId?: string;
  productType?: string;
  sku?: string;
  upc?: string;
  searchText: string;
}

/** Stores one object; `seq` is the next in catalog order. */
export function insertObject(db: Db, o: NewCatalogObject, seq: number): void {
  knownTypes.delete(db);
  stmt(
    db,
    `INSERT INTO catalog_objects (id, merchant_id, type, seq, name, item_id, category_id, product_type, sku, upc, search_text, updated_at, version, is_deleted, data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    o.object.id,
    o.merchantId,
    o.object.type,
    seq,
    o.name,
    o.itemId ?? null,
    o.categoryId ?? null,
    o.productType ?? null,
    o.sku ?? null,
    o.upc ?? null,
    o.searchText,
    o.object.updated_at ?? "",
    o.object.version ?? 0,
    o.object.is_deleted ? 1 : 0,
    JSON.stringify(o.object),
  );
}

/** The next free `seq`. */
export function nextSeq(db: Db): number {
  const row = stmt(db, "SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM catalog_objects").get() as { n: number };
  return row.n;
}
