import { describe, expect, it } from "vitest";
import { storeWithMerchant } from "../../../test/helpers/service-db.js";
import { seededRandom } from "../seed/random.js";
import type { PlannedChange } from "./changes.js";
import { type CountRow, getCount, recomputeUnits, toCount } from "./ledger.js";
import { countsOfPairs, recordBatch, recordChange } from "./repo.js";

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
    return {
      type: "PHYSICAL_COUNT",
      objectId,
      locationId,
      state: pick(["IN_STOCK", "WASTE"]),
      units,
      occurredAt,
      wire: {},
    };
  }
  if (kind < 0.8) {
    const from = pick(STATES);
    const to = pick(STATES.filter((s) => s !== from));
    return { type: "ADJUSTMENT", objectId, locationId, state: from, toState: to, units, occurredAt, wire: {} };
  }
  const toLocationId = LOCATIONS.find((l) => l !== locationId) ?? "";
  return {
    type: "TRANSFER",
    objectId,
    locationId,
    toLocationId,
    state: "IN_STOCK",
    units,
    occurredAt,
    wire: {},
  };
}

describe("the count engine", () => {
  it("agrees with a full replay after every change, whatever order the changes arrive in", () => {
    for (const seed of [1, 2, 3]) {
      const db = store();
      const r = seededRandom(seed);
      for (let i = 0; i < 150; i++) {
        recordChange(
          db,
          M,
          randomChange(r),
          () => `C${seed}-${i}`,
          new Date(Date.UTC(2024, 0, 2, 0, 0, i)).toISOString(),
          false,
        );
        for (const locationId of LOCATIONS) {
          for (const state of ["IN_STOCK", "WASTE"]) {
            const key = { merchantId: M, objectId: OBJECT, locationId, state };
            expect(getCount(db, key)?.units, `seed ${seed}, change ${i}, ${locationId} ${state}`).toBe(
              recomputeUnits(db, key),
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
    recordChange(
      db,
      M,
      {
        type: "ADJUSTMENT",
        objectId: OBJECT,
        locationId: "L1",
        state: "IN_STOCK",
        toState: "SOLD",
        units: 100_000,
        occurredAt: at,
        wire: {},
      },
      () => "A",
      at,
      true,
    );
    expect(getCount(db, { merchantId: M, objectId: OBJECT, locationId: "L1", state: "SOLD" })).toBeUndefined();
    expect(getCount(db, { merchantId: M, objectId: OBJECT, locationId: "L1", state: "IN_STOCK" })?.units).toBe(
      -100_000,
    );
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
          return { ...c, units: (c.units % 4) * 100_000 };
        });
        const now = new Date(Date.UTC(2024, 0, 2, 0, b)).toISOString();
        const startId = n;
        const got = recordBatch(batched, M, batch, () => `C${n++}`, now, ignoreUnchanged);
        let m = startId;
        const expected = batch.map((c) => recordChange(single, M, c, () => `C${m++}`, now, ignoreUnchanged));
        expect(got.changes.map((c) => c.type)).toEqual(
          expected.filter((e) => e !== undefined).map((e) => e?.change.type),
        );
        n = Math.max(n, m);
        // The answer's counts, kept as the batch wrote them, are what the store now holds.
        const pairs = [
          ...new Set(
            batch.flatMap((c) => [c.locationId, c.toLocationId ?? c.locationId].map((l) => `${c.objectId} ${l}`)),
          ),
        ];
        const stored = countsOfPairs(
          batched,
          M,
          pairs.map((name) => {
            const [objectId = "", locationId = ""] = name.split(" ");
            return { objectId, locationId };
          }),
        );
        const view = (c: CountRow) => ({ id: c.id, anchor: [c.anchor_at, c.anchor_seq], count: toCount(c) });
        expect(got.counts.map(view), `seed ${seed}, batch ${b}`).toEqual(stored.map(view));
        for (const objectId of objects) {
          for (const locationId of LOCATIONS) {
            for (const state of ["IN_STOCK", "WASTE"]) {
              const key = { merchantId: M, objectId, locationId, state };
              const units = getCount(batched, key)?.units;
              expect(units, `seed ${seed}, batch ${b}, ${objectId} ${locationId} ${state}`).toBe(
                getCount(single, key)?.units,
              );
              expect(units).toBe(recomputeUnits(batched, key));
            }
          }
        }
      }
      batched.close();
      single.close();
    }
  });
});
