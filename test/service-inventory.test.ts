import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "../src/service/catalog/seed.js";
import { openDb } from "../src/service/db.js";
import { seedDirectory } from "../src/service/directory/seed.js";
import type { ServiceEvent } from "../src/service/events.js";
import { seededIds } from "../src/service/ids.js";
import { countsOfPairs, replayedUnits } from "../src/service/inventory/reads.js";
import { seedInventory } from "../src/service/inventory/seed.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { rng } from "../src/service/seed/random.js";
import type { CatalogObject, InventoryChange, InventoryCount, InventoryState } from "../src/spec/generated/types.js";
import { failure, startService, type TestService } from "./helpers/service.js";

const MAIN = DEMO.mainLocationId;
const DOCK = DEMO.secondLocationId;
const DAY = 86_400_000;

let t: TestService;
const events: ServiceEvent[] = [];
let variations: CatalogObject[];
let nextVariation = 0;
/** A variation no other test touches. */
const fresh = () => {
  const v = variations[nextVariation++];
  if (!v) throw new Error("out of variations");
  return v.id;
};
/** Service time when the tests began: changes received after it are the tests' own, not the seed's. */
let since: string;
let keyNo = 0;
const key = () => `inv-test-${process.pid}-${keyNo++}`;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

beforeAll(async () => {
  t = await startService({ events: { publish: (list) => events.push(...list) } });
  variations = await t.client.catalog.listCatalog({ types: "ITEM_VARIATION" }).all();
  since = t.service.clock.now().toISOString();
});
afterAll(() => t.close());

const count = (
  objectId: string,
  locationId: string,
  state: string,
  quantity: string,
  occurredAt: string,
): InventoryChange => ({
  type: "PHYSICAL_COUNT",
  physical_count: {
    catalog_object_id: objectId,
    location_id: locationId,
    state: state as InventoryState,
    quantity,
    occurred_at: occurredAt,
  },
});
const adjust = (
  objectId: string,
  from: InventoryState,
  to: InventoryState,
  quantity: string,
  occurredAt: string,
  locationId: string = MAIN,
): InventoryChange => ({
  type: "ADJUSTMENT",
  adjustment: {
    catalog_object_id: objectId,
    location_id: locationId,
    from_state: from,
    to_state: to,
    quantity,
    occurred_at: occurredAt,
  },
});
const transfer = (
  objectId: string,
  quantity: string,
  occurredAt: string,
  from: string = MAIN,
  to: string = DOCK,
): InventoryChange => ({
  type: "TRANSFER",
  transfer: {
    catalog_object_id: objectId,
    from_location_id: from,
    to_location_id: to,
    state: "IN_STOCK",
    quantity,
    occurred_at: occurredAt,
  },
});

const change = (changes: InventoryChange[], extra: { ignore_unchanged_counts?: boolean } = {}) =>
  t.client.inventory.batchChangeInventory({ idempotency_key: key(), changes, ...extra });

const quantityOf = async (objectId: string, locationId: string = MAIN, state = "IN_STOCK") => {
  const r = await t.client.inventory.retrieveInventoryCount(objectId, { location_ids: locationId });
  return r.counts?.find((c) => c.state === state)?.quantity;
};

const historyOf = (objectId: string) =>
  t.client.inventory
    .batchRetrieveInventoryChanges({
      catalog_object_ids: [objectId],
      types: ["PHYSICAL_COUNT", "ADJUSTMENT", "TRANSFER"],
      updated_after: since,
    })
    .all();

