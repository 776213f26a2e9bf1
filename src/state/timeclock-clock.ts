/**
 * The time clock's clock-ins and clock-outs: now, at a time already past, a forgotten shift
 * ended, and a whole shift added after the fact. Each checks the rules first and returns the
 * problem in words when one stops it.
 */
import {
  type BreakDraft,
  checkClockIn,
  checkEndTime,
  checkNotOnShiftElsewhere,
  newPastShift,
  newShift,
  parseBreaks,
  parseLocalTime,
} from "../domain/clock-rules.js";
import { type FieldProblem, type FormProblem, onField } from "../domain/form-problem.js";
import { checkDraftFields, readShiftTimes } from "../domain/shift-times-read.js";
import { localDate, localTime } from "../domain/time.js";
import { selectOpenShifts } from "./selectors.js";
import {
  announceSaved,
  changeShift,
  checkAgainstTheirShifts,
  closeForm,
  elsewhereOf,
  explainRefusal,
  locationName,
  memberShifts,
  nameOf,
  openShiftOf,
  refuse,
  type TimeClockIo,
  tz,
} from "./timeclock-io.js";
import type { PastShiftInput } from "./timeclock-slice.js";

/** Why the member cannot clock in here at `startAt` by the shifts the screen knows (undefined: they can). */
function clockInProblem(io: TimeClockIo, memberId: string, startAt: Date): string | undefined {
  const away = elsewhereOf(io, memberId);
  return (
    checkNotOnShiftElsewhere(away, io.get().locationId ?? "", away ? locationName(io, away.location_id) : "", tz(io)) ??
    checkClockIn(openShiftOf(io, memberId), startAt, io.deps.clock.now(), tz(io))
  );
}

/**
 * Sends a clock-in at `startAt` after the rules, including the member's shifts elsewhere.
 * `form`: typed in a form, whose problem is shown there rather than in the status bar.
 */
export async function sendClockIn(
  io: TimeClockIo,
  memberId: string,
  startAt: Date,
  form: boolean,
): Promise<string | undefined> {
  const locationId = io.get().locationId;
  if (!locationId) return refuse(io, "No location is selected.");
  const now = io.deps.clock.now();
  const who = nameOf(io, memberId);
  const local = clockInProblem(io, memberId, startAt);
  if (local) return form ? local : refuse(io, `${who}: ${local}`);
  if (form) {
    // A start in the past may run into a shift that ended since; the service refuses an overlap.
    const theirs = await memberShifts(io, memberId, startAt.getTime(), now.getTime());
    const problem = theirs ? checkAgainstTheirShifts(io, theirs, { startAt, endAt: undefined }) : undefined;
    if (problem) return problem;
  }
  const wage = io.get().timeclock.wages[memberId];
  // One key per logical clock-in, so a retry of this same press cannot create a second shift.
  const idempotencyKey = io.deps.newIdempotencyKey();
  const res = await io.get().outboxWrite({
    kind: "clock-in",
    memberId,
    request: {
      idempotency_key: idempotencyKey,
      shift: newShift({ locationId, teamMemberId: memberId, startAt, wage }),
    },
  });
  if (res.kind === "failed") return explainRefusal(io, res.error, memberId, { startAt, endAt: undefined });
  if (res.kind === "kept") {
    closeForm(io);
    return undefined;
  }
  const shift = res.answer.shift;
  if (shift) {
    announceSaved(io, shift);
    closeForm(io);
    const zone = tz(io);
    const when = localDate(shift.start_at, zone) === localDate(now, zone) ? "" : `${localDate(shift.start_at, zone)} `;
    io.get().setStatus({
      screen: "timeclock",
      kind: "info",
      text: `${who} clocked in at ${when}${localTime(shift.start_at, zone)}.`,
    });
  }
  return undefined;
}

/** Sends a clock-out at `endAt`: running breaks end then too. `form` as for {@link sendClockIn}. */
export async function sendClockOut(
  io: TimeClockIo,
  memberId: string,
  endAt: Date,
  form: boolean,
): Promise<string | undefined> {
  const shift = openShiftOf(io, memberId);
  const who = nameOf(io, memberId);
  const away = elsewhereOf(io, memberId);
  if (!shift && away) {
    const text = `${who} is on shift at ${locationName(io, away.location_id)}, not here; clock out there.`;
    return form ? text : refuse(io, text);
  }
  const problem = checkEndTime(shift, endAt, io.deps.clock.now(), tz(io));
  if (problem || !shift?.id) return form ? problem : refuse(io, `${who}: ${problem ?? "no open shift"}`);
  const res = await changeShift(io, memberId, shift, { op: "clock-out", at: endAt.toISOString() });
  if (res.kind === "failed") {
    return explainRefusal(io, res.error, memberId, { startAt: new Date(shift.start_at), endAt }, shift.id);
  }
  closeForm(io);
  if (res.kind === "sent")
    io.get().setStatus({
      screen: "timeclock",
      kind: "info",
      text: `${who} clocked out at ${localTime(endAt, tz(io))}.`,
    });
  return undefined;
}

