import type { Break, BreakType, Money, Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import { MAX_BREAK_TYPES_PER_LOCATION } from "./limits.js";
import { SharedValues } from "./shared-values.js";
import { durationMinutes, localTime, workdayOf } from "./time.js";

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
