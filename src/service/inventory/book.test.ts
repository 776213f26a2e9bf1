import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { storeWithMerchant } from "../../../test/helpers/service-db.js";
import { type Db, openDb } from "../db.js";
import { seededRandom } from "../seed/random.js";
import { bookOf } from "./book.js";
import type { PlannedChange } from "./changes.js";
import type { CountRec } from "./ledger.js";
import { countOf, countsOfPairs, pageChanges, pageCounts, replayedUnits, wireChange, wireCount } from "./reads.js";
import { recordBatch } from "./repo.js";

const M = "MERCHANT";
const OBJECT = "VARIATION";
const LOCATIONS = ["L1", "L2"];
const STATES = ["IN_STOCK", "WASTE", "SOLD", "NONE"];

const store = () => storeWithMerchant(M);

/** A random change at a random moment of one day, so that most arrive out of order. */
function randomChange(r: () => number, objectId = OBJECT): PlannedChange {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const occurredAt = new Date(Date.UTC(2024, 0, 1) + Math.floor(r() * 24) * 3_600_000).toISOString();
  const units = Math.floor(r() * 2_000_000);
  const locationId = pick(LOCATIONS);
  const kind = r();
  if (kind < 0.3) {
    const state = pick(["IN_STOCK", "WASTE"]);
    return { type: "PHYSICAL_COUNT", objectId, locationId, state, units, occurredAt, extras: null };
  }
  if (kind < 0.8) {
    const from = pick(STATES);
    const to = pick(STATES.filter((s) => s !== from));
    return { type: "ADJUSTMENT", objectId, locationId, state: from, toState: to, units, occurredAt, extras: null };
  }
  const toLocationId = LOCATIONS.find((l) => l !== locationId) ?? "";
  return { type: "TRANSFER", objectId, locationId, toLocationId, state: "IN_STOCK", units, occurredAt, extras: null };
}

/** A physical count of OBJECT at L1 in stock, at an hour of 2024-01-01. */
const inStock = (units: number, hour = 0): PlannedChange => ({
  type: "PHYSICAL_COUNT",
  objectId: OBJECT,
  locationId: "L1",
  state: "IN_STOCK",
  units,
  occurredAt: new Date(Date.UTC(2024, 0, 1, hour)).toISOString(),
  extras: null,
});

/** OBJECT's count at L1, in stock. */
const KEY = { merchantId: M, objectId: OBJECT, locationId: "L1", state: "IN_STOCK" };

/**
 * Counts 1 of OBJECT (change A), then 2 (change B) in a request refused after its batch was
 * recorded: the request's writes are rolled back.
 */
function countThenRollBack(db: Db): void {
  recordBatch(db, M, [inStock(100_000)], () => "A", "2024-01-02T00:00:00.000Z", true);
  const refused = db.transaction(() => {
    recordBatch(db, M, [inStock(200_000)], () => "B", "2024-01-02T00:00:01.000Z", true);
    throw new Error("refused after the batch");
  });
  expect(refused).toThrow(/refused/);
}

/** The ids of the seller's physical counts, by time. */
const countIds = (db: Db) =>
  pageChanges(db, M, { types: ["PHYSICAL_COUNT"] }, "ASC", undefined, 10).rows.map((c) => c.id);

/** Records changes one batch each, `now` a second apart. */
function recordEach(db: Db, changes: readonly PlannedChange[], start = 0): void {
  for (const [i, c] of changes.entries()) {
    const now = new Date(Date.UTC(2024, 0, 2, 0, 0, start + i)).toISOString();
    recordBatch(db, M, [c], () => `C${start + i}`, now, false);
  }
}

/** Everything a seller's book holds that an answer can show: every count and every change, in their orders. */
function everything(db: Db) {
  const counts: unknown[] = [];
  for (let after: ReturnType<typeof pageCounts>["next"], first = true; first || after; first = false) {
    const page = pageCounts(db, M, {}, after, 7);
    counts.push(...(JSON.parse(page.json) as unknown[]));
    after = page.next;
  }
  const keys = countsOfPairs(
    db,
    M,
    ["V1", "V2", "V3", OBJECT].flatMap((objectId) => LOCATIONS.map((locationId) => ({ objectId, locationId }))),
  ).map((c: CountRec) => [c.id, c.objectId, c.locationId, c.state, c.units, c.anchorMs, c.anchorOrder, c.calculatedMs]);
  const changes = pageChanges(db, M, { types: ["PHYSICAL_COUNT", "ADJUSTMENT", "TRANSFER"] }, "ASC", undefined, 10_000);
  return { counts, keys, changes: changes.rows.map((c) => [c.order, wireChange(c)]) };
}

