import { describe, expect, it } from "vitest";
import type { Shift, TeamMember } from "../spec/generated/types.js";
import { DEFAULT_OVERTIME } from "./overtime.js";
import {
  breakOverrun,
  buildReview,
  checkBreakTypeName,
  checkBreakTypeRoom,
  compactShift,
  isForgotten,
  memberState,
  memberWeeks,
  mergeChangedShifts,
  minutesSince,
  newestUpdate,
  SharedValues,
  shiftTotals,
  wageCost,
} from "./shifts.js";

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

describe("buildReview", () => {
  const members = new Map<string, TeamMember>([
    ["m1", { id: "m1", given_name: "Ana", family_name: "Diaz" }],
    ["m2", { id: "m2", given_name: "Bo", family_name: "Li" }],
  ]);
  const ctx = { members, timeZone: TZ, startOfDay: "05:00", startOfWeek: "MON", now: new Date("2026-05-10T12:00:00Z") };
  const week = ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07", "2026-05-08", "2026-05-09"];

  it("sums per member; a long day is flagged but is not overtime without a daily rule", () => {
    const shifts = [
      shift("m1", "2026-05-04T13:00:00Z", "2026-05-04T23:00:00Z"), // 10 h
      shift("m2", "2026-05-04T13:00:00Z", "2026-05-04T17:00:00Z"), // 4 h
    ];
    const r = buildReview(shifts, { ...ctx, from: "2026-05-04", to: "2026-05-04" });
    expect(r.members.map((m) => [m.memberName, m.paidHours, m.regularHours, m.overtimeHours])).toEqual([
      ["Ana Diaz", 10, 10, 0],
      ["Bo Li", 4, 4, 0],
    ]);
    expect(r.totals.cost).toEqual({ amount: 28000, currency: "USD" });
    expect(r.rows[0]?.flags).toEqual(["over 8 h"]);
    expect(r.rows[0]?.overDay).toBe(false);
    expect(r.overtime).toEqual(DEFAULT_OVERTIME);
  });

  it("costs daily overtime at the multiplier when a daily rule is configured", () => {
    const shifts = [shift("m1", "2026-05-04T13:00:00Z", "2026-05-04T23:00:00Z")]; // 10 h at 20.00
    const r = buildReview(shifts, {
      ...ctx,
      from: "2026-05-04",
      to: "2026-05-04",
      overtime: { weeklyHours: 40, dailyHours: 8, multiplier: 1.5 },
    });
    expect(r.rows[0]).toMatchObject({ regularHours: 8, overtimeHours: 2, overDay: true, overWeek: false });
    expect(r.members[0]?.overDays).toEqual(["2026-05-04"]);
    expect(r.totals.regularCost.amount).toBe(16000);
    expect(r.totals.overtimeCost.amount).toBe(6000);
    expect(r.totals.cost.amount).toBe(22000);
  });

  it("buckets a shift starting after midnight but before start of day into the previous workday", () => {
    const s = shift("m1", "2026-05-05T07:00:00Z", "2026-05-05T08:00:00Z"); // 03:00 local
    const r = buildReview([s], { ...ctx, from: "2026-05-04", to: "2026-05-04" });
    expect(r.rows[0]?.workday).toBe("2026-05-04");
  });

  it("marks >40h on the shift where the week crosses 40 and the ones after, not Monday's", () => {
    const shifts = week.map((d) => shift("m1", `${d}T12:00:00Z`, `${d}T21:00:00Z`)); // 6 × 9 h = 54 h
    const r = buildReview(shifts, { ...ctx, from: "2026-05-04", to: "2026-05-10" });
    expect(r.rows.map((x) => [x.workday, x.overWeek, x.regularHours, x.overtimeHours])).toEqual([
      ["2026-05-04", false, 9, 0],
      ["2026-05-05", false, 9, 0],
      ["2026-05-06", false, 9, 0],
      ["2026-05-07", false, 9, 0],
      ["2026-05-08", true, 4, 5],
      ["2026-05-09", true, 0, 9],
    ]);
    expect(r.members[0]?.overWeeks).toEqual(["2026-05-04"]);
    // 40 h at 20.00 and 14 h at 30.00.
    expect(r.totals).toMatchObject({
      paidHours: 54,
      regularHours: 40,
      overtimeHours: 14,
      regularCost: { amount: 80000, currency: "USD" },
      overtimeCost: { amount: 42000, currency: "USD" },
      cost: { amount: 122000, currency: "USD" },
    });
  });

  it("counts earlier days of the week outside the range toward the weekly limit", () => {
    const shifts = week.map((d) => shift("m1", `${d}T13:00:00Z`, `${d}T21:00:00Z`)); // 6 × 8 h
    const r = buildReview(shifts, { ...ctx, from: "2026-05-09", to: "2026-05-09" });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]?.overWeek).toBe(true);
    expect(r.members[0]).toMatchObject({ paidHours: 8, regularHours: 0, overtimeHours: 8, overWeeks: ["2026-05-04"] });
    expect(r.totals.cost.amount).toBe(24000);
  });

  it("costs a shift without a wage at the member's wage for that job, or flags it", () => {
    const noWage = (member: string, start: string, end: string, wage?: Shift["wage"]): Shift => {
      const s = shift(member, start, end);
      if (wage) s.wage = wage;
      else delete s.wage;
      return s;
    };
    const wages = new Map([
      [
        "m1",
        [
          {
            id: "w1",
            team_member_id: "m1",
            title: "Cashier",
            job_id: "J1",
            hourly_rate: { amount: 1500, currency: "USD" as const },
          },
          {
            id: "w2",
            team_member_id: "m1",
            title: "Lead",
            job_id: "J2",
            hourly_rate: { amount: 2500, currency: "USD" as const },
          },
        ],
      ],
    ]);
    const shifts = [
      // Created elsewhere with a zero rate for job J2: costed at the member's Lead wage.
      noWage("m1", "2026-05-04T13:00:00Z", "2026-05-04T17:00:00Z", {
        title: "Lead",
        job_id: "J2",
        hourly_rate: { amount: 0, currency: "USD" },
      }),
      // No wage at all: the member's first wage.
      noWage("m1", "2026-05-05T13:00:00Z", "2026-05-05T17:00:00Z"),
      // A job the member no longer has a wage for, and a member without wages: no wage.
      noWage("m1", "2026-05-06T13:00:00Z", "2026-05-06T17:00:00Z", { title: "Stock", job_id: "J9" }),
      noWage("m2", "2026-05-04T13:00:00Z", "2026-05-04T17:00:00Z"),
    ];
    const r = buildReview(shifts, { ...ctx, from: "2026-05-04", to: "2026-05-10", wages });
    const ana = r.rows.filter((x) => x.memberId === "m1");
    expect(ana.map((x) => [x.rate?.source, x.rate?.rate.amount, x.cost?.total.amount, x.flags])).toEqual([
      ["team-member-wage", 2500, 10000, []],
      ["team-member-wage", 1500, 6000, []],
      [undefined, undefined, undefined, ["no wage"]],
    ]);
    const bo = r.rows.find((x) => x.memberId === "m2");
    expect(bo?.cost).toBeUndefined();
    expect(bo?.flags).toEqual(["no wage"]);
    // Hours of the shifts without a wage count; their cost is not guessed as 0.
    expect(r.totals).toMatchObject({ paidHours: 16, noWageShifts: 2, cost: { amount: 16000, currency: "USD" } });
    expect(r.members.find((m) => m.memberId === "m2")).toMatchObject({ noWageShifts: 1, paidHours: 4 });
  });

  it("flags open shifts and counts them until now", () => {
    const open = shift("m1", "2026-05-10T10:00:00Z", undefined);
    const r = buildReview([open], { ...ctx, from: "2026-05-09", to: "2026-05-10" });
    expect(r.rows[0]?.flags).toEqual(["open"]);
    expect(r.rows[0]?.totals.paidHours).toBe(2);
    expect(r.totals.openShifts).toBe(1);
  });
});

