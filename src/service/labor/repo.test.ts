import { describe, expect, it } from "vitest";
import { locationRow, wageRow } from "../../../test/helpers/labor-rows.js";
import { storeWithMerchant } from "../../../test/helpers/service-db.js";
import { saveLocation } from "../directory/repo.js";
import {
  FIRST_WAGE_TITLE,
  findOverlappingShift,
  firstWageTitle,
  LOCATION_ZONE,
  locationZone,
  OVERLAP_PROBES,
  type StoredShift,
  saveShift,
  saveWage,
} from "./repo.js";

const M = "MERCHANT";
const MEMBER = "TM1";
const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1, 8);

const store = () => storeWithMerchant(M);

function shift(id: string, startMs: number, endMs: number | null, member = MEMBER): StoredShift {
  return {
    shift: {
      id,
      location_id: "L1",
      team_member_id: member,
      start_at: new Date(startMs).toISOString(),
      ...(endMs === null ? {} : { end_at: new Date(endMs).toISOString() }),
      status: endMs === null ? "OPEN" : "CLOSED",
      version: 1,
    },
    startMs,
    endMs,
    createdMs: startMs,
    updatedMs: startMs,
  };
}

describe("findOverlappingShift", () => {
  // A long history: one 8-hour shift a day for a year, then one still open.
  const db = store();
  for (let d = 0; d < 365; d++) saveShift(db, M, shift(`S${d}`, T0 + d * 24 * HOUR, T0 + d * 24 * HOUR + 8 * HOUR));
  saveShift(db, M, shift("OPEN", T0 + 400 * 24 * HOUR, null));
  saveShift(db, M, shift("OTHER", T0 + 10 * 24 * HOUR, T0 + 10 * 24 * HOUR + 8 * HOUR, "TM2"));
  const find = (start: number, end: number | null, except = "") =>
    findOverlappingShift(db, M, MEMBER, start, end, except)?.shift.id;
  const day = (d: number, hour = 0) => T0 + d * 24 * HOUR + hour * HOUR;

  it("finds the shift a new one starts inside, ends inside, or covers", () => {
    expect(find(day(10, 4), day(10, 12))).toBe("S10");
    expect(find(day(9, 20), day(10, 1))).toBe("S10");
    expect(find(day(10, -1), day(10, 9))).toBe("S10");
  });

  it("names the earliest when a new shift covers several", () => {
    expect(find(day(20, 4), day(23, 0))).toBe("S20");
    expect(find(day(19, 12), day(23, 0))).toBe("S20");
  });

  it("finds none between shifts, nor for shifts that only touch, nor another member's", () => {
    expect(find(day(10, 8), day(11, 0))).toBeUndefined();
    expect(find(day(10, 9), day(10, 20))).toBeUndefined();
    expect(find(day(-5), day(0))).toBeUndefined();
  });

  it("an open shift reaches into the future; a new open shift overlaps everything after it", () => {
    expect(find(day(500), day(501))).toBe("OPEN");
    expect(find(day(399), null)).toBe("OPEN");
    expect(find(day(364, 4), null)).toBe("S364");
    expect(find(day(370), null)).toBe("OPEN");
  });

  it("leaves out the shift being changed", () => {
    expect(find(day(10, 1), day(10, 7), "S10")).toBeUndefined();
    expect(find(day(10, 1), day(11, 1), "S10")).toBe("S11");
    expect(find(day(10, 1), day(10, 7), "NO-SUCH-SHIFT")).toBe("S10");
  });

  it("of shifts that start together, asks about the one that reaches furthest", () => {
    // A shift of no length may start with another (neither overlaps the other); written after
    // it, it must not hide it from the next write.
    const other = "TM3";
    saveShift(db, M, shift("LONG", day(600, 10), day(600, 14), other));
    saveShift(db, M, shift("EMPTY", day(600, 10), day(600, 10), other));
    saveShift(db, M, shift("STILL-OPEN", day(700, 10), null, other));
    saveShift(db, M, shift("EMPTY2", day(700, 10), day(700, 10), other));
    const ofOther = (start: number, end: number | null) => findOverlappingShift(db, M, other, start, end)?.shift.id;
    expect(ofOther(day(600, 11), day(600, 12))).toBe("LONG");
    expect(ofOther(day(600, 14), day(600, 15))).toBeUndefined();
    expect(ofOther(day(701), day(701, 1))).toBe("STILL-OPEN");
  });

  it("answers both probes from the member's index alone, in its order", () => {
    expect(planOf(db, OVERLAP_PROBES.before, M, MEMBER, 0, null)).toBe(
      "SEARCH shifts USING COVERING INDEX shifts_by_member (merchant_id=? AND team_member_id=? AND start_ms<?)",
    );
    expect(planOf(db, OVERLAP_PROBES.inside, M, MEMBER, 0, 1, 0, null)).toBe(
      "SEARCH shifts USING COVERING INDEX shifts_by_member (merchant_id=? AND team_member_id=? AND start_ms>? AND start_ms<?)",
    );
  });
});

/** The plan SQLite makes for `sql`, as one line. */
const planOf = (db: ReturnType<typeof store>, sql: string, ...args: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join("; ");

describe("what a shift write looks up, off the indexes of migration 015", () => {
  const location = locationRow;
  const wage = wageRow;

  it("reads a location's time zone and currency as it is now, and nothing of another seller's", () => {
    const db = store();
    saveLocation(db, M, location("L1", "America/New_York", "USD"));
    saveLocation(db, M, location("L2", "Europe/Paris"));
    expect(locationZone(db, M, "L1")).toEqual({ timezone: "America/New_York", currency: "USD" });
    expect(locationZone(db, M, "L2")).toEqual({ timezone: "Europe/Paris", currency: null });
    saveLocation(db, M, location("L1", "America/Chicago", "CAD"));
    expect(locationZone(db, M, "L1")).toEqual({ timezone: "America/Chicago", currency: "CAD" });
    expect(locationZone(db, "OTHER", "L1")).toBeUndefined();
    expect(locationZone(db, M, "L9")).toBeUndefined();
  });

  it("reads the title of the member's first wage by its order, as it is now", () => {
    const db = store();
    saveWage(db, M, wage("W2", MEMBER, "Cashier"), 2);
    saveWage(db, M, wage("W1b", MEMBER, "Stock"), 1);
    saveWage(db, M, wage("W1a", MEMBER, "Manager"), 1);
    saveWage(db, M, wage("W0", "TM2", "Baker"), 0);
    expect(firstWageTitle(db, M, MEMBER)).toBe("Manager");
    saveWage(db, M, wage("W1a", MEMBER, "Store manager"), 1);
    expect(firstWageTitle(db, M, MEMBER)).toBe("Store manager");
    saveWage(db, M, wage("W1a", MEMBER), 1);
    expect(firstWageTitle(db, M, MEMBER)).toBeUndefined();
    expect(firstWageTitle(db, M, "TM3")).toBeUndefined();
    expect(firstWageTitle(db, "OTHER", MEMBER)).toBeUndefined();
  });

  it("answers both from an index alone, without reading the rows' JSON or sorting", () => {
    const db = store();
    expect(planOf(db, LOCATION_ZONE, M, "L1")).toBe(
      "SEARCH locations USING COVERING INDEX locations_zone (merchant_id=? AND id=?)",
    );
    expect(planOf(db, FIRST_WAGE_TITLE, M, MEMBER)).toBe(
      "SEARCH team_member_wages USING COVERING INDEX team_member_wages_by_member (merchant_id=? AND team_member_id=?)",
    );
  });
});