describe("the count engine", () => {
  it("agrees with a full replay after every change, whatever order the changes arrive in", () => {
    for (const seed of [1, 2, 3]) {
      const db = store();
      const r = seededRandom(seed);
      for (let i = 0; i < 150; i++) {
        recordEach(db, [randomChange(r)], i);
        for (const locationId of LOCATIONS) {
          for (const state of ["IN_STOCK", "WASTE"]) {
            const key = { merchantId: M, objectId: OBJECT, locationId, state };
            expect(countOf(db, key)?.units, `seed ${seed}, change ${i}, ${locationId} ${state}`).toBe(
              replayedUnits(db, key),
            );
          }
        }
      }
      db.close();
    }
  });

  it("keeps no count for untracked states", () => {
    const db = store();
    const at = "2024-01-01T10:00:00.000Z";
    const sale: PlannedChange = {
      type: "ADJUSTMENT",
      objectId: OBJECT,
      locationId: "L1",
      state: "IN_STOCK",
      toState: "SOLD",
      units: 100_000,
      occurredAt: at,
      extras: null,
    };
    recordBatch(db, M, [sale], () => "A", at, true);
    expect(countOf(db, { merchantId: M, objectId: OBJECT, locationId: "L1", state: "SOLD" })).toBeUndefined();
    expect(countOf(db, { merchantId: M, objectId: OBJECT, locationId: "L1", state: "IN_STOCK" })?.units).toBe(-100_000);
    db.close();
  });
});

describe("a batch of changes", () => {
  it("ends with the counts and the changes of the same changes recorded one by one", () => {
    const objects = ["V1", "V2", "V3"];
    for (const [seed, ignoreUnchanged] of [
      [4, true],
      [5, false],
      [6, true],
    ] as const) {
      const batched = store();
      const single = store();
      const r = seededRandom(seed);
      let n = 0;
      for (let b = 0; b < 40; b++) {
        const size = 1 + Math.floor(r() * 12);
        // Few distinct values, so that counts equal to the current one (and repeated keys) occur.
        const batch = Array.from({ length: size }, () => {
          const c = randomChange(r, objects[Math.floor(r() * objects.length)]);
          c.units = (c.units % 4) * 100_000;
          return c;
        });
        const now = new Date(Date.UTC(2024, 0, 2, 0, b)).toISOString();
        const startId = n;
        const got = recordBatch(batched, M, batch, () => `C${n++}`, now, ignoreUnchanged);
        let m = startId;
        const expected = batch.flatMap((c) =>
          recordBatch(single, M, [c], () => `C${m++}`, now, ignoreUnchanged).changes.map(wireChange),
        );
        expect(got.changes.map(wireChange)).toEqual(expected);
        n = Math.max(n, m);
        for (const objectId of objects) {
          for (const locationId of LOCATIONS) {
            for (const state of ["IN_STOCK", "WASTE"]) {
              const key = { merchantId: M, objectId, locationId, state };
              const units = countOf(batched, key)?.units;
              expect(units, `seed ${seed}, batch ${b}, ${objectId} ${locationId} ${state}`).toBe(
                countOf(single, key)?.units,
              );
              expect(units).toBe(replayedUnits(batched, key));
            }
          }
        }
        // The answer's counts are what the book now holds for the pairs the batch names.
        for (const c of got.counts.map(wireCount)) {
          const key = {
            merchantId: M,
            objectId: c.catalog_object_id ?? "",
            locationId: c.location_id ?? "",
            state: c.state ?? "",
          };
          expect(Math.round(Number(c.quantity) * 100_000)).toBe(countOf(batched, key)?.units);
        }
      }
      batched.close();
      single.close();
    }
  });

  it("records nothing of a batch refused half-way, and goes on from where it was", () => {
    const db = store();
    recordBatch(db, M, [inStock(500_000, 1)], () => "A", "2024-01-02T00:00:00.000Z", true);
    const tooMany: PlannedChange = {
      type: "ADJUSTMENT",
      objectId: OBJECT,
      locationId: "L1",
      state: "NONE",
      toState: "IN_STOCK",
      units: 999_999_999_999_999,
      occurredAt: new Date(Date.UTC(2024, 0, 1, 3)).toISOString(),
      extras: null,
    };
    // As a request runs: in a savepoint, rolled back when a change is refused.
    expect(() =>
      db.transaction(() =>
        recordBatch(db, M, [inStock(700_000, 2), tooMany], () => "B", "2024-01-02T00:00:01.000Z", true),
      )(),
    ).toThrow(/would go beyond/);
    expect(countOf(db, KEY)?.units).toBe(500_000);
    expect(
      pageChanges(db, M, { types: ["PHYSICAL_COUNT", "ADJUSTMENT"] }, "ASC", undefined, 10).rows.map((c) => c.id),
    ).toEqual(["A"]);
    recordBatch(db, M, [inStock(800_000, 4)], () => "C", "2024-01-02T00:00:02.000Z", true);
    expect(countOf(db, KEY)?.units).toBe(800_000);
    db.close();
  });

  it("follows the log when a request's writes are rolled back after the batch was recorded", () => {
    const db = store();
    countThenRollBack(db);
    expect(countOf(db, KEY)?.units).toBe(100_000);
    // The next batch takes the seq the rolled-back one had: the book tells them apart by the token.
    recordBatch(db, M, [inStock(300_000)], () => "C", "2024-01-02T00:00:02.000Z", true);
    expect(countOf(db, KEY)?.units).toBe(300_000);
    expect(countIds(db)).toEqual(["A", "C"]);
    db.close();
  });
});

