import type {
  Break,
  BreakType,
  Currency,
  Money,
  SearchShiftsRequest,
  Shift,
  TeamMember,
  TeamMemberWage,
} from "../spec/generated/types.js";
import { MAX_BREAK_TYPES_PER_LOCATION } from "./limits.js";
import { sumMoney } from "./money.js";
import {
  costOfSplit,
  DEFAULT_OVERTIME,
  type MinutesSplit,
  type OvertimeRules,
  overtimeMinutes,
  type PaidInterval,
  paidIntervals,
  type SplitCost,
  splitOvertime,
} from "./overtime.js";
import { SharedValues } from "./shared-values.js";
import { addDays, durationMinutes, localTime, weekStartOf, workdayOf } from "./time.js";

const MINUTE = 60_000;

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
  /** Paid hours at the shift's own hourly rate, no overtime; undefined without a rate. */
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

/** Hours at an hourly rate, rounded to the smallest currency unit; undefined without a usable rate. */
export function wageCost(hours: number, hourlyRate: Money | undefined): Money | undefined {
  if (!isUsableRate(hourlyRate)) return undefined;
  return { amount: Math.round(hours * hourlyRate.amount), currency: hourlyRate.currency ?? "USD" };
}

/** A team member's display name. */
export function memberName(m: TeamMember | undefined): string {
  if (!m) return "(unknown)";
  const name = [m.given_name, m.family_name].filter(Boolean).join(" ");
  return name || m.email_address || m.id || "(unnamed)";
}

export { SharedValues };

/**
 * A shift as the review keeps it: without its created and updated times, which nothing shown or
 * sent back needs (an update leaves them out), and with the values that shifts repeat (member,
 * location, time zone, status, wage, break names) shared through `shared`. Every other field is
 * kept as read, so an edit still sends the whole shift back.
 */
export function compactShift(shift: Shift, shared: SharedValues): Shift {
  const { created_at: _c, updated_at: _u, ...rest } = shift;
  const out: Shift = { ...rest, location_id: shared.text(rest.location_id) };
  if (rest.employee_id !== undefined) out.employee_id = shared.text(rest.employee_id);
  if (rest.team_member_id !== undefined) out.team_member_id = shared.text(rest.team_member_id);
  if (rest.timezone !== undefined) out.timezone = shared.text(rest.timezone);
  if (rest.status !== undefined) out.status = shared.text(rest.status);
  if (rest.wage !== undefined) out.wage = shared.json(rest.wage);
  if (rest.breaks !== undefined) {
    out.breaks =
      rest.breaks.length === 0
        ? shared.json(rest.breaks)
        : rest.breaks.map((b) => ({
            ...b,
            name: shared.text(b.name),
            break_type_id: shared.text(b.break_type_id),
            expected_duration: shared.text(b.expected_duration),
          }));
  }
  return out;
}

/**
 * The shifts with `changed` laid over them: a shift of the same id and version is kept as it is,
 * a newer version replaces it in place, and a shift not held yet is added. Undefined when nothing
 * differs, so a quiet refresh that found no change leaves the review as it is.
 */
export function mergeChangedShifts(
  shifts: readonly Shift[],
  changed: readonly Shift[],
  shared: SharedValues,
): Shift[] | undefined {
  const index = new Map<string, number>();
  shifts.forEach((s, i) => {
    if (s.id) index.set(s.id, i);
  });
  let out: Shift[] | undefined;
  for (const shift of changed) {
    const at = shift.id ? index.get(shift.id) : undefined;
    if (at !== undefined && shifts[at]?.version === shift.version) continue;
    out ??= [...shifts];
    if (at !== undefined) out[at] = compactShift(shift, shared);
    else {
      if (shift.id) index.set(shift.id, out.length);
      out.push(compactShift(shift, shared));
    }
  }
  return out;
}

