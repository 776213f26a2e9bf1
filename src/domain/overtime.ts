import type { Money, Shift } from "../spec/generated/types.js";
import { addDays, weekStartOf, workdayOf, zonedInstant } from "./time.js";

const MINUTE = 60_000;

/** When hours become overtime and what they cost. */
export interface OvertimeRules {
  /** Paid hours in one workweek beyond which every further hour is overtime. */
  weeklyHours: number;
  /** Paid hours in one workday beyond which the rest of that day is overtime; undefined: no daily rule. */
  dailyHours: number | undefined;
  /** Overtime pay as a multiple of the hourly rate (1.5 = time and a half). */
  multiplier: number;
  /**
   * Paid hours in one workday beyond which the rest of that day is paid double
   * ({@link DOUBLE_TIME}× the rate; 12 in California); undefined: no double time.
   */
  doubleTimeDailyHours: number | undefined;
}

/** Double time pays the hourly rate twice over. */
export const DOUBLE_TIME = 2;

/** The rules when the config file says nothing: 40 hours a week at 1.5×, no daily rule, no double time. */
export const DEFAULT_OVERTIME: OvertimeRules = {
  weeklyHours: 40,
  dailyHours: undefined,
  multiplier: 1.5,
  doubleTimeDailyHours: undefined,
};

/** The overtime rules, or what is wrong with them: the field at fault and the problem in words. */
export type OvertimeParse = { ok: true; value: OvertimeRules } | { ok: false; field: string; problem: string };

const HOURS_IN_WEEK = 168;

/**
 * Reads the `overtime` object of the config file: `{ weeklyHours?, dailyHours?, multiplier?,
 * doubleTimeDailyHours? }`, each field falling back to the default. `dailyHours: null` (or absent)
 * means no daily rule; `doubleTimeDailyHours: null` (or absent) no double time.
 */
export function parseOvertimeRules(raw: unknown): OvertimeParse {
  if (raw === undefined || raw === null) return { ok: true, value: DEFAULT_OVERTIME };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return {
      ok: false,
      field: "overtime",
      problem: 'must be an object such as {"weeklyHours": 40, "dailyHours": 8, "multiplier": 1.5}',
    };
  }
  const o = raw as Record<string, unknown>;
  const known = ["weeklyHours", "dailyHours", "multiplier", "doubleTimeDailyHours"];
  const unknown = Object.keys(o).find((k) => !known.includes(k));
  if (unknown !== undefined) {
    return { ok: false, field: `overtime.${unknown}`, problem: `is not a setting; overtime takes ${known.join(", ")}` };
  }
  const bad = (name: string, problem: string): OvertimeParse => ({ ok: false, field: `overtime.${name}`, problem });
  const hoursIn = (name: string, max: number): number | OvertimeParse | undefined => {
    const v = o[name];
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isFinite(v))
      return bad(name, `must be a number of hours, not ${JSON.stringify(v)}`);
    if (v <= 0 || v > max) return bad(name, `must be more than 0 and at most ${max} hours, not ${v}`);
    return v;
  };
  const weekly = hoursIn("weeklyHours", HOURS_IN_WEEK);
  if (typeof weekly === "object") return weekly;
  const daily = o.dailyHours === null ? undefined : hoursIn("dailyHours", 24);
  if (typeof daily === "object") return daily;
  const double = o.doubleTimeDailyHours === null ? undefined : hoursIn("doubleTimeDailyHours", 24);
  if (typeof double === "object") return double;
  if (double !== undefined && daily !== undefined && double <= daily) {
    return bad(
      "doubleTimeDailyHours",
      `must be more than dailyHours (${daily}): double time starts after overtime, not ${double}`,
    );
  }
  const m = o.multiplier;
  if (m !== undefined && (typeof m !== "number" || !Number.isFinite(m))) {
    return bad("multiplier", `must be a number such as 1.5 (time and a half), not ${JSON.stringify(m)}`);
  }
  if (typeof m === "number" && (m < 1 || m > 10)) {
    return bad("multiplier", `must be from 1 to 10 (1.5 is time and a half), not ${m}`);
  }
  return {
    ok: true,
    value: {
      weeklyHours: weekly ?? DEFAULT_OVERTIME.weeklyHours,
      dailyHours: daily,
      multiplier: typeof m === "number" ? m : DEFAULT_OVERTIME.multiplier,
      doubleTimeDailyHours: double,
    },
  };
}

/**
 * The rules in a few words, for the review header: `overtime over 40 h/week at 1.5×`, and
 * `, double over 12 h/day` when double time is set.
 */
