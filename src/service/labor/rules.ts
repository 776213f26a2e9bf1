import { CLOCK_SKEW_MS } from "../../domain/limits.js";
import { durationMinutes, isoDuration } from "../../domain/time.js";
import type { Break, BreakType, Shift, ShiftWage } from "../../spec/generated/types.js";
import { badRequest, conflict, invalid } from "../errors.js";
import { parseTime } from "../params.js";
import { truncateToMinute, zonedRfc3339 } from "./time.js";

/**
 * An ISO 8601 duration of a break (`PT15M`), in the canonical form the service writes back;
 * precision below a minute is dropped. Malformed or zero → INVALID_VALUE on `field`.
 */
export function normalizeBreakDuration(text: string, field: string): string {
  const minutes = durationMinutes(text);
  if (minutes === undefined || !/^P/.test(text)) {
    throw invalid("INVALID_VALUE", `${field} must be an ISO 8601 duration such as PT15M.`, field);
  }
  const whole = Math.floor(minutes);
  if (whole < 1) throw invalid("INVALID_VALUE", `${field} must be at least one minute.`, field);
  return isoDuration(whole);
}

/** Everything a shift needs from around it to be built and checked. */
export interface ShiftInputs {
  /** The shift as the caller sent it. */
  input: Shift;
  /** The stored shift this replaces, on update. */
  existing?: Shift | undefined;
  /** The time zone of the shift's location. */
  timeZone: string;
  currency: string;
  now: Date;
  newId: () => string;
  /** Looks up a break type of the seller. */
  breakType: (id: string) => BreakType | undefined;
  /** Wage to use when none is sent on create. */
  defaultWage: ShiftWage;
}

/** A checked shift, ready to store (id, version and timestamps are the caller's). */
export interface BuiltShift {
  shift: Shift;
  startMs: number;
  endMs: number | null;
}

const minuteOf = (value: string, field: string): number => truncateToMinute(parseTime(value, field).getTime());

/**
 * Checks the rules that concern one shift on its own — start not in the future, end not before
 * start, breaks inside the shift and well ordered, every break ended when the shift is closed —
 * and builds the shift as stored: times truncated to the minute and written at the location's
 * offset, breaks completed from their break types, status from `end_at`. Rules that involve the
 * member's other shifts (one open shift, no overlap) are {@link checkAgainstOthers}.
 */
