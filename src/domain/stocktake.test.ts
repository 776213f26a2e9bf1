import { describe, expect, it } from "vitest";
import type { CatalogObject } from "../spec/generated/types.js";
import {
  applyCountEntry,
  buildReview,
  type CommitLine,
  type CountEntry,
  commitLinesOf,
  countTotals,
  countVariance,
  describeScope,
  type ExpectedCount,
  findByCode,
  formatVariance,
  looksLikeCode,
  MAX_CHANGES_PER_BATCH,
  normalizeUpc,
  occurredAtFor,
  parseCountEntry,
  planCommitBatches,
  refusedChangeIndex,
  type StockItem,
  sortReview,
  stockItemsOf,
  varianceValue,
} from "./stocktake.js";

const entry = (text: string, precision = 0): CountEntry => {
  const r = parseCountEntry(text, precision);
  if (!r.ok) throw new Error(r.problem);
  return r.value;
};
const problem = (text: string, precision = 0): string => {
  const r = parseCountEntry(text, precision);
  if (r.ok) throw new Error(`expected ${text} to be refused`);
  return r.problem;
};

function item(id: string, price: number | undefined, extra: Partial<StockItem> = {}): StockItem {
  return {
    variationId: id,
    itemId: `I-${id}`,
    sku: `SKU-${id}`,
    upc: "",
    name: `Item ${id}`,
    categoryId: "C",
    priceAmount: price,
    currency: "USD",
    precision: 0,
    tracked: true,
    ...extra,
  };
}

describe("a count entry", () => {
  it("sets, adds and takes back; =N replaces, and a sign says so outright", () => {
    expect(entry("12")).toEqual({ kind: "set", units: 1_200_000 });
    expect(entry("+3")).toEqual({ kind: "add", units: 300_000, said: true });
    expect(entry(" -1 ")).toEqual({ kind: "add", units: -100_000, said: true });
    expect(entry("=3")).toEqual({ kind: "set", units: 300_000, said: true });
    expect(entry("= 4")).toEqual({ kind: "set", units: 400_000, said: true });
    expect(entry("007")).toEqual({ kind: "set", units: 700_000 });
  });

  it("takes decimals up to the unit's precision, and trailing zeros beyond it", () => {
    expect(entry("2.5", 1)).toEqual({ kind: "set", units: 250_000 });
    expect(entry("+0.125", 3)).toEqual({ kind: "add", units: 12_500, said: true });
    expect(entry("4.00", 0)).toEqual({ kind: "set", units: 400_000 });
    expect(problem("2.5", 0)).toMatch(/whole units/);
    expect(problem("0.125", 2)).toMatch(/at most 2 decimals/);
  });

  it("explains what is not a quantity", () => {
    expect(problem("")).toMatch(/Type a quantity/);
    expect(problem("1,5", 1)).toMatch(/Use a point for decimals: 1\.5/);
    expect(problem("abc")).toMatch(/not a quantity/);
    expect(problem("12345678901")).toMatch(/too large/);
    expect(problem("1e3")).toMatch(/not a quantity/);
  });

  it("applies to what was counted so far, never below zero", () => {
    expect(applyCountEntry(undefined, entry("5"))).toEqual({ ok: true, value: "5" });
    expect(applyCountEntry("5", entry("+3"))).toEqual({ ok: true, value: "8" });
    expect(applyCountEntry(undefined, entry("+1"))).toEqual({ ok: true, value: "1" });
    expect(applyCountEntry("0.1", entry("+0.2", 1))).toEqual({ ok: true, value: "0.3" });
    expect(applyCountEntry("8", entry("2"))).toEqual({ ok: true, value: "2" });
    const r = applyCountEntry("1", entry("-2"));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toMatch(/below zero \(1 so far\)/);
    expect(applyCountEntry("9999999999", entry("+1")).ok).toBe(false);
  });
});

describe("variance", () => {
  it("is counted minus expected, exactly", () => {
    expect(countVariance("10", "12")).toBe(-200_000);
    expect(countVariance("0.3", "0.1")).toBe(20_000);
    expect(countVariance("4", undefined)).toBe(400_000);
  });

  it("is valued at the unit price in minor units, rounded half away from zero", () => {
    expect(varianceValue(-200_000, 1899)).toBe(-3798);
    expect(varianceValue(50_000, 15)).toBe(8); // 0.5 × 15 = 7.5 → 8
    expect(varianceValue(-50_000, 15)).toBe(-8);
    expect(varianceValue(33_333, 100)).toBe(33); // 0.33333 × 100 = 33.333
    expect(varianceValue(100_000, undefined)).toBeUndefined();
    // Past Number's exact range in the product, still exact.
    expect(varianceValue(1_000_000_000_001, 999_999)).toBe(9_999_990_000_010);
  });

  it("formats with its sign", () => {
    expect(formatVariance(300_000)).toBe("+3");
    expect(formatVariance(-50_000)).toBe("-0.5");
    expect(formatVariance(0)).toBe("0");
  });
});

