import { describe, expect, it } from "vitest";
import type { Shift } from "../spec/generated/types.js";
import {
  addSplit,
  costOfSplit,
  DEFAULT_OVERTIME,
  describeOvertime,
  emptySplit,
  type MinutesSplit,
  overtimeMinutes,
  paidIntervals,
  parseOvertimeRules,
  splitOvertime,
} from "./overtime.js";
import { zonedInstant } from "./time.js";

const TZ = "America/New_York";
const MON = { timeZone: TZ, startOfDay: "00:00", startOfWeek: "MON" };

/** A closed shift from local `date time` for `hours`, as the service would hold it. */
function shiftAt(id: string, date: string, time: string, hours: number, breaks: Shift["breaks"] = []): Shift {
  const start = zonedInstant(date, time, TZ);
  return {
    id,
    location_id: "L1",
    team_member_id: "m1",
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + hours * 3_600_000).toISOString(),
    status: "CLOSED",
    breaks,
  };
}

const now = new Date("2027-01-01T00:00:00Z");
const hours = (s: MinutesSplit | undefined) =>
  s && {
    regular: s.regularMinutes / 60,
    daily: s.dailyOvertimeMinutes / 60,
    weekly: s.weeklyOvertimeMinutes / 60,
    ...(s.doubleTimeMinutes ? { double: s.doubleTimeMinutes / 60 } : {}),
  };
/** The split of each shift over all its weeks, in hours. */
function splitOf(shifts: Shift[], rules = DEFAULT_OVERTIME, calendar = MON) {
  const result = splitOvertime(
    shifts.flatMap((s) => paidIntervals(s.id ?? "", s, now)),
    calendar,
    rules,
  );
  const byShift = new Map<string, ReturnType<typeof hours>>();
  for (const [key, weeks] of result.byKeyWeek) {
    const total = [...weeks.values()].reduce(addSplit, emptySplit());
    byShift.set(key, hours(total));
  }
  return { byShift, byWeek: result.byWeek, byKeyWeek: result.byKeyWeek };
}

