import { describe, expect, it } from "vitest";
import { shift, TZ } from "../../test/shift-helpers.js";
import type { Shift, TeamMember } from "../spec/generated/types.js";
import { buildReview } from "./review.js";
import {
  breakOverrun,
  checkBreakTypeName,
  checkBreakTypeRoom,
  compactShift,
  isForgotten,
  memberState,
  mergeChangedShifts,
  minutesSince,
  newestUpdate,
  SharedValues,
  shiftTotals,
  wageCost,
} from "./shifts.js";

const lunch = (start: string, end?: string) => ({
  start_at: start,
  ...(end ? { end_at: end } : {}),
  break_type_id: "B1",
  name: "Lunch",
  expected_duration: "PT30M",
  is_paid: false,
});

describe("shiftTotals", () => {
  it("subtracts unpaid breaks from paid hours and prices them", () => {
    const s = shift("m1", "2026-05-04T13:00:00Z", "2026-05-04T21:30:00Z", [
      lunch("2026-05-04T17:00:00Z", "2026-05-04T17:30:00Z"),
    ]);
    const t = shiftTotals(s, new Date("2026-05-05T00:00:00Z"));
    expect(t.paidHours).toBe(8);
    expect(t.unpaidHours).toBe(0.5);
    expect(t.cost).toEqual({ amount: 16000, currency: "USD" });
  });

  it("counts an open shift and its running break until now", () => {
    const s = shift("m1", "2026-05-04T13:00:00Z", undefined, [lunch("2026-05-04T15:00:00Z")]);
    const t = shiftTotals(s, new Date("2026-05-04T15:30:00Z"));
    expect(t.spanMinutes).toBe(150);
    expect(t.unpaidBreakMinutes).toBe(30);
    expect(t.paidHours).toBe(2);
  });

  it("rounds wage cost to cents and has none without a rate", () => {
    expect(wageCost(1 / 3, { amount: 1000, currency: "USD" })).toEqual({ amount: 333, currency: "USD" });
    expect(wageCost(2, undefined)).toBeUndefined();
    // The service stores a zero rate on a shift created without a wage: that is no wage, not 0.00.
    expect(wageCost(2, { amount: 0, currency: "USD" })).toBeUndefined();
  });
});

describe("memberState", () => {
  it("tells clocked out, on shift and on break apart", () => {
    expect(memberState(undefined, TZ).kind).toBe("clocked-out");
    const open = shift("m1", "2026-05-04T13:05:00Z", undefined);
    expect(memberState(open, TZ)).toMatchObject({ kind: "on-shift", since: "09:05" });
    const onBreak = shift("m1", "2026-05-04T13:05:00Z", undefined, [lunch("2026-05-04T16:00:00Z")]);
    expect(memberState(onBreak, TZ)).toMatchObject({
      kind: "on-break",
      breakName: "Lunch",
      since: "12:00",
      paid: false,
    });
  });

  it("flags open shifts from an earlier workday as forgotten", () => {
    const open = shift("m1", "2026-05-03T13:00:00Z", undefined);
    expect(isForgotten(open, new Date("2026-05-04T14:00:00Z"), TZ)).toBe(true);
    expect(isForgotten(open, new Date("2026-05-03T20:00:00Z"), TZ)).toBe(false);
    // Started 03:00 local, before a 05:00 start of day: an earlier workday, but only 4 hours in.
    const early = shift("m1", "2026-05-04T07:00:00Z", undefined);
    expect(isForgotten(early, new Date("2026-05-04T11:00:00Z"), TZ, "05:00")).toBe(false);
  });
});

describe("elapsed time", () => {
  it("counts minutes on shift and how far a break ran past its expected duration", () => {
    const now = new Date("2026-05-04T16:45:00Z");
    expect(minutesSince("2026-05-04T13:00:00Z", now)).toBe(225);
    expect(breakOverrun(lunch("2026-05-04T16:00:00Z"), now)).toBe(15);
    expect(breakOverrun(lunch("2026-05-04T16:20:00Z"), now)).toBe(0);
    expect(breakOverrun(lunch("2026-05-04T16:00:00Z", "2026-05-04T16:25:00Z"), now)).toBe(0);
  });
});

describe("break type rules", () => {
  const types = [
    { id: "b1", location_id: "L1", break_name: "Lunch", expected_duration: "PT30M", is_paid: false },
    { id: "b2", location_id: "L1", break_name: "Coffee", expected_duration: "PT10M", is_paid: true },
  ];
  it("refuses a name the location already has, whatever its case and spaces", () => {
    expect(checkBreakTypeName(" lunch ", types)).toBe(
      "This location already has a break type named Lunch; choose another name.",
    );
    expect(checkBreakTypeName("Lunch", types, "b1")).toBeUndefined();
    expect(checkBreakTypeName("Tea", types)).toBeUndefined();
    const long = [...types, { ...types[0], id: "b9", break_name: "Quiet recovery break after a long delivery unload" }];
    expect(checkBreakTypeName("quiet recovery break after a long delivery unload", long as typeof types)).toBe(
      "This location already has a break type named Quiet recovery break after a…; choose another name.",
    );
  });

  it("refuses a fourth break type before any form opens", () => {
    expect(checkBreakTypeRoom(types)).toBeUndefined();
    expect(checkBreakTypeRoom([...types, { ...types[0], id: "b3", break_name: "Tea" }] as typeof types)).toMatch(
      /has 3 break types, the most allowed/,
    );
  });
});

