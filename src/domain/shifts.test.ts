import { describe, expect, it } from "vitest";
import type { Shift, TeamMember } from "../spec/generated/types.js";
import { buildReview, isForgotten, memberState, shiftTotals, wageCost } from "./shifts.js";

const TZ = "America/New_York";
const rate = { amount: 2000, currency: "USD" as const };

function shift(member: string, start: string, end: string | undefined, breaks: Shift["breaks"] = []): Shift {
  const s: Shift = {
    id: `${member}-${start}`,
    location_id: "L1",
    team_member_id: member,
    start_at: start,
    wage: { hourly_rate: rate },
    breaks,
  };
  if (end) {
    s.end_at = end;
    s.status = "CLOSED";
  } else s.status = "OPEN";
  return s;
}

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

describe("buildReview", () => {
  const members = new Map<string, TeamMember>([
    ["m1", { id: "m1", given_name: "Ana", family_name: "Diaz" }],
    ["m2", { id: "m2", given_name: "Bo", family_name: "Li" }],
  ]);
  const ctx = { members, timeZone: TZ, startOfDay: "05:00", startOfWeek: "MON", now: new Date("2026-05-10T12:00:00Z") };

  it("sums per member and flags days over 8 hours", () => {
    const shifts = [
      shift("m1", "2026-05-04T13:00:00Z", "2026-05-04T23:00:00Z"), // 10 h
      shift("m2", "2026-05-04T13:00:00Z", "2026-05-04T17:00:00Z"), // 4 h
    ];
    const r = buildReview(shifts, { ...ctx, from: "2026-05-04", to: "2026-05-04" });
    expect(r.members.map((m) => [m.memberName, m.paidHours, m.overDays, m.overtimeHours])).toEqual([
      ["Ana Diaz", 10, ["2026-05-04"], 2],
      ["Bo Li", 4, [], 0],
    ]);
    expect(r.totals.cost).toEqual({ amount: 28000, currency: "USD" });
    expect(r.rows[0]?.overDay).toBe(true);
  });

  it("buckets a shift starting after midnight but before start of day into the previous workday", () => {
    const s = shift("m1", "2026-05-05T07:00:00Z", "2026-05-05T08:00:00Z"); // 03:00 local
    const r = buildReview([s], { ...ctx, from: "2026-05-04", to: "2026-05-04" });
    expect(r.rows[0]?.workday).toBe("2026-05-04");
  });

  it("flags weeks over 40 hours, counting earlier days of the week outside the range", () => {
    const days = ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07", "2026-05-08", "2026-05-09"];
    const shifts = days.map((d) => shift("m1", `${d}T13:00:00Z`, `${d}T21:00:00Z`)); // 6 × 8 h
    const r = buildReview(shifts, { ...ctx, from: "2026-05-09", to: "2026-05-09" });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]?.overWeek).toBe(true);
    expect(r.members[0]?.overWeeks).toEqual(["2026-05-04"]);
    expect(r.members[0]?.overtimeHours).toBe(8);
    expect(r.members[0]?.paidHours).toBe(8);
  });

  it("does not count daily overtime twice toward the week", () => {
    const days = ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07"];
    const shifts = days.map((d) => shift("m1", `${d}T12:00:00Z`, `${d}T23:00:00Z`)); // 4 × 11 h = 44 h
    const r = buildReview(shifts, { ...ctx, from: "2026-05-04", to: "2026-05-10" });
    // 12 h daily excess; regular hours 32 stay under 40.
    expect(r.members[0]?.overtimeHours).toBe(12);
    expect(r.members[0]?.overWeeks).toEqual(["2026-05-04"]);
  });
});
