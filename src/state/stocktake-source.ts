/**
 * What a stocktake reads from the service: the catalog entries of its scope, single look-ups by
 * SKU/UPC and by name, the books' IN_STOCK quantities (incrementally, by `updated_after`), and
 * one item's history of counts and adjustments.
 */
import {
  type CountScope,
  type ExpectedCount,
  normalizeUpc,
  type StockItem,
  stockItemsOf,
} from "../domain/stocktake.js";
import type { CatalogObject, InventoryChange } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";

/** The calls a stocktake makes. */
export interface StocktakeClient {
  catalog: Pick<SquareClient["catalog"], "searchCatalogObjects" | "searchCatalogItems">;
  inventory: Pick<
    SquareClient["inventory"],
    "batchRetrieveInventoryCounts" | "batchRetrieveInventoryChanges" | "batchChangeInventory"
  >;
}

/** A category of the catalog, for starting a cycle count. */
export interface CategoryChoice {
  id: string;
  name: string;
}

/** The largest page the catalog and inventory searches give. */
const BIG_PAGE = 1000;
/** SearchCatalogItems pages by at most 100. */
const ITEMS_PAGE = 100;

async function measurementUnits(
  client: StocktakeClient,
  items: readonly CatalogObject[],
): Promise<Map<string, CatalogObject>> {
  const wanted = items.some((i) => i.item_data?.variations?.some((v) => v.item_variation_data?.measurement_unit_id));
  if (!wanted) return new Map();
  const units = await client.catalog
    .searchCatalogObjects({ object_types: ["MEASUREMENT_UNIT"], limit: BIG_PAGE })
    .all();
  return new Map(units.map((u) => [u.id, u]));
}

/** Items with their variations as stock items at the location, measurement units looked up as needed. */
async function asStockItems(
  client: StocktakeClient,
  items: readonly CatalogObject[],
  locationId: string,
): Promise<StockItem[]> {
  return stockItemsOf(items, locationId, await measurementUnits(client, items));
}

