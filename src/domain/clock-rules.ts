import type { Break, BreakType, Shift } from "../spec/generated/types.js";
import { CLOCK_SKEW_MS } from "./limits.js";
import { runningBreak } from "./shifts.js";
import { addDays, formatDuration, localDate, localTime, parseClockTime, parseDate, zonedInstant } from "./time.js";

/** A rule of the time clock that a request would break, explained in words; undefined if none. */
export type RuleProblem = string | undefined;

/** Before clock-in: not already clocked in, and not starting in the future. */
export function checkClockIn(openShift: Shift | undefined, startAt: Date, now: Date, timeZone: string): RuleProblem {
  if (openShift && !openShift.end_at) {
    return `Already clocked in since ${localTime(openShift.start_at, timeZone)}; clock out first.`;
  }
  // A minute of slack: the service's clock and ours need not agree to the second.
  if (startAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    return `The start ${localTime(startAt, timeZone)} is in the future; a shift cannot start later than now.`;
  }
  return undefined;
}

/**
 * Before clock-in at this location: the member must not be on shift at another one. Times are
 * at the other location's wall clock (the shift carries its zone).
 */
export function checkNotOnShiftElsewhere(
  open: Shift | undefined,
  here: string,
  locationName: string,
  timeZone: string,
): RuleProblem {
  if (!open || open.end_at || open.location_id === here) return undefined;
  return `${onShiftElsewhere(open, locationName, timeZone)}; clock out there first.`;
}

/**
 * `On shift at Harbour Dock since 09:00` (the date too when it began on another day than `now`), at
 * that location's wall clock; in another time zone this screen's time follows, `(12:00 here)`, so
 * a start that reads as later than the clock on the header is never left unexplained.
 */
export function onShiftElsewhere(open: Shift, locationName: string, timeZone: string, now?: Date): string {
  return `On shift at ${locationName} since ${elsewhereSince(open, timeZone, now)}`;
}

/**
 * `09:00` (with the date when it began on another day than `now`) at the shift's location's wall
 * clock, and `09:00 (12:00 here)` when `timeZone`'s clock reads otherwise.
 */
export function elsewhereSince(open: Shift, timeZone: string, now?: Date): string {
  const tz = open.timezone ?? timeZone;
  const sameDay = !now || localDate(open.start_at, tz) === localDate(now, tz);
  const since = sameDay
    ? localTime(open.start_at, tz)
    : `${localDate(open.start_at, tz)} ${localTime(open.start_at, tz)}`;
  const here = localTime(open.start_at, timeZone);
  return here === localTime(open.start_at, tz) ? since : `${since} (${here} here)`;
}

/** Before starting a break: on shift, and no break still running. */
export function checkStartBreak(openShift: Shift | undefined, timeZone: string): RuleProblem {
  if (!openShift || openShift.end_at) return "Not clocked in; clock in before starting a break.";
  const b = runningBreak(openShift);
  if (b) return `A break (${b.name}) is still running since ${localTime(b.start_at, timeZone)}; end it first.`;
  return undefined;
}

/** Before ending a break: one must be running. */
export function checkEndBreak(openShift: Shift | undefined): RuleProblem {
  if (!openShift || openShift.end_at) return "Not clocked in, so there is no break to end.";
  if (!runningBreak(openShift)) return "No break is running.";
  return undefined;
}

/** Before setting a shift's end: after its start and every break's start, and not in the future. */
export function checkEndTime(shift: Shift | undefined, endAt: Date, now: Date, timeZone: string): RuleProblem {
  if (!shift) return "Not clocked in, so there is nothing to clock out of.";
  if (endAt.getTime() <= new Date(shift.start_at).getTime()) {
    return `The end ${localTime(endAt, timeZone)} is not after the start ${localTime(shift.start_at, timeZone)}.`;
  }
  if (endAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    return `The end ${localTime(endAt, timeZone)} is in the future.`;
  }
  const late = (shift.breaks ?? []).find((b) => new Date(b.start_at).getTime() > endAt.getTime());
  if (late) return `The break ${late.name} starts at ${localTime(late.start_at, timeZone)}, after that end.`;
  const longer = (shift.breaks ?? []).find((b) => b.end_at && new Date(b.end_at).getTime() > endAt.getTime());
  if (longer?.end_at) return `The break ${longer.name} ends at ${localTime(longer.end_at, timeZone)}, after that end.`;
  return undefined;
}

