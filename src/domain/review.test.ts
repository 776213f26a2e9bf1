import { describe, expect, it } from "vitest";
import { shift, TZ } from "../../test/shift-helpers.js";
import type { Money, Shift, TeamMember } from "../spec/generated/types.js";
import { DEFAULT_OVERTIME } from "./overtime.js";
import { buildReview, memberWeeks } from "./review.js";
import { zonedInstant } from "./time.js";

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
      overtime: { ...DEFAULT_OVERTIME, dailyHours: 8 },
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

describe("overtime across stores", () => {
  // Mei works at Main Street (New York, 20.00/h) and Harbour Dock (Los Angeles, 24.00/h). Each
  // shift is written in its store's local time; the table is worked by hand below.
  const NY = "America/New_York";
  const LA = "America/Los_Angeles";
  const zones = new Map([
    ["MAIN", NY],
    ["DOCK", LA],
  ]);
  const members = new Map<string, TeamMember>([["mei", { id: "mei", given_name: "Mei", family_name: "Chen" }]]);
  const at = (id: string, store: "MAIN" | "DOCK", date: string, from: string, to: string): Shift => {
    const tz = store === "MAIN" ? NY : LA;
    return {
      id,
      location_id: store,
      team_member_id: "mei",
      start_at: zonedInstant(date, from, tz).toISOString(),
      end_at: zonedInstant(date, to, tz).toISOString(),
      status: "CLOSED",
      wage: { title: "Key Holder", hourly_rate: { amount: store === "MAIN" ? 2000 : 2400, currency: "USD" } },
    };
  };
  // The week of Monday 30 March 2026:
  //   Mon–Wed  Main Street 09:00–17:00   3 × 8 h = 24 h   running total 24 h
  //   Thu–Fri  Harbour Dock 09:00–19:00  2 × 10 h = 20 h  running total 44 h: Friday's last 4 h over 40
  //   Sat      Main Street 10:00–14:00   4 h             running total 48 h: all 4 h over 40
  //
  //   store          regular h  overtime h  regular cost        overtime cost      cost
  //   Main Street    24         4           24 × 20 =  480.00   4 × 30 = 120.00     600.00
  //   Harbour Dock   16         4           16 × 24 =  384.00   4 × 36 = 144.00     528.00
  //   all            40         8                      864.00            264.00    1128.00
  //
  // Alone, neither store reaches 40 h (Main 28 h, Harbour 20 h): all 8 overtime hours come from
  // counting both stores together.
  const week = [
    at("mon", "MAIN", "2026-03-30", "09:00", "17:00"),
    at("tue", "MAIN", "2026-03-31", "09:00", "17:00"),
    at("wed", "MAIN", "2026-04-01", "09:00", "17:00"),
    at("thu", "DOCK", "2026-04-02", "09:00", "19:00"),
    at("fri", "DOCK", "2026-04-03", "09:00", "19:00"),
    at("sat", "MAIN", "2026-04-04", "10:00", "14:00"),
  ];
  const ctx = {
    members,
    timeZone: NY,
    zones,
    startOfDay: "00:00",
    startOfWeek: "MON",
    now: new Date("2026-04-10T00:00:00Z"),
    from: "2026-03-30",
    to: "2026-04-05",
  };
  const figures = (r: { regularHours: number; overtimeHours: number; regularCost: Money; overtimeCost: Money }) => [
    r.regularHours,
    r.overtimeHours,
    r.regularCost.amount,
    r.overtimeCost.amount,
  ];

  it("counts the week's hours at both stores and costs the overtime where it fell", () => {
    const main = buildReview(week, { ...ctx, locationId: "MAIN" });
    const dock = buildReview(week, { ...ctx, locationId: "DOCK" });
    const all = buildReview(week, ctx);
    expect(main.rows.map((r) => r.shift.id)).toEqual(["mon", "tue", "wed", "sat"]);
    expect(figures(main.totals)).toEqual([24, 4, 48000, 12000]);
    expect(figures(dock.totals)).toEqual([16, 4, 38400, 14400]);
    expect(figures(all.totals)).toEqual([40, 8, 86400, 26400]);
    expect(all.totals.cost.amount).toBe(112800);
    // Friday is 6 h regular and 4 h over; Saturday wholly over.
    expect(dock.rows.map((r) => [r.shift.id, r.regularHours, r.overtimeHours])).toEqual([
      ["thu", 10, 0],
      ["fri", 6, 4],
    ]);
    expect(main.rows.find((r) => r.shift.id === "sat")).toMatchObject({ overtimeHours: 4, overWeek: true });
  });

  it("says when a member's overtime comes from hours at another store", () => {
    const main = buildReview(week, { ...ctx, locationId: "MAIN" });
    const mei = main.members[0];
    expect(mei).toMatchObject({ overtimeHours: 4, overtimeFromElsewhereHours: 4, locationIds: ["MAIN"] });
    expect(mei?.elsewhere).toEqual([{ locationId: "DOCK", hours: 20 }]);
    expect(main.rows.find((r) => r.shift.id === "sat")?.flags).toContain("overtime from other stores");
    expect(main.rows.find((r) => r.shift.id === "mon")?.flags).toEqual([]);
    // Over 40 at one store alone: that overtime is the store's own, not from elsewhere.
    const longer = [...week, at("sun", "MAIN", "2026-04-05", "08:00", "20:00")];
    const again = buildReview(longer, { ...ctx, locationId: "MAIN" });
    // Main alone: 24 + 4 + 12 = 40 h, no overtime; with Harbour's 20 h, all 16 h after Friday are over.
    expect(again.members[0]).toMatchObject({ overtimeHours: 16, overtimeFromElsewhereHours: 16 });
    // A review of all locations has no "elsewhere".
    expect(buildReview(week, ctx).members[0]).toMatchObject({ overtimeFromElsewhereHours: 0, elsewhere: [] });
  });

  it("sums one row per member per week across stores for all locations", () => {
    const weeks = memberWeeks(buildReview(week, ctx), "MON");
    expect(weeks).toHaveLength(1);
    expect(weeks[0]).toMatchObject({
      memberName: "Mei Chen",
      week: "2026-03-30",
      shifts: 6,
      paidHours: 48,
      regularHours: 40,
      overtimeHours: 8,
      locationIds: ["DOCK", "MAIN"],
      cost: { amount: 112800, currency: "USD" },
    });
  });

  it("counts all hours of a workday at both stores toward the daily limit, in each store's zone", () => {
    // Monday 6 April: Main Street 07:00–12:00 New York (5 h), then Harbour Dock 10:00–14:00 Los
    // Angeles (13:00–17:00 New York, 4 h). The workday holds 9 h: the last hour, at Harbour Dock,
    // is over 8. Main 5 × 20 = 100.00; Harbour 3 × 24 + 1 × 36 = 108.00.
    const day = [at("am", "MAIN", "2026-04-06", "07:00", "12:00"), at("pm", "DOCK", "2026-04-06", "10:00", "14:00")];
    const rules = { ...DEFAULT_OVERTIME, dailyHours: 8 };
    const daily = { ...ctx, from: "2026-04-06", to: "2026-04-06", overtime: rules };
    const main = buildReview(day, { ...daily, locationId: "MAIN" });
    const dock = buildReview(day, { ...daily, locationId: "DOCK" });
    expect(figures(main.totals)).toEqual([5, 0, 10000, 0]);
    expect(figures(dock.totals)).toEqual([3, 1, 7200, 3600]);
    expect(dock.rows[0]).toMatchObject({ workday: "2026-04-06", overDay: true, overtimeFromElsewhereHours: 1 });
    expect(dock.members[0]?.overDays).toEqual(["2026-04-06"]);
    const all = buildReview(day, daily);
    expect(figures(all.totals)).toEqual([8, 1, 17200, 3600]);
  });
});