export function describeOvertime(r: OvertimeRules): string {
  const limits = [r.dailyHours === undefined ? "" : `${r.dailyHours} h/day`, `${r.weeklyHours} h/week`].filter(Boolean);
  const double = r.doubleTimeDailyHours === undefined ? "" : `, double over ${r.doubleTimeDailyHours} h/day`;
  return `overtime over ${limits.join(" or ")} at ${r.multiplier}×${double}`;
}

/** A stretch of paid time of one shift (unpaid breaks already taken out), as instants. */
export interface PaidInterval {
  /** Which shift it belongs to (the key the results come back under). */
  key: string;
  startMs: number;
  endMs: number;
  /**
   * The time zone of the location it was worked at, which decides its workday; the calendar's
   * zone when absent. A member who works at stores in two zones has each hour counted to the
   * workday of the store where it was worked.
   */
  timeZone?: string;
}

/** The paid stretches of a shift: its span (until `now` while open) less its unpaid breaks. */
export function paidIntervals(key: string, shift: Shift, now: Date, timeZone?: string): PaidInterval[] {
  const start = Date.parse(shift.start_at);
  const end = shift.end_at ? Date.parse(shift.end_at) : Math.max(start, now.getTime());
  const unpaid = (shift.breaks ?? [])
    .filter((b) => !b.is_paid)
    .map((b) => ({
      from: Math.max(start, Date.parse(b.start_at)),
      to: Math.min(end, b.end_at ? Date.parse(b.end_at) : end),
    }))
    .filter((b) => b.to > b.from)
    .sort((a, b) => a.from - b.from);
  const out: PaidInterval[] = [];
  const piece = (startMs: number, endMs: number): PaidInterval =>
    timeZone === undefined ? { key, startMs, endMs } : { key, startMs, endMs, timeZone };
  let at = start;
  for (const b of unpaid) {
    if (b.from > at) out.push(piece(at, b.from));
    at = Math.max(at, b.to);
  }
  if (end > at) out.push(piece(at, end));
  return out;
}

/** Paid minutes split into regular, overtime and double time. */
export interface MinutesSplit {
  regularMinutes: number;
  /** Over the daily limit of their workday (and under the double-time limit). */
  dailyOvertimeMinutes: number;
  /** Over the weekly limit of their workweek (daily overtime is not counted toward it twice). */
  weeklyOvertimeMinutes: number;
  /** Over the daily double-time limit of their workday: paid {@link DOUBLE_TIME}×. */
  doubleTimeMinutes: number;
}

/** The workweek calendar: the location's zone, the start of each workday and the first day of the week. */
export interface WorkCalendar {
  timeZone: string;
  /** `HH:MM` at which a workday begins. */
  startOfDay: string;
  /** `MON` … `SUN`. */
  startOfWeek: string;
}

/** One member's paid time split into overtime: per shift key and workweek, and per workweek (by its first date). */
export interface OvertimeSplit {
  /** Shift key → workweek → minutes: a shift crossing the start of a week has two entries. */
  byKeyWeek: Map<string, Map<string, MinutesSplit>>;
  byWeek: Map<string, MinutesSplit>;
}

/** A split of no minutes, to add to. */
export const emptySplit = (): MinutesSplit => ({
  regularMinutes: 0,
  dailyOvertimeMinutes: 0,
  weeklyOvertimeMinutes: 0,
  doubleTimeMinutes: 0,
});

/** Two splits added together. */
export const addSplit = (a: MinutesSplit, b: MinutesSplit): MinutesSplit => ({
  regularMinutes: a.regularMinutes + b.regularMinutes,
  dailyOvertimeMinutes: a.dailyOvertimeMinutes + b.dailyOvertimeMinutes,
  weeklyOvertimeMinutes: a.weeklyOvertimeMinutes + b.weeklyOvertimeMinutes,
  doubleTimeMinutes: a.doubleTimeMinutes + b.doubleTimeMinutes,
});

/** Overtime minutes of a split: daily, weekly and double time together. */
export const overtimeMinutes = (s: MinutesSplit): number =>
  s.dailyOvertimeMinutes + s.weeklyOvertimeMinutes + s.doubleTimeMinutes;

/** Paid minutes of a split, regular and overtime. */
export const paidMinutes = (s: MinutesSplit): number => s.regularMinutes + overtimeMinutes(s);