/** Before changing a shift's times: start before end, neither in the future, breaks inside. */
export function checkShiftTimes(
  shift: Shift,
  startAt: Date,
  endAt: Date | undefined,
  now: Date,
  timeZone: string,
): RuleProblem {
  if (startAt.getTime() > now.getTime() + CLOCK_SKEW_MS)
    return `The start ${localTime(startAt, timeZone)} is in the future.`;
  if (!endAt) return undefined;
  const probe = { ...shift, start_at: startAt.toISOString() };
  const problem = checkEndTime(probe, endAt, now, timeZone);
  if (problem) return problem;
  const early = (shift.breaks ?? []).find((b) => new Date(b.start_at).getTime() < startAt.getTime());
  if (early) return `The break ${early.name} starts at ${localTime(early.start_at, timeZone)}, before that start.`;
  return undefined;
}

/** One break as the shift editor holds it: kept (with its id) or new, with its times. */
export interface BreakDraft {
  /** The stored break's id; absent for a break added in the editor. */
  id?: string | undefined;
  breakTypeId: string;
  name: string;
  expectedDuration: string;
  isPaid: boolean;
  startAt: Date;
  /** Undefined while the break is still running. */
  endAt: Date | undefined;
}

/** A shift as a form describes it: times, and its breaks in any order. */
export interface ShiftDraft {
  startAt: Date;
  /** Undefined: the shift is still open. */
  endAt: Date | undefined;
  breaks: readonly BreakDraft[];
}

/** The breaks of a stored shift, as drafts for the editor. */
export function breakDrafts(shift: Shift): BreakDraft[] {
  return (shift.breaks ?? []).map((b) => ({
    ...(b.id ? { id: b.id } : {}),
    breakTypeId: b.break_type_id,
    name: b.name,
    expectedDuration: b.expected_duration,
    isPaid: b.is_paid,
    startAt: new Date(b.start_at),
    endAt: b.end_at ? new Date(b.end_at) : undefined,
  }));
}

/** A new break of `type` from `startAt` to `endAt`. */
export function breakDraftOf(type: BreakType, startAt: Date, endAt: Date | undefined): BreakDraft {
  return {
    breakTypeId: type.id ?? "",
    name: type.break_name,
    expectedDuration: type.expected_duration,
    isPaid: type.is_paid,
    startAt,
    endAt,
  };
}

const at = (d: Date) => d.getTime();
const span = (b: BreakDraft, tz: string) => `${localTime(b.startAt, tz)}–${b.endAt ? localTime(b.endAt, tz) : "open"}`;

/**
 * Before saving a shift with its breaks (a past shift added for someone who forgot to clock in,
 * or breaks edited): the shift's times as {@link checkShiftTimes} checks them, then each break
 * ending after it starts, inside the shift, not in the future, no two overlapping, only the last
 * one still running and none at all once the shift has an end. The same words as the time clock.
 */
export function checkShiftDraft(d: ShiftDraft, now: Date, timeZone: string): RuleProblem {
  return checkDraftTimes(d, now, timeZone) ?? checkDraftBreaks(d, now, timeZone);
}

/** The shift's own start and end, as {@link checkShiftDraft} checks them first. */
export function checkDraftTimes(d: ShiftDraft, now: Date, timeZone: string): RuleProblem {
  const limit = at(now) + CLOCK_SKEW_MS;
  if (at(d.startAt) > limit) return `The start ${localTime(d.startAt, timeZone)} is in the future.`;
  if (d.endAt) {
    if (at(d.endAt) <= at(d.startAt)) {
      return `The end ${localTime(d.endAt, timeZone)} is not after the start ${localTime(d.startAt, timeZone)}.`;
    }
    if (at(d.endAt) > limit) return `The end ${localTime(d.endAt, timeZone)} is in the future.`;
  }
  return undefined;
}

