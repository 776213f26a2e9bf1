import { describe, expect, it } from "vitest";
import { openDb } from "../db.js";
import { findOverlappingShift, type StoredShift, saveShift } from "./repo.js";

const M = "MERCHANT";
const MEMBER = "TM1";
const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1, 8);

function store() {
  const db = openDb(":memory:");
  db.prepare(
    "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES (?, 'x', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
  ).run(M);
  return db;
}

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
  });
});
