import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidUpc } from "../src/service/catalog/seed.js";
import type { CatalogObject } from "../src/spec/generated/types.js";
import { failure, startService, type TestService } from "./helpers/service.js";

let t: TestService;
let variations: CatalogObject[];
let items: CatalogObject[];

beforeAll(async () => {
  t = await startService();
  variations = await t.client.catalog.listCatalog({ types: "ITEM_VARIATION" }).all();
  items = await t.client.catalog.listCatalog({ types: "ITEM" }).all();
});
afterAll(() => t.close());

describe("catalog: the demo shelves", () => {
  it("has ~150 items in 8 categories, 1-4 variations each, unique SKUs and valid UPC-A codes", async () => {
    const categories = await t.client.catalog.listCatalog({ types: "CATEGORY" }).all();
    expect(categories).toHaveLength(8);
    expect(items.length).toBeGreaterThanOrEqual(140);
    expect(items.length).toBeLessThanOrEqual(160);
    for (const item of items) {
      const vs = item.item_data?.variations ?? [];
      expect(vs.length).toBeGreaterThanOrEqual(1);
      expect(vs.length).toBeLessThanOrEqual(4);
      expect(item.item_data?.product_type).toBe("REGULAR");
      expect(categories.map((c) => c.id)).toContain(item.item_data?.category_id);
    }
    const skus = variations.map((v) => v.item_variation_data?.sku);
    expect(new Set(skus).size).toBe(variations.length);
    const upcs = variations.map((v) => v.item_variation_data?.upc ?? "");
    expect(new Set(upcs).size).toBe(variations.length);
    expect(upcs.every(isValidUpc)).toBe(true);
    const v = variations[0]!;
    expect(v.item_variation_data).toMatchObject({
      pricing_type: "FIXED_PRICING",
      track_inventory: true,
      price_money: { currency: "USD" },
    });
    expect(v.is_deleted).toBe(false);
    expect(v.present_at_all_locations).toBe(true);
    expect(typeof v.version).toBe("number");
  });

  it("knows a valid UPC-A check digit from a wrong one", () => {
    expect(isValidUpc("036000291452")).toBe(true);
    expect(isValidUpc("036000291453")).toBe(false);
  });

  it("lists the top-level types by default, and pages with a cursor", async () => {
    const first = await t.client.catalog.listCatalog();
    expect(first.objects).toHaveLength(100);
    expect(first.cursor).toBeTruthy();
    const types = new Set((first.objects ?? []).map((o) => o.type));
    expect(types.has("ITEM_VARIATION")).toBe(false);
    const all = await t.client.catalog.listCatalog().all();
    expect(all).toHaveLength(items.length + 8);
    expect(new Set(all.map((o) => o.id)).size).toBe(all.length);
  });

  it("refuses an unknown type and a cursor from another query", async () => {
    const bad = await t.raw("GET", "/v2/catalog/list?types=ITEM,GADGET");
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0]).toMatchObject({ code: "INVALID_ENUM_VALUE", field: "types[1]" });
    const page = await t.client.catalog.listCatalog({ types: "ITEM" });
    const other = await t.raw("GET", `/v2/catalog/list?types=CATEGORY&cursor=${encodeURIComponent(page.cursor!)}`);
    expect(other.json.errors[0].code).toBe("INVALID_CURSOR");
  });
});

