import type {
  Break,
  BreakType,
  Currency,
  Money,
  SearchShiftsRequest,
  Shift,
  TeamMember,
} from "../spec/generated/types.js";
import { durationMinutes, localTime, weekStartOf, workdayOf } from "./time.js";

const MINUTE = 60_000;

/** Hours beyond which a workday counts as overtime. */
export const DAILY_OVERTIME_HOURS = 8;
/** Hours beyond which a workweek counts as overtime. */
export const WEEKLY_OVERTIME_HOURS = 40;

/** Time worked and on break in one shift, and what it costs. */
export interface ShiftTotals {
  /** From start to end (or now, while open), breaks included. */
  spanMinutes: number;
  paidBreakMinutes: number;
  unpaidBreakMinutes: number;
  /** Span minus unpaid breaks, in hours. */
  paidHours: number;
  /** Unpaid breaks, in hours. */
  unpaidHours: number;
  /** Paid hours times the shift's hourly rate; undefined without a rate. */
  cost: Money | undefined;
}

const ms = (iso: string) => new Date(iso).getTime();

/** Minutes of one break; a running break counts until `until`. */
export function breakMinutes(b: Break, until: Date): number {
  const end = b.end_at ? ms(b.end_at) : until.getTime();
  return Math.max(0, (end - ms(b.start_at)) / MINUTE);
}

/** Totals of one shift; an open shift (and its running break) counts until `now`. */
export function shiftTotals(shift: Shift, now: Date): ShiftTotals {
  const end = shift.end_at ? new Date(shift.end_at) : now;
  const spanMinutes = Math.max(0, (end.getTime() - ms(shift.start_at)) / MINUTE);
  let paidBreakMinutes = 0;
  let unpaidBreakMinutes = 0;
  for (const b of shift.breaks ?? []) {
    const minutes = breakMinutes(b, end);
    if (b.is_paid) paidBreakMinutes += minutes;
    else unpaidBreakMinutes += minutes;
  }
  const paidHours = Math.max(0, spanMinutes - unpaidBreakMinutes) / 60;
  return {
    spanMinutes,
    paidBreakMinutes,
    unpaidBreakMinutes,
    paidHours,
    unpaidHours: unpaidBreakMinutes / 60,
    cost: wageCost(paidHours, shift.wage?.hourly_rate),
  };
}

/** Hours at an hourly rate, rounded to the smallest currency unit. */
export function wageCost(hours: number, hourlyRate: Money | undefined): Money | undefined {
  if (!hourlyRate || typeof hourlyRate.amount !== "number") return undefined;
  return { amount: Math.round(hours * hourlyRate.amount), currency: hourlyRate.currency ?? "USD" };
}

/** Sum of amounts of one currency; undefined entries are skipped. */
export function sumMoney(items: readonly (Money | undefined)[], currency: Currency = "USD"): Money {
  let amount = 0;
  let cur = currency;
  for (const m of items) {
    if (!m || typeof m.amount !== "number") continue;
    amount += m.amount;
    cur = m.currency ?? cur;
  }
  return { amount, currency: cur };
}

/** Formats money as `12.34 USD` (two decimals; the demo currencies all have cents). */
export function formatMoney(m: Money | undefined): string {
  if (!m || typeof m.amount !== "number") return "—";
  return `${(m.amount / 100).toFixed(2)} ${m.currency ?? ""}`.trim();
}

/** A team member's display name. */
export function memberName(m: TeamMember | undefined): string {
  if (!m) return "(unknown)";
  const name = [m.given_name, m.family_name].filter(Boolean).join(" ");
  return name || m.email_address || m.id || "(unnamed)";
}

/** The break still running in a shift, if any. */
export function runningBreak(shift: Shift | undefined): Break | undefined {
  return shift?.breaks?.find((b) => !b.end_at);
}

/** Where a team member is in the day. */
export type MemberState =
  | { kind: "clocked-out" }
  | { kind: "on-shift"; shift: Shift; since: string }
  | { kind: "on-break"; shift: Shift; breakName: string; since: string; paid: boolean };

/** The state shown for a member from their open shift (if any), with times in `timeZone`. */
export function memberState(openShift: Shift | undefined, timeZone: string): MemberState {
  if (!openShift || openShift.status === "CLOSED" || openShift.end_at) return { kind: "clocked-out" };
  const b = runningBreak(openShift);
  if (b)
    return {
      kind: "on-break",
      shift: openShift,
      breakName: b.name,
      since: localTime(b.start_at, timeZone),
      paid: b.is_paid,
    };
  return { kind: "on-shift", shift: openShift, since: localTime(openShift.start_at, timeZone) };
}

