import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedClock, startService, type TestService } from "../../../test/helpers/service.js";
import { openDb } from "../db.js";
import { layOutDeferred } from "./deferred.js";
import { DEMO } from "./demo-ids.js";
import { seedStore } from "./index.js";

const NOW = new Date("2026-06-15T16:00:00.000Z");

/** Every V1 table's rows, as one digest: two histories are the same history when these agree. */
function v1Digest(db: ReturnType<typeof openDb>): { payments: number; digest: string } {
  const h = createHash("sha256");
  let payments = 0;
  for (const table of ["v1_payments", "v1_tenders", "v1_refunds", "v1_settlements", "v1_orders"]) {
    for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()) {
      h.update(`${table}\u0000${JSON.stringify(row)}\n`);
      if (table === "v1_payments") payments++;
    }
  }
  return { payments, digest: h.digest("hex") };
}

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
    expect(deferredRows(deferred)).toEqual([{ merchant_id: DEMO.merchantId, area: "v1", as_of: NOW.toISOString() }]);
    expect(v1Digest(deferred).payments).toBe(0);

    // Between the start and the first read, a team member leaves: the history still has the
    // payments they took, as a store laid out at the start has them.
    deferred.prepare("UPDATE team_members SET status = 'INACTIVE' WHERE merchant_id = ?").run(DEMO.merchantId);
    expect(layOutDeferred(deferred, DEMO.merchantId, "v1")).toBe(true);

    const want = v1Digest(eager);
    expect(want.payments).toBeGreaterThan(1000);
    expect(v1Digest(deferred)).toEqual(want);
    expect(deferredRows(deferred)).toEqual([]);
    // Laid out once: a second call finds nothing to do and adds nothing.
    expect(layOutDeferred(deferred, DEMO.merchantId, "v1")).toBe(false);
    expect(v1Digest(deferred)).toEqual(want);
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
    expect(deferredRows(db)).toHaveLength(1);
    expect(v1Digest(db).payments).toBe(0);
    expect(layOutDeferred(db, DEMO.merchantId, "v1")).toBe(true);
    expect(v1Digest(db).payments).toBeGreaterThan(1000);
  });
});

describe("the service", () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("starts a demo store without its V1 history, and answers the first V1 call with all of it", async () => {
    t = await startService({ clock: pinnedClock(NOW.getTime()) });
    const db = t.service.db;
    expect(v1Digest(db).payments).toBe(0);
    // Other areas leave it.
    expect((await t.raw("GET", "/v2/locations")).status).toBe(200);
    expect(deferredRows(db)).toHaveLength(1);

    const first = await t.raw("GET", "/v1/me/payments?begin_time=2026-06-01T00:00:00Z");
    expect(first.status).toBe(200);
    expect(first.json.length).toBeGreaterThan(0);
    expect(deferredRows(db)).toEqual([]);
    const reference = openDb(":memory:");
    seedStore(reference, "demo", 1, NOW);
    expect(v1Digest(db)).toEqual(v1Digest(reference));

    // The emulator's reset lays the store out afresh, and defers the history again.
    expect((await t.raw("POST", "/_emulator/reset")).status).toBe(200);
    expect(deferredRows(db)).toHaveLength(1);
    expect(v1Digest(db).payments).toBe(0);
  });
});
