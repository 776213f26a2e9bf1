import { describe, expect, it } from "vitest";
import { storeWithMerchant } from "../../../test/helpers/service-db.js";
import type { InventoryChange, InventoryCount, InventoryState } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import type { PlannedChange } from "./changes.js";
import {
  batchAnswerJson,
  type ChangeFilter,
  type ChangePosition,
  type CountPosition,
  changeById,
  changeJson,
  countJson,
  isoOf,
  keptBatch,
  pageChanges,
  pageCounts,
  replayBatch,
  wireChange,
  wireCount,
} from "./reads.js";
import { recordBatch } from "./repo.js";

const M = "MERCHANT";

const at = (second: number) => new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString();

/**
 * A count of each of `n` objects at one of two locations, `sameTime` to a batch (a batch's counts
 * share their calculated_at). Answers the store and every count, newest first, as the service
 * answers them.
 */
function counts(n: number, sameTime: number): { db: Db; all: InventoryCount[] } {
  const db = storeWithMerchant(M);
  const all: InventoryCount[] = [];
  for (let b = 0; b * sameTime < n; b++) {
    const batch: PlannedChange[] = [];
    for (let i = b * sameTime; i < Math.min(n, (b + 1) * sameTime); i++) {
      const c: PlannedChange = {
        type: "PHYSICAL_COUNT",
        objectId: `V${String(i).padStart(4, "0")}`,
        locationId: i % 2 ? "L1" : "L2",
        state: i % 5 ? "IN_STOCK" : "WASTE",
        units: i * 7 + 1,
        occurredAt: at(0),
        extras: null,
      };
      batch.push(c);
      all.push({
        catalog_object_id: c.objectId,
        catalog_object_type: "ITEM_VARIATION",
        state: c.state as InventoryState,
        location_id: c.locationId,
        quantity: `0.${String(c.units).padStart(5, "0")}`.replace(/0+$/, ""),
        calculated_at: at(b + 1),
        is_estimated: false,
      });
    }
    let id = 0;
    recordBatch(db, M, batch, () => `B${b}-${id++}`, at(b + 1), false);
  }
  // Newest calculated_at first; within one, the newest count (the last created) first.
  return { db, all: all.reverse() };
}

function allPages(db: Db, filter: Parameters<typeof pageCounts>[2], limit: number) {
  const seen: InventoryCount[] = [];
  let after: CountPosition | undefined;
  let pages = 0;
  do {
    const page = pageCounts(db, M, filter, after, limit);
    const list = JSON.parse(page.json) as InventoryCount[];
    expect(list.length).toBeLessThanOrEqual(limit);
    seen.push(...list);
    after = page.next;
    pages++;
  } while (after);
  return { seen, pages };
}