describe("inventory: the demo stock", () => {
  it("has an in-stock count for every variation at both locations, and a month of history", async () => {
    const counts = await t.client.inventory.batchRetrieveInventoryCounts({ states: ["IN_STOCK"], limit: 1000 }).all();
    const keys = new Set(counts.map((c) => `${c.catalog_object_id}/${c.location_id}`));
    for (const v of variations) {
      expect(keys.has(`${v.id}/${MAIN}`)).toBe(true);
      expect(keys.has(`${v.id}/${DOCK}`)).toBe(true);
    }
    const changes = await t.client.inventory
      .batchRetrieveInventoryChanges({ types: ["PHYSICAL_COUNT", "ADJUSTMENT", "TRANSFER"], limit: 1000 })
      .all();
    const kinds = new Set(
      changes.map((c) =>
        c.type === "ADJUSTMENT" ? `${c.adjustment?.from_state}>${c.adjustment?.to_state}` : (c.type ?? ""),
      ),
    );
    for (const k of ["PHYSICAL_COUNT", "IN_STOCK>SOLD", "IN_STOCK>WASTE", "TRANSFER"]) expect(kinds.has(k)).toBe(true);
    const sold = changes.find((c) => c.adjustment?.to_state === "SOLD");
    expect(sold?.adjustment?.total_price_money?.currency).toBe("USD");
    const oldest = Date.parse(changes[0]?.physical_count?.occurred_at ?? changes[0]?.adjustment?.occurred_at ?? "");
    expect(Date.now() - oldest).toBeGreaterThan(29 * DAY);
  });

  it("keeps every seeded count equal to its history replayed", async () => {
    const counts = await t.client.inventory.batchRetrieveInventoryCounts({ limit: 1000 }).all();
    for (const c of counts.slice(0, 200)) {
      const units = replayedUnits(t.service.db, {
        merchantId: DEMO.merchantId,
        objectId: c.catalog_object_id!,
        locationId: c.location_id!,
        state: c.state!,
      });
      expect(units, JSON.stringify(c)).toBe(Math.round(Number(c.quantity) * 100_000));
    }
  });
});

describe("inventory: the demo seed", () => {
  /** The catalog and stock a seed lays out, as rows, at a given scale. */
  const layout = (scale: number) => {
    const db = openDb(":memory:");
    const random = rng(7);
    const s = {
      db,
      rng: random,
      ids: seededIds(random),
      now: new Date("2026-03-01T12:00:00Z"),
      scale,
      merchantId: DEMO.merchantId,
    };
    db.prepare(
      "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES (?, 'x', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
    ).run(DEMO.merchantId);
    seedDirectory(s);
    seedCatalog(s);
    seedInventory(s);
    const rows = {
      catalog: db.prepare("SELECT id, data FROM catalog_objects ORDER BY seq").all(),
      changes: db.prepare("SELECT entries FROM inventory_log ORDER BY seq").all(),
      counts: countsOfPairs(
        db,
        DEMO.merchantId,
        (
          db.prepare("SELECT id FROM catalog_objects WHERE type = 'ITEM_VARIATION' ORDER BY seq").all() as {
            id: string;
          }[]
        ).flatMap((v) =>
          [DEMO.mainLocationId, DEMO.secondLocationId].map((locationId) => ({ objectId: v.id, locationId })),
        ),
      ).map((c) => [c.id, c.objectId, c.locationId, c.state, c.units, c.anchorMs, c.anchorOrder, c.calculatedMs]),
      variations: (
        db.prepare("SELECT COUNT(*) AS n FROM catalog_objects WHERE type = 'ITEM_VARIATION'").get() as { n: number }
      ).n,
    };
    db.close();
    return rows;
  };

  it("is the same store every time", () => {
    expect(layout(1)).toEqual(layout(1));
  });

  it("grows with scale: N lots of variations, each counted at both locations", () => {
    const one = layout(1);
    const three = layout(3);
    expect(three.variations).toBe(3 * one.variations);
    expect(three.counts.length).toBeGreaterThanOrEqual(3 * 2 * one.variations);
  });
});