describe("overtime split", () => {
  it("makes hours past 40 in the week overtime, from the shift where the week crosses 40", () => {
    // Monday to Saturday, 9 hours a day: 36 h by Thursday, 45 h by Friday's end.
    const days = ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07", "2026-05-08", "2026-05-09"];
    const shifts = days.map((d) => shiftAt(d, d, "08:00", 9));
    const { byShift } = splitOf(shifts);
    expect(byShift.get("2026-05-04")).toEqual({ regular: 9, daily: 0, weekly: 0 });
    expect(byShift.get("2026-05-07")).toEqual({ regular: 9, daily: 0, weekly: 0 });
    expect(byShift.get("2026-05-08")).toEqual({ regular: 4, daily: 0, weekly: 5 });
    expect(byShift.get("2026-05-09")).toEqual({ regular: 0, daily: 0, weekly: 9 });
  });

  it("leaves unpaid breaks out and counts paid ones", () => {
    const lunch = {
      start_at: zonedInstant("2026-05-04", "12:00", TZ).toISOString(),
      end_at: zonedInstant("2026-05-04", "12:30", TZ).toISOString(),
      break_type_id: "B",
      name: "Lunch",
      expected_duration: "PT30M",
      is_paid: false,
    };
    const coffee = {
      ...lunch,
      name: "Coffee",
      is_paid: true,
      start_at: zonedInstant("2026-05-04", "15:00", TZ).toISOString(),
      end_at: zonedInstant("2026-05-04", "15:10", TZ).toISOString(),
    };
    const s = shiftAt("s", "2026-05-04", "08:00", 9, [lunch, coffee]);
    expect(paidIntervals("s", s, now).map((i) => (i.endMs - i.startMs) / 60_000)).toEqual([240, 270]);
    expect(splitOf([s]).byShift.get("s")).toEqual({ regular: 8.5, daily: 0, weekly: 0 });
  });

  it("applies a daily limit first and does not count those hours toward the week again", () => {
    const rules = { ...DEFAULT_OVERTIME, dailyHours: 8 };
    // Four 11-hour days: 12 h over the daily limit, 32 regular hours stay under 40.
    const days = ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07"];
    const { byShift } = splitOf(
      days.map((d) => shiftAt(d, d, "08:00", 11)),
      rules,
    );
    for (const d of days) expect(byShift.get(d)).toEqual({ regular: 8, daily: 3, weekly: 0 });
    // Two shifts the same day: the second goes over the daily limit part way.
    const split = splitOf([shiftAt("a", "2026-05-04", "06:00", 5), shiftAt("b", "2026-05-04", "14:00", 5)], rules);
    expect(split.byShift.get("a")).toEqual({ regular: 5, daily: 0, weekly: 0 });
    expect(split.byShift.get("b")).toEqual({ regular: 3, daily: 2, weekly: 0 });
  });

  it("has no daily rule by default: a 12-hour day alone is not overtime", () => {
    expect(splitOf([shiftAt("s", "2026-05-04", "08:00", 12)]).byShift.get("s")).toEqual({
      regular: 12,
      daily: 0,
      weekly: 0,
    });
  });

  it("pays a night shift across the autumn DST change for the hours worked, in the right week", () => {
    // 2026-11-01 01:00–02:00 happens twice in New York. Sat 22:00 → Sun 06:00 is 9 real hours.
    const start = zonedInstant("2026-10-31", "22:00", TZ);
    const end = zonedInstant("2026-11-01", "06:00", TZ);
    expect((end.getTime() - start.getTime()) / 3_600_000).toBe(9);
    const night: Shift = {
      id: "night",
      location_id: "L1",
      team_member_id: "m1",
      start_at: start.toISOString(),
      end_at: end.toISOString(),
      status: "CLOSED",
    };
    // Monday to Thursday, 8 hours: 32 h; the night brings the week (Mon 26 Oct – Sun 1 Nov) to 41.
    const days = ["2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29"];
    const { byShift, byWeek } = splitOf([...days.map((d) => shiftAt(d, d, "09:00", 8)), night]);
    expect(byShift.get("night")).toEqual({ regular: 8, daily: 0, weekly: 1 });
    expect(hours(byWeek.get("2026-10-26"))).toEqual({ regular: 40, daily: 0, weekly: 1 });
    // With a daily limit of 6 the night splits at midnight: 2 h on Saturday, 7 h (1 over) on Sunday.
    const daily = splitOf([night], { ...DEFAULT_OVERTIME, dailyHours: 6 });
    expect(daily.byShift.get("night")).toEqual({ regular: 8, daily: 1, weekly: 0 });
  });

  it("pays a night shift across the spring DST change for 7 hours, and the short week ends at its real start", () => {
    const start = zonedInstant("2026-03-07", "22:00", TZ);
    const end = zonedInstant("2026-03-08", "06:00", TZ);
    const night: Shift = {
      id: "night",
      location_id: "L1",
      team_member_id: "m1",
      start_at: start.toISOString(),
      end_at: end.toISOString(),
      status: "CLOSED",
    };
    // The week starts Sunday 00:00 here: 2 h count to the week before, 5 h to the week of 8 March.
    const { byKeyWeek } = splitOf([night], DEFAULT_OVERTIME, { ...MON, startOfWeek: "SUN" });
    const weeks = byKeyWeek.get("night");
    expect([...(weeks?.keys() ?? [])]).toEqual(["2026-03-01", "2026-03-08"]);
    expect(hours(weeks?.get("2026-03-01"))).toEqual({ regular: 2, daily: 0, weekly: 0 });
    expect(hours(weeks?.get("2026-03-08"))).toEqual({ regular: 5, daily: 0, weekly: 0 });
  });

  it("cuts a shift crossing the start of the workweek: the old week's overtime, the new week's regular", () => {
    // 40 h Mon–Fri, then Sunday 20:00 → Monday 04:00 with weeks starting Monday 00:00.
    const days = ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07", "2026-05-08"];
    const crossing = shiftAt("crossing", "2026-05-10", "20:00", 8);
    const { byKeyWeek, byShift } = splitOf([...days.map((d) => shiftAt(d, d, "09:00", 8)), crossing]);
    expect(hours(byKeyWeek.get("crossing")?.get("2026-05-04"))).toEqual({ regular: 0, daily: 0, weekly: 4 });
    expect(hours(byKeyWeek.get("crossing")?.get("2026-05-11"))).toEqual({ regular: 4, daily: 0, weekly: 0 });
    expect(byShift.get("crossing")).toEqual({ regular: 4, daily: 0, weekly: 4 });
    // A start of day at 05:00 keeps Monday 00:00–04:00 in Sunday's workday, so in the old week.
    const late = splitOf([...days.map((d) => shiftAt(d, d, "09:00", 8)), crossing], DEFAULT_OVERTIME, {
      ...MON,
      startOfDay: "05:00",
    });
    expect(late.byShift.get("crossing")).toEqual({ regular: 0, daily: 0, weekly: 8 });
  });

  it("counts an open shift until now", () => {
    const open: Shift = {
      id: "open",
      location_id: "L1",
      team_member_id: "m1",
      start_at: "2026-05-04T13:00:00Z",
      status: "OPEN",
    };
    const at = new Date("2026-05-04T15:30:00Z");
    expect(paidIntervals("open", open, at)).toEqual([
      { key: "open", startMs: Date.parse("2026-05-04T13:00:00Z"), endMs: at.getTime() },
    ]);
  });
});

