import { describe, expect, it } from "vitest";
import { storeWithMerchant } from "../../../test/helpers/service-db.js";
import { formatQuantity } from "../../domain/quantity.js";
import { seededRandom } from "../seed/random.js";
import { toCount } from "./ledger.js";
import { type CountPosition, pageCounts, quantitySql } from "./repo.js";

const M = "MERCHANT";

const store = () => storeWithMerchant(M);

describe("quantitySql", () => {
  it("writes every quantity as formatQuantity does", () => {
    const r = seededRandom(7);
    const edges = [0, 1, -1, 5, 50, 99_999, 100_000, 100_001, -100_000, 30_000, 200_000, -50, 12_345_678, 10 ** 15 - 1];
    const randoms = Array.from({ length: 2000 }, (_, i) => {
      const magnitude = 10 ** Math.floor(r() * 16);
      const units = Math.floor(r() * magnitude);
      return i % 3 === 0 ? -units : units;
    });
    const values = [...edges, ...edges.map((u) => -u), ...randoms];
    const db = store();
    const written = db
      .prepare(`SELECT json_group_array(${quantitySql("value")}) AS q FROM json_each(?)`)
      .pluck()
      .get(JSON.stringify(values)) as string;
    expect(JSON.parse(written)).toEqual(values.map(formatQuantity));
  });
});

describe("pageCounts", () => {
  /** Counts of `n` objects at one location, `sameTime` of them at each calculated_at (a batch's counts share one). */
  function counts(n: number, sameTime: number) {
    const db = store();
    const insert = db.prepare(
      `INSERT INTO inventory_counts (merchant_id, catalog_object_id, catalog_object_type, location_id, state, units, calculated_at)
       VALUES (?, ?, 'ITEM_VARIATION', ?, ?, ?, ?)`,
    );
    for (let i = 0; i < n; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(i / sameTime) * 1000).toISOString();
      insert.run(M, `V${String(i).padStart(4, "0")}`, i % 2 ? "L1" : "L2", i % 5 ? "IN_STOCK" : "WASTE", i * 7, at);
    }
    return db;
  }

  /** Every count in the order the service answers them: newest calculated_at, then newest row, first. */
  const everyCount = (db: ReturnType<typeof store>, where = "1") =>
    (
      db
        .prepare(`SELECT * FROM inventory_counts WHERE ${where} ORDER BY calculated_at DESC, id DESC`)
        .all() as Parameters<typeof toCount>[0][]
    ).map(toCount);

  it("pages through every count once, in order, with ties in calculated_at, whatever the page size", () => {
    const db = counts(23, 4);
    for (const limit of [1, 2, 3, 4, 5, 22, 23, 24, 100]) {
      const seen: unknown[] = [];
      let after: CountPosition | undefined;
      let pages = 0;
      do {
        const page = pageCounts(db, M, {}, after, limit);
        const list = JSON.parse(page.json) as unknown[];
        expect(list.length).toBeLessThanOrEqual(limit);
        seen.push(...list);
        after = page.next;
        pages++;
      } while (after);
      expect(seen).toEqual(everyCount(db));
      // A last page that is exactly full names no next page.
      expect(pages).toBe(Math.max(1, Math.ceil(23 / limit)));
    }
  });

  it("pages through a filter's counts, by object and by location and state", () => {
    const db = counts(40, 3);
    const objects = ["V0001", "V0002", "V0005", "V0010", "V0011", "V0039"];
    for (const [filter, where] of [
      [{ locationIds: ["L1"], states: ["IN_STOCK"] }, "location_id = 'L1' AND state = 'IN_STOCK'"],
      [{ objectIds: objects }, `catalog_object_id IN (${objects.map((o) => `'${o}'`).join(",")})`],
      [
        { states: ["WASTE"], calculatedAfter: "2026-01-01T00:00:03.000Z" },
        "state = 'WASTE' AND calculated_at > '2026-01-01T00:00:03.000Z'",
      ],
    ] as const) {
      const seen: unknown[] = [];
      let after: CountPosition | undefined;
      do {
        const page = pageCounts(db, M, filter, after, 2);
        seen.push(...(JSON.parse(page.json) as unknown[]));
        after = page.next;
      } while (after);
      expect(seen).toEqual(everyCount(db, where));
    }
  });

  it("answers an empty page as an empty array, with no next page", () => {
    const db = counts(5, 1);
    expect(pageCounts(db, M, { states: ["SOLD"] }, undefined, 10)).toEqual({ json: "[]" });
  });
});