describe("inventory: counts from the history", () => {
  it("keeps quantities exact: 0.1 + 0.2 = 0.3", async () => {
    const v = fresh();
    await change([count(v, MAIN, "IN_STOCK", "0.1", ago(60_000))]);
    const r = await change([adjust(v, "NONE", "IN_STOCK", "0.2", ago(30_000))]);
    expect(r.counts?.find((c) => c.location_id === MAIN && c.state === "IN_STOCK")?.quantity).toBe("0.3");
    await change([adjust(v, "IN_STOCK", "SOLD", "0.00001", ago(20_000))]);
    expect(await quantityOf(v)).toBe("0.29999");
  });

  it("moves quantity between states: a sale lowers in-stock, waste becomes its own count", async () => {
    const v = fresh();
    await change([count(v, MAIN, "IN_STOCK", "10", ago(60_000))]);
    const r = await change([
      adjust(v, "IN_STOCK", "SOLD", "3", ago(50_000)),
      adjust(v, "IN_STOCK", "WASTE", "1", ago(40_000)),
    ]);
    const at = (state: string) => r.counts?.find((c) => c.location_id === MAIN && c.state === state)?.quantity;
    expect(at("IN_STOCK")).toBe("6");
    expect(at("WASTE")).toBe("1");
    // SOLD is not a tracked state: quantity sold leaves the counts.
    expect(at("SOLD")).toBeUndefined();
  });

  it("applies changes that arrive out of order by when they happened", async () => {
    const v = fresh();
    const t0 = Date.now() - 10 * 60_000;
    const at = (min: number) => new Date(t0 + min * 60_000).toISOString();
    await change([count(v, MAIN, "IN_STOCK", "10", at(0))]);
    await change([adjust(v, "IN_STOCK", "SOLD", "3", at(4))]);
    expect(await quantityOf(v)).toBe("7");
    // A sale that happened before the last one, but after the count, still counts.
    await change([adjust(v, "IN_STOCK", "SOLD", "2", at(2))]);
    expect(await quantityOf(v)).toBe("5");
    // A sale from before the count is already in the counted quantity.
    await change([adjust(v, "IN_STOCK", "SOLD", "4", at(-1))]);
    expect(await quantityOf(v)).toBe("5");
    // A recount between the two sales replaces what came before it; the later sale still applies.
    await change([count(v, MAIN, "IN_STOCK", "20", at(3))]);
    expect(await quantityOf(v)).toBe("17");
    // An older count never overrides a newer one.
    await change([count(v, MAIN, "IN_STOCK", "100", at(1))]);
    expect(await quantityOf(v)).toBe("17");
    const history = await historyOf(v);
    expect(history).toHaveLength(6);
    const when = history.map((c) => c.physical_count?.occurred_at ?? c.adjustment?.occurred_at ?? "");
    expect([...when].sort()).toEqual(when);
    expect(
      replayedUnits(t.service.db, { merchantId: DEMO.merchantId, objectId: v, locationId: MAIN, state: "IN_STOCK" }),
    ).toBe(1_700_000);
  });

  it("orders changes at the same instant by arrival", async () => {
    const v = fresh();
    const same = ago(60_000);
    await change([count(v, MAIN, "IN_STOCK", "10", same), adjust(v, "IN_STOCK", "SOLD", "1", same)]);
    expect(await quantityOf(v)).toBe("9");
    await change([count(v, MAIN, "IN_STOCK", "4", same)]);
    expect(await quantityOf(v)).toBe("4");
  });

  it("transfers move quantity between locations", async () => {
    const v = fresh();
    await change([count(v, MAIN, "IN_STOCK", "8", ago(60_000)), count(v, DOCK, "IN_STOCK", "1", ago(60_000))]);
    const r = await change([transfer(v, "2.5", ago(30_000))]);
    const at = (loc: string) => r.counts?.find((c) => c.location_id === loc && c.state === "IN_STOCK")?.quantity;
    expect(at(MAIN)).toBe("5.5");
    expect(at(DOCK)).toBe("3.5");
    expect(r.changes?.[0]?.transfer).toMatchObject({ from_location_id: MAIN, to_location_id: DOCK, quantity: "2.5" });
  });

  it("answers the counts of every object and location named, and the changes recorded", async () => {
    const [a, b] = [fresh(), fresh()];
    const r = await change([count(a, MAIN, "IN_STOCK", "3", ago(5000)), count(b, DOCK, "IN_STOCK", "4", ago(5000))]);
    // The seed may have left other states (waste) of the same keys; in stock is what was counted.
    const inStock = r.counts?.filter((c) => c.state === "IN_STOCK");
    expect(
      r.counts?.every((c) => [`${a}/${MAIN}`, `${b}/${DOCK}`].includes(`${c.catalog_object_id}/${c.location_id}`)),
    ).toBe(true);
    expect(inStock?.map((c) => [c.catalog_object_id, c.location_id, c.state, c.quantity])).toEqual([
      [a, MAIN, "IN_STOCK", "3"],
      [b, DOCK, "IN_STOCK", "4"],
    ]);
    expect(r.counts?.[0]).toMatchObject({ catalog_object_type: "ITEM_VARIATION", is_estimated: false });
    expect(r.changes).toHaveLength(2);
    const pc = r.changes?.[0]?.physical_count;
    expect(pc?.id).toBeTruthy();
    expect(pc?.created_at).toBeTruthy();
    expect(pc?.quantity).toBe("3");
  });
});