describe("pageCounts", () => {
  it("pages through every count once, in order, with ties in calculated_at, whatever the page size", () => {
    const { db, all } = counts(23, 4);
    for (const limit of [1, 2, 3, 4, 5, 22, 23, 24, 100]) {
      const { seen, pages } = allPages(db, {}, limit);
      expect(seen).toEqual(all);
      // A last page that is exactly full names no next page.
      expect(pages).toBe(Math.max(1, Math.ceil(23 / limit)));
    }
  });

  it("pages through a filter's counts, by object and by location and state", () => {
    const { db, all } = counts(40, 3);
    const objects = ["V0001", "V0002", "V0005", "V0010", "V0011", "V0039"];
    for (const [filter, wanted] of [
      [
        { locationIds: ["L1"], states: ["IN_STOCK"] },
        (c: InventoryCount) => c.location_id === "L1" && c.state === "IN_STOCK",
      ],
      [{ objectIds: objects }, (c: InventoryCount) => objects.includes(c.catalog_object_id ?? "")],
      [
        { states: ["WASTE"], calculatedAfter: at(3) },
        (c: InventoryCount) => c.state === "WASTE" && (c.calculated_at ?? "") > at(3),
      ],
    ] as const) {
      expect(allPages(db, filter, 2).seen).toEqual(all.filter(wanted));
    }
  });

  it("moves a count written again to the front, and keeps the order as counts keep moving", () => {
    const { db, all } = counts(12, 3);
    const again = (objectIds: string[], second: number) =>
      recordBatch(
        db,
        M,
        objectIds.map((objectId) => ({
          type: "ADJUSTMENT",
          objectId,
          locationId: all.find((c) => c.catalog_object_id === objectId)?.location_id ?? "",
          state: "NONE",
          toState: "IN_STOCK",
          units: 100_000,
          occurredAt: at(0),
          extras: null,
        })),
        () => `A${second}-${objectIds.join("")}`,
        at(second),
        false,
      );
    again(["V0007", "V0002"], 100);
    again(["V0003"], 101);
    const order = allPages(db, { states: ["IN_STOCK"] }, 3).seen.map((c) => c.catalog_object_id);
    // Newest first: V0003 (second 101), then the pair of second 100 by count id (V0007 after V0002).
    expect(order.slice(0, 3)).toEqual(["V0003", "V0007", "V0002"]);
    expect(new Set(order).size).toBe(order.length);
  });

  it("keeps newest first when the clock was set back between two batches", () => {
    const { db } = counts(6, 2);
    const touch = (objectId: string, second: number) =>
      recordBatch(
        db,
        M,
        [
          {
            type: "ADJUSTMENT",
            objectId,
            locationId: Number(objectId.slice(1)) % 2 ? "L1" : "L2",
            state: "NONE",
            toState: Number(objectId.slice(1)) % 5 ? "IN_STOCK" : "WASTE",
            units: 100_000,
            occurredAt: at(0),
            extras: null,
          },
        ],
        () => `T${objectId}${second}`,
        at(second),
        false,
      );
    touch("V0001", 50);
    // Set back: before V0001's, after the first batches'.
    touch("V0004", 20);
    const order = allPages(db, {}, 2).seen.map((c) => [c.catalog_object_id, c.calculated_at]);
    expect(order.slice(0, 2)).toEqual([
      ["V0001", at(50)],
      ["V0004", at(20)],
    ]);
    expect(order.map(([, when]) => when)).toEqual(
      order
        .map(([, when]) => when)
        .sort()
        .reverse(),
    );
  });

  it("lists a location's counts in the seller's order as counts move, the clock goes back and locations merge", () => {
    const { db } = counts(30, 4);
    let n = 0;
    const move = (objects: number[], second: number) =>
      recordBatch(
        db,
        M,
        objects.map((i) => ({
          type: "ADJUSTMENT",
          objectId: `V${String(i).padStart(4, "0")}`,
          locationId: i % 3 === 0 ? "L3" : i % 2 ? "L1" : "L2",
          state: "NONE",
          toState: i % 5 ? "IN_STOCK" : "WASTE",
          units: 100_000,
          occurredAt: at(0),
          extras: null,
        })),
        () => `M${n++}`,
        at(second),
        false,
      );
    /** Each location filter lists what the seller's whole order lists at those locations. */
    const agrees = () => {
      const everyCount = allPages(db, {}, 7).seen;
      expect(everyCount.some((c) => c.location_id === "L3")).toBe(true);
      for (const locations of [["L1"], ["L2"], ["L3"], ["L1", "L2"], ["L3", "L1", "L9"], ["L9"]]) {
        for (const states of [undefined, ["IN_STOCK"]]) {
          const filter = states ? { locationIds: locations, states } : { locationIds: locations };
          const wanted = everyCount.filter(
            (c) => locations.includes(c.location_id ?? "") && (!states || states.includes(c.state ?? "")),
          );
          for (const limit of [1, 3, 100]) {
            expect(allPages(db, filter, limit).seen, `${locations} ${states} ${limit}`).toEqual(wanted);
          }
        }
      }
    };
    move([3, 8, 17], 40);
    agrees();
    // V0017 is L1's newest, then written again with L1's older counts behind it; V0003 alone at L3.
    move([17], 43);
    move([17, 22, 3], 44);
    agrees();
    // Set back: these land among the older counts until the order is sorted again.
    move([5, 12], 20);
    agrees();
    move([29, 6, 5], 45);
    agrees();
  });

  it("answers an empty page as an empty array, with no next page", () => {
    const { db } = counts(5, 1);
    expect(pageCounts(db, M, { states: ["SOLD"] }, undefined, 10)).toEqual({ json: "[]" });
  });
});