describe("overtime cost", () => {
  it("costs regular minutes at the rate and overtime at the multiplier, in cents", () => {
    const split = { regularMinutes: 240, dailyOvertimeMinutes: 0, weeklyOvertimeMinutes: 300, doubleTimeMinutes: 0 };
    expect(overtimeMinutes(split)).toBe(300);
    expect(costOfSplit(split, { amount: 2000, currency: "USD" }, 1.5)).toEqual({
      regular: { amount: 8000, currency: "USD" },
      overtime: { amount: 15000, currency: "USD" },
      total: { amount: 23000, currency: "USD" },
    });
    // 20 minutes at 15.55/h: 5.1833… rounds to 5.18; overtime at 2×: 10.3666… → 10.37.
    const odd = costOfSplit(
      { regularMinutes: 20, dailyOvertimeMinutes: 20, weeklyOvertimeMinutes: 0, doubleTimeMinutes: 0 },
      { amount: 1555, currency: "USD" },
      2,
    );
    expect(odd.regular.amount).toBe(518);
    expect(odd.overtime.amount).toBe(1037);
    expect(odd.total.amount).toBe(1555);
  });
});

describe("overtime rules from the config file", () => {
  it("defaults to 40 h a week at 1.5× with no daily rule", () => {
    expect(parseOvertimeRules(undefined)).toEqual({ ok: true, value: DEFAULT_OVERTIME });
    expect(DEFAULT_OVERTIME).toEqual({
      weeklyHours: 40,
      dailyHours: undefined,
      multiplier: 1.5,
      doubleTimeDailyHours: undefined,
    });
    expect(describeOvertime(DEFAULT_OVERTIME)).toBe("overtime over 40 h/week at 1.5×");
  });

  it("reads each field and falls back for the others", () => {
    expect(parseOvertimeRules({ dailyHours: 8 })).toEqual({
      ok: true,
      value: { ...DEFAULT_OVERTIME, dailyHours: 8 },
    });
    expect(parseOvertimeRules({ weeklyHours: 44, dailyHours: null, multiplier: 2 })).toEqual({
      ok: true,
      value: { weeklyHours: 44, dailyHours: undefined, multiplier: 2, doubleTimeDailyHours: undefined },
    });
    expect(describeOvertime({ ...DEFAULT_OVERTIME, dailyHours: 8, multiplier: 2 })).toBe(
      "overtime over 8 h/day or 40 h/week at 2×",
    );
  });

  it("explains a bad value, naming the field", () => {
    const problem = (raw: unknown) => {
      const r = parseOvertimeRules(raw);
      return r.ok ? "accepted" : `${r.field} ${r.problem}`;
    };
    expect(problem("40")).toMatch(/^overtime must be an object such as/);
    expect(problem({ weeklyHours: "40" })).toBe('overtime.weeklyHours must be a number of hours, not "40"');
    expect(problem({ weeklyHours: 0 })).toBe("overtime.weeklyHours must be more than 0 and at most 168 hours, not 0");
    expect(problem({ dailyHours: 25 })).toBe("overtime.dailyHours must be more than 0 and at most 24 hours, not 25");
    expect(problem({ multiplier: 0.5 })).toBe(
      "overtime.multiplier must be from 1 to 10 (1.5 is time and a half), not 0.5",
    );
    expect(problem({ multiplier: "1.5x" })).toMatch(/overtime.multiplier must be a number such as 1.5/);
    expect(problem({ weekly: 40 })).toBe(
      "overtime.weekly is not a setting; overtime takes weeklyHours, dailyHours, multiplier, doubleTimeDailyHours",
    );
  });

  it("reads an optional daily double time, after the daily limit", () => {
    expect(parseOvertimeRules({ dailyHours: 8, doubleTimeDailyHours: 12 })).toEqual({
      ok: true,
      value: { weeklyHours: 40, dailyHours: 8, multiplier: 1.5, doubleTimeDailyHours: 12 },
    });
    expect(parseOvertimeRules({ doubleTimeDailyHours: null })).toMatchObject({
      ok: true,
      value: { doubleTimeDailyHours: undefined },
    });
    expect(describeOvertime({ ...DEFAULT_OVERTIME, dailyHours: 8, doubleTimeDailyHours: 12 })).toBe(
      "overtime over 8 h/day or 40 h/week at 1.5×, double over 12 h/day",
    );
    const problem = (raw: unknown) => {
      const r = parseOvertimeRules(raw);
      return r.ok ? "accepted" : `${r.field} ${r.problem}`;
    };
    expect(problem({ dailyHours: 8, doubleTimeDailyHours: 8 })).toBe(
      "overtime.doubleTimeDailyHours must be more than dailyHours (8): double time starts after overtime, not 8",
    );
    expect(problem({ doubleTimeDailyHours: "12" })).toBe(
      'overtime.doubleTimeDailyHours must be a number of hours, not "12"',
    );
    expect(problem({ doubleTimeDailyHours: 30 })).toBe(
      "overtime.doubleTimeDailyHours must be more than 0 and at most 24 hours, not 30",
    );
  });
});