describe("inventory: batch change rules", () => {
  it("is all or nothing: one bad change refuses the whole batch, naming it", async () => {
    const v = fresh();
    await change([count(v, MAIN, "IN_STOCK", "10", ago(60_000))]);
    const before = await historyOf(v);
    const dockBefore = await quantityOf(v, DOCK);
    const err = await failure(
      change([
        count(v, MAIN, "IN_STOCK", "50", ago(50_000)),
        adjust(v, "IN_STOCK", "SOLD", "1", ago(40_000)),
        transfer(v, "1", ago(30_000)),
        adjust(v, "IN_STOCK", "SOLD", "-2", ago(20_000)),
      ]),
    );
    expect(err.status).toBe(400);
    expect(err.code).toBe("INVALID_VALUE");
    expect(err.errors[0]?.field).toBe("changes[3].adjustment.quantity");
    expect(await quantityOf(v)).toBe("10");
    expect(await quantityOf(v, DOCK)).toBe(dockBefore);
    expect(await historyOf(v)).toEqual(before);
  });

  it("refuses more than 100 changes per request, and takes exactly 100", async () => {
    const v = fresh();
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => adjust(v, "NONE", "IN_STOCK", "1", ago(100_000 - i * 10)));
    const err = await failure(change(many(101)));
    expect(err.code).toBe("ARRAY_LENGTH_TOO_LONG");
    expect(err.errors[0]?.field).toBe("changes");
    const before = Number(await quantityOf(v));
    const ok = await change(many(100));
    expect(ok.changes).toHaveLength(100);
    expect(Number(await quantityOf(v))).toBe(before + 100);
  });

  it("does not record a physical count equal to the current count, unless asked to", async () => {
    const v = fresh();
    await change([count(v, MAIN, "IN_STOCK", "12", ago(60_000))]);
    const same = await change([count(v, MAIN, "IN_STOCK", "12.00", ago(30_000))]);
    expect(same.changes).toEqual([]);
    expect(same.counts?.[0]?.quantity).toBe("12");
    expect(await historyOf(v)).toHaveLength(1);
    const kept = await change([count(v, MAIN, "IN_STOCK", "12", ago(20_000))], { ignore_unchanged_counts: false });
    expect(kept.changes).toHaveLength(1);
    expect(await historyOf(v)).toHaveLength(2);
  });

  it("checks each change: object, location, quantity, states and time", async () => {
    const v = fresh();
    const item = variations[0]!.item_variation_data!.item_id!;
    const cases: [any, string, string][] = [
      [count("NOPE", MAIN, "IN_STOCK", "1", ago(1000)), "INVALID_VALUE", "changes[0].physical_count.catalog_object_id"],
      [count(item, MAIN, "IN_STOCK", "1", ago(1000)), "INVALID_VALUE", "changes[0].physical_count.catalog_object_id"],
      [count(v, "LNOWHERE", "IN_STOCK", "1", ago(1000)), "INVALID_VALUE", "changes[0].physical_count.location_id"],
      [count(v, MAIN, "IN_STOCK", "1.234567", ago(1000)), "INVALID_VALUE", "changes[0].physical_count.quantity"],
      [count(v, MAIN, "IN_STOCK", "ten", ago(1000)), "INVALID_VALUE", "changes[0].physical_count.quantity"],
      [count(v, MAIN, "SOLD", "1", ago(1000)), "INVALID_VALUE", "changes[0].physical_count.state"],
      [count(v, MAIN, "IN_STOCK", "1", "yesterday"), "INVALID_TIME", "changes[0].physical_count.occurred_at"],
      [
        count(v, MAIN, "IN_STOCK", "1", new Date(Date.now() + DAY).toISOString()),
        "INVALID_VALUE",
        "changes[0].physical_count.occurred_at",
      ],
      [
        {
          type: "PHYSICAL_COUNT",
          physical_count: { catalog_object_id: v, location_id: MAIN, state: "IN_STOCK", quantity: "1" },
        },
        "MISSING_REQUIRED_PARAMETER",
        "changes[0].physical_count.occurred_at",
      ],
      [{ type: "ADJUSTMENT" }, "MISSING_REQUIRED_PARAMETER", "changes[0].adjustment"],
      [adjust(v, "IN_STOCK", "IN_STOCK", "1", ago(1000)), "INVALID_VALUE", "changes[0].adjustment.to_state"],
      [transfer(v, "1", ago(1000), MAIN, MAIN), "INVALID_VALUE", "changes[0].transfer.to_location_id"],
    ];
    for (const [bad, code, field] of cases) {
      const err = await failure(change([bad]));
      expect([err.code, err.errors[0]?.field], JSON.stringify(bad)).toEqual([code, field]);
    }
  });

  it("requires an idempotency key, and replays the first answer for the same key", async () => {
    const v = fresh();
    const missing = await t.raw("POST", "/v2/inventory/changes/batch-create", {
      body: { changes: [count(v, MAIN, "IN_STOCK", "5", ago(1000))] },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.errors[0].field).toBe("idempotency_key");
    const body = {
      idempotency_key: key(),
      changes: [adjust(v, "NONE", "IN_STOCK", "5", ago(1000))],
    };
    const first = await t.client.inventory.batchChangeInventory(body);
    const again = await t.client.inventory.batchChangeInventory(body);
    expect(again).toEqual(first);
    expect(await historyOf(v)).toHaveLength(1);
    const reused = await failure(
      t.client.inventory.batchChangeInventory({ ...body, changes: [adjust(v, "NONE", "IN_STOCK", "6", ago(1000))] }),
    );
    expect(reused.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("replays a batch's answer word for word after its counts have moved on, from a short note", async () => {
    const [v, w] = [fresh(), fresh()];
    await change([count(w, MAIN, "IN_STOCK", "4", ago(5000))]);
    const labelled = count(v, MAIN, "IN_STOCK", "9", ago(3000));
    const body = JSON.stringify({
      idempotency_key: key(),
      changes: [
        { ...labelled, physical_count: { ...labelled.physical_count, reference_id: 'shelf "B"' } },
        transfer(v, "2", ago(2000)),
        adjust(v, "IN_STOCK", "WASTE", "1", ago(1000)),
        // Unchanged: not recorded, yet its count is answered.
        count(w, MAIN, "IN_STOCK", "4", ago(1000)),
      ],
    });
    const send = async () => {
      const res = await fetch(`${t.url}/v2/inventory/changes/batch-create`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.service.accessToken}`, "content-type": "application/json" },
        body,
      });
      return [res.status, await res.text()] as const;
    };
    const first = await send();
    await change([count(v, MAIN, "IN_STOCK", "30", ago(500)), count(w, DOCK, "IN_STOCK", "1", ago(500))]);
    expect(await send()).toEqual(first);
    const answer = JSON.parse(first[1]);
    expect(answer.changes).toHaveLength(3);
    const answered = answer.counts.map((c: InventoryCount) => [
      c.catalog_object_id,
      c.location_id,
      c.state,
      c.quantity,
    ]);
    expect(answered.map((c: string[]) => c.slice(0, 3))).toEqual([
      [v, MAIN, "IN_STOCK"],
      [v, MAIN, "WASTE"],
      [v, DOCK, "IN_STOCK"],
      [w, MAIN, "IN_STOCK"],
    ]);
    expect([answered[0][3], answered[3][3]]).toEqual(["6", "4"]);
    const record = t.service.db
      .prepare("SELECT response, kept FROM idempotency WHERE key = ?")
      .get(JSON.parse(body).idempotency_key) as { response: string; kept: string };
    expect(record.response).toBe("");
    expect(record.kept.length).toBeLessThan(first[1].length / 3);
  });

  it("takes the same body sent with other key order and white space as the same request", async () => {
    const v = fresh();
    const idempotencyKey = key();
    const sub = { catalog_object_id: v, location_id: MAIN, state: "IN_STOCK", quantity: "9", occurred_at: ago(1000) };
    const first = await t.raw("POST", "/v2/inventory/changes/batch-create", {
      body: `{"idempotency_key":${JSON.stringify(idempotencyKey)},"changes":[{"type":"PHYSICAL_COUNT","physical_count":${JSON.stringify(sub)}}]}`,
    });
    const reordered = Object.fromEntries(Object.entries(sub).reverse());
    const again = await t.raw("POST", "/v2/inventory/changes/batch-create", {
      body: `{ "changes" : [ { "physical_count" : ${JSON.stringify(reordered, null, 2)}, "type" : "PHYSICAL_COUNT" } ],\n "idempotency_key" : ${JSON.stringify(idempotencyKey)} }`,
    });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.json).toEqual(first.json);
    expect(await historyOf(v)).toHaveLength(1);
  });

  it("emits inventory.count.updated for the counts that changed", async () => {
    const v = fresh();
    events.length = 0;
    await change([count(v, MAIN, "IN_STOCK", "7", ago(2000)), transfer(v, "2", ago(1000))]);
    const updated = events.filter((e) => e.type === "inventory.count.updated");
    expect(updated.map((e) => e.locationId).sort()).toEqual([MAIN, DOCK].sort());
    const main = updated.find((e) => e.locationId === MAIN);
    expect(main?.dataType).toBe("inventory_counts");
    const counts = (main?.object as { inventory_counts: InventoryCount[] } | undefined)?.inventory_counts ?? [];
    expect(counts.map((c) => [c.catalog_object_id, c.state, c.quantity])).toEqual([[v, "IN_STOCK", "5"]]);
    events.length = 0;
    await change([count(v, MAIN, "IN_STOCK", "5", ago(500))]);
    expect(events.filter((e) => e.type === "inventory.count.updated")).toEqual([]);
  });

  it("takes the same batch at the deprecated path", async () => {
    const v = fresh();
    const r = await t.client.inventory.deprecatedBatchChangeInventory({
      idempotency_key: key(),
      changes: [count(v, DOCK, "IN_STOCK", "33", ago(1000))],
    });
    expect(r.counts?.[0]?.quantity).toBe("33");
    expect(await quantityOf(v, DOCK)).toBe("33");
  });
});

describe("inventory: retrieving changes", () => {
  let v: string;
  let ids: { pc: string; adj: string; xfer: string; sale: string };
  beforeAll(async () => {
    v = fresh();
    const r = await change([
      count(v, MAIN, "IN_STOCK", "30", ago(5 * 60_000)),
      adjust(v, "IN_STOCK", "WASTE", "2", ago(3 * 60_000)),
      transfer(v, "4", ago(4 * 60_000)),
      adjust(v, "IN_STOCK", "SOLD", "1", ago(2 * 60_000), DOCK),
    ]);
    const c = r.changes ?? [];
    ids = {
      pc: c[0]!.physical_count!.id!,
      adj: c[1]!.adjustment!.id!,
      xfer: c[2]!.transfer!.id!,
      sale: c[3]!.adjustment!.id!,
    };
  });

  const of = (changes: InventoryChange[]) =>
    changes.map((c) => c.physical_count?.id ?? c.adjustment?.id ?? c.transfer?.id);

  it("returns counts and adjustments by default, sorted by occurred_at ascending; transfers when asked", async () => {
    const dflt = await t.client.inventory
      .batchRetrieveInventoryChanges({ catalog_object_ids: [v], updated_after: since })
      .all();
    expect(dflt.map((c) => c.type)).toEqual(["PHYSICAL_COUNT", "ADJUSTMENT", "ADJUSTMENT"]);
    const all = await historyOf(v);
    expect(all.map((c) => c.type)).toEqual(["PHYSICAL_COUNT", "TRANSFER", "ADJUSTMENT", "ADJUSTMENT"]);
    const xfers = await t.client.inventory.batchRetrieveInventoryChanges({
      catalog_object_ids: [v],
      types: ["TRANSFER"],
      updated_after: since,
    });
    expect(of(xfers.changes ?? [])).toEqual([ids.xfer]);
  });

  it("filters by location (either end of a transfer) and by state", async () => {
    const dock = await t.client.inventory
      .batchRetrieveInventoryChanges({
        catalog_object_ids: [v],
        location_ids: [DOCK],
        types: ["ADJUSTMENT", "TRANSFER"],
        updated_after: since,
      })
      .all();
    expect(dock.map((c) => c.type)).toEqual(["TRANSFER", "ADJUSTMENT"]);
    const waste = await t.client.inventory.batchRetrieveInventoryChanges({
      catalog_object_ids: [v],
      states: ["WASTE"],
      updated_after: since,
    });
    expect(of(waste.changes ?? [])).toEqual([ids.adj]);
  });

  it("filters by server receipt time with updated_after / updated_before", async () => {
    const w = fresh();
    const first = await change([count(w, MAIN, "IN_STOCK", "1", ago(DAY))]);
    const between = first.changes![0]!.physical_count!.created_at!;
    t.advance(5);
    // Happened long ago, but received now: updated_after still finds it.
    await change([adjust(w, "IN_STOCK", "SOLD", "1", ago(2 * DAY))]);
    const after = await t.client.inventory.batchRetrieveInventoryChanges({
      catalog_object_ids: [w],
      updated_after: between,
    });
    expect(after.changes?.map((c) => c.type)).toEqual(["ADJUSTMENT"]);
    const before = await t.client.inventory.batchRetrieveInventoryChanges({
      catalog_object_ids: [w],
      updated_after: since,
      updated_before: new Date(Date.parse(between) + 1000).toISOString(),
    });
    expect(before.changes?.map((c) => c.type)).toEqual(["PHYSICAL_COUNT"]);
    const bad = await failure(t.client.inventory.batchRetrieveInventoryChanges({ updated_after: "last week" }));
    expect([bad.code, bad.errors[0]?.field]).toEqual(["INVALID_TIME", "updated_after"]);
  });

  it("pages with a cursor through the whole history without repeats, limit 1–1000", async () => {
    const all = await t.client.inventory.batchRetrieveInventoryChanges({ limit: 1000 }).all();
    const paged: InventoryChange[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await t.client.inventory.batchRetrieveInventoryChanges({
        limit: 700,
        ...(cursor ? { cursor } : {}),
      });
      paged.push(...(page.changes ?? []));
      cursor = page.cursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(of(paged)).toEqual(of(all));
    expect(new Set(of(paged)).size).toBe(paged.length);
    const times = all.map((c) => c.physical_count?.occurred_at ?? c.adjustment?.occurred_at ?? "");
    expect([...times].sort()).toEqual(times);
    for (const limit of [0, 1001]) {
      const err = await failure(t.client.inventory.batchRetrieveInventoryChanges({ limit }));
      expect(err.code).toBe(limit === 0 ? "VALUE_TOO_LOW" : "VALUE_TOO_HIGH");
    }
  });

  it("the deprecated per-object listing is the batch call for one object, newest first", async () => {
    const batch = await t.client.inventory.batchRetrieveInventoryChanges({ catalog_object_ids: [v] }).all();
    const old = await t.client.inventory.retrieveInventoryChanges(v).all();
    expect(of(old)).toEqual(of(batch).reverse());
    const dock = await t.client.inventory.retrieveInventoryChanges(v, { location_ids: DOCK }).all();
    const dockBatch = await t.client.inventory
      .batchRetrieveInventoryChanges({ catalog_object_ids: [v], location_ids: [DOCK] })
      .all();
    expect(of(dock)).toEqual(of(dockBatch).reverse());
    expect(of(dock)[0]).toBe(ids.sale);
    const viaOldPath = await t.client.inventory
      .deprecatedBatchRetrieveInventoryChanges({ catalog_object_ids: [v] })
      .all();
    expect(of(viaOldPath)).toEqual(of(batch));
  });

  it("retrieves each kind by id, at the current and the deprecated paths", async () => {
    const pc = await t.client.inventory.retrieveInventoryPhysicalCount(ids.pc);
    expect(pc.count).toMatchObject({ id: ids.pc, quantity: "30", state: "IN_STOCK", location_id: MAIN });
    const pcOld = await t.client.inventory.deprecatedRetrieveInventoryPhysicalCount(ids.pc);
    expect(pcOld).toEqual(pc);
    const adj = await t.client.inventory.retrieveInventoryAdjustment(ids.adj);
    expect(adj.adjustment).toMatchObject({ id: ids.adj, from_state: "IN_STOCK", to_state: "WASTE", quantity: "2" });
    const adjOld = await t.client.inventory.deprecatedRetrieveInventoryAdjustment(ids.adj);
    expect(adjOld).toEqual(adj);
    const xfer = await t.client.inventory.retrieveInventoryTransfer(ids.xfer);
    expect(xfer.transfer).toMatchObject({ id: ids.xfer, from_location_id: MAIN, to_location_id: DOCK });
    // An id of another kind is not found.
    const wrong = await failure(t.client.inventory.retrieveInventoryAdjustment(ids.pc));
    expect([wrong.status, wrong.code]).toEqual([404, "NOT_FOUND"]);
    const missing = await failure(t.client.inventory.retrieveInventoryTransfer("NOPE"));
    expect(missing.status).toBe(404);
  });
});

describe("inventory: retrieving counts", () => {
  it("filters by objects, locations and states", async () => {
    const [a, b] = [variations[200]!.id, variations[201]!.id];
    const r = await t.client.inventory.batchRetrieveInventoryCounts({
      catalog_object_ids: [a, b],
      location_ids: [DOCK],
      states: ["IN_STOCK"],
    });
    expect(r.counts?.map((c) => c.catalog_object_id).sort()).toEqual([a, b].sort());
    expect(r.counts?.every((c) => c.location_id === DOCK && c.state === "IN_STOCK")).toBe(true);
    const sold = await t.client.inventory.batchRetrieveInventoryCounts({ catalog_object_ids: [a], states: ["SOLD"] });
    expect(sold.counts).toEqual([]);
  });

  it("sorts by calculated_at, newest first, and pages through every count once", async () => {
    const all = await t.client.inventory.batchRetrieveInventoryCounts({ limit: 1000 }).all();
    expect(all.length).toBeGreaterThan(variations.length * 2);
    const stamps = all.map((c) => c.calculated_at ?? "");
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const paged: InventoryCount[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.client.inventory.batchRetrieveInventoryCounts({ limit: 300, ...(cursor ? { cursor } : {}) });
      paged.push(...(page.counts ?? []));
      cursor = page.cursor;
    } while (cursor);
    const id = (c: InventoryCount) => `${c.catalog_object_id}/${c.location_id}/${c.state}`;
    expect(paged.map(id)).toEqual(all.map(id));
    expect(new Set(paged.map(id)).size).toBe(paged.length);
    const err = await failure(t.client.inventory.batchRetrieveInventoryCounts({ limit: 1001 }));
    expect(err.code).toBe("VALUE_TOO_HIGH");
    const other = await failure(
      t.client.inventory.batchRetrieveInventoryCounts({
        states: ["WASTE"],
        cursor: (await t.client.inventory.batchRetrieveInventoryCounts({ limit: 1 })).cursor!,
      }),
    );
    expect(other.code).toBe("INVALID_CURSOR");
  });

  it("updated_after is on calculated_at (when the service received the change), not occurred_at", async () => {
    const v = fresh();
    t.advance(5);
    const since = t.service.clock.now().toISOString();
    t.advance(1);
    // Counted an hour ago (after anything the seed laid out), received now.
    await change([count(v, DOCK, "IN_STOCK", "9", ago(3_600_000))]);
    const r = await t.client.inventory.batchRetrieveInventoryCounts({ updated_after: since }).all();
    expect(r.map((c) => [c.catalog_object_id, c.location_id, c.quantity])).toEqual([[v, DOCK, "9"]]);
    expect(Date.parse(r[0]!.calculated_at!)).toBeGreaterThan(Date.parse(since));
    const viaOldPath = await t.client.inventory.deprecatedBatchRetrieveInventoryCounts({ updated_after: since }).all();
    expect(viaOldPath).toEqual(r);
  });

  it("retrieves one object's counts at some locations (comma-separated) or all", async () => {
    const v = variations[250]!.id;
    const all = await t.client.inventory.retrieveInventoryCount(v);
    expect(new Set(all.counts?.map((c) => c.location_id))).toEqual(new Set([MAIN, DOCK]));
    const both = await t.client.inventory.retrieveInventoryCount(v, { location_ids: `${MAIN},${DOCK}` });
    expect(both.counts?.length).toBe(all.counts?.length);
    const one = await t.client.inventory.retrieveInventoryCount(v, { location_ids: DOCK });
    expect(one.counts?.every((c) => c.location_id === DOCK)).toBe(true);
    expect(one.counts?.length).toBeGreaterThan(0);
    const none = await t.client.inventory.retrieveInventoryCount("NOPE");
    expect(none.counts).toEqual([]);
  });
});