describe("catalog: retrieve", () => {
  it("retrieves an item with its category as a related object", async () => {
    const item = items[5]!;
    const plain = await t.client.catalog.retrieveCatalogObject(item.id);
    expect(plain.object?.id).toBe(item.id);
    expect(plain.related_objects).toBeUndefined();
    const r = await t.client.catalog.retrieveCatalogObject(item.id, { include_related_objects: true });
    expect(r.related_objects?.map((o) => o.id)).toEqual([item.item_data?.category_id]);
    expect(r.related_objects?.[0]?.type).toBe("CATEGORY");
  });

  it("retrieves a variation with its parent item as a related object", async () => {
    const v = variations[10]!;
    const r = await t.client.catalog.retrieveCatalogObject(v.id, { include_related_objects: true });
    expect(r.object?.type).toBe("ITEM_VARIATION");
    expect(r.related_objects?.map((o) => o.id)).toEqual([v.item_variation_data?.item_id]);
  });

  it("answers 404 for an unknown id", async () => {
    const err = await failure(t.client.catalog.retrieveCatalogObject("NOPE"));
    expect(err.status).toBe(404);
    expect(err.code).toBe("NOT_FOUND");
  });

  it("batch-retrieves in the order asked, skipping unknown ids, with related objects once each", async () => {
    const [a, b] = [variations[3]!, variations[4]!];
    const r = await t.client.catalog.batchRetrieveCatalogObjects({
      object_ids: [b.id, "MISSING", a.id],
      include_related_objects: true,
    });
    expect(r.objects?.map((o) => o.id)).toEqual([b.id, a.id]);
    const parents = new Set([a.item_variation_data?.item_id, b.item_variation_data?.item_id]);
    expect(r.related_objects?.map((o) => o.id).sort()).toEqual([...parents].sort());
  });
});

describe("catalog: search objects", () => {
  it("finds a variation by exact SKU, ignoring case", async () => {
    const v = variations[42]!;
    const sku = v.item_variation_data!.sku!;
    const r = await t.client.catalog.searchCatalogObjects({
      object_types: ["ITEM_VARIATION"],
      query: { exact_query: { attribute_name: "sku", attribute_value: sku.toLowerCase() } },
    });
    expect(r.objects?.map((o) => o.id)).toEqual([v.id]);
  });

  it("finds a variation by exact UPC, with its item as a related object", async () => {
    const v = variations[77]!;
    const r = await t.client.catalog.searchCatalogObjects({
      object_types: ["ITEM_VARIATION"],
      include_related_objects: true,
      query: { exact_query: { attribute_name: "upc", attribute_value: v.item_variation_data!.upc! } },
    });
    expect(r.objects?.map((o) => o.id)).toEqual([v.id]);
    expect(r.related_objects?.map((o) => o.id)).toEqual([v.item_variation_data?.item_id]);
    expect(r.latest_time).toBeTruthy();
  });

  it("an exact SKU that does not exist (or a partial one) finds nothing", async () => {
    const sku = variations[0]!.item_variation_data!.sku!;
    for (const value of ["ZZ-0000-9", sku.slice(0, -1)]) {
      const r = await t.client.catalog.searchCatalogObjects({
        object_types: ["ITEM_VARIATION"],
        query: { exact_query: { attribute_name: "sku", attribute_value: value } },
      });
      expect(r.objects).toEqual([]);
    }
  });

  it("searches item names by exact name, prefix and keywords", async () => {
    const exact = await t.client.catalog.searchCatalogObjects({
      object_types: ["ITEM"],
      query: { exact_query: { attribute_name: "name", attribute_value: "claw hammer" } },
    });
    expect(exact.objects?.map((o) => o.item_data?.name)).toEqual(["Claw Hammer"]);
    const prefix = await t.client.catalog.searchCatalogObjects({
      object_types: ["ITEM"],
      query: { prefix_query: { attribute_name: "name", attribute_prefix: "PVC" } },
    });
    expect(prefix.objects?.map((o) => o.item_data?.name).sort()).toEqual(["PVC Cement", "PVC Elbow", "PVC Pipe"]);
    const text = await t.client.catalog.searchCatalogObjects({
      object_types: ["ITEM"],
      query: { text_query: { keywords: ["hammer", "oz"] } },
    });
    expect(text.objects?.map((o) => o.item_data?.name).sort()).toEqual(["Ball Peen Hammer", "Claw Hammer"]);
  });

  it("refuses more than three keywords", async () => {
    const err = await failure(
      t.client.catalog.searchCatalogObjects({ query: { text_query: { keywords: ["a1a", "b2b", "c3c", "d4d"] } } }),
    );
    expect(err.code).toBe("ARRAY_LENGTH_TOO_LONG");
  });

  it("sorts by an attribute from an initial value, and pages", async () => {
    const r = await t.client.catalog.searchCatalogObjects({
      object_types: ["ITEM"],
      limit: 5,
      query: { sorted_attribute_query: { attribute_name: "name", initial_attribute_value: "W", sort_order: "ASC" } },
    });
    const names = (r.objects ?? []).map((o) => o.item_data?.name ?? "");
    expect(names).toHaveLength(5);
    expect(names.every((n) => n.toLowerCase() >= "w")).toBe(true);
    expect([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))).toEqual(names);
    const next = await t.client.catalog.searchCatalogObjects({
      object_types: ["ITEM"],
      limit: 5,
      cursor: r.cursor!,
      query: { sorted_attribute_query: { attribute_name: "name", initial_attribute_value: "W", sort_order: "ASC" } },
    });
    expect((next.objects?.[0]?.item_data?.name ?? "").toLowerCase() >= names[4]!.toLowerCase()).toBe(true);
    expect(next.objects?.map((o) => o.id)).not.toContain(r.objects?.[0]?.id);
  });

  it("does not return variations unless asked for them", async () => {
    const sku = variations[0]!.item_variation_data!.sku!;
    const r = await t.client.catalog.searchCatalogObjects({
      query: { exact_query: { attribute_name: "sku", attribute_value: sku } },
    });
    expect(r.objects).toEqual([]);
  });
});