describe("memberWeeks", () => {
  const members = new Map<string, TeamMember>([["m1", { id: "m1", given_name: "Ana", family_name: "Diaz" }]]);
  it("sums each member's week, a shift across the start of the week counting to both", () => {
    const days = ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07", "2026-05-08"];
    const shifts = [
      ...days.map((d) => shift("m1", `${d}T13:00:00Z`, `${d}T21:00:00Z`)),
      // Sunday 20:00 → Monday 04:00 New York time.
      shift("m1", "2026-05-11T00:00:00Z", "2026-05-11T08:00:00Z"),
    ];
    const ctx = {
      members,
      timeZone: TZ,
      startOfDay: "00:00",
      startOfWeek: "MON",
      now: new Date("2026-05-20T00:00:00Z"),
      from: "2026-05-04",
      to: "2026-05-17",
    };
    const review = buildReview(shifts, ctx);
    const weeks = memberWeeks(review, "MON");
    expect(
      weeks.map((w) => [w.week, w.weekEnd, w.shifts, w.paidHours, w.regularHours, w.overtimeHours, w.cost.amount]),
    ).toEqual([
      ["2026-05-04", "2026-05-10", 6, 44, 40, 4, 80000 + 12000],
      ["2026-05-11", "2026-05-17", 0, 4, 4, 0, 8000],
    ]);
    // The rows and the weeks agree to the cent.
    expect(weeks.reduce((t, w) => t + (w.cost.amount ?? 0), 0)).toBe(review.totals.cost.amount);
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
