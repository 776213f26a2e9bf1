import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedClock, startService, type TestService } from "../../../test/helpers/service.js";
import { openDb } from "../db.js";
import { layOutDeferred } from "./deferred.js";
import { DEMO } from "./demo-ids.js";
import { seedStore } from "./index.js";

const NOW = new Date("2026-06-15T16:00:00.000Z");

/** The tables of each deferred area. */
const TABLES = {
  drawers: ["cash_drawer_shifts", "cash_drawer_shift_events"],
  payouts: ["payouts", "payout_entries"],
  v1: ["v1_payments", "v1_tenders", "v1_refunds", "v1_settlements", "v1_orders"],
} as const;

/** An area's rows, as one digest: two histories are the same history when these agree. */
function digest(db: ReturnType<typeof openDb>, area: keyof typeof TABLES): { rows: number; digest: string } {
  const h = createHash("sha256");
  let rows = 0;
  for (const table of TABLES[area]) {
    for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()) {
      h.update(`${table}\u0000${JSON.stringify(row)}\n`);
      rows++;
    }
  }
  return { rows, digest: h.digest("hex") };
}

const AREAS = ["drawers", "payouts", "v1"] as const;
const v1Digest = (db: ReturnType<typeof openDb>) => digest(db, "v1");

const deferredRows = (db: ReturnType<typeof openDb>) =>
  db.prepare("SELECT merchant_id, area, as_of FROM deferred_seeds").all() as {
    merchant_id: string;
    area: string;
    as_of: string;
  }[];

describe("a store's history laid out on first use", () => {
  it("is the same history as one laid out with the store, whatever changed in between", () => {
    const eager = openDb(":memory:");
    seedStore(eager, "demo", 1, NOW);
    const deferred = openDb(":memory:");
    seedStore(deferred, "demo", 1, NOW, { defer: true });

    expect(deferredRows(eager)).toEqual([]);
    expect(deferredRows(deferred)).toEqual(
      AREAS.map((area) => ({ merchant_id: DEMO.merchantId, area, as_of: NOW.toISOString() })),
    );
    for (const area of AREAS) expect(digest(deferred, area).rows).toBe(0);

    // Between the start and the first read, the team leaves, the stores' hours are gone and the
    // dock closes: the histories still have the shifts and payments the team took at both stores
    // on the days they opened, as a store laid out at the start has them.
    deferred.prepare("UPDATE team_members SET status = 'INACTIVE' WHERE merchant_id = ?").run(DEMO.merchantId);
    deferred.prepare("UPDATE locations SET data = json_remove(data, '$.business_hours')").run();
    deferred.prepare("UPDATE locations SET status = 'INACTIVE' WHERE id = ?").run(DEMO.secondLocationId);
    for (const area of AREAS) {
      expect(layOutDeferred(deferred, DEMO.merchantId, area)).toBe(true);
      const want = digest(eager, area);
      expect(want.rows).toBeGreaterThan(300);
      expect(digest(deferred, area)).toEqual(want);
      // Laid out once: a second call finds nothing to do and adds nothing.
      expect(layOutDeferred(deferred, DEMO.merchantId, area)).toBe(false);
      expect(digest(deferred, area)).toEqual(want);
    }
    expect(deferredRows(deferred)).toEqual([]);
  });

  it("stays deferred when the transaction that lays it out fails", () => {
    const db = openDb(":memory:");
    seedStore(db, "demo", 1, NOW, { defer: true });
    expect(() =>
      db.transaction(() => {
        layOutDeferred(db, DEMO.merchantId, "v1");
        throw new Error("the request failed after");
      })(),
    ).toThrow("the request failed after");
    expect(deferredRows(db)).toHaveLength(3);
    expect(v1Digest(db).rows).toBe(0);
    expect(layOutDeferred(db, DEMO.merchantId, "v1")).toBe(true);
    expect(v1Digest(db).rows).toBeGreaterThan(1000);
  });
});

describe("the service", () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("starts a demo store without the three histories, and lays each out on its area's first call", async () => {
    t = await startService({ clock: pinnedClock(NOW.getTime()) });
    const db = t.service.db;
    const reference = openDb(":memory:");
    seedStore(reference, "demo", 1, NOW);
    const left = () => deferredRows(db).map((r) => r.area);
    expect(left()).toEqual(["drawers", "payouts", "v1"]);
    // Other areas leave them.
    expect((await t.raw("GET", "/v2/locations")).status).toBe(200);
    expect(left()).toEqual(["drawers", "payouts", "v1"]);

    const firstCalls = [
      ["drawers", `/v2/cash-drawers/shifts?location_id=${DEMO.mainLocationId}`],
      ["payouts", "/v2/payouts"],
      ["v1", "/v1/me/payments?begin_time=2026-06-01T00:00:00Z"],
    ] as const;
    for (const [area, path] of firstCalls) {
      const first = await t.raw("GET", path);
      expect(first.status).toBe(200);
      expect(JSON.stringify(first.json).length).toBeGreaterThan(1000);
      expect(left()).not.toContain(area);
      expect(digest(db, area)).toEqual(digest(reference, area));
    }
    expect(left()).toEqual([]);

    // The emulator's reset lays the store out afresh, and defers the histories again.
    expect((await t.raw("POST", "/_emulator/reset")).status).toBe(200);
    expect(left()).toEqual(["drawers", "payouts", "v1"]);
    for (const area of AREAS) expect(digest(db, area).rows).toBe(0);
  });
});