describe("pageChanges", () => {
  /** Changes of three objects at a few moments, many at the same one, arriving out of time order. */
  function changes(): { db: Db; all: InventoryChange[] } {
    const db = storeWithMerchant(M);
    let n = 0;
    for (let b = 0; b < 12; b++) {
      const batch: PlannedChange[] = Array.from({ length: 1 + (b % 4) }, (_, k) => ({
        type: k % 3 === 2 ? "TRANSFER" : k % 2 ? "ADJUSTMENT" : "PHYSICAL_COUNT",
        objectId: `V${(b + k) % 3}`,
        locationId: "L1",
        ...(k % 3 === 2
          ? { toLocationId: "L2", state: "IN_STOCK" }
          : k % 2
            ? { state: "NONE", toState: "IN_STOCK" }
            : { state: "IN_STOCK" }),
        units: 100_000 * (k + 1),
        occurredAt: at((b * 7) % 5),
        extras: k === 1 ? { reference_id: `R${b}` } : null,
      }));
      recordBatch(db, M, batch, () => `C${String(n++).padStart(3, "0")}`, at(100 + b), false);
    }
    const every = pageChanges(db, M, { types: ["PHYSICAL_COUNT", "ADJUSTMENT", "TRANSFER"] }, "ASC", undefined, 1000);
    return { db, all: every.rows.map(wireChange) };
  }

  const when = (c: InventoryChange) => (c.physical_count ?? c.adjustment ?? c.transfer)?.occurred_at ?? "";
  const idOf = (c: InventoryChange) => (c.physical_count ?? c.adjustment ?? c.transfer)?.id ?? "";

  function allPages(db: Db, filter: ChangeFilter, order: "ASC" | "DESC", limit: number): InventoryChange[] {
    const seen: InventoryChange[] = [];
    let after: ChangePosition | undefined;
    for (;;) {
      const { rows, more } = pageChanges(db, M, filter, order, after, limit);
      seen.push(...rows.map(wireChange));
      const last = rows.at(-1);
      if (!more || !last) return seen;
      after = { o: isoOf(last.occurredMs), s: last.order };
    }
  }

  it("lists changes by occurred_at, then arrival, and pages through them both ways whatever the page size", () => {
    const { db, all } = changes();
    expect(all).toHaveLength(3 * (1 + 2 + 3 + 4));
    const times = all.map(when);
    expect([...times].sort()).toEqual(times);
    // Among changes at one moment, arrival order: ids were handed out in arrival order.
    for (let i = 1; i < all.length; i++) {
      if (when(all[i] as InventoryChange) === when(all[i - 1] as InventoryChange)) {
        expect(idOf(all[i] as InventoryChange) > idOf(all[i - 1] as InventoryChange)).toBe(true);
      }
    }
    const types = { types: ["PHYSICAL_COUNT", "ADJUSTMENT", "TRANSFER"] };
    for (const limit of [1, 2, 5, 23, 24, 25]) {
      expect(allPages(db, types, "ASC", limit)).toEqual(all);
      expect(allPages(db, types, "DESC", limit)).toEqual([...all].reverse());
    }
  });

  it("filters by object, type, location (either end of a transfer), state (either side) and receipt time", () => {
    const { db, all } = changes();
    const sub = (c: InventoryChange) => c.physical_count ?? c.adjustment ?? c.transfer;
    for (const [filter, wanted] of [
      [
        { types: ["ADJUSTMENT"], objectIds: ["V1"] },
        (c: InventoryChange) => c.type === "ADJUSTMENT" && sub(c)?.catalog_object_id === "V1",
      ],
      [{ types: ["TRANSFER", "PHYSICAL_COUNT"], locationIds: ["L2"] }, (c: InventoryChange) => c.type === "TRANSFER"],
      [{ types: ["ADJUSTMENT", "TRANSFER"], states: ["NONE"] }, (c: InventoryChange) => c.type === "ADJUSTMENT"],
      [
        { types: ["PHYSICAL_COUNT", "ADJUSTMENT", "TRANSFER"], createdAfter: at(103), createdBefore: at(108) },
        (c: InventoryChange) => (sub(c)?.created_at ?? "") > at(103) && (sub(c)?.created_at ?? "") < at(108),
      ],
    ] as const) {
      expect(allPages(db, filter, "ASC", 2)).toEqual(all.filter(wanted));
    }
  });

  it("echoes the fields a client set, in the change's wire shape", () => {
    const { all } = changes();
    const adjustment = all.find((c) => c.adjustment?.reference_id === "R1")?.adjustment;
    expect(Object.keys(adjustment ?? {})).toEqual([
      "id",
      "reference_id",
      "catalog_object_id",
      "catalog_object_type",
      "quantity",
      "from_state",
      "to_state",
      "location_id",
      "occurred_at",
      "created_at",
    ]);
  });
});

