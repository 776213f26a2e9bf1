// The start and end of a shift as a form typed them (the review's edit, the time clock's "add a
// shift"), read into instants — or the problem, with the field it is about so the form can take
// the manager there.
import {
  checkDraftBreaks,
  checkDraftTimes,
  parseLocalTime,
  type ShiftDraft,
  type ShiftTimesInput,
} from "./clock-rules.js";
import { type FieldProblem, onField } from "./form-problem.js";

/** A shift's start and end read from the form (no end: both end fields empty, still running). */
export interface ShiftTimesRead {
  startAt: Date;
  endAt: Date | undefined;
}

/** Reads the start and end fields of `input` (local to `timeZone`); a problem names its field. */
export function readShiftTimes(input: ShiftTimesInput, timeZone: string): ShiftTimesRead | FieldProblem {
  const start = parseLocalTime(input.startDate, input.startTime, timeZone, "start");
  if (!start.ok) return onField(start.problem, start.part === "date" ? "startDate" : "startTime");
  const open = input.endDate.trim() === "" && input.endTime.trim() === "";
  if (open) return { startAt: start.at, endAt: undefined };
  const end = parseLocalTime(input.endDate, input.endTime, timeZone, "end");
  if (!end.ok) return onField(end.problem, end.part === "date" ? "endDate" : "endTime");
  return { startAt: start.at, endAt: end.at };
}

/**
 * The shift and its breaks checked as clock-rules' `checkShiftDraft` checks them: a problem with the
 * breaks is about the breaks field; one with the start and end (an end not after the start, a
 * start in the future) is about both, so it names no field.
 */
export function checkDraftFields(d: ShiftDraft, now: Date, timeZone: string): string | FieldProblem | undefined {
  const times = checkDraftTimes(d, now, timeZone);
  if (times) return times;
  const breaks = checkDraftBreaks(d, now, timeZone);
  return breaks ? onField(breaks, "breaks") : undefined;
}