describe("the review", () => {
  const items = new Map(
    [item("A", 1000), item("B", 50), item("C", undefined), item("D", 200), item("E", 300)].map((i) => [
      i.variationId,
      i,
    ]),
  );
  const expected = new Map<string, ExpectedCount>(
    Object.entries({ A: "10", B: "100", C: "5", D: "3", E: "7" }).map(([k, q]) => [
      k,
      { quantity: q, calculatedAt: "2024-01-01T00:00:00Z" },
    ]),
  );
  const lines = [
    { variationId: "A", quantity: "9", countedAt: "2024-01-02T10:00:00Z", countedBy: "TM1" }, // -1 × 10.00 = -1000
    { variationId: "B", quantity: "130", countedAt: "2024-01-02T10:01:00Z", countedBy: "TM1" }, // +30 × 0.50 = +1500
    { variationId: "C", quantity: "1", countedAt: "2024-01-02T10:02:00Z", countedBy: "TM2" }, // -4, no price
    { variationId: "D", quantity: "3", countedAt: "2024-01-02T10:03:00Z", countedBy: "TM1", expected: "4" }, // -1 × 2.00 at count time
  ];

  it("compares each line with the books when it was counted, or the latest", () => {
    const rows = buildReview({ items, lines, expected, scope: [], uncounted: "leave" });
    const d = rows.find((r) => r.item.variationId === "D");
    expect(d?.expected).toBe("4");
    expect(d?.variance).toBe(-100_000);
    expect(d?.value).toBe(-200);
    expect(rows.find((r) => r.item.variationId === "A")?.value).toBe(-1000);
  });

  it("sorts by absolute variance value, then units, then name", () => {
    const rows = sortReview(buildReview({ items, lines, expected, scope: [], uncounted: "leave" }));
    expect(rows.map((r) => r.item.variationId)).toEqual(["B", "A", "D", "C"]);
  });

  it("lists a full count's uncounted items at zero, or leaves them untouched", () => {
    const scope = ["A", "B", "C", "D", "E"];
    const zero = buildReview({ items, lines, expected, scope, uncounted: "zero" });
    const e = zero.find((r) => r.item.variationId === "E");
    expect(e).toMatchObject({ counted: "0", uncounted: true, variance: -700_000, value: -2100 });
    const leave = buildReview({ items, lines, expected, scope, uncounted: "leave" });
    expect(leave.find((r) => r.item.variationId === "E")).toMatchObject({ counted: undefined, variance: 0, value: 0 });

    const t = countTotals(zero);
    expect(t).toEqual({
      lines: 5,
      uncounted: 1,
      unitsOver: "30",
      unitsShort: "13", // 1 + 4 + 1 + 7
      valueOver: 1500,
      valueShort: 3300, // 1000 + 200 + 2100
      valueNet: -1800,
      unpriced: 1,
      expectedPending: 0,
      outOfScope: 0,
    });
    expect(countTotals(leave)).toMatchObject({ lines: 4, uncounted: 1, unitsShort: "6", valueShort: 1200 });
  });

  it("marks an item counted from outside the scope, and keeps one whose books are not read yet out of the sums", () => {
    // A cycle count of A: B was scanned from another aisle. Its books say 12 on hand.
    const cord = { variationId: "B", quantity: "5", countedAt: "2024-01-02T10:05:00Z", countedBy: "TM1" };
    const waiting = buildReview({ items, lines: [cord], expected: new Map(), scope: ["A"], uncounted: "leave" });
    expect(waiting[0]).toMatchObject({ outOfScope: true, expected: undefined, variance: 0, value: undefined });
    expect(countTotals(waiting)).toMatchObject({ lines: 1, expectedPending: 1, outOfScope: 1, unitsShort: "0" });
    // Once read, its variance is against the books: 12 → 5 is seven short, not five over.
    const books = new Map([["B", { quantity: "12", calculatedAt: "2024-01-02T09:00:00Z" }]]);
    const read = buildReview({ items, lines: [cord], expected: books, scope: ["A"], uncounted: "leave" });
    expect(read[0]).toMatchObject({ outOfScope: true, expected: "12", variance: -700_000 });
    expect(countTotals(read)).toMatchObject({ expectedPending: 0, unitsShort: "7", unitsOver: "0" });
    // An item of the scope that the books do not list has none on hand.
    const inScope = buildReview({ items, lines: [cord], expected: new Map(), scope: ["B"], uncounted: "leave" });
    expect(inScope[0]).toMatchObject({ outOfScope: false, expected: "0", variance: 500_000 });
  });

  it("flags a count far from the books", () => {
    const typo = { variationId: "A", quantity: "5000", countedAt: "2024-01-02T10:05:00Z", countedBy: "TM1" };
    const books = new Map([["A", { quantity: "50", calculatedAt: "2024-01-02T09:00:00Z" }]]);
    const rows = buildReview({ items, lines: [typo], expected: books, scope: ["A"], uncounted: "leave" });
    expect(rows[0]?.far).toBe(true);
  });

  it("sends the uncounted items set to zero as lines counted when the manager decided", () => {
    const scope = ["A", "E"];
    const rows = buildReview({ items, lines: lines.slice(0, 1), expected, scope, uncounted: "zero" });
    expect(commitLinesOf(rows, "2024-01-02T11:00:00Z", "TM9")).toEqual([
      { variationId: "A", quantity: "9", countedAt: "2024-01-02T10:00:00Z", countedBy: "TM1" },
      { variationId: "E", quantity: "0", countedAt: "2024-01-02T11:00:00Z", countedBy: "TM9" },
    ]);
    const left = buildReview({ items, lines: lines.slice(0, 1), expected, scope, uncounted: "leave" });
    expect(commitLinesOf(left, "2024-01-02T11:00:00Z", "TM9")).toHaveLength(1);
  });
});

