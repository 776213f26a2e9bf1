import type {
  BatchRetrieveCatalogObjectsRequest,
  BatchRetrieveCatalogObjectsResponse,
  CatalogObject,
  CatalogObjectType,
  ListCatalogResponse,
  RetrieveCatalogObjectResponse,
  SearchCatalogItemsRequest,
  SearchCatalogItemsResponse,
  SearchCatalogObjectsRequest,
  SearchCatalogObjectsResponse,
} from "../../spec/generated/types.js";
import { merchantOf, type RequestContext, type RouteTable } from "../context.js";
import { encodeCursor, isOffset, pageByOffset, readCursor } from "../cursor.js";
import { placeholders, stmt } from "../db.js";
import { invalid, notFound } from "../errors.js";
import { inStockTotals } from "../inventory/reads.js";
import { pageLimit, sortOrder } from "../params.js";
import {
  CATALOG_OBJECT_TYPES,
  findObject,
  findObjects,
  latestTime,
  relatedObjects,
  rowsOfTypes,
  TOP_LEVEL_TYPES,
  toObject,
  variationsByCode,
} from "./repo.js";
import { applyCatalogQuery, containsAll, textFilterSql, textFilterWords } from "./search.js";

/** ListCatalog's page size. */
const LIST_PAGE = 100;
const PRODUCT_TYPES = new Set([
  "REGULAR",
  "GIFT_CARD",
  "APPOINTMENTS_SERVICE",
  "FOOD_AND_BEV",
  "EVENT",
  "DIGITAL",
  "DONATION",
  "LEGACY_SQUARE_ONLINE_SERVICE",
  "LEGACY_SQUARE_ONLINE_MEMBERSHIP",
]);
const ARCHIVED_STATES = new Set(["ARCHIVED_STATE_NOT_ARCHIVED", "ARCHIVED_STATE_ARCHIVED", "ARCHIVED_STATE_ALL"]);
const STOCK_LEVELS = new Set(["OUT", "LOW"]);

/** Object types named by a request, checked against the interface's list. */
function objectTypes(values: readonly string[] | undefined, field: string): CatalogObjectType[] {
  if (values === undefined || values.length === 0) return [...TOP_LEVEL_TYPES];
  return values.map((v, i) => {
    const t = v.trim().toUpperCase() as CatalogObjectType;
    if (!CATALOG_OBJECT_TYPES.includes(t)) {
      throw invalid("INVALID_ENUM_VALUE", `${JSON.stringify(v)} is not a catalog object type.`, `${field}[${i}]`);
    }
    return t;
  });
}

function withRelated(
  ctx: RequestContext,
  objects: CatalogObject[],
  include: boolean | undefined,
): { related_objects?: CatalogObject[] } {
  return include ? { related_objects: relatedObjects(ctx.db, merchantOf(ctx), objects) } : {};
}

/** ListCatalog: objects of the named types (comma-separated; default the top-level ones), keyset-paged. */
function listCatalog(ctx: RequestContext) {
  const merchant = merchantOf(ctx);
  const typesText = typeof ctx.query.types === "string" ? ctx.query.types : "";
  const types = objectTypes(typesText ? typesText.split(",") : undefined, "types");
  const q = { types: [...types].sort() };
  const after = readCursor(ctx.op.name, ctx.query.cursor, q, isOffset);
  const rows = rowsOfTypes(ctx.db, merchant, types, {
    limit: LIST_PAGE + 1,
    ...(after === undefined ? {} : { afterSeq: after }),
  });
  const page = rows.slice(0, LIST_PAGE);
  const last = page.at(-1);
  const body: ListCatalogResponse = { objects: page.map(toObject) };
  if (rows.length > LIST_PAGE && last) body.cursor = encodeCursor(ctx.op.name, q, last.seq);
  return { body };
}

