import { describe, expect, it } from "vitest";
import { storeWithMerchant } from "../../../test/helpers/service-db.js";
import { seededIds } from "../ids.js";
import { rng } from "../seed/random.js";
import { CODE_LOOKUP_SQL, variationsByCode } from "./repo.js";
import { seedCatalog } from "./seed.js";

const M = "MERCHANT";

function catalog() {
  const db = storeWithMerchant(M);
  const random = rng(3);
  seedCatalog({
    db,
    rng: random,
    ids: seededIds(random),
    now: new Date("2026-01-01T00:00:00Z"),
    scale: 1,
    merchantId: M,
  });
  return db;
}

describe("catalog look-ups by code", () => {
  it("find a variation by SKU or UPC, ignoring case", () => {
    const db = catalog();
    const row = db
      .prepare("SELECT id, sku, upc FROM catalog_objects WHERE type = 'ITEM_VARIATION' LIMIT 1 OFFSET 17")
      .get() as {
      id: string;
      sku: string;
      upc: string;
    };
    expect(variationsByCode(db, M, "sku", row.sku.toLowerCase()).map((r) => r.id)).toEqual([row.id]);
    expect(variationsByCode(db, M, "upc", row.upc).map((r) => r.id)).toEqual([row.id]);
    expect(variationsByCode(db, "OTHER", "sku", row.sku)).toEqual([]);
    db.close();
  });

  it("use their own index, so a scan at the counter does not read the catalog", () => {
    const db = catalog();
    for (const column of ["sku", "upc"] as const) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${CODE_LOOKUP_SQL[column]}`).all(M, "X") as { detail: string }[])
        .map((r) => r.detail)
        .join(" ");
      expect(plan).toContain(`USING INDEX catalog_by_${column} (merchant_id=? AND ${column}=?)`);
    }
    db.close();
  });
});