/** The shift's breaks, once its times are right, as {@link checkShiftDraft} checks them: all about the breaks field. */
export function checkDraftBreaks(d: ShiftDraft, now: Date, timeZone: string): RuleProblem {
  const limit = at(now) + CLOCK_SKEW_MS;
  const sorted = [...d.breaks].sort((a, b) => at(a.startAt) - at(b.startAt));
  for (const b of sorted) {
    const start = localTime(b.startAt, timeZone);
    if (b.endAt && at(b.endAt) <= at(b.startAt)) {
      return `The break ${b.name} ends at ${localTime(b.endAt, timeZone)}, not after it starts at ${start}.`;
    }
    if (at(b.startAt) < at(d.startAt)) return `The break ${b.name} starts at ${start}, before that start.`;
    if (at(b.startAt) > limit) return `The break ${b.name} starts at ${start}, in the future.`;
    if (b.endAt && at(b.endAt) > limit) {
      return `The break ${b.name} ends at ${localTime(b.endAt, timeZone)}, in the future.`;
    }
    if (d.endAt && at(b.startAt) > at(d.endAt)) return `The break ${b.name} starts at ${start}, after that end.`;
    if (d.endAt && b.endAt && at(b.endAt) > at(d.endAt)) {
      return `The break ${b.name} ends at ${localTime(b.endAt, timeZone)}, after that end.`;
    }
    if (d.endAt && !b.endAt)
      return `The break ${b.name} (from ${start}) has no end; a shift with an end needs every break ended.`;
  }
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i];
    const b = sorted[i + 1];
    if (!a || !b) continue;
    if (!a.endAt) {
      return `The break ${a.name} (from ${localTime(a.startAt, timeZone)}) has no end, but ${b.name} starts after it; give it an end.`;
    }
    if (at(b.startAt) < at(a.endAt)) {
      return `The breaks ${a.name} (${span(a, timeZone)}) and ${b.name} (${span(b, timeZone)}) overlap.`;
    }
  }
  return undefined;
}

/**
 * Before saving a shift of a member: it must not overlap another of their shifts (at any
 * location; a shift still open runs on). `others` are the member's shifts around that time.
 */
export function checkNoOverlap(
  d: Pick<ShiftDraft, "startAt" | "endAt">,
  others: readonly Shift[],
  timeZone: string,
  exceptId?: string,
  locationName?: (locationId: string) => string | undefined,
): RuleProblem {
  const end = d.endAt ? at(d.endAt) : Number.POSITIVE_INFINITY;
  const hit = others.find(
    (o) => o.id !== exceptId && Date.parse(o.start_at) < end && (!o.end_at || Date.parse(o.end_at) > at(d.startAt)),
  );
  if (!hit) return undefined;
  const where = locationName?.(hit.location_id);
  const day = localDate(hit.start_at, timeZone);
  const times = `${localTime(hit.start_at, timeZone)}–${hit.end_at ? localTime(hit.end_at, timeZone) : "still open"}`;
  return `That overlaps their shift of ${day} ${times}${where ? ` at ${where}` : ""}; one person's shifts cannot overlap.`;
}

/** The shift with its breaks replaced by the drafts (kept breaks keep their ids), in time order. */
export function withBreakDrafts(shift: Shift, drafts: readonly BreakDraft[]): Shift {
  const breaks: Break[] = [...drafts]
    .sort((a, b) => at(a.startAt) - at(b.startAt))
    .map((d) => ({
      ...(d.id ? { id: d.id } : {}),
      start_at: d.startAt.toISOString(),
      ...(d.endAt ? { end_at: d.endAt.toISOString() } : {}),
      break_type_id: d.breakTypeId,
      name: d.name,
      expected_duration: d.expectedDuration,
      is_paid: d.isPaid,
    }));
  return { ...shift, breaks };
}

/**
 * A local date and time typed in a form, as an instant, or what is wrong with them (`what`: start,
 * end) and which of the two (`part`) it is about.
 */
export function parseLocalTime(
  date: string,
  time: string,
  timeZone: string,
  what: string,
): { ok: true; at: Date } | { ok: false; problem: string; part: "date" | "time" } {
  if (!parseDate(date.trim())) {
    return { ok: false, problem: `The ${what} date "${date}" is not a date (YYYY-MM-DD).`, part: "date" };
  }
  if (!parseClockTime(time.trim())) {
    return { ok: false, problem: `The ${what} time "${time}" is not a time (HH:MM).`, part: "time" };
  }
  return { ok: true, at: zonedInstant(date.trim(), time.trim(), timeZone) };
}

/** The breaks as the editor shows them: `Lunch 12:00-12:30; Coffee 15:00-15:10` (`Lunch 12:00-` still running). */
export function formatBreaks(drafts: readonly BreakDraft[], timeZone: string): string {
  return [...drafts]
    .sort((a, b) => at(a.startAt) - at(b.startAt))
    .map((b) => `${b.name} ${localTime(b.startAt, timeZone)}-${b.endAt ? localTime(b.endAt, timeZone) : ""}`)
    .join("; ");
}

const nameKey = (n: string) => n.trim().replaceAll(/\s+/g, " ").toLowerCase();