describe("planning the commit", () => {
  const now = new Date("2024-01-02T12:00:00.000Z");
  const lines: CommitLine[] = Array.from({ length: 250 }, (_, i) => ({
    variationId: `V${String(i).padStart(3, "0")}`,
    quantity: String(i),
    countedAt: new Date(now.getTime() - (250 - i) * 1000).toISOString(),
    countedBy: i % 2 ? "TM1" : "",
  }));

  it("forms requests of at most 100 physical counts, each with its own key, in counting order", () => {
    let n = 0;
    const batches = planCommitBatches(lines, {
      referenceId: "COUNT-1",
      locationId: "L1",
      now,
      newKey: () => `key-${n++}`,
    });
    expect(batches.map((b) => b.body.changes?.length)).toEqual([100, 100, 50]);
    expect(batches.map((b) => b.idempotencyKey)).toEqual(["key-0", "key-1", "key-2"]);
    expect(batches.map((b) => b.body.idempotency_key)).toEqual(["key-0", "key-1", "key-2"]);
    expect(batches[0]?.body.ignore_unchanged_counts).toBe(false);
    expect(batches[2]?.variationIds[0]).toBe("V200");
    const first = batches[0]?.body.changes?.[1];
    expect(first).toEqual({
      type: "PHYSICAL_COUNT",
      physical_count: {
        reference_id: "COUNT-1",
        catalog_object_id: "V001",
        catalog_object_type: "ITEM_VARIATION",
        state: "IN_STOCK",
        location_id: "L1",
        quantity: "1",
        team_member_id: "TM1",
        occurred_at: lines[1]?.countedAt,
      },
    });
    expect(batches[0]?.body.changes?.[0]?.physical_count?.team_member_id).toBeUndefined();
    expect(MAX_CHANGES_PER_BATCH).toBe(100);
  });

  it("never forms a request larger than the interface allows", () => {
    const batches = planCommitBatches(lines, { referenceId: "R", locationId: "L", now, newKey: () => "k", size: 500 });
    expect(Math.max(...batches.map((b) => b.body.changes?.length ?? 0))).toBe(100);
    expect(planCommitBatches([], { referenceId: "R", locationId: "L", now, newKey: () => "k" })).toEqual([]);
  });

  it("sends each line's counting moment, unless the interface would refuse it as too old or future", () => {
    expect(occurredAtFor("2024-01-02T11:00:00Z", now)).toBe("2024-01-02T11:00:00.000Z");
    expect(occurredAtFor("2024-01-01T11:00:00Z", now)).toBe(now.toISOString()); // 25 h ago
    expect(occurredAtFor("2024-01-02T12:05:00Z", now)).toBe(now.toISOString());
    expect(occurredAtFor("not a time", now)).toBe(now.toISOString());
  });

  it("reads which change a refusal names", () => {
    expect(refusedChangeIndex("changes[37].physical_count.catalog_object_id")).toBe(37);
    expect(refusedChangeIndex("idempotency_key")).toBeUndefined();
    expect(refusedChangeIndex(undefined)).toBeUndefined();
  });
});