/** Sort weight: on break and on shift before clocked out. */
export function stateRank(s: MemberState): number {
  return s.kind === "clocked-out" ? 1 : 0;
}

/** An open shift must be at least this old to count as a forgotten clock-out. */
export const FORGOTTEN_AFTER_HOURS = 12;

/**
 * An open shift that began on an earlier workday than `now`'s and has run for over 12 hours:
 * someone forgot to clock out. The age keeps an early-morning start (before the workweek's start
 * of day) from being flagged a few hours in.
 */
export function isForgotten(shift: Shift, now: Date, timeZone: string, startOfDay = "00:00"): boolean {
  if (shift.end_at || shift.status === "CLOSED") return false;
  if (now.getTime() - new Date(shift.start_at).getTime() < FORGOTTEN_AFTER_HOURS * 3_600_000) return false;
  return workdayOf(shift.start_at, timeZone, startOfDay) < workdayOf(now, timeZone, startOfDay);
}

/** Describes a break type in words: `Lunch · 30 min · unpaid`. */
export function describeBreakType(t: Pick<BreakType, "break_name" | "expected_duration" | "is_paid">): string {
  const minutes = durationMinutes(t.expected_duration);
  return `${t.break_name} · ${minutes === undefined ? t.expected_duration : `${Math.round(minutes)} min`} · ${t.is_paid ? "paid" : "unpaid"}`;
}

/** One shift of the review, with its totals and the workday it counts to. */
export interface ReviewRow {
  shift: Shift;
  memberId: string;
  memberName: string;
  workday: string;
  totals: ShiftTotals;
  /** The member worked over the daily limit on this row's workday. */
  overDay: boolean;
  /** The member is over the weekly limit in this row's workweek. */
  overWeek: boolean;
}

/** Per-member sums of the review. */
export interface MemberSummary {
  memberId: string;
  memberName: string;
  shifts: number;
  paidHours: number;
  unpaidHours: number;
  cost: Money;
  /** Workdays over 8 paid hours. */
  overDays: string[];
  /** Workweeks (by first date) over 40 paid hours. */
  overWeeks: string[];
  /** Hours over the limits: daily excess, plus weekly excess of the remaining regular hours. */
  overtimeHours: number;
}

/** The review of a date range: rows, per-member sums and the grand totals. */
export interface Review {
  rows: ReviewRow[];
  members: MemberSummary[];
  totals: { shifts: number; paidHours: number; unpaidHours: number; cost: Money };
}

/** What {@link buildReview} needs besides the shifts. */
export interface ReviewContext {
  members: ReadonlyMap<string, TeamMember>;
  timeZone: string;
  startOfDay: string;
  startOfWeek: string;
  now: Date;
  /** Workdays shown, inclusive; shifts outside still count toward weekly totals. */
  from: string;
  to: string;
  currency?: Currency;
}

/**
 * Builds the review: each shift bucketed into the workday of its start (the workweek's start of
 * day, the location's time zone), paid/unpaid hours and cost per member, and overtime flags over
 * 8 h a day or 40 h a week. Shifts before `from` in the same workweek count toward the week only.
 */