const EXAMPLE_TIMES = ["12:00-12:30", "15:00-15:10"];

/**
 * An example of the breaks field with the location's own break type names (`Lunch 12:00-12:30;
 * Coffee 15:00-15:10` when it has those), or words saying it has none.
 */
export function breaksExample(typeNames: readonly string[]): string {
  const names = typeNames.map((n) => n.trim()).filter(Boolean);
  if (names.length === 0) return "no break types at this location (set them up on Break types)";
  return `e.g. ${names
    .slice(0, EXAMPLE_TIMES.length)
    .map((n, i) => `${n} ${EXAMPLE_TIMES[i]}`)
    .join("; ")}`;
}

/** The instant of `hhmm` on the shift's first local day, or the next one when that is earlier than `after` and the next is not past `until`. */
function instantNear(hhmm: string, startDay: string, after: Date, until: Date, timeZone: string): Date {
  const same = zonedInstant(startDay, hhmm, timeZone);
  if (at(same) >= at(after)) return same;
  const next = zonedInstant(addDays(startDay, 1), hhmm, timeZone);
  return at(next) <= at(until) ? next : same;
}

/**
 * Reads the breaks field of the shift editor (see {@link formatBreaks}; `;` or a line break
 * between breaks). Each name is a break type of the location (any case), or the name of one of
 * the shift's breaks whose type has since been deleted. Times are local to the shift: a time
 * earlier than the start means the next day when the shift runs past midnight. The n-th break of
 * a name keeps the id of the shift's n-th break of that name, so changing its times edits it.
 */
export function parseBreaks(
  text: string,
  ctx: {
    startAt: Date;
    /** The end, or now while open. */
    endAt: Date;
    timeZone: string;
    types: readonly BreakType[];
    existing: readonly BreakDraft[];
  },
): { ok: true; value: BreakDraft[] } | { ok: false; problem: string } {
  const items = text
    .split(/[;\n]/)
    .map((x) => x.trim())
    .filter(Boolean);
  const startDay = localDate(ctx.startAt, ctx.timeZone);
  const used = new Map<string, number>();
  const out: BreakDraft[] = [];
  for (const item of items) {
    const m = /^(.*\S)\s+(\d{1,2}:\d{2})\s*[-–]\s*(\d{1,2}:\d{2})?$/.exec(item);
    const from = m?.[2] ? parseClockTime(m[2]) : undefined;
    const to = m?.[3] ? parseClockTime(m[3]) : undefined;
    if (!m?.[1] || !from || (m[3] && !to)) {
      return {
        ok: false,
        problem: `"${item}" is not a break; write each as ${ctx.types[0]?.break_name ?? "Lunch"} 12:00-12:30 (no end while it runs).`,
      };
    }
    const key = nameKey(m[1]);
    const n = used.get(key) ?? 0;
    used.set(key, n + 1);
    const old = ctx.existing.filter((b) => nameKey(b.name) === key)[n];
    const type = ctx.types.find((t) => nameKey(t.break_name) === key);
    if (!type && !old) {
      const names = ctx.types.map((t) => t.break_name).join(", ");
      return {
        ok: false,
        problem: `There is no break type ${m[1]} here${names ? `; the break types are ${names}` : ""}.`,
      };
    }
    const startAt = instantNear(m[2] ?? "", startDay, ctx.startAt, ctx.endAt, ctx.timeZone);
    const endAt = m[3]
      ? instantNear(m[3], localDate(startAt, ctx.timeZone), startAt, ctx.endAt, ctx.timeZone)
      : undefined;
    // A kept break stays itself (id and copied type) unless its name now means another live type.
    if (old && (!type || old.breakTypeId === type.id)) out.push({ ...old, startAt, endAt });
    else if (type) out.push(breakDraftOf(type, startAt, endAt));
  }
  return { ok: true, value: out };
}

/** A clock-out this soon after clock-in is more likely a mistaken press: ask first. */
export const SHORT_SHIFT_MINUTES = 5;

/** A question to ask before a clock-out; `shortShift` when the press looks mistaken (then "no" is the safe default). */
export interface ClockOutQuestion {
  text: string;
  shortShift: boolean;
}

/**
 * What to ask before clocking a member out at `endAt`, or undefined when nothing needs asking:
 * a running break (it will be ended at the same time) and a shift shorter than a few minutes.
 */