describe("catalog: search items", () => {
  it("finds items by text in names and reports the matched variations", async () => {
    const r = await t.client.catalog.searchCatalogItems({ text_filter: "claw hammer 16" });
    expect(r.items?.map((i) => i.item_data?.name)).toEqual(["Claw Hammer"]);
    const matched = r.matched_variation_ids ?? [];
    expect(matched).toHaveLength(1);
    const v = r.items![0]!.item_data!.variations!.find((x) => x.id === matched[0]);
    expect(v?.item_variation_data?.name).toBe("16 oz");
  });

  it("answers a text filter of a thousand words, or of one enormous word, instead of failing", async () => {
    // A thousand words, each a piece of "claw hammer 16 oz": the same items as the four words.
    const pieces = ["claw", "hammer", "16", "oz", "cla", "law", "ham", "amm", "mme", "mer", "ha", "er"];
    const thousand = Array.from({ length: 1000 }, (_, i) => pieces[i % pieces.length]);
    const many = await t.raw("POST", "/v2/catalog/search-catalog-items", { body: { text_filter: thousand.join(" ") } });
    expect(many.status).toBe(200);
    expect(many.json.items.map((i: { item_data: { name: string } }) => i.item_data.name)).toEqual(["Claw Hammer"]);
    // A thousand different words: no item holds them all.
    const distinct = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(" ");
    const none = await t.raw("POST", "/v2/catalog/search-catalog-items", {
      body: { text_filter: `hammer ${distinct}` },
    });
    expect(none.status).toBe(200);
    expect(none.json.items ?? []).toEqual([]);
    const huge = await t.raw("POST", "/v2/catalog/search-catalog-items", {
      body: { text_filter: "h".repeat(100_000) },
    });
    expect(huge.status).toBe(200);
    expect(huge.json.items ?? []).toEqual([]);
  });

  it("finds the item of a scanned UPC or SKU", async () => {
    const v = variations[100]!;
    for (const code of [v.item_variation_data!.upc!, v.item_variation_data!.sku!]) {
      const r = await t.client.catalog.searchCatalogItems({ text_filter: code });
      expect(r.items?.map((i) => i.id)).toEqual([v.item_variation_data?.item_id]);
      expect(r.matched_variation_ids).toEqual([v.id]);
    }
  });

  it("filters by category, sorts by name both ways, and pages", async () => {
    const category = items[0]!.item_data!.category_id!;
    const asc = await t.client.catalog.searchCatalogItems({ category_ids: [category] }).all();
    expect(asc.length).toBe(19);
    expect(asc.every((i) => i.item_data?.category_id === category)).toBe(true);
    const names = asc.map((i) => i.item_data?.name?.toLowerCase() ?? "");
    expect([...names].sort()).toEqual(names);
    const desc = await t.client.catalog.searchCatalogItems({ category_ids: [category], sort_order: "DESC" }).all();
    expect(desc.map((i) => i.id)).toEqual(asc.map((i) => i.id).reverse());
    const first = await t.client.catalog.searchCatalogItems({ category_ids: [category], limit: 10 });
    expect(first.items).toHaveLength(10);
    const second = await t.client.catalog.searchCatalogItems({
      category_ids: [category],
      limit: 10,
      cursor: first.cursor!,
    });
    expect(second.items?.map((i) => i.id)).toEqual(asc.slice(10).map((i) => i.id));
    expect(second.cursor).toBeUndefined();
  });

  it("filters by product type and refuses an unknown one", async () => {
    const none = await t.client.catalog.searchCatalogItems({ product_types: ["GIFT_CARD"] });
    expect(none.items).toEqual([]);
    const err = await failure(t.client.catalog.searchCatalogItems({ product_types: ["GADGET"] }));
    expect(err.code).toBe("INVALID_ENUM_VALUE");
    expect(err.errors[0]?.field).toBe("product_types[0]");
  });
});

