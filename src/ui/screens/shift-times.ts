// The form of a shift's times, as the review's edit and the time clock's "add a shift" ask for it:
// start and end (local date and time) and the breaks, typed as the clock rules read them.
import { breaksExample, type ShiftTimesInput } from "../../domain/clock-rules.js";
import type { FieldSpec } from "../components/form.js";

/** The fields: start, end and breaks; the breaks' example names the location's own break types. */
export function shiftTimesFields(breakTypes: readonly string[], emptyEnd: string): FieldSpec[] {
  return [
    { name: "startDate", label: "Start date", hint: "YYYY-MM-DD" },
    { name: "startTime", label: "Start time", hint: "HH:MM" },
    { name: "endDate", label: "End date", hint: `YYYY-MM-DD (${emptyEnd})` },
    { name: "endTime", label: "End time", hint: "HH:MM" },
    { name: "breaks", label: "Breaks", hint: breaksExample(breakTypes) },
  ];
}

/** What the form's fields say, as the shift's times (an absent field is empty). */
export function shiftTimesFrom(v: Record<string, string>): Required<ShiftTimesInput> {
  return {
    startDate: v.startDate ?? "",
    startTime: v.startTime ?? "",
    endDate: v.endDate ?? "",
    endTime: v.endTime ?? "",
    breaks: v.breaks ?? "",
  };
}