describe("double time", () => {
  it("pays hours past doubleTimeDailyHours at twice the rate, after the daily overtime", () => {
    const members = new Map<string, TeamMember>([["m1", { id: "m1", given_name: "Ana" }]]);
    // 13 hours at 20.00 under 8 h/day and 12 h/day double: 8 regular (160.00), 4 at 1.5× (120.00),
    // 1 at 2× (40.00): 320.00.
    const long = shift("m1", "2026-05-04T11:00:00Z", "2026-05-05T00:00:00Z");
    const overtime = { ...DEFAULT_OVERTIME, dailyHours: 8, doubleTimeDailyHours: 12 };
    const ctx = {
      members,
      timeZone: TZ,
      startOfDay: "00:00",
      startOfWeek: "MON",
      now: new Date("2026-05-06T00:00:00Z"),
    };
    const r = buildReview([long], { ...ctx, from: "2026-05-04", to: "2026-05-04", overtime });
    expect(r.rows[0]).toMatchObject({ regularHours: 8, overtimeHours: 5, overDay: true });
    expect(r.rows[0]?.pieces[0]?.split).toEqual({
      regularMinutes: 480,
      dailyOvertimeMinutes: 240,
      weeklyOvertimeMinutes: 0,
      doubleTimeMinutes: 60,
    });
    expect(r.totals.regularCost.amount).toBe(16000);
    expect(r.totals.overtimeCost.amount).toBe(16000);
    expect(r.totals.cost.amount).toBe(32000);
    // Without the setting the same day is 8 regular and 5 at 1.5×.
    const plain = buildReview([long], {
      ...ctx,
      from: "2026-05-04",
      to: "2026-05-04",
      overtime: { ...overtime, doubleTimeDailyHours: undefined },
    });
    expect(plain.totals.overtimeCost.amount).toBe(15000);
  });
});
