import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { storeWithMerchant } from "../../../test/helpers/service-db.js";
import { openDb } from "../db.js";
import { seededIds } from "../ids.js";
import { rng } from "../seed/random.js";
import { CODE_LOOKUP_SQL, objectTypes, variationsByCode } from "./repo.js";
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

describe("objectTypes", () => {
  it("answers live objects' types, and reads them again when another connection has written", () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-types-"));
    try {
      const file = join(dir, "store.db");
      const a = openDb(file);
      a.prepare(
        "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES (?, 'x', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
      ).run(M);
      const random = rng(3);
      seedCatalog({
        db: a,
        rng: random,
        ids: seededIds(random),
        now: new Date("2026-01-01T00:00:00Z"),
        scale: 1,
        merchantId: M,
      });
      const [item, variation] = ["ITEM", "ITEM_VARIATION"].map(
        (type) => (a.prepare("SELECT id FROM catalog_objects WHERE type = ? LIMIT 1").get(type) as { id: string }).id,
      ) as [string, string];
      const typesOf = (seller: string, ids: string[]) => {
        const known = objectTypes(a, seller, ids);
        return ids.map((id) => known.get(id) ?? null);
      };
      expect(typesOf(M, [variation, item, "NOPE", variation])).toEqual([
        "ITEM_VARIATION",
        "ITEM",
        null,
        "ITEM_VARIATION",
      ]);
      expect(typesOf("OTHER", [variation])).toEqual([null]);
      // Deleted by another connection: this one's data version moves, and it asks SQLite again.
      const b = openDb(file);
      b.prepare("UPDATE catalog_objects SET is_deleted = 1 WHERE id = ?").run(variation);
      expect(typesOf(M, [variation, item])).toEqual([null, "ITEM"]);
      a.close();
      b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