/**
 * Splits one member's paid time into regular, overtime and double time. Time counts to the
 * workday and workweek in which it was worked, in the zone of the store where it was worked
 * (`timeZone` of the interval, else the calendar's): a stretch crossing the start of a workday (or
 * of the workweek) is cut there, at the real instant, so a week crossing DST is 167 or 169 hours
 * long and a night shift across it is paid for the hours actually worked. The intervals may come
 * from every store of the business: a workday and a workweek hold all of the member's hours, at
 * whichever store. Walking the stretches in time order, minutes past `doubleTimeDailyHours` in
 * their workday are double time and those past `dailyHours` daily overtime; the remaining minutes
 * accumulate in their workweek and those past `weeklyHours` are weekly overtime — so the shift
 * where the week crosses the limit is partly overtime and every later one wholly (whichever store
 * it was at: the cost falls where the hours past the limit were worked), and no minute is counted
 * as overtime twice.
 */
export function splitOvertime(
  intervals: readonly PaidInterval[],
  calendar: WorkCalendar,
  rules: OvertimeRules,
): OvertimeSplit {
  const dayStarts = new Map<string, number>();
  const dayStart = (date: string, timeZone: string) => {
    const key = `${timeZone}|${date}`;
    let at = dayStarts.get(key);
    if (at === undefined) {
      at = zonedInstant(date, calendar.startOfDay.slice(0, 5), timeZone).getTime();
      dayStarts.set(key, at);
    }
    return at;
  };
  const dayUsed = new Map<string, number>();
  const weekUsed = new Map<string, number>();
  const byKeyWeek = new Map<string, Map<string, MinutesSplit>>();
  const byWeek = new Map<string, MinutesSplit>();
  const limitOf = (hours: number | undefined) => (hours === undefined ? Number.POSITIVE_INFINITY : hours * 60);
  const dailyLimit = limitOf(rules.dailyHours);
  const doubleLimit = limitOf(rules.doubleTimeDailyHours);
  const weeklyLimit = rules.weeklyHours * 60;
  /** Of `minutes` added to `used`, those past `limit`. */
  const past = (minutes: number, used: number, limit: number) => Math.max(0, Math.min(minutes, used + minutes - limit));
  const sorted = [...intervals].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  for (const iv of sorted) {
    const timeZone = iv.timeZone ?? calendar.timeZone;
    let at = iv.startMs;
    while (at < iv.endMs) {
      const workday = workdayOf(at, timeZone, calendar.startOfDay);
      const next = dayStart(addDays(workday, 1), timeZone);
      // A zone rule that made `next` not later than `at` must not stall the walk.
      const pieceEnd = next > at ? Math.min(iv.endMs, next) : iv.endMs;
      const minutes = (pieceEnd - at) / MINUTE;
      const week = weekStartOf(workday, calendar.startOfWeek);
      const usedToday = dayUsed.get(workday) ?? 0;
      dayUsed.set(workday, usedToday + minutes);
      const double = past(minutes, usedToday, doubleLimit);
      const daily = past(minutes, usedToday, dailyLimit) - double;
      const rest = minutes - daily - double;
      const usedThisWeek = weekUsed.get(week) ?? 0;
      const weekly = past(rest, usedThisWeek, weeklyLimit);
      weekUsed.set(week, usedThisWeek + rest);
      let ofKey = byKeyWeek.get(iv.key);
      if (!ofKey) {
        ofKey = new Map();
        byKeyWeek.set(iv.key, ofKey);
      }
      for (const map of [ofKey, byWeek]) {
        const s = map.get(week) ?? emptySplit();
        s.regularMinutes += rest - weekly;
        s.dailyOvertimeMinutes += daily;
        s.weeklyOvertimeMinutes += weekly;
        s.doubleTimeMinutes += double;
        map.set(week, s);
      }
      at = pieceEnd;
    }
  }
  return { byKeyWeek, byWeek };
}

/**
 * What paid minutes cost at a rate: regular at the rate, overtime at the rate times the
 * multiplier, double time at twice the rate (both in `overtime`).
 */
export interface SplitCost {
  regular: Money;
  overtime: Money;
  total: Money;
}

/** Costs a split at an hourly rate, each part rounded to the smallest currency unit. */
export function costOfSplit(split: MinutesSplit, hourlyRate: Money, multiplier: number): SplitCost {
  const rate = hourlyRate.amount ?? 0;
  const currency = hourlyRate.currency ?? "USD";
  const regular = Math.round((split.regularMinutes * rate) / 60);
  const timeAndAHalf = split.dailyOvertimeMinutes + split.weeklyOvertimeMinutes;
  const overtime = Math.round((timeAndAHalf * rate * multiplier + split.doubleTimeMinutes * rate * DOUBLE_TIME) / 60);
  return {
    regular: { amount: regular, currency },
    overtime: { amount: overtime, currency },
    total: { amount: regular + overtime, currency },
  };
}