/** RetrieveCatalogObject: one object, 404 when unknown; related objects on request. */
function retrieveCatalogObject(ctx: RequestContext) {
  const id = ctx.path.object_id ?? "";
  const row = findObject(ctx.db, merchantOf(ctx), id);
  if (!row) throw notFound(`Catalog object ${id} not found.`);
  const object = toObject(row);
  const body: RetrieveCatalogObjectResponse = {
    object,
    ...withRelated(ctx, [object], ctx.query.include_related_objects === true),
  };
  return { body };
}

/** BatchRetrieveCatalogObjects: the objects found among the ids, in the order asked. */
function batchRetrieveCatalogObjects(ctx: RequestContext<BatchRetrieveCatalogObjectsRequest>) {
  const req = ctx.body;
  if (req.object_ids.length > 1000) {
    throw invalid("ARRAY_LENGTH_TOO_LONG", "At most 1000 object ids per request.", "object_ids");
  }
  const objects = findObjects(ctx.db, merchantOf(ctx), req.object_ids, req.include_deleted_objects === true).map(
    toObject,
  );
  const body: BatchRetrieveCatalogObjectsResponse = {
    objects,
    ...withRelated(ctx, objects, req.include_related_objects),
  };
  return { body };
}

/** SearchCatalogObjects: exact (SKU/UPC indexed), set, prefix, range, text and sorted queries over types. */
function searchCatalogObjects(ctx: RequestContext<SearchCatalogObjectsRequest>) {
  const merchant = merchantOf(ctx);
  const req = ctx.body;
  const types = objectTypes(req.object_types, "object_types");
  // The limit is advisory: out of range means the default, as the interface says.
  const limit = pageLimit(req.limit, { max: 1000, def: 100, clamp: true });
  const exact = req.query?.exact_query;
  const code = exact?.attribute_name === "sku" || exact?.attribute_name === "upc" ? exact.attribute_name : undefined;
  const candidates =
    exact && code
      ? variationsByCode(ctx.db, merchant, code, exact.attribute_value).filter(
          (r) => types.includes(r.type) && (req.include_deleted_objects || !r.is_deleted),
        )
      : rowsOfTypes(ctx.db, merchant, types, { includeDeleted: req.include_deleted_objects === true });
  const rows = applyCatalogQuery(candidates, req.query, req.begin_time);
  const { cursor: _c, limit: _l, ...shape } = req;
  const page = pageByOffset(ctx.op.name, rows, shape, req.cursor, limit);
  const objects = page.items.map(toObject);
  const latest = latestTime(ctx.db, merchant);
  const body: SearchCatalogObjectsResponse = {
    objects,
    ...withRelated(ctx, objects, req.include_related_objects),
    ...(page.cursor ? { cursor: page.cursor } : {}),
    ...(latest ? { latest_time: latest } : {}),
  };
  return { body };
}

function checkEach(values: readonly string[] | undefined, allowed: Set<string>, field: string, what: string): void {
  for (const [i, v] of (values ?? []).entries()) {
    if (!allowed.has(v))
      throw invalid("INVALID_ENUM_VALUE", `${JSON.stringify(v)} is not a ${what}.`, `${field}[${i}]`);
  }
}

/** Whether a variation is at one of the asked stock levels: OUT (none in stock), LOW (at or under its alert). */
function atStockLevel(v: CatalogObject, levels: ReadonlySet<string>, totals: ReadonlyMap<string, number>): boolean {
  const units = totals.get(v.id) ?? 0;
  const data = v.item_variation_data;
  if (levels.has("OUT") && units <= 0) return true;
  if (levels.has("LOW") && data?.inventory_alert_type === "LOW_QUANTITY" && units > 0) {
    return units <= (data.inventory_alert_threshold ?? 0) * 100_000;
  }
  return false;
}

/**
 * SearchCatalogItems: items by text (item name and description, variation name, SKU and UPC),
 * categories, product types, stock levels; sorted by name; each page lists the variations that
 * matched.
 */
