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
}

/** The rules when the config file says nothing: 40 hours a week at 1.5×, no daily rule. */
export const DEFAULT_OVERTIME: OvertimeRules = { weeklyHours: 40, dailyHours: undefined, multiplier: 1.5 };

/** The overtime rules, or what is wrong with them: the field at fault and the problem in words. */
export type OvertimeParse = { ok: true; value: OvertimeRules } | { ok: false; field: string; problem: string };

const HOURS_IN_WEEK = 168;

/**
 * Reads the `overtime` object of the config file: `{ weeklyHours?, dailyHours?, multiplier? }`,
 * each field falling back to the default. `dailyHours: null` (or absent) means no daily rule.
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
  const known = ["weeklyHours", "dailyHours", "multiplier"];
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
    },
  };
}

/** The rules in a few words, for the review header: `overtime over 40 h/week at 1.5×`. */
export function describeOvertime(r: OvertimeRules): string {
  const limits = [r.dailyHours === undefined ? "" : `${r.dailyHours} h/day`, `${r.weeklyHours} h/week`].filter(Boolean);
  return `overtime over ${limits.join(" or ")} at ${r.multiplier}×`;
}

/** A stretch of paid time of one shift (unpaid breaks already taken out), as instants. */
export interface PaidInterval {
  /** Which shift it belongs to (the key the results come back under). */
  key: string;
  startMs: number;
  endMs: number;
}

/** The paid stretches of a shift: its span (until `now` while open) less its unpaid breaks. */
export function paidIntervals(key: string, shift: Shift, now: Date): PaidInterval[] {
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
  let at = start;
  for (const b of unpaid) {
    if (b.from > at) out.push({ key, startMs: at, endMs: b.from });
    at = Math.max(at, b.to);
  }
  if (end > at) out.push({ key, startMs: at, endMs: end });
  return out;
}

/** Paid minutes split into regular and overtime. */
export interface MinutesSplit {
  regularMinutes: number;
  /** Over the daily limit of their workday. */
  dailyOvertimeMinutes: number;
  /** Over the weekly limit of their workweek (daily overtime is not counted toward it twice). */
  weeklyOvertimeMinutes: number;
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

const emptySplit = (): MinutesSplit => ({ regularMinutes: 0, dailyOvertimeMinutes: 0, weeklyOvertimeMinutes: 0 });

/** Overtime minutes of a split, daily and weekly together. */
export const overtimeMinutes = (s: MinutesSplit): number => s.dailyOvertimeMinutes + s.weeklyOvertimeMinutes;

/**
 * Splits one member's paid time into regular and overtime. Time counts to the workday and
 * workweek in which it was worked: a stretch crossing the start of a workday (or of the
 * workweek) is cut there, at the real instant in the location's zone, so a week crossing DST is
 * 167 or 169 hours long and a night shift across it is paid for the hours actually worked.
 * Walking the stretches in time order, minutes past `dailyHours` in their workday are daily
 * overtime; the remaining minutes accumulate in their workweek and those past `weeklyHours` are
 * weekly overtime — so the shift where the week crosses the limit is partly overtime and every
 * later one wholly, and no minute is counted as overtime twice.
 */
export function splitOvertime(
  intervals: readonly PaidInterval[],
  calendar: WorkCalendar,
  rules: OvertimeRules,
): OvertimeSplit {
  const dayStarts = new Map<string, number>();
  const dayStart = (date: string) => {
    let at = dayStarts.get(date);
    if (at === undefined) {
      at = zonedInstant(date, calendar.startOfDay.slice(0, 5), calendar.timeZone).getTime();
      dayStarts.set(date, at);
    }
    return at;
  };
  const dayUsed = new Map<string, number>();
  const weekUsed = new Map<string, number>();
  const byKeyWeek = new Map<string, Map<string, MinutesSplit>>();
  const byWeek = new Map<string, MinutesSplit>();
  const dailyLimit = rules.dailyHours === undefined ? Number.POSITIVE_INFINITY : rules.dailyHours * 60;
  const weeklyLimit = rules.weeklyHours * 60;
  const sorted = [...intervals].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  for (const iv of sorted) {
    let at = iv.startMs;
    while (at < iv.endMs) {
      const workday = workdayOf(at, calendar.timeZone, calendar.startOfDay);
      const next = dayStart(addDays(workday, 1));
      // A zone rule that made `next` not later than `at` must not stall the walk.
      const pieceEnd = next > at ? Math.min(iv.endMs, next) : iv.endMs;
      const minutes = (pieceEnd - at) / MINUTE;
      const week = weekStartOf(workday, calendar.startOfWeek);
      const usedToday = dayUsed.get(workday) ?? 0;
      const daily = Math.max(0, Math.min(minutes, usedToday + minutes - dailyLimit));
      dayUsed.set(workday, usedToday + minutes);
      const rest = minutes - daily;
      const usedThisWeek = weekUsed.get(week) ?? 0;
      const weekly = Math.max(0, Math.min(rest, usedThisWeek + rest - weeklyLimit));
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
        map.set(week, s);
      }
      at = pieceEnd;
    }
  }
  return { byKeyWeek, byWeek };
}

/** What paid minutes cost at a rate: regular at the rate, overtime at the rate times the multiplier. */
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
  const overtime = Math.round((overtimeMinutes(split) * rate * multiplier) / 60);
  return {
    regular: { amount: regular, currency },
    overtime: { amount: overtime, currency },
    total: { amount: regular + overtime, currency },
  };
}