export function buildShift(p: ShiftInputs): BuiltShift {
  const { input, existing } = p;
  // Compared as sent, before the seconds are cut: a caller a few seconds fast is within the
  // allowance whatever second of the minute it asks in.
  const sentStartMs = parseTime(input.start_at, "shift.start_at").getTime();
  if (sentStartMs > p.now.getTime() + CLOCK_SKEW_MS) {
    throw badRequest("start_at must not be in the future.", "shift.start_at");
  }
  const startMs = truncateToMinute(sentStartMs);
  const endMs = input.end_at === undefined || input.end_at === null ? null : minuteOf(input.end_at, "shift.end_at");
  if (endMs !== null && endMs < startMs) throw badRequest("end_at must not be before start_at.", "shift.end_at");

  const sentBreaks = input.breaks ?? [];
  const oldBreaks = new Map(sentBreaks.length > 0 ? (existing?.breaks ?? []).map((b) => [b.id, b]) : []);
  const breaks: { b: Break; start: number; end: number | null; index: number }[] = sentBreaks.map((raw, index) => {
    const at = `shift.breaks[${index}]`;
    const start = minuteOf(raw.start_at, `${at}.start_at`);
    normalizeBreakDuration(raw.expected_duration, `${at}.expected_duration`);
    const end = raw.end_at === undefined || raw.end_at === null ? null : minuteOf(raw.end_at, `${at}.end_at`);
    const old = raw.id ? oldBreaks.get(raw.id) : undefined;
    const type = p.breakType(raw.break_type_id);
    // A break keeps its copy when its break type has since been deleted; a new one needs a live type.
    if (!type && !(old && old.break_type_id === raw.break_type_id)) {
      throw badRequest(`Break type not found: ${raw.break_type_id}.`, `${at}.break_type_id`);
    }
    const b: Break = {
      id: old?.id ?? p.newId(),
      start_at: zonedRfc3339(start, p.timeZone),
      ...(end === null ? {} : { end_at: zonedRfc3339(end, p.timeZone) }),
      break_type_id: raw.break_type_id,
      name: type?.break_name ?? raw.name,
      expected_duration: type?.expected_duration ?? raw.expected_duration,
      is_paid: type?.is_paid ?? raw.is_paid,
    };
    if (end !== null && end < start) throw badRequest("A break must not end before it starts.", `${at}.end_at`);
    if (start < startMs) throw badRequest("A break must not start before the shift starts.", `${at}.start_at`);
    if (endMs !== null && (start > endMs || (end !== null && end > endMs))) {
      throw badRequest("A break must not end after the shift ends.", `${at}.${end === null ? "start_at" : "end_at"}`);
    }
    return { b, start, end, index };
  });
  breaks.sort((x, y) => x.start - y.start || x.index - y.index);
  for (let i = 0; i < breaks.length; i++) {
    const cur = breaks[i];
    const next = breaks[i + 1];
    if (!cur) continue;
    if (next && cur.end === null) {
      throw badRequest(
        "A break can only be added once every earlier break has an end_at.",
        `shift.breaks[${cur.index}].end_at`,
      );
    }
    if (next && cur.end !== null && next.start < cur.end) {
      throw badRequest("Breaks of a shift must not overlap.", `shift.breaks[${next.index}].start_at`);
    }
    if (endMs !== null && cur.end === null) {
      throw badRequest(
        "A shift can only be closed once every break has an end_at.",
        `shift.breaks[${cur.index}].end_at`,
      );
    }
  }

  const wage: ShiftWage = input.wage ?? existing?.wage ?? p.defaultWage;
  const tips = input.declared_cash_tip_money ?? existing?.declared_cash_tip_money;
  // Built field by field, not with conditional spreads (a temporary object and a slow copy each,
  // about 0.3 µs apiece): the fields go in the same order, so the JSON is the same text.
  const shift: Shift = {
    location_id: input.location_id,
    timezone: p.timeZone,
    start_at: zonedRfc3339(startMs, p.timeZone),
  };
  if (endMs !== null) shift.end_at = zonedRfc3339(endMs, p.timeZone);
  shift.wage = { ...wage, hourly_rate: wage.hourly_rate ?? { amount: 0, currency: p.currency as "USD" } };
  shift.breaks = breaks.map((x) => x.b);
  shift.status = endMs === null ? "OPEN" : "CLOSED";
  if (tips) shift.declared_cash_tip_money = tips;
  return { shift, startMs, endMs };
}

/**
 * Rules between a shift and the member's other shifts: at most one open shift, and no overlap.
 * `open` is the member's other open shift, `overlapping` another shift whose time overlaps.
 */
export function checkAgainstOthers(built: BuiltShift, open: Shift | undefined, overlapping: Shift | undefined): void {
  if (built.endMs === null && open) {
    throw badRequest(`The team member already has an open shift (${open.id}); close it first.`, "shift.end_at");
  }
  if (overlapping) {
    throw badRequest(`The shift overlaps another shift of the team member (${overlapping.id}).`, "shift.start_at");
  }
}

/**
 * The team member a shift write is for: `team_member_id` or the deprecated `employee_id` (both
 * may be sent, naming the same member), or the stored shift's when an update names none. A
 * shift's member never changes, and an update that names a `version` must name the stored one.
 */
export function memberOfShift(input: Shift, existing: (Shift & { version: number }) | undefined): string {
  const given = [input.team_member_id, input.employee_id].filter((x): x is string => typeof x === "string" && x !== "");
  if (given.length === 2 && given[0] !== given[1]) {
    throw badRequest("team_member_id and employee_id name different team members.", "shift.team_member_id");
  }
  const memberId = given[0] ?? existing?.team_member_id;
  if (!memberId) throw badRequest("A shift needs a team_member_id.", "shift.team_member_id");
  if (existing && memberId !== existing.team_member_id) {
    throw badRequest("The team member of a shift cannot be changed.", "shift.team_member_id");
  }
  if (existing && input.version !== undefined && input.version !== existing.version) {
    throw conflict(
      `The shift was changed since version ${input.version}; it is at version ${existing.version}.`,
      "shift.version",
    );
  }
  return memberId;
}

/** The wage a new shift gets when none is sent: the member's first job title, at no rate. */
export function defaultShiftWage(title: string | undefined, currency: string): ShiftWage {
  const hourly_rate = { amount: 0, currency: currency as "USD" };
  return title ? { title, hourly_rate } : { hourly_rate };
}