describe("compactShift", () => {
  const read = (id: string, start: string, end: string): Shift => ({
    ...shift("m1", start, end, [lunch("2026-05-04T16:00:00Z", "2026-05-04T16:30:00Z")]),
    // Each parsed from its own JSON: equal values, separate objects and strings.
    id,
    wage: JSON.parse('{"title":"Cashier","hourly_rate":{"amount":2000,"currency":"USD"},"job_id":"J1"}'),
    timezone: `America/${"New_York"}`,
    created_at: "2026-05-04T13:00:01Z",
    updated_at: "2026-05-04T23:00:02Z",
    declared_cash_tip_money: { amount: 150, currency: "USD" },
  });

  it("drops the created and updated times, keeps every other field, and shares what shifts repeat", () => {
    const shared = new SharedValues();
    const a = read("A", "2026-05-04T13:00:00Z", "2026-05-04T23:00:00Z");
    const b = read("B", "2026-05-05T13:00:00Z", "2026-05-05T23:00:00Z");
    const [ca, cb] = [compactShift(a, shared), compactShift(b, shared)];
    const { created_at: _c, updated_at: _u, ...rest } = a;
    expect(ca).toEqual(rest);
    expect(ca).not.toHaveProperty("created_at");
    expect(cb.wage).toBe(ca.wage);
    expect(cb.breaks?.[0]?.name).toBe("Lunch");
    expect(cb.declared_cash_tip_money).toEqual({ amount: 150, currency: "USD" });
    // The shift read is left as it was.
    expect(a.created_at).toBe("2026-05-04T13:00:01Z");
  });

  it("gives the same review as the shifts as read", () => {
    const members = new Map<string, TeamMember>([["m1", { id: "m1", given_name: "Ana" }]]);
    const ctx = {
      members,
      timeZone: TZ,
      startOfDay: "05:00",
      startOfWeek: "MON",
      now: new Date("2026-05-12T12:00:00Z"),
    };
    const days = ["04", "05", "06", "07", "08", "09", "10", "11"];
    const shifts = days.map((d) => read(d, `2026-05-${d}T11:00:00Z`, `2026-05-${d}T21:30:00Z`));
    const shared = new SharedValues();
    const range = { ...ctx, from: "2026-05-04", to: "2026-05-11" };
    const compact = buildReview(
      shifts.map((s) => compactShift(s, shared)),
      range,
    );
    const plain = buildReview(shifts, range);
    expect(compact.totals).toEqual(plain.totals);
    expect(compact.members).toEqual(plain.members);
    expect(compact.rows.map(({ shift: _s, ...r }) => r)).toEqual(plain.rows.map(({ shift: _s, ...r }) => r));
    // A week over 40 h: the review has overtime to compare.
    expect(compact.totals.overtimeHours).toBeGreaterThan(0);
  });
});

describe("mergeChangedShifts", () => {
  const at = (id: string, version: number, end: string): Shift => ({
    ...shift("m1", "2026-05-04T13:00:00Z", end),
    id,
    version,
    updated_at: "2026-05-04T23:00:00Z",
  });
  const held = [at("A", 1, "2026-05-04T21:00:00Z"), at("B", 3, "2026-05-04T22:00:00Z")].map((s) =>
    compactShift(s, new SharedValues()),
  );

  it("is undefined when every shift read is held at its version", () => {
    expect(mergeChangedShifts(held, [at("B", 3, "2026-05-04T22:00:00Z")], new SharedValues())).toBeUndefined();
    expect(mergeChangedShifts(held, [], new SharedValues())).toBeUndefined();
  });

  it("replaces a newer version in place and adds a shift not held, compacted; the list held is left alone", () => {
    const merged = mergeChangedShifts(
      held,
      [at("C", 1, "2026-05-04T20:00:00Z"), at("A", 2, "2026-05-04T18:00:00Z"), at("B", 3, "2026-05-04T22:00:00Z")],
      new SharedValues(),
    );
    expect(merged?.map((s) => [s.id, s.version, s.end_at])).toEqual([
      ["A", 2, "2026-05-04T18:00:00Z"],
      ["B", 3, "2026-05-04T22:00:00Z"],
      ["C", 1, "2026-05-04T20:00:00Z"],
    ]);
    expect(merged?.[1]).toBe(held[1]);
    expect(merged?.[0]).not.toHaveProperty("updated_at");
    expect(held[0]?.version).toBe(1);
  });
});

describe("newestUpdate", () => {
  it("is the newest updated_at in epoch ms, whatever its offset and fraction, or `since` when none is newer", () => {
    const s = (updated_at?: string): Shift => ({
      location_id: "L1",
      start_at: "2026-05-04T13:00:00Z",
      ...(updated_at ? { updated_at } : {}),
    });
    const shifts = [
      s("2026-05-04T19:00:00-04:00"),
      s("2026-05-04T23:00:00.250Z"),
      s(undefined),
      s("2026-05-04T22:00:00Z"),
    ];
    expect(newestUpdate(shifts, 0)).toBe(Date.parse("2026-05-04T23:00:00.250Z"));
    expect(newestUpdate(shifts, Date.parse("2026-05-05T00:00:00Z"))).toBe(Date.parse("2026-05-05T00:00:00Z"));
    expect(newestUpdate([], 42)).toBe(42);
  });
});