describe("catalog to stock items", () => {
  const unit: CatalogObject = {
    type: "MEASUREMENT_UNIT",
    id: "U1",
    measurement_unit_data: { precision: 2, measurement_unit: { weight_unit: "IMPERIAL_POUND" } },
  };
  const items: CatalogObject[] = [
    {
      type: "ITEM",
      id: "I1",
      item_data: {
        name: "Nails",
        category_id: "CAT",
        variations: [
          {
            type: "ITEM_VARIATION",
            id: "V1",
            item_variation_data: {
              name: "Loose",
              sku: "NL-1",
              upc: "012345678905",
              measurement_unit_id: "U1",
              price_money: { amount: 499, currency: "USD" },
              track_inventory: true,
              location_overrides: [{ location_id: "L2", price_money: { amount: 599, currency: "USD" } }],
            },
          },
          {
            type: "ITEM_VARIATION",
            id: "V2",
            absent_at_location_ids: ["L1"],
            item_variation_data: { name: "Boxed", sku: "NL-2", track_inventory: true },
          },
          {
            type: "ITEM_VARIATION",
            id: "V3",
            item_variation_data: {
              name: "Regular",
              sku: "NL-3",
              track_inventory: false,
              location_overrides: [{ location_id: "L1", track_inventory: true }],
            },
          },
        ],
      },
    },
    {
      type: "ITEM",
      id: "I2",
      present_at_all_locations: false,
      present_at_location_ids: ["L2"],
      item_data: { name: "Elsewhere", variations: [{ type: "ITEM_VARIATION", id: "V9", item_variation_data: {} }] },
    },
  ];

  it("keeps the variations present at the location, with its price, tracking and unit precision", () => {
    const units = new Map([["U1", unit]]);
    const atL1 = stockItemsOf(items, "L1", units);
    expect(atL1.map((i) => [i.variationId, i.name, i.precision, i.priceAmount, i.tracked])).toEqual([
      ["V1", "Nails, Loose", 2, 499, true],
      ["V3", "Nails", 0, undefined, true],
    ]);
    const atL2 = stockItemsOf(items, "L2", units);
    expect(atL2.map((i) => i.variationId)).toEqual(["V1", "V2", "V3", "V9"]);
    expect(atL2[0]?.priceAmount).toBe(599);
    expect(atL2.find((i) => i.variationId === "V3")?.tracked).toBe(false);
  });

  it("finds by SKU or UPC exactly, including a UPC scanned as EAN-13", () => {
    const list = stockItemsOf(items, "L1");
    const bySku = new Map(list.map((i) => [i.sku, i]));
    const byUpc = new Map(list.filter((i) => i.upc).map((i) => [i.upc, i]));
    expect(findByCode("NL-1", bySku, byUpc)?.variationId).toBe("V1");
    expect(findByCode("nl-3", bySku, byUpc)?.variationId).toBe("V3");
    expect(findByCode("012345678905", bySku, byUpc)?.variationId).toBe("V1");
    expect(findByCode("0012345678905", bySku, byUpc)?.variationId).toBe("V1");
    expect(findByCode("NL", bySku, byUpc)).toBeUndefined();
    expect(normalizeUpc("0123456789012")).toBe("123456789012");
    expect(looksLikeCode("0123456789012")).toBe(true);
    expect(looksLikeCode("HT-9999-1")).toBe(true);
    expect(looksLikeCode("claw hammer")).toBe(false);
    expect(looksLikeCode("hammer")).toBe(false);
  });

  it("names its scope", () => {
    expect(describeScope({ kind: "full" })).toBe("full count");
    expect(describeScope({ kind: "category", categoryIds: ["C"], label: "Hand Tools" })).toBe(
      "cycle count: Hand Tools",
    );
    expect(describeScope({ kind: "skus", skus: ["A"] })).toBe("cycle count: 1 SKU");
  });
});