export function clockOutQuestion(
  shift: Shift,
  who: string,
  endAt: Date,
  timeZone: string,
): ClockOutQuestion | undefined {
  const parts: string[] = [];
  const minutes = (at(endAt) - Date.parse(shift.start_at)) / 60_000;
  const short = minutes < SHORT_SHIFT_MINUTES;
  if (short) {
    const ago = minutes < 1 ? "under a minute ago" : `only ${formatDuration(minutes)} ago`;
    parts.push(`${who} clocked in at ${localTime(shift.start_at, timeZone)}, ${ago}.`);
  }
  const b = runningBreak(shift);
  if (b) {
    parts.push(`${who} is on ${b.name} since ${localTime(b.start_at, timeZone)}.`);
    parts.push(`End the break at ${localTime(endAt, timeZone)} and clock out?`);
  } else if (short) parts.push("Clock out anyway?");
  return parts.length ? { text: parts.join(" "), shortShift: short } : undefined;
}

/** The shift body of a new clock-in. */
export function newShift(input: {
  locationId: string;
  teamMemberId: string;
  startAt: Date;
  wage?: { title?: string; hourly_rate?: { amount?: number; currency?: string } } | undefined;
}): Shift {
  const shift: Shift = {
    location_id: input.locationId,
    team_member_id: input.teamMemberId,
    start_at: input.startAt.toISOString(),
  };
  if (input.wage?.hourly_rate) {
    shift.wage = { hourly_rate: input.wage.hourly_rate as NonNullable<Shift["wage"]>["hourly_rate"] & object };
    if (input.wage.title) shift.wage.title = input.wage.title;
  }
  return shift;
}

/** The shift with a new break of `type` started at `at`. */
export function withBreakStarted(
  shift: Shift,
  type: Pick<BreakType, "id" | "break_name" | "expected_duration" | "is_paid">,
  at: Date,
): Shift {
  const started = {
    start_at: at.toISOString(),
    break_type_id: type.id ?? "",
    name: type.break_name,
    expected_duration: type.expected_duration,
    is_paid: type.is_paid,
  };
  return { ...shift, breaks: [...(shift.breaks ?? []), started] };
}

/** The shift with its running break ended at `at`. */
export function withBreakEnded(shift: Shift, at: Date): Shift {
  return { ...shift, breaks: (shift.breaks ?? []).map((b) => (b.end_at ? b : { ...b, end_at: at.toISOString() })) };
}

/** The shift closed at `at`: every running break ended first (never after the shift's end). */
export function withShiftClosed(shift: Shift, at: Date): Shift {
  return { ...withBreakEnded(shift, at), end_at: at.toISOString(), status: "CLOSED" };
}

/** The body of a shift added after the fact: past start and end, and its breaks. */
export function newPastShift(input: {
  locationId: string;
  teamMemberId: string;
  startAt: Date;
  endAt: Date | undefined;
  breaks: readonly BreakDraft[];
  wage?: Parameters<typeof newShift>[0]["wage"];
}): Shift {
  const shift = withBreakDrafts(newShift(input), input.breaks);
  if (input.endAt) shift.end_at = input.endAt.toISOString();
  return shift;
}

/** The shift with new start and end times; breaks untouched. */
export function withShiftTimes(shift: Shift, startAt: Date, endAt: Date | undefined): Shift {
  const next: Shift = { ...shift, start_at: startAt.toISOString() };
  if (endAt) {
    next.end_at = endAt.toISOString();
    next.status = "CLOSED";
  }
  return next;
}

/** The fields of a shift the service accepts on update (read-only fields removed). */
export function shiftForUpdate(shift: Shift): Shift {
  const { created_at: _c, updated_at: _u, id: _i, ...rest } = shift;
  return rest;
}

/** What the shift edit form submits: local dates and times (an empty end keeps the shift open), and the breaks field. */
export interface ShiftTimesInput {
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  /** `Lunch 12:00-12:30; Coffee 15:00-15:10`; absent: the breaks stay as they are. */
  breaks?: string;
}

/** The edit form's values for a shift: its local times and its breaks. */
export function shiftTimesInputOf(shift: Shift, timeZone: string): ShiftTimesInput {
  return {
    startDate: localDate(shift.start_at, timeZone),
    startTime: localTime(shift.start_at, timeZone),
    endDate: shift.end_at ? localDate(shift.end_at, timeZone) : "",
    endTime: shift.end_at ? localTime(shift.end_at, timeZone) : "",
    breaks: formatBreaks(breakDrafts(shift), timeZone),
  };
}