describe("catalog: stock levels", () => {
  const MAIN = "LMAIN0000000001";
  const DOCK = "LDOCK0000000002";
  const countTo = (objectId: string, main: string, dock: string) =>
    t.client.inventory.batchChangeInventory({
      changes: [
        {
          type: "PHYSICAL_COUNT",
          physical_count: {
            catalog_object_id: objectId,
            location_id: MAIN,
            state: "IN_STOCK",
            quantity: main,
            occurred_at: new Date(Date.now() - 1000).toISOString(),
          },
        },
        {
          type: "PHYSICAL_COUNT",
          physical_count: {
            catalog_object_id: objectId,
            location_id: DOCK,
            state: "IN_STOCK",
            quantity: dock,
            occurred_at: new Date(Date.now() - 1000).toISOString(),
          },
        },
      ],
    });

  it("finds variations out of stock, over all locations or the enabled ones", async () => {
    const v = variations[300]!;
    await countTo(v.id, "0", "5");
    const anywhere = await t.client.catalog.searchCatalogItems({ stock_levels: ["OUT"] }).all();
    expect(anywhere.map((i) => i.id)).not.toContain(v.item_variation_data?.item_id);
    const atMain = await t.client.catalog.searchCatalogItems({ stock_levels: ["OUT"], enabled_location_ids: [MAIN] });
    expect(atMain.matched_variation_ids).toContain(v.id);
    await countTo(v.id, "0", "0");
    const now = await t.client.catalog.searchCatalogItems({ stock_levels: ["OUT"] });
    expect(now.items?.map((i) => i.id)).toContain(v.item_variation_data?.item_id);
    expect(now.matched_variation_ids).toContain(v.id);
  });

  it("finds variations at or under their low-stock alert", async () => {
    const v = variations.find((x) => x.item_variation_data?.inventory_alert_type === "LOW_QUANTITY")!;
    const threshold = v.item_variation_data!.inventory_alert_threshold!;
    await countTo(v.id, "1", String(threshold - 1));
    const low = await t.client.catalog.searchCatalogItems({ stock_levels: ["LOW"] });
    expect(low.matched_variation_ids).toContain(v.id);
    await countTo(v.id, "1", String(threshold));
    const notLow = await t.client.catalog.searchCatalogItems({ stock_levels: ["LOW"] });
    expect(notLow.matched_variation_ids ?? []).not.toContain(v.id);
    const err = await failure(t.client.catalog.searchCatalogItems({ stock_levels: ["EMPTY"] }));
    expect(err.errors[0]?.field).toBe("stock_levels[0]");
  });
});