export function buildReview(shifts: readonly Shift[], ctx: ReviewContext): Review {
  const all = shifts.map((shift) => {
    const memberId = shift.team_member_id ?? shift.employee_id ?? "";
    const workday = workdayOf(shift.start_at, ctx.timeZone, ctx.startOfDay);
    return {
      shift,
      memberId,
      workday,
      week: weekStartOf(workday, ctx.startOfWeek),
      totals: shiftTotals(shift, ctx.now),
    };
  });
  const day = new Map<string, number>();
  const week = new Map<string, number>();
  const dayKeys = new Map<string, Set<string>>();
  for (const r of all) {
    const dk = `${r.memberId}|${r.workday}`;
    day.set(dk, (day.get(dk) ?? 0) + r.totals.paidHours);
    if (!dayKeys.has(r.memberId)) dayKeys.set(r.memberId, new Set());
    dayKeys.get(r.memberId)?.add(r.workday);
  }
  // Weekly hours are the regular ones (daily excess removed) so one hour is not counted twice.
  const regularOfDay = (memberId: string, workday: string) =>
    Math.min(DAILY_OVERTIME_HOURS, day.get(`${memberId}|${workday}`) ?? 0);
  for (const [memberId, days] of dayKeys) {
    for (const d of days) {
      const wk = `${memberId}|${weekStartOf(d, ctx.startOfWeek)}`;
      week.set(wk, (week.get(wk) ?? 0) + regularOfDay(memberId, d));
    }
  }
  const weekRaw = new Map<string, number>();
  for (const r of all) {
    const wk = `${r.memberId}|${r.week}`;
    weekRaw.set(wk, (weekRaw.get(wk) ?? 0) + r.totals.paidHours);
  }
  const weekTotal = (memberId: string, w: string) => weekRaw.get(`${memberId}|${w}`) ?? 0;
  const shown = all.filter((r) => r.workday >= ctx.from && r.workday <= ctx.to);
  const rows: ReviewRow[] = shown
    .map((r) => ({
      shift: r.shift,
      memberId: r.memberId,
      memberName: memberName(ctx.members.get(r.memberId)),
      workday: r.workday,
      totals: r.totals,
      overDay: (day.get(`${r.memberId}|${r.workday}`) ?? 0) > DAILY_OVERTIME_HOURS,
      overWeek: weekTotal(r.memberId, r.week) > WEEKLY_OVERTIME_HOURS,
    }))
    .sort((a, b) => a.memberName.localeCompare(b.memberName) || ms(a.shift.start_at) - ms(b.shift.start_at));

  const byMember = new Map<string, MemberSummary>();
  const currency: Currency = ctx.currency ?? "USD";
  for (const r of rows) {
    const s = byMember.get(r.memberId) ?? {
      memberId: r.memberId,
      memberName: r.memberName,
      shifts: 0,
      paidHours: 0,
      unpaidHours: 0,
      cost: { amount: 0, currency },
      overDays: [],
      overWeeks: [],
      overtimeHours: 0,
    };
    byMember.set(r.memberId, s);
    s.shifts += 1;
    s.paidHours += r.totals.paidHours;
    s.unpaidHours += r.totals.unpaidHours;
    s.cost = sumMoney([s.cost, r.totals.cost], currency);
  }
  for (const s of byMember.values()) {
    const days = [...(dayKeys.get(s.memberId) ?? [])].filter((d) => d >= ctx.from && d <= ctx.to).sort();
    const weeks = new Set<string>();
    for (const d of days) {
      const hours = day.get(`${s.memberId}|${d}`) ?? 0;
      if (hours > DAILY_OVERTIME_HOURS) {
        s.overDays.push(d);
        s.overtimeHours += hours - DAILY_OVERTIME_HOURS;
      }
      weeks.add(weekStartOf(d, ctx.startOfWeek));
    }
    for (const w of [...weeks].sort()) {
      const regular = week.get(`${s.memberId}|${w}`) ?? 0;
      if (weekTotal(s.memberId, w) > WEEKLY_OVERTIME_HOURS) s.overWeeks.push(w);
      if (regular > WEEKLY_OVERTIME_HOURS) s.overtimeHours += regular - WEEKLY_OVERTIME_HOURS;
    }
  }
  const members = [...byMember.values()].sort((a, b) => a.memberName.localeCompare(b.memberName));
  return {
    rows,
    members,
    totals: {
      shifts: rows.length,
      paidHours: members.reduce((t, m) => t + m.paidHours, 0),
      unpaidHours: members.reduce((t, m) => t + m.unpaidHours, 0),
      cost: sumMoney(
        members.map((m) => m.cost),
        currency,
      ),
    },
  };
}

/**
 * The search for a review of workdays `from`..`to` at one location: it starts at the beginning
 * of `from`'s week, so weekly (40 h) totals count the days before the range too.
 */
export function reviewShiftSearch(
  locationId: string,
  range: { from: string; to: string },
  week: { timeZone: string; startOfWeek: string },
): SearchShiftsRequest {
  return {
    query: {
      filter: {
        location_ids: [locationId],
        team_member_ids: [],
        workday: {
          date_range: { start_date: weekStartOf(range.from, week.startOfWeek), end_date: range.to },
          match_shifts_by: "START_AT",
          default_timezone: week.timeZone,
        },
      },
    },
    limit: 200,
  };
}
