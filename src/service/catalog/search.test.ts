import { describe, expect, it } from "vitest";
import { openDb } from "../db.js";
import { seededIds } from "../ids.js";
import { rng } from "../seed/random.js";
import { rowsOfTypes, toObject } from "./repo.js";
import { applyCatalogQuery, attributeOf, textFilterSql, textFilterWords, usableKeywords } from "./search.js";
import { seedCatalog } from "./seed.js";

const M = "MERCHANT";
const db = openDb(":memory:");
db.prepare(
  "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES (?, 'x', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
).run(M);
const random = rng(5);
seedCatalog({
  db,
  rng: random,
  ids: seededIds(random),
  now: new Date("2026-01-01T00:00:00Z"),
  scale: 1,
  merchantId: M,
});
const variations = rowsOfTypes(db, M, ["ITEM_VARIATION"]);
const items = rowsOfTypes(db, M, ["ITEM"]);

describe("catalog queries", () => {
  it("reads attributes from the object's data", () => {
    const v = toObject(variations[0]!);
    expect(attributeOf(v, "sku")).toBe(v.item_variation_data?.sku);
    expect(attributeOf(v, "price_amount")).toBe(v.item_variation_data?.price_money?.amount);
    expect(attributeOf(v, "id")).toBe(v.id);
    expect(attributeOf(v, "no_such_attribute")).toBeUndefined();
  });

  it("set query: any of several values, ignoring case", () => {
    const names = ["claw hammer", "HACKSAW"];
    const found = applyCatalogQuery(
      items,
      { set_query: { attribute_name: "name", attribute_values: names } },
      undefined,
    );
    expect(found.map((r) => r.name).sort()).toEqual(["Claw Hammer", "Hacksaw"]);
  });

  it("range query: numeric attributes within bounds", () => {
    const found = applyCatalogQuery(
      variations,
      { range_query: { attribute_name: "price_amount", attribute_min_value: 10, attribute_max_value: 20 } },
      undefined,
    );
    expect(found.length).toBeGreaterThan(0);
    for (const r of found) {
      const amount = toObject(r).item_variation_data?.price_money?.amount ?? -1;
      expect(amount >= 10 && amount <= 20).toBe(true);
    }
  });

  it("sorts descending from an initial value, objects without the attribute last", () => {
    const found = applyCatalogQuery(
      items,
      { sorted_attribute_query: { attribute_name: "name", initial_attribute_value: "C", sort_order: "DESC" } },
      undefined,
    );
    const names = found.map((r) => r.name.toLowerCase());
    expect(names.every((n) => n <= "c")).toBe(true);
    expect([...names].sort().reverse()).toEqual(names);
  });

  it("begin_time keeps objects updated strictly after it", () => {
    const times = items.map((r) => r.updated_at).sort();
    const middle = times[Math.floor(times.length / 2)]!;
    const found = applyCatalogQuery(items, undefined, middle);
    expect(found.every((r) => r.updated_at > middle)).toBe(true);
    expect(found.length).toBe(times.filter((t) => t > middle).length);
  });

  it("text keywords shorter than three letters or digits are ignored", () => {
    expect(usableKeywords(["16", "Oz!", "hammer", " a "])).toEqual(["hammer"]);
    expect(usableKeywords(["oz.", "20V"])).toEqual(["20v"]);
  });
});

describe("SearchCatalogItems text filter", () => {
  it("keeps each word once, longest first, and sends only a few short enough to SQL", () => {
    expect(textFilterWords("  Claw  hammer claw 16\tOZ ")).toEqual(["hammer", "claw", "16", "oz"]);
    const words = textFilterWords(`${[..."abcdefghij"].map((c, i) => c.repeat(i + 1)).join(" ")} ${"x".repeat(300)}`);
    const sql = textFilterSql(words);
    expect(sql.where).toHaveLength(4);
    expect(sql.params).toEqual(["%jjjjjjjjjj%", "%iiiiiiiii%", "%hhhhhhhh%", "%ggggggg%"]);
    expect(sql.rest).toEqual(["x".repeat(300), "ffffff", "eeeee", "dddd", "ccc", "bb", "a"]);
    expect(textFilterSql(["50%_off"]).params).toEqual(["%50\\%\\_off%"]);
  });
});