function searchCatalogItems(ctx: RequestContext<SearchCatalogItemsRequest>) {
  const merchant = merchantOf(ctx);
  const req = ctx.body;
  const limit = pageLimit(req.limit, { max: 100, def: 100 });
  const order = sortOrder(req.sort_order, "ASC");
  checkEach(req.product_types, PRODUCT_TYPES, "product_types", "product type");
  checkEach(req.stock_levels, STOCK_LEVELS, "stock_levels", "stock level");
  if (req.archived_state !== undefined && !ARCHIVED_STATES.has(req.archived_state)) {
    throw invalid(
      "INVALID_ENUM_VALUE",
      `${JSON.stringify(req.archived_state)} is not an archived state.`,
      "archived_state",
    );
  }
  const words = textFilterWords(req.text_filter ?? "");
  const text = textFilterSql(words);

  const where = ["merchant_id = ?", "type = 'ITEM'", "is_deleted = 0"];
  const args: unknown[] = [merchant];
  if (req.category_ids && req.category_ids.length > 0) {
    where.push(`category_id IN (${placeholders(req.category_ids.length)})`);
    args.push(...req.category_ids);
  }
  if (req.product_types && req.product_types.length > 0) {
    where.push(`product_type IN (${placeholders(req.product_types.length)})`);
    args.push(...req.product_types);
  }
  where.push(...text.where);
  args.push(...text.params);
  // The demo has no archived items: asking for archived ones only finds nothing.
  if (req.archived_state === "ARCHIVED_STATE_ARCHIVED") where.push("0");
  const dir = order === "DESC" ? "DESC" : "ASC";
  // Ids only, from an index that carries every filtered column in name order: no item is read
  // (nor sorted) unless it is on the page.
  let ids = (
    stmt(
      ctx.db,
      `SELECT id, search_text FROM catalog_objects INDEXED BY catalog_items_by_name WHERE ${where.join(" AND ")} ORDER BY name ${dir}, id ${dir}`,
    ).all(...args) as { id: string; search_text: string }[]
  )
    .filter((r) => containsAll(r.search_text, text.rest))
    .map((r) => r.id);

  const matchedIn = (item: CatalogObject): CatalogObject[] => {
    const own = `${item.item_data?.name ?? ""} ${item.item_data?.description ?? ""} ${item.item_data?.abbreviation ?? ""}`;
    return (item.item_data?.variations ?? []).filter((v) => {
      const d = v.item_variation_data;
      return containsAll(`${own} ${d?.name ?? ""} ${d?.sku ?? ""} ${d?.upc ?? ""}`.toLowerCase(), words);
    });
  };
  let stockOk: ((v: CatalogObject) => boolean) | undefined;
  if (req.stock_levels && req.stock_levels.length > 0) {
    const levels = new Set(req.stock_levels);
    const totals = inStockTotals(ctx.db, merchant, req.enabled_location_ids);
    stockOk = (v) => atStockLevel(v, levels, totals);
    const ok = stockOk;
    ids = findObjects(ctx.db, merchant, ids)
      .filter((r) => matchedIn(toObject(r)).some(ok))
      .map((r) => r.id);
  }

  const { cursor: _c, limit: _l, ...shape } = req;
  const page = pageByOffset(ctx.op.name, ids, shape, req.cursor, limit);
  const items = findObjects(ctx.db, merchant, page.items).map(toObject);
  const matched: string[] = [];
  if (words.length > 0 || stockOk) {
    for (const item of items) {
      for (const v of matchedIn(item)) if (!stockOk || stockOk(v)) matched.push(v.id);
    }
  }
  const body: SearchCatalogItemsResponse = {
    items,
    ...(matched.length > 0 ? { matched_variation_ids: matched } : {}),
    ...(page.cursor ? { cursor: page.cursor } : {}),
  };
  return { body };
}

/** The catalog operations (read-only). */
export const catalogRoutes: RouteTable = {
  ListCatalog: listCatalog,
  RetrieveCatalogObject: retrieveCatalogObject,
  BatchRetrieveCatalogObjects: batchRetrieveCatalogObjects,
  SearchCatalogObjects: searchCatalogObjects,
  SearchCatalogItems: searchCatalogItems,
};
