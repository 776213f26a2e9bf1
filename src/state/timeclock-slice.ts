/**
 * The time clock slice: its data and actions. The actions live by job in timeclock-clock.ts
 * (clock in and out, shifts added after the fact) and timeclock-breaks.ts, sharing the look-ups
 * of timeclock-io.ts.
 */
import { type ClockOutQuestion, clockOutQuestion } from "../domain/clock-rules.js";
import type { FormProblem } from "../domain/form-problem.js";
import type { Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import type { SliceCreator } from "./store.js";
import { endBreak, openBreakPicker, startBreak } from "./timeclock-breaks.js";
import { addPastShift, clockAt, fixForgotten, openClockForm, sendClockIn, sendClockOut } from "./timeclock-clock.js";
import { applyDeleted, applySaved, nameOf, openShiftOf, type TimeClockIo, tz } from "./timeclock-io.js";
import { readTimeClock } from "./timeclock-read.js";

/** The form open on the time clock, if any. */
export type TimeClockForm =
  | { kind: "none" }
  | { kind: "filter" }
  | { kind: "pick-break"; memberId: string }
  | { kind: "fix-forgot"; shiftId: string }
  /** Clock in or out at a time already past (a manager arriving at 9:10 records the 8:55 clock-in). */
  | { kind: "clock-in-at"; memberId: string }
  | { kind: "clock-out-at"; memberId: string }
  /** A whole shift for someone who forgot to clock in at all. */
  | { kind: "add-shift"; memberId: string };

/** Data of the time clock screen. */
export interface TimeClockData {
  members: TeamMember[];
  /** The first wage of each member, by member ID (the rate a clock-in records). */
  wages: Record<string, TeamMemberWage>;
  /** Open shifts at the location, one per member at most. */
  openShifts: Shift[];
  /** Open shifts of this location's members at other locations (they work at several). */
  elsewhere: Shift[];
  filter: string;
  form: TimeClockForm;
  loaded: boolean;
}

/** A past shift as the add-shift form gives it: local dates and times, and the breaks field. */
export interface PastShiftInput {
  startDate: string;
  startTime: string;
  /** Both empty: the shift is still running. */
  endDate: string;
  endTime: string;
  /** `Lunch 12:00-12:30; Coffee 15:00-15:10`. */
  breaks: string;
}

/** The time clock slice: who is here, clock in/out (now or earlier), breaks, shifts added after the fact. */
export interface TimeClockSlice {
  timeclock: TimeClockData;
  /** Reads the team, wages and open shifts; `quiet` for the background refresh (no spinner). */
  loadTimeClock(options?: { quiet?: boolean }): Promise<void>;
  setFilter(text: string): void;
  openTimeClockForm(form: TimeClockForm): void;
  /** Opens the break picker, or explains why a break cannot start now. */
  openBreakPicker(memberId: string): void;
  /** Opens a form for the member, or explains (in the status bar) why it does not apply. */
  openClockForm(kind: "clock-in-at" | "clock-out-at" | "add-shift", memberId: string): void;
  /**
   * Each write returns a problem in words when a rule stops it before sending; the forms' writes
   * name the field a problem is about (see domain/form-problem.ts).
   */
  clockIn(memberId: string): Promise<string | undefined>;
  /** Clocks in at a past local date and time. */
  clockInAt(memberId: string, date: string, time: string): Promise<FormProblem>;
  startBreak(memberId: string, breakTypeId: string): Promise<string | undefined>;
  endBreak(memberId: string): Promise<string | undefined>;
  /** What to ask before clocking out now (a running break, a very short shift); undefined: nothing. */
  clockOutQuestion(memberId: string): ClockOutQuestion | undefined;
  /** Clocks out now; a running break ends at the same time. */
  clockOut(memberId: string): Promise<string | undefined>;
  /** Clocks out at a past local date and time; a running break ends then too. */
  clockOutAt(memberId: string, date: string, time: string): Promise<FormProblem>;
  /** Ends a forgotten shift (and its open breaks) at a local date and time. */
  fixForgotten(shiftId: string, date: string, time: string): Promise<FormProblem>;
  /** Records a whole past shift with its breaks. */
  addPastShift(memberId: string, input: PastShiftInput): Promise<FormProblem>;
}

/** The time clock's data before the first read. */
const initialTimeClock = (): TimeClockData => ({
  members: [],
  wages: {},
  openShifts: [],
  elsewhere: [],
  filter: "",
  form: { kind: "none" },
  loaded: false,
});

/** Reads the team, wages and open shifts of the selected location (kept only if it is still selected). */
async function loadTimeClock(io: TimeClockIo, options: { quiet?: boolean }): Promise<void> {
  const locationId = io.get().locationId;
  if (!locationId) return;
  const data = await io.get().runRead("Loading the team", () => readTimeClock(io.deps.client, locationId), options);
  if (data && io.get().locationId === locationId) io.patch({ ...data, loaded: true });
}

/** What to ask before clocking out now (a running break, a very short shift); undefined: nothing. */
function askBeforeClockOut(io: TimeClockIo, memberId: string): ClockOutQuestion | undefined {
  const shift = openShiftOf(io, memberId);
  if (!shift) return undefined;
  return clockOutQuestion(shift, nameOf(io, memberId), io.deps.clock.now(), tz(io));
}

/** Builds the time clock slice; shifts saved or deleted anywhere keep its open shifts in step. */
export const createTimeClockSlice: SliceCreator<TimeClockSlice> = (set, get, deps) => {
  const patch = (p: Partial<TimeClockData>) => set((s) => ({ timeclock: { ...s.timeclock, ...p } }));
  const io: TimeClockIo = { get, patch, deps };
  deps.events.on("shift-saved", (e) => applySaved(io, e.shift));
  deps.events.on("shift-deleted", (e) => applyDeleted(io, e.shiftId));
  return {
    timeclock: initialTimeClock(),
    loadTimeClock: (options = {}) => loadTimeClock(io, options),
    setFilter: (text) => patch({ filter: text }),
    openTimeClockForm: (form) => patch({ form }),
    openBreakPicker: (memberId) => openBreakPicker(io, memberId),
    openClockForm: (kind, memberId) => openClockForm(io, kind, memberId),
    clockIn: (memberId) => sendClockIn(io, memberId, deps.clock.now(), false),
    clockInAt: (memberId, date, time) => clockAt(io, "in", memberId, date, time),
    startBreak: (memberId, breakTypeId) => startBreak(io, memberId, breakTypeId),
    endBreak: (memberId) => endBreak(io, memberId),
    clockOutQuestion: (memberId) => askBeforeClockOut(io, memberId),
    clockOut: (memberId) => sendClockOut(io, memberId, deps.clock.now(), false),
    clockOutAt: (memberId, date, time) => clockAt(io, "out", memberId, date, time),
    fixForgotten: (shiftId, date, time) => fixForgotten(io, shiftId, date, time),
    addPastShift: (memberId, input) => addPastShift(io, memberId, input),
  };
};