describe("the book and its log", () => {
  let dir = "";
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = "";
  });

  /** Two connections to one store file, one seller in it. */
  function twoConnections(): [Db, Db] {
    dir = mkdtempSync(join(tmpdir(), "backroom-book-"));
    const file = join(dir, "store.db");
    const a = openDb(file);
    a.prepare(
      "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES (?, 'x', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
    ).run(M);
    return [a, openDb(file)];
  }

  it("is the same read back from the log as the book that wrote it, and reads in another connection's batches", () => {
    const [a, b] = twoConnections();
    const r = seededRandom(8);
    const objects = ["V1", "V2", "V3", OBJECT];
    const batches = Array.from({ length: 30 }, () =>
      Array.from({ length: 1 + Math.floor(r() * 6) }, () => randomChange(r, objects[Math.floor(r() * 4)])),
    );
    let n = 0;
    const write = (db: Db, from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const now = new Date(Date.UTC(2024, 0, 2, 0, i)).toISOString();
        recordBatch(db, M, batches[i] ?? [], () => `C${n++}`, now, i % 2 === 0);
      }
    };
    write(a, 0, 20);
    expect(everything(b)).toEqual(everything(a));
    const read = bookOf(b);
    write(a, 20, 30);
    // Read on from where it was, not again from the start.
    expect(everything(b)).toEqual(everything(a));
    expect(bookOf(b)).toBe(read);
    a.close();
    b.close();
  });

  it("reads back words that JSON escapes and the fields a client set, as they were recorded", () => {
    const [a, b] = twoConnections();
    const odd = 'V"4\\';
    const changes: PlannedChange[] = [
      { ...inStock(100_000), objectId: odd, extras: { reference_id: 'ref "7"\n', source: { name: "scan\\gun" } } },
      {
        type: "TRANSFER",
        objectId: odd,
        locationId: "L1",
        toLocationId: 'L"2',
        state: "IN_STOCK",
        units: 40_000,
        occurredAt: "2024-01-01T01:00:00.000Z",
        extras: null,
      },
    ];
    const recorded = recordBatch(a, M, changes, () => `C${changes.length}`, "2024-01-02T00:00:00.000Z", false);
    const entries = b.prepare("SELECT entries FROM inventory_log ORDER BY seq DESC LIMIT 1").pluck().get() as string;
    expect(JSON.parse(entries)).toEqual(
      recorded.changes.map((c) => [
        c.id,
        c.type,
        c.objectId,
        c.locationId,
        c.toLocationId,
        c.state,
        c.toState,
        c.units,
        c.occurredMs,
        c.createdMs,
        c.extras,
      ]),
    );
    const wire = (db: Db) =>
      pageChanges(db, M, { types: ["PHYSICAL_COUNT", "TRANSFER"] }, "ASC", undefined, 10).rows.map(wireChange);
    expect(wire(b)).toEqual(wire(a));
    expect(wire(b)[0]?.physical_count).toMatchObject({ catalog_object_id: odd, reference_id: 'ref "7"\n' });
    a.close();
    b.close();
  });

  it("is built again when its last batch was rolled back and another connection's took its place", () => {
    const [a, b] = twoConnections();
    countThenRollBack(a);
    // The same seq, written by the other connection: only the token tells the two rows apart.
    recordBatch(b, M, [inStock(300_000)], () => "C", "2024-01-02T00:00:02.000Z", true);
    expect(countOf(a, KEY)?.units).toBe(300_000);
    expect(countIds(a)).toEqual(["A", "C"]);
    a.close();
    b.close();
  });
});