/** The catalog's categories, by name. */
export async function listCategories(client: StocktakeClient): Promise<CategoryChoice[]> {
  const objects = await client.catalog.searchCatalogObjects({ object_types: ["CATEGORY"], limit: BIG_PAGE }).all();
  return objects
    .filter((o) => !o.is_deleted)
    .map((o) => ({ id: o.id, name: o.category_data?.name ?? o.id }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The variations a count covers, in catalog order: a full count's every tracked variation at the
 * location; a category's or a search's variations; the variations of a list of SKUs (with the
 * SKUs found nowhere in `missing`).
 */
export async function loadScope(
  client: StocktakeClient,
  locationId: string,
  scope: CountScope,
): Promise<{ items: StockItem[]; missing: string[] }> {
  switch (scope.kind) {
    case "full": {
      const items = await client.catalog.searchCatalogObjects({ object_types: ["ITEM"], limit: BIG_PAGE }).all();
      return { items: (await asStockItems(client, items, locationId)).filter((i) => i.tracked), missing: [] };
    }
    case "category": {
      const items = await client.catalog
        .searchCatalogItems({ category_ids: scope.categoryIds, limit: ITEMS_PAGE })
        .all();
      return { items: await asStockItems(client, items, locationId), missing: [] };
    }
    case "search": {
      const items: CatalogObject[] = [];
      const matched = new Set<string>();
      for await (const page of client.catalog
        .searchCatalogItems({ text_filter: scope.text, limit: ITEMS_PAGE })
        .pages()) {
        items.push(...(page.items ?? []));
        for (const id of page.matched_variation_ids ?? []) matched.add(id);
      }
      const all = await asStockItems(client, items, locationId);
      return { items: matched.size > 0 ? all.filter((i) => matched.has(i.variationId)) : all, missing: [] };
    }
    case "skus": {
      const { found, missing } = await findCodes(client, locationId, "sku", scope.skus);
      return { items: [...found.values()], missing };
    }
    case "file":
      // A count read from a file covers what the file names; its items come with its rows.
      return { items: [], missing: [] };
  }
}

/**
 * Many variations by SKU or UPC at once (a set query per thousand codes), matched exactly but
 * ignoring case; a UPC scanned as EAN-13 (a leading zero) is found too. Returns the variation of
 * each code found, by the code as given, and the codes found nowhere.
 */
export async function findCodes(
  client: StocktakeClient,
  locationId: string,
  attribute: "sku" | "upc",
  codes: readonly string[],
): Promise<{ found: Map<string, StockItem>; missing: string[] }> {
  const distinct = [...new Set(codes.map((c) => c.trim()).filter((c) => c !== ""))];
  const spelled = (code: string) => (attribute === "upc" ? normalizeUpc(code) : code).toLowerCase();
  const found = new Map<string, StockItem>();
  for (let i = 0; i < distinct.length; i += BIG_PAGE) {
    const chunk = distinct.slice(i, i + BIG_PAGE);
    const values = [...new Set(chunk.flatMap((c) => [c, attribute === "upc" ? normalizeUpc(c) : c]))];
    const res = await variationsWithItems(client, {
      set_query: { attribute_name: attribute, attribute_values: values },
    });
    const byCode = new Map<string, StockItem>();
    for (const it of await asStockItems(client, res.items, locationId)) {
      if (!res.variationIds.has(it.variationId)) continue;
      const code = (attribute === "sku" ? it.sku : it.upc).toLowerCase();
      if (code && !byCode.has(code)) byCode.set(code, it);
    }
    for (const code of chunk) {
      const it = byCode.get(code.toLowerCase()) ?? byCode.get(spelled(code));
      if (it) found.set(code, it);
    }
  }
  return { found, missing: distinct.filter((c) => !found.has(c)) };
}

/** Variations matching a catalog query, with their parent items (from the related objects). */
async function variationsWithItems(
  client: StocktakeClient,
  query: NonNullable<Parameters<StocktakeClient["catalog"]["searchCatalogObjects"]>[0]>["query"],
): Promise<{ items: CatalogObject[]; variationIds: Set<string> }> {
  const items = new Map<string, CatalogObject>();
  const variationIds = new Set<string>();
  for await (const page of client.catalog
    .searchCatalogObjects({
      object_types: ["ITEM_VARIATION"],
      ...(query ? { query } : {}),
      include_related_objects: true,
      limit: BIG_PAGE,
    })
    .pages()) {
    for (const v of page.objects ?? []) variationIds.add(v.id);
    for (const o of page.related_objects ?? []) if (o.type === "ITEM") items.set(o.id, o);
  }
  return { items: [...items.values()], variationIds };
}

/**
 * One variation by its SKU or UPC, exactly (catalog search, SKU first); undefined when the
 * catalog has none or it is not sold at the location.
 */
export async function lookupCode(
  client: StocktakeClient,
  code: string,
  locationId: string,
): Promise<StockItem | undefined> {
  const t = code.trim();
  if (!t) return undefined;
  const attempts: ["sku" | "upc", string][] = [
    ["sku", t],
    ["upc", t],
  ];
  if (normalizeUpc(t) !== t) attempts.push(["upc", normalizeUpc(t)]);
  for (const [attribute_name, attribute_value] of attempts) {
    const found = await variationsWithItems(client, { exact_query: { attribute_name, attribute_value } });
    if (found.variationIds.size === 0) continue;
    const items = await asStockItems(client, found.items, locationId);
    const hit = items.find((i) => found.variationIds.has(i.variationId));
    if (hit) return hit;
  }
  return undefined;
}

/** Variations whose item or variation name, SKU or UPC contains every word of `text`, for a pick list. */
export async function searchByName(
  client: StocktakeClient,
  text: string,
  locationId: string,
  max = 50,
): Promise<StockItem[]> {
  const page = await client.catalog.searchCatalogItems({ text_filter: text, limit: ITEMS_PAGE });
  const matched = new Set(page.matched_variation_ids ?? []);
  const items = await asStockItems(client, page.items ?? [], locationId);
  return (matched.size > 0 ? items.filter((i) => matched.has(i.variationId)) : items).slice(0, max);
}

/**
 * The books' IN_STOCK quantities at a location, changed after `updatedAfter` (all of them when
 * absent) — the interface's own sync pattern: keep the latest `calculated_at` and ask again from
 * there. Also returns that latest `calculated_at`.
 */
export async function readExpected(
  client: StocktakeClient,
  locationId: string,
  updatedAfter?: string,
): Promise<{ counts: Map<string, ExpectedCount>; latest: string | undefined }> {
  const counts = new Map<string, ExpectedCount>();
  let latest = updatedAfter;
  for await (const c of client.inventory.batchRetrieveInventoryCounts({
    location_ids: [locationId],
    states: ["IN_STOCK"],
    ...(updatedAfter ? { updated_after: updatedAfter } : {}),
    limit: BIG_PAGE,
  })) {
    if (!c.catalog_object_id || c.quantity === undefined) continue;
    const calculatedAt = c.calculated_at ?? "";
    counts.set(c.catalog_object_id, { quantity: c.quantity, calculatedAt });
    if (!latest || calculatedAt > latest) latest = calculatedAt;
  }
  return { counts, latest };
}

/** Items asked for in one read of book quantities (the interface takes up to 1,000 ids). */
const IDS_PER_READ = 500;

/**
 * The books' IN_STOCK quantities of some items at a location — items that joined a count from
 * outside its scope. An item the books do not list has none on hand: it is answered as 0, so
 * that it is known, not waited for.
 */
export async function readExpectedOf(
  client: StocktakeClient,
  locationId: string,
  ids: readonly string[],
): Promise<Map<string, ExpectedCount>> {
  const counts = new Map<string, ExpectedCount>();
  for (let at = 0; at < ids.length; at += IDS_PER_READ) {
    const chunk = ids.slice(at, at + IDS_PER_READ);
    for await (const c of client.inventory.batchRetrieveInventoryCounts({
      catalog_object_ids: chunk,
      location_ids: [locationId],
      states: ["IN_STOCK"],
      limit: BIG_PAGE,
    })) {
      if (!c.catalog_object_id || c.quantity === undefined) continue;
      counts.set(c.catalog_object_id, { quantity: c.quantity, calculatedAt: c.calculated_at ?? "" });
    }
  }
  for (const id of ids) if (!counts.has(id)) counts.set(id, { quantity: "0", calculatedAt: "" });
  return counts;
}

/** One item's physical counts and adjustments at a location, newest first. */
export async function itemHistory(
  client: StocktakeClient,
  variationId: string,
  locationId: string,
): Promise<InventoryChange[]> {
  const changes = await client.inventory
    .batchRetrieveInventoryChanges({
      catalog_object_ids: [variationId],
      location_ids: [locationId],
      types: ["PHYSICAL_COUNT", "ADJUSTMENT"],
      limit: BIG_PAGE,
    })
    .all();
  return changes.sort((a, b) => changeTime(b).localeCompare(changeTime(a)));
}

/** When a change happened (its `occurred_at`). */
export const changeTime = (c: InventoryChange): string =>
  c.physical_count?.occurred_at ?? c.adjustment?.occurred_at ?? c.transfer?.occurred_at ?? "";