/** The newest `updated_at` of `shifts` in epoch milliseconds, or `since` when none is newer. */
export function newestUpdate(shifts: readonly Shift[], since: number): number {
  let newest = since;
  for (const s of shifts) {
    const at = s.updated_at ? Date.parse(s.updated_at) : Number.NaN;
    if (at > newest) newest = at;
  }
  return newest;
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

/** Minutes from an instant until `now` (0 when it is later than now). */
export function minutesSince(iso: string, now: Date): number {
  return Math.max(0, (now.getTime() - Date.parse(iso)) / MINUTE);
}

/** Minutes a break has run past its expected duration (0 while within it, or when unknown). */
export function breakOverrun(b: Break, now: Date): number {
  const expected = durationMinutes(b.expected_duration);
  if (expected === undefined) return 0;
  return Math.max(0, breakMinutes(b, now) - expected);
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

/** A name for a message, cut with `…` past `max` characters so the sentence stays readable. */
export function shortName(name: string, max = 30): string {
  const chars = [...name.trim()];
  if (chars.length <= max) return name.trim();
  return `${chars
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}

/** The most break types one location may have (the service refuses a fourth): one constant for both sides. */
export { MAX_BREAK_TYPES_PER_LOCATION };

/** Before adding a break type: room left at the location, or why not, in words. */
export function checkBreakTypeRoom(existing: readonly BreakType[]): string | undefined {
  if (existing.length < MAX_BREAK_TYPES_PER_LOCATION) return undefined;
  return `This location has ${MAX_BREAK_TYPES_PER_LOCATION} break types, the most allowed: delete or change one.`;
}

/** Before saving a break type: no other break type of the location has that name (case and spaces aside). */
export function checkBreakTypeName(
  name: string,
  existing: readonly BreakType[],
  exceptId?: string,
): string | undefined {
  const key = (n: string) => n.trim().replaceAll(/\s+/g, " ").toLowerCase();
  const same = existing.find((t) => t.id !== exceptId && key(t.break_name) === key(name));
  return same
    ? `This location already has a break type named ${shortName(same.break_name)}; choose another name.`
    : undefined;
}

/** Describes a break type in words: `Lunch · 30 min · unpaid`. */
export function describeBreakType(t: Pick<BreakType, "break_name" | "expected_duration" | "is_paid">): string {
  const minutes = durationMinutes(t.expected_duration);
  return `${t.break_name} · ${minutes === undefined ? t.expected_duration : `${Math.round(minutes)} min`} · ${t.is_paid ? "paid" : "unpaid"}`;
}

/** A shift longer than this many paid hours is flagged `over 8 h` (a long day, or a forgotten clock-out). */
export const LONG_SHIFT_HOURS = 8;

/** Where the hourly rate of a shift comes from. */
export type RateSource = "shift" | "team-member-wage";

/** The hourly rate a shift is costed at, and where it came from. */
export interface ShiftRate {
  rate: Money;
  source: RateSource;
  /** The job title of the shift's wage, or of the team member wage used. */
  title: string | undefined;
}

/**
 * A rate that can cost hours: an amount above zero. The service stores a zero rate on a shift
 * created without a wage, so zero means "no wage", not "unpaid".
 */
export function isUsableRate(m: Money | undefined): m is Money & { amount: number } {
  return !!m && typeof m.amount === "number" && m.amount > 0;
}

/**
 * The rate a shift is costed at: its own wage; otherwise the member's current team member wage
 * for the shift's job (by job ID, then by title), or the member's first wage when the shift
 * names no job; otherwise none, and the shift is flagged "no wage".
 */
export function rateOfShift(shift: Shift, memberWages: readonly TeamMemberWage[]): ShiftRate | undefined {
  const own = shift.wage?.hourly_rate;
  if (isUsableRate(own)) return { rate: own, source: "shift", title: shift.wage?.title };
  const usable = memberWages.filter((w) => isUsableRate(w.hourly_rate));
  const jobId = shift.wage?.job_id;
  const title = shift.wage?.title;
  const match =
    (jobId ? usable.find((w) => w.job_id === jobId) : undefined) ??
    (title ? usable.find((w) => w.title === title) : undefined) ??
    (!jobId && !title ? usable[0] : undefined);
  return match?.hourly_rate
    ? { rate: match.hourly_rate, source: "team-member-wage", title: shift.wage?.title ?? match.title }
    : undefined;
}

/** The part of one shift worked in one workweek, split and costed. */
export interface WeekPiece {
  /** First date of the workweek. */
  week: string;
  split: MinutesSplit;
  /** Undefined when the shift has no wage. */
  cost: SplitCost | undefined;
}

/** One shift of the review, with its totals, overtime and cost. */
export interface ReviewRow {
  shift: Shift;
  memberId: string;
  memberName: string;
  workday: string;
  totals: ShiftTotals;
  /** The rate it is costed at; undefined: no wage. */
  rate: ShiftRate | undefined;
  regularHours: number;
  overtimeHours: number;
  /** Regular, overtime and total cost; undefined when the shift has no wage. */
  cost: SplitCost | undefined;
  /** Its paid time per workweek (two pieces when it crosses the start of a week). */
  pieces: WeekPiece[];
  /** Part of this shift is over the daily limit. */
  overDay: boolean;
  /** Its workweek went over the weekly limit during or before this shift. */
  overWeek: boolean;
  /** In words, for the review and the CSV: `no wage`, `open`, `over 8 h` (shared between rows: never changed). */
  flags: readonly string[];
}

/** Hours and cost, regular and overtime apart. */
export interface PayTotals {
  shifts: number;
  paidHours: number;
  unpaidHours: number;
  regularHours: number;
  overtimeHours: number;
  /** Sums over the shifts that have a wage. */
  regularCost: Money;
  overtimeCost: Money;
  cost: Money;
  /** Shifts without a wage: their hours count, their cost is unknown. */
  noWageShifts: number;
  openShifts: number;
}

/** Per-member sums of the review. */
export interface MemberSummary extends PayTotals {
  memberId: string;
  memberName: string;
  /** Workdays with daily overtime. */
  overDays: string[];
  /** Workweeks (by first date) that went over the weekly limit. */
  overWeeks: string[];
}

/** The review of a date range: rows, per-member sums and the grand totals. */
export interface Review {
  rows: ReviewRow[];
  members: MemberSummary[];
  totals: PayTotals;
  /** The overtime rules the figures follow. */
  overtime: OvertimeRules;
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
  /** Overtime rules; {@link DEFAULT_OVERTIME} when absent. */
  overtime?: OvertimeRules;
  /** Each member's team member wages, for shifts that carry no wage of their own. */
  wages?: ReadonlyMap<string, readonly TeamMemberWage[]>;
}

/** Empty totals in a currency. */
export function emptyPayTotals(currency: Currency): PayTotals {
  return {
    shifts: 0,
    paidHours: 0,
    unpaidHours: 0,
    regularHours: 0,
    overtimeHours: 0,
    regularCost: { amount: 0, currency },
    overtimeCost: { amount: 0, currency },
    cost: { amount: 0, currency },
    noWageShifts: 0,
    openShifts: 0,
  };
}

/** Adds one row to running totals (in place). */
export function addToTotals(t: PayTotals, r: ReviewRow): void {
  t.shifts += 1;
  t.paidHours += r.totals.paidHours;
  t.unpaidHours += r.totals.unpaidHours;
  t.regularHours += r.regularHours;
  t.overtimeHours += r.overtimeHours;
  if (r.cost) {
    t.regularCost = sumMoney([t.regularCost, r.cost.regular], t.regularCost.currency ?? "USD");
    t.overtimeCost = sumMoney([t.overtimeCost, r.cost.overtime], t.overtimeCost.currency ?? "USD");
    t.cost = sumMoney([t.cost, r.cost.total], t.cost.currency ?? "USD");
  } else t.noWageShifts += 1;
  if (!r.shift.end_at) t.openShifts += 1;
}

const addSplit = (a: MinutesSplit, b: MinutesSplit): MinutesSplit => ({
  regularMinutes: a.regularMinutes + b.regularMinutes,
  dailyOvertimeMinutes: a.dailyOvertimeMinutes + b.dailyOvertimeMinutes,
  weeklyOvertimeMinutes: a.weeklyOvertimeMinutes + b.weeklyOvertimeMinutes,
});
const NO_MINUTES: MinutesSplit = { regularMinutes: 0, dailyOvertimeMinutes: 0, weeklyOvertimeMinutes: 0 };

/**
 * Builds the review: each shift bucketed into the workday of its start (the workweek's start of
 * day, the location's time zone); its paid time split into regular and overtime by
 * {@link splitOvertime} (each member's shifts in time order, shifts before `from` in the same
 * workweek counting toward the week); costed at {@link rateOfShift}, overtime at the multiplier.
 */
export function buildReview(shifts: readonly Shift[], ctx: ReviewContext): Review {
  const rules = ctx.overtime ?? DEFAULT_OVERTIME;
  const calendar = { timeZone: ctx.timeZone, startOfDay: ctx.startOfDay, startOfWeek: ctx.startOfWeek };
  // A long range holds thousands of rows: what rows repeat (workdays, names, rates, flags) is made once.
  const shared = new SharedValues();
  const names = new Map<string, string>();
  const nameOf = (id: string) => names.get(id) ?? names.set(id, memberName(ctx.members.get(id))).get(id) ?? "";
  const rates = new Map<string, Map<unknown, ShiftRate | undefined>>();
  const rateOf = (shift: Shift, memberId: string) => {
    let ofMember = rates.get(memberId);
    if (!ofMember) {
      ofMember = new Map();
      rates.set(memberId, ofMember);
    }
    // Keyed by the wage object: shifts compacted by the same pool share one per distinct wage.
    if (!ofMember.has(shift.wage)) ofMember.set(shift.wage, rateOfShift(shift, ctx.wages?.get(memberId) ?? []));
    return ofMember.get(shift.wage);
  };
  const flagLists = new Map<string, readonly string[]>();
  const all = shifts.map((shift, index) => ({
    key: shift.id ?? `#${index}`,
    shift,
    memberId: shift.team_member_id ?? shift.employee_id ?? "",
    workday: shared.text(workdayOf(shift.start_at, ctx.timeZone, ctx.startOfDay)),
  }));
  const byMember = new Map<string, PaidInterval[]>();
  for (const r of all) {
    const list = byMember.get(r.memberId) ?? [];
    list.push(...paidIntervals(r.key, r.shift, ctx.now));
    byMember.set(r.memberId, list);
  }
  const pieces = new Map<string, Map<string, MinutesSplit>>();
  for (const intervals of byMember.values()) {
    for (const [key, weeks] of splitOvertime(intervals, calendar, rules).byKeyWeek) pieces.set(key, weeks);
  }

  const rows: ReviewRow[] = all
    .filter((r) => r.workday >= ctx.from && r.workday <= ctx.to)
    .map((r) => {
      const totals = shiftTotals(r.shift, ctx.now);
      const rate = rateOf(r.shift, r.memberId);
      const weekPieces: WeekPiece[] = [...(pieces.get(r.key) ?? new Map<string, MinutesSplit>())]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([week, split]) => ({
          week: shared.text(week),
          split,
          cost: rate ? costOfSplit(split, rate.rate, rules.multiplier) : undefined,
        }));
      const only = weekPieces.length === 1 ? weekPieces[0] : undefined;
      const split = only?.split ?? weekPieces.reduce((t, p) => addSplit(t, p.split), NO_MINUTES);
      const currency = rate?.rate.currency ?? ctx.currency ?? "USD";
      // A shift within one workweek (nearly all) costs what its one piece costs: the same object.
      const cost: SplitCost | undefined = only
        ? only.cost
        : rate
          ? {
              regular: sumMoney(
                weekPieces.map((p) => p.cost?.regular),
                currency,
              ),
              overtime: sumMoney(
                weekPieces.map((p) => p.cost?.overtime),
                currency,
              ),
              total: sumMoney(
                weekPieces.map((p) => p.cost?.total),
                currency,
              ),
            }
          : undefined;
      const flagKey = `${rate ? 0 : 1}${r.shift.end_at ? 0 : 1}${totals.paidHours > LONG_SHIFT_HOURS ? 1 : 0}`;
      let flags = flagLists.get(flagKey);
      if (!flags) {
        flags = Object.freeze(
          [
            rate ? "" : "no wage",
            r.shift.end_at ? "" : "open",
            totals.paidHours > LONG_SHIFT_HOURS ? `over ${LONG_SHIFT_HOURS} h` : "",
          ].filter(Boolean),
        );
        flagLists.set(flagKey, flags);
      }
      return {
        shift: r.shift,
        memberId: r.memberId,
        memberName: nameOf(r.memberId),
        workday: r.workday,
        totals,
        rate,
        regularHours: split.regularMinutes / 60,
        overtimeHours: overtimeMinutes(split) / 60,
        cost,
        pieces: weekPieces,
        overDay: split.dailyOvertimeMinutes > 0,
        overWeek: split.weeklyOvertimeMinutes > 0,
        flags,
      };
    })
    .sort((a, b) => a.memberName.localeCompare(b.memberName) || ms(a.shift.start_at) - ms(b.shift.start_at));

  const currency: Currency = ctx.currency ?? rows.find((r) => r.rate)?.rate?.rate.currency ?? "USD";
  const summaries = new Map<string, MemberSummary>();
  const totals = emptyPayTotals(currency);
  for (const r of rows) {
    const s = summaries.get(r.memberId) ?? {
      memberId: r.memberId,
      memberName: r.memberName,
      ...emptyPayTotals(currency),
      overDays: [],
      overWeeks: [],
    };
    summaries.set(r.memberId, s);
    addToTotals(s, r);
    addToTotals(totals, r);
    if (r.overDay && !s.overDays.includes(r.workday)) s.overDays.push(r.workday);
    for (const p of r.pieces) {
      if (p.split.weeklyOvertimeMinutes > 0 && !s.overWeeks.includes(p.week)) s.overWeeks.push(p.week);
    }
  }
  for (const s of summaries.values()) {
    s.overDays.sort();
    s.overWeeks.sort();
  }
  const members = [...summaries.values()].sort((a, b) => a.memberName.localeCompare(b.memberName));
  return { rows, members, totals, overtime: rules };
}