/** Clocks in or out at a local date and time typed in a form (fields `date` and `time`). */
export async function clockAt(
  io: TimeClockIo,
  which: "in" | "out",
  memberId: string,
  date: string,
  time: string,
): Promise<FormProblem> {
  const read = parseLocalTime(date, time, tz(io), which === "in" ? "start" : "end");
  if (!read.ok) return onField(read.problem, read.part);
  return which === "in" ? sendClockIn(io, memberId, read.at, true) : sendClockOut(io, memberId, read.at, true);
}

/** Opens a form for the member, or explains (in the status bar) why it does not apply. */
export function openClockForm(
  io: TimeClockIo,
  kind: "clock-in-at" | "clock-out-at" | "add-shift",
  memberId: string,
): void {
  const who = nameOf(io, memberId);
  if (kind === "clock-out-at" && !openShiftOf(io, memberId)) {
    const away = elsewhereOf(io, memberId);
    refuse(
      io,
      away
        ? `${who} is on shift at ${locationName(io, away.location_id)}, not here; clock out there.`
        : `${who}: Not clocked in, so there is nothing to clock out of.`,
    );
    return;
  }
  if (kind === "clock-in-at") {
    const problem = clockInProblem(io, memberId, io.deps.clock.now());
    if (problem) {
      refuse(io, `${who}: ${problem}`);
      return;
    }
  }
  io.patch({ form: { kind, memberId } });
}

/** Ends a forgotten shift (and its open breaks) at a local date and time (fields `date` and `time`). */
export async function fixForgotten(io: TimeClockIo, shiftId: string, date: string, time: string): Promise<FormProblem> {
  const shift = selectOpenShifts(io.get()).find((s) => s.id === shiftId);
  if (!shift) return "That shift is no longer open.";
  const read = parseLocalTime(date, time, tz(io), "end");
  if (!read.ok) return onField(read.problem, read.part);
  const problem = checkEndTime(shift, read.at, io.deps.clock.now(), tz(io));
  if (problem) return problem;
  const memberId = shift.team_member_id ?? "";
  const res = await changeShift(io, memberId, shift, { op: "clock-out", at: read.at.toISOString() });
  if (res.kind === "failed")
    return explainRefusal(io, res.error, memberId, { startAt: new Date(shift.start_at), endAt: read.at }, shiftId);
  closeForm(io);
  if (res.kind === "sent") {
    io.get().setStatus({
      screen: "timeclock",
      kind: "info",
      text: `${nameOf(io, memberId)}'s shift now ends ${date.trim()} ${time.trim()}.`,
    });
  }
  return undefined;
}

/** A past shift as the form's fields read: its start, end (undefined: still open) and breaks. */
interface PastShiftDraft {
  startAt: Date;
  endAt: Date | undefined;
  breaks: BreakDraft[];
}

/**
 * Reads the add-shift form's fields and checks the shift on its own; otherwise the problem, naming
 * the field it is about (a bad date or time, the breaks) or only in words (start after end).
 */
function readPastShift(io: TimeClockIo, input: PastShiftInput): PastShiftDraft | FieldProblem | string {
  const zone = tz(io);
  const times = readShiftTimes(input, zone);
  if ("text" in times) return times;
  const { startAt, endAt } = times;
  const now = io.deps.clock.now();
  const breaks = parseBreaks(input.breaks, {
    startAt,
    endAt: endAt ?? now,
    timeZone: zone,
    types: io.get().breakTypes.items,
    existing: [] as BreakDraft[],
  });
  if (!breaks.ok) return onField(breaks.problem, "breaks");
  const draft = { startAt, endAt, breaks: breaks.value };
  return checkDraftFields(draft, now, zone) ?? draft;
}

/** Records a whole past shift with its breaks, after checking it against the member's other shifts. */
export async function addPastShift(io: TimeClockIo, memberId: string, input: PastShiftInput): Promise<FormProblem> {
  const locationId = io.get().locationId;
  if (!locationId) return "No location is selected.";
  const draft = readPastShift(io, input);
  if (typeof draft === "string" || "text" in draft) return draft;
  const { startAt, endAt, breaks } = draft;
  const theirs = await memberShifts(io, memberId, startAt.getTime(), (endAt ?? io.deps.clock.now()).getTime());
  // Offline, the other shifts cannot be read: the service checks the overlap when it is sent.
  if (!theirs && io.get().connection.state !== "offline") {
    return "Their other shifts could not be read, so nothing was sent; try again.";
  }
  const clash = theirs ? checkAgainstTheirShifts(io, theirs, draft) : undefined;
  if (clash) return clash;
  const wage = io.get().timeclock.wages[memberId];
  const res = await io.get().outboxWrite({
    kind: "add-shift",
    memberId,
    request: {
      idempotency_key: io.deps.newIdempotencyKey(),
      shift: newPastShift({ locationId, teamMemberId: memberId, startAt, endAt, breaks, wage }),
    },
  });
  if (res.kind === "failed") return explainRefusal(io, res.error, memberId, draft);
  closeForm(io);
  if (res.kind === "kept") return undefined;
  if (res.answer.shift) announceSaved(io, res.answer.shift);
  const zone = tz(io);
  const span = `${localDate(startAt, zone)} ${localTime(startAt, zone)}–${endAt ? localTime(endAt, zone) : "still open"}`;
  io.get().setStatus({ screen: "timeclock", kind: "info", text: `Added ${nameOf(io, memberId)}'s shift of ${span}.` });
  return undefined;
}
