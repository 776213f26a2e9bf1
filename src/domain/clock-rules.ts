import type { BreakType, Shift } from "../spec/generated/types.js";
import { CLOCK_SKEW_MS } from "./limits.js";
import { runningBreak } from "./shifts.js";
import { localTime } from "./time.js";

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
export function withBreakStarted(shift: Shift, type: BreakType, at: Date): Shift {
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