/** One member's week: the shifts of the review that count to it, in hours and cost. */
export interface MemberWeek extends PayTotals {
  memberId: string;
  memberName: string;
  /** First and last date of the workweek. */
  week: string;
  weekEnd: string;
  /** Paid hours of shifts without a wage, left out of the costs. */
  uncostedHours: number;
}

/**
 * The review's rows summed per member per workweek. Paid, regular and overtime hours and their
 * cost count to the week they were worked in (a shift crossing the start of the week counts to
 * both); the shift itself, its unpaid breaks and its flags count to the week of its workday.
 */
export function memberWeeks(review: Review, startOfWeek: string): MemberWeek[] {
  const out = new Map<string, MemberWeek>();
  const currency = review.totals.cost.currency ?? "USD";
  const bucket = (r: ReviewRow, week: string) => {
    const k = `${r.memberId}|${week}`;
    let w = out.get(k);
    if (!w) {
      w = {
        memberId: r.memberId,
        memberName: r.memberName,
        week,
        weekEnd: addDays(week, 6),
        ...emptyPayTotals(currency),
        uncostedHours: 0,
      };
      out.set(k, w);
    }
    return w;
  };
  for (const r of review.rows) {
    const home = bucket(r, weekStartOf(r.workday, startOfWeek));
    home.shifts += 1;
    home.unpaidHours += r.totals.unpaidHours;
    if (!r.rate) home.noWageShifts += 1;
    if (!r.shift.end_at) home.openShifts += 1;
    for (const p of r.pieces) {
      const w = bucket(r, p.week);
      w.paidHours += (p.split.regularMinutes + overtimeMinutes(p.split)) / 60;
      w.regularHours += p.split.regularMinutes / 60;
      w.overtimeHours += overtimeMinutes(p.split) / 60;
      if (p.cost) {
        w.regularCost = sumMoney([w.regularCost, p.cost.regular], currency);
        w.overtimeCost = sumMoney([w.overtimeCost, p.cost.overtime], currency);
        w.cost = sumMoney([w.cost, p.cost.total], currency);
      } else w.uncostedHours += (p.split.regularMinutes + overtimeMinutes(p.split)) / 60;
    }
  }
  return [...out.values()].sort((a, b) => a.memberName.localeCompare(b.memberName) || a.week.localeCompare(b.week));
}

/** Shifts a page of the review's search asks for (the most the service gives). */
export const REVIEW_PAGE = 200;

/**
 * The search for a review of workdays `from`..`to` at one location: it starts the day before
 * `from`'s workweek, so weekly totals count the days before the range and the hours of a shift
 * that crossed into the week.
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
          date_range: { start_date: addDays(weekStartOf(range.from, week.startOfWeek), -1), end_date: range.to },
          match_shifts_by: "START_AT",
          default_timezone: week.timeZone,
        },
      },
    },
    limit: REVIEW_PAGE,
  };
}

/**
 * The review's search, newest change first: a reader of what changed since an instant stops at
 * the first shift changed before it. (The service filters shifts by time and workday, not by when
 * they changed.)
 */
export function reviewChangesSearch(
  locationId: string,
  range: { from: string; to: string },
  week: { timeZone: string; startOfWeek: string },
): SearchShiftsRequest {
  const search = reviewShiftSearch(locationId, range, week);
  return { ...search, query: { ...search.query, sort: { field: "UPDATED_AT", order: "DESC" } } };
}