describe("the wire JSON of changes and counts", () => {
  it("is what JSON.stringify writes of their wire shapes, words that need escaping included", () => {
    const db = storeWithMerchant(M);
    const odd = 'L"2\\x';
    const batch: PlannedChange[] = [
      {
        type: "PHYSICAL_COUNT",
        objectId: "V1",
        locationId: "L1",
        state: "IN_STOCK",
        units: 1_234_500,
        occurredAt: at(1),
        extras: { reference_id: 'R"1', source: { name: "app\n" } },
      },
      {
        type: "ADJUSTMENT",
        objectId: "V\u{1F600}",
        locationId: odd,
        state: "NONE",
        toState: "IN_STOCK",
        units: 5,
        occurredAt: at(2),
        extras: null,
      },
      {
        type: "TRANSFER",
        objectId: "V1",
        locationId: "L1",
        toLocationId: odd,
        state: "IN_STOCK",
        units: 100_000,
        occurredAt: at(3),
        extras: { team_member_id: "TM1" },
      },
    ];
    let n = 0;
    const done = recordBatch(db, M, batch, () => `C${n++}`, at(10), false);
    expect(done.changes).toHaveLength(3);
    for (const c of done.changes) expect(changeJson(c)).toBe(JSON.stringify(wireChange(c)));
    expect(done.counts.length).toBeGreaterThan(2);
    for (const c of done.counts) expect(countJson(c)).toBe(JSON.stringify(wireCount(c)));
    const page = pageCounts(db, M, {}, undefined, 10);
    expect(JSON.parse(page.json)).toEqual(
      [...done.counts].sort((a, b) => b.calculatedMs - a.calculatedMs || b.id - a.id).map(wireCount),
    );
    // A batch's idempotency note, and the answer written again from it.
    const atMs = Date.parse(at(10));
    for (const seq of [done.seq, null]) {
      const kept = done.counts.map((c) => [c.objectId, c.locationId, c.state, c.units, atMs - c.calculatedMs]);
      expect(keptBatch(seq, atMs, done.counts)).toBe(JSON.stringify([seq, atMs, kept]));
    }
    expect(replayBatch(db, M, keptBatch(done.seq, atMs, done.counts))).toBe(batchAnswerJson(done.counts, done.changes));
  });
});

describe("changeById", () => {
  it("finds changes of its kind by id, recorded before and after the first look-up", () => {
    const db = storeWithMerchant(M);
    const count = (objectId: string): PlannedChange => ({
      type: "PHYSICAL_COUNT",
      objectId,
      locationId: "L1",
      state: "IN_STOCK",
      units: 100_000,
      occurredAt: at(1),
      extras: null,
    });
    recordBatch(db, M, [count("V1")], () => "FIRST", at(2), false);
    expect(changeById(db, M, "FIRST", "PHYSICAL_COUNT")?.objectId).toBe("V1");
    expect(changeById(db, M, "FIRST", "ADJUSTMENT")).toBeUndefined();
    expect(changeById(db, "OTHER", "FIRST", "PHYSICAL_COUNT")).toBeUndefined();
    recordBatch(db, M, [count("V2")], () => "SECOND", at(3), false);
    expect(changeById(db, M, "SECOND", "PHYSICAL_COUNT")?.objectId).toBe("V2");
    expect(changeById(db, M, "NOPE", "PHYSICAL_COUNT")).toBeUndefined();
  });
});
