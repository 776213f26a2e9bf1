import {
  type BreakDraft,
  type ClockOutQuestion,
  checkClockIn,
  checkEndBreak,
  checkEndTime,
  checkNoOverlap,
  checkNotOnShiftElsewhere,
  checkShiftDraft,
  checkStartBreak,
  clockOutQuestion,
  newPastShift,
  newShift,
  parseBreaks,
  parseLocalTime,
  type RuleProblem,
} from "../domain/clock-rules.js";
import { type ShiftChange, targetOf } from "../domain/kept-writes.js";
import { memberName, runningBreak } from "../domain/shifts.js";
import { localDate, localTime } from "../domain/time.js";
import type { Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import { hasErrorCode, isVersionConflict, type WriteError, writeProblem } from "./errors.js";
import { readMemberShifts } from "./member-shifts.js";
import type { KeptResult } from "./outbox-slice.js";
import { selectOpenShifts } from "./selectors.js";
import { timeZoneOf } from "./shell-slice.js";
import type { SliceCreator } from "./store.js";
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
  /** Each write returns a problem in words when a rule stops it before sending. */
  clockIn(memberId: string): Promise<string | undefined>;
  /** Clocks in at a past local date and time. */
  clockInAt(memberId: string, date: string, time: string): Promise<string | undefined>;
  startBreak(memberId: string, breakTypeId: string): Promise<string | undefined>;
  endBreak(memberId: string): Promise<string | undefined>;
  /** What to ask before clocking out now (a running break, a very short shift); undefined: nothing. */
  clockOutQuestion(memberId: string): ClockOutQuestion | undefined;
  /** Clocks out now; a running break ends at the same time. */
  clockOut(memberId: string): Promise<string | undefined>;
  /** Clocks out at a past local date and time; a running break ends then too. */
  clockOutAt(memberId: string, date: string, time: string): Promise<string | undefined>;
  /** Ends a forgotten shift (and its open breaks) at a local date and time. */
  fixForgotten(shiftId: string, date: string, time: string): Promise<string | undefined>;
  /** Records a whole past shift with its breaks. */
  addPastShift(memberId: string, input: PastShiftInput): Promise<string | undefined>;
}

/** Builds the time clock slice. */
export const createTimeClockSlice: SliceCreator<TimeClockSlice> = (set, get, deps) => {
  const patch = (p: Partial<TimeClockData>) => set((s) => ({ timeclock: { ...s.timeclock, ...p } }));
  // The member's open shift as it will be: a clock-in kept offline counts (a break may start on it).
  const openShiftOf = (memberId: string) => selectOpenShifts(get()).find((s) => s.team_member_id === memberId);
  const elsewhereOf = (memberId: string) => get().timeclock.elsewhere.find((s) => s.team_member_id === memberId);
  const nameOf = (memberId: string) => memberName(get().timeclock.members.find((m) => m.id === memberId));
  const tz = () => timeZoneOf(get());
  const locationName = (id: string) => get().locations.find((l) => l.id === id)?.name ?? "another location";
  // Keeps the open shifts in step with a saved shift: open ones replace their old copy, closed ones leave.
  const applySaved = (shift: Shift) => {
    const { openShifts, elsewhere } = get().timeclock;
    const isOpen = shift.status !== "CLOSED" && !shift.end_at;
    const here = shift.location_id === get().locationId;
    const others = openShifts.filter((s) => s.id !== shift.id);
    const away = elsewhere.filter((s) => s.id !== shift.id);
    patch({
      openShifts: isOpen && here ? [...others, shift] : others,
      elsewhere: isOpen && !here ? [...away, shift] : away,
    });
  };
  deps.events.on("shift-saved", (e) => applySaved(e.shift));
  deps.events.on("shift-deleted", (e) =>
    patch({
      openShifts: get().timeclock.openShifts.filter((s) => s.id !== e.shiftId),
      elsewhere: get().timeclock.elsewhere.filter((s) => s.id !== e.shiftId),
    }),
  );
  const saved = (shift: Shift) => deps.events.emit({ type: "shift-saved", shift });
  const refuse = (text: string, details?: string) => {
    get().setStatus({ kind: "rule", text, ...(details ? { details } : {}) });
    return text;
  };

  /** The member's shifts (any location) that could overlap the instants from `fromMs` to `toMs`. */
  const memberShifts = (memberId: string, fromMs: number, toMs: number) =>
    get().runRead("Reading the member's shifts", () => readMemberShifts(deps.client, memberId, fromMs, toMs), {
      quiet: true,
    });

  /** The rules between a new or changed shift and the member's other shifts, in words. */
  const checkAgainstTheirShifts = (
    shifts: readonly Shift[],
    draft: { startAt: Date; endAt: Date | undefined },
    exceptId?: string,
  ): RuleProblem => {
    if (!draft.endAt) {
      const open = shifts.find((s) => !s.end_at && s.id !== exceptId);
      if (open && open.location_id !== get().locationId) {
        return checkNotOnShiftElsewhere(open, get().locationId ?? "", locationName(open.location_id), tz());
      }
      if (open) return checkClockIn(open, draft.startAt, deps.clock.now(), tz());
    }
    return checkNoOverlap(draft, shifts, tz(), exceptId, (id) =>
      id === get().locationId ? undefined : locationName(id),
    );
  };

  /**
   * A write the service refused: when data changed elsewhere broke one of the time clock's rules
   * (a shift created in another terminal, a clock-in at another location), say which in words,
   * with the service's code on the details line, and read the time clock again.
   */
  const explainRefusal = async (
    error: WriteError,
    memberId: string,
    draft: { startAt: Date; endAt: Date | undefined },
    exceptId?: string,
  ): Promise<string | undefined> => {
    if (error.kind !== "failed") return writeProblem(error);
    if (isVersionConflict(error.cause)) {
      void get().loadTimeClock();
      return refuse(
        `${nameOf(memberId)}'s shift was changed elsewhere meanwhile; the list is read again — try once more.`,
        error.problem.details,
      );
    }
    if (!hasErrorCode(error.cause, "BAD_REQUEST")) return error.problem.headline;
    const theirs = await memberShifts(memberId, draft.startAt.getTime(), (draft.endAt ?? deps.clock.now()).getTime());
    const problem = theirs ? checkAgainstTheirShifts(theirs, draft, exceptId) : undefined;
    if (!problem) return error.problem.headline;
    void get().loadTimeClock({ quiet: true });
    // The list is read again, so the rows show what changed; the service's code goes to details.
    return refuse(`${nameOf(memberId)}: ${problem}`, `changed elsewhere · ${error.problem.details ?? ""}`);
  };

  /**
   * Changes a member's open shift through the outbox (kept when the service does not answer, or
   * when the shift itself was kept); a shift the service saved is shown at once.
   */
  const changeShift = async (memberId: string, shift: Shift, change: ShiftChange): Promise<KeptResult> => {
    const res = await get().outboxWrite({
      kind: "shift-change",
      memberId,
      shift: targetOf({ ...shift, id: shift.id ?? "" }),
      change,
    });
    if (res.kind === "sent" && res.answer.shift) saved(res.answer.shift);
    return res;
  };

  /** Sends a clock-in at `startAt` after the rules, including the member's shifts elsewhere. */
  const sendClockIn = async (memberId: string, startAt: Date, form: boolean): Promise<string | undefined> => {
    const locationId = get().locationId;
    if (!locationId) return refuse("No location is selected.");
    const now = deps.clock.now();
    const who = nameOf(memberId);
    const away = elsewhereOf(memberId);
    const local =
      checkNotOnShiftElsewhere(away, locationId, away ? locationName(away.location_id) : "", tz()) ??
      checkClockIn(openShiftOf(memberId), startAt, now, tz());
    if (local) return form ? local : refuse(`${who}: ${local}`);
    if (form) {
      // A start in the past may run into a shift that ended since; the service refuses an overlap.
      const theirs = await memberShifts(memberId, startAt.getTime(), now.getTime());
      const problem = theirs ? checkAgainstTheirShifts(theirs, { startAt, endAt: undefined }) : undefined;
      if (problem) return problem;
    }
    const wage = get().timeclock.wages[memberId];
    // One key per logical clock-in, so a retry of this same press cannot create a second shift.
    const idempotencyKey = deps.newIdempotencyKey();
    const res = await get().outboxWrite({
      kind: "clock-in",
      memberId,
      request: {
        idempotency_key: idempotencyKey,
        shift: newShift({ locationId, teamMemberId: memberId, startAt, wage }),
      },
    });
    if (res.kind === "failed") return explainRefusal(res.error, memberId, { startAt, endAt: undefined });
    if (res.kind === "kept") {
      patch({ form: { kind: "none" } });
      return undefined;
    }
    const shift = res.answer.shift;
    if (shift) {
      saved(shift);
      patch({ form: { kind: "none" } });
      const when =
        localDate(shift.start_at, tz()) === localDate(now, tz()) ? "" : `${localDate(shift.start_at, tz())} `;
      get().setStatus({ kind: "info", text: `${who} clocked in at ${when}${localTime(shift.start_at, tz())}.` });
    }
    return undefined;
  };

  /** Sends a clock-out at `endAt`: running breaks end then too. */
  const sendClockOut = async (memberId: string, endAt: Date, form: boolean): Promise<string | undefined> => {
    const shift = openShiftOf(memberId);
    const who = nameOf(memberId);
    const away = elsewhereOf(memberId);
    if (!shift && away) {
      const text = `${who} is on shift at ${locationName(away.location_id)}, not here; clock out there.`;
      return form ? text : refuse(text);
    }
    const problem = checkEndTime(shift, endAt, deps.clock.now(), tz());
    if (problem || !shift?.id) return form ? problem : refuse(`${who}: ${problem ?? "no open shift"}`);
    const res = await changeShift(memberId, shift, { op: "clock-out", at: endAt.toISOString() });
    if (res.kind === "failed") {
      return explainRefusal(res.error, memberId, { startAt: new Date(shift.start_at), endAt }, shift.id);
    }
    patch({ form: { kind: "none" } });
    if (res.kind === "sent")
      get().setStatus({ kind: "info", text: `${who} clocked out at ${localTime(endAt, tz())}.` });
    return undefined;
  };

  return {
    timeclock: {
      members: [],
      wages: {},
      openShifts: [],
      elsewhere: [],
      filter: "",
      form: { kind: "none" },
      loaded: false,
    },

    async loadTimeClock(options = {}) {
      const locationId = get().locationId;
      if (!locationId) return;
      const data = await get().runRead("Loading the team", () => readTimeClock(deps.client, locationId), options);
      if (data && get().locationId === locationId) patch({ ...data, loaded: true });
    },

    setFilter(text) {
      patch({ filter: text });
    },

    openTimeClockForm(form) {
      patch({ form });
    },

    openBreakPicker(memberId) {
      const away = elsewhereOf(memberId);
      if (!openShiftOf(memberId) && away) {
        refuse(`${nameOf(memberId)} is on shift at ${locationName(away.location_id)}; breaks are taken there.`);
        return;
      }
      const problem = checkStartBreak(openShiftOf(memberId), tz());
      if (problem) {
        refuse(`${nameOf(memberId)}: ${problem}`);
        return;
      }
      if (get().breakTypes.items.length === 0) {
        refuse("This location has no break types; add one on the Break types screen (3).");
        return;
      }
      patch({ form: { kind: "pick-break", memberId } });
    },

    openClockForm(kind, memberId) {
      const who = nameOf(memberId);
      const away = elsewhereOf(memberId);
      if (kind === "clock-out-at") {
        if (!openShiftOf(memberId)) {
          refuse(
            away
              ? `${who} is on shift at ${locationName(away.location_id)}, not here; clock out there.`
              : `${who}: Not clocked in, so there is nothing to clock out of.`,
          );
          return;
        }
      } else if (kind === "clock-in-at") {
        const problem =
          checkNotOnShiftElsewhere(away, get().locationId ?? "", away ? locationName(away.location_id) : "", tz()) ??
          checkClockIn(openShiftOf(memberId), deps.clock.now(), deps.clock.now(), tz());
        if (problem) {
          refuse(`${who}: ${problem}`);
          return;
        }
      }
      patch({ form: { kind, memberId } });
    },

    clockIn(memberId) {
      return sendClockIn(memberId, deps.clock.now(), false);
    },

    async clockInAt(memberId, date, time) {
      const read = parseLocalTime(date, time, tz(), "start");
      if (!read.ok) return read.problem;
      return sendClockIn(memberId, read.at, true);
    },

    async startBreak(memberId, breakTypeId) {
      const shift = openShiftOf(memberId);
      const problem = checkStartBreak(shift, tz());
      if (problem || !shift?.id) return refuse(`${nameOf(memberId)}: ${problem ?? "no open shift"}`);
      const type = get().breakTypes.items.find((t) => t.id === breakTypeId);
      if (!type) return refuse("That break type no longer exists; reload with another location or screen.");
      const breakType = {
        id: type.id ?? breakTypeId,
        name: type.break_name,
        expectedDuration: type.expected_duration,
        isPaid: type.is_paid,
      };
      const res = await changeShift(memberId, shift, {
        op: "start-break",
        breakType,
        at: deps.clock.now().toISOString(),
      });
      if (res.kind !== "failed") {
        patch({ form: { kind: "none" } });
        if (res.kind === "sent")
          get().setStatus({ kind: "info", text: `${nameOf(memberId)} is on ${type.break_name}.` });
        return undefined;
      }
      if (res.error.kind === "failed" && hasErrorCode(res.error.cause, "BAD_REQUEST")) {
        // Is the break type still there? It may have been deleted in another terminal.
        const locationId = get().locationId ?? "";
        const types = await get().runRead(
          "Reading break types",
          () => deps.client.labor.listBreakTypes({ location_id: locationId }).all(),
          { quiet: true },
        );
        if (types && !types.some((t) => t.id === breakTypeId)) {
          deps.events.emit({ type: "break-types-read", locationId, items: types });
          patch({ form: types.length ? { kind: "pick-break", memberId } : { kind: "none" } });
          return refuse(
            `The break type ${type.break_name} was deleted elsewhere, so it cannot start; the list is read again${types.length ? " — pick another" : ""}.`,
            res.error.problem.details,
          );
        }
      }
      return explainRefusal(res.error, memberId, { startAt: new Date(shift.start_at), endAt: undefined }, shift.id);
    },

    async endBreak(memberId) {
      const shift = openShiftOf(memberId);
      const problem = checkEndBreak(shift);
      if (problem || !shift?.id) return refuse(`${nameOf(memberId)}: ${problem ?? "no open shift"}`);
      const name = runningBreak(shift)?.name ?? "break";
      const res = await changeShift(memberId, shift, { op: "end-break", at: deps.clock.now().toISOString() });
      if (res.kind === "sent") get().setStatus({ kind: "info", text: `${nameOf(memberId)} is back from ${name}.` });
      else if (res.kind === "failed")
        await explainRefusal(res.error, memberId, { startAt: new Date(shift.start_at), endAt: undefined }, shift.id);
      return undefined;
    },

    clockOutQuestion(memberId) {
      const shift = openShiftOf(memberId);
      if (!shift) return undefined;
      return clockOutQuestion(shift, nameOf(memberId), deps.clock.now(), tz());
    },

    clockOut(memberId) {
      return sendClockOut(memberId, deps.clock.now(), false);
    },

    async clockOutAt(memberId, date, time) {
      const read = parseLocalTime(date, time, tz(), "end");
      if (!read.ok) return read.problem;
      return sendClockOut(memberId, read.at, true);
    },

    async fixForgotten(shiftId, date, time) {
      const shift = selectOpenShifts(get()).find((s) => s.id === shiftId);
      if (!shift) return "That shift is no longer open.";
      const read = parseLocalTime(date, time, tz(), "end");
      if (!read.ok) return read.problem;
      const problem = checkEndTime(shift, read.at, deps.clock.now(), tz());
      if (problem) return problem;
      const memberId = shift.team_member_id ?? "";
      const res = await changeShift(memberId, shift, { op: "clock-out", at: read.at.toISOString() });
      if (res.kind === "failed")
        return explainRefusal(res.error, memberId, { startAt: new Date(shift.start_at), endAt: read.at }, shiftId);
      patch({ form: { kind: "none" } });
      if (res.kind === "sent") {
        get().setStatus({ kind: "info", text: `${nameOf(memberId)}'s shift now ends ${date.trim()} ${time.trim()}.` });
      }
      return undefined;
    },

    async addPastShift(memberId, input) {
      const locationId = get().locationId;
      if (!locationId) return "No location is selected.";
      const zone = tz();
      const start = parseLocalTime(input.startDate, input.startTime, zone, "start");
      if (!start.ok) return start.problem;
      const open = input.endDate.trim() === "" && input.endTime.trim() === "";
      const end = open ? undefined : parseLocalTime(input.endDate, input.endTime, zone, "end");
      if (end && !end.ok) return end.problem;
      const endAt = end?.ok ? end.at : undefined;
      const now = deps.clock.now();
      const breaks = parseBreaks(input.breaks, {
        startAt: start.at,
        endAt: endAt ?? now,
        timeZone: zone,
        types: get().breakTypes.items,
        existing: [] as BreakDraft[],
      });
      if (!breaks.ok) return breaks.problem;
      const draft = { startAt: start.at, endAt, breaks: breaks.value };
      const problem = checkShiftDraft(draft, now, zone);
      if (problem) return problem;
      const theirs = await memberShifts(memberId, start.at.getTime(), (endAt ?? now).getTime());
      // Offline, the other shifts cannot be read: the service checks the overlap when it is sent.
      if (!theirs && get().connection.state !== "offline") {
        return "Their other shifts could not be read, so nothing was sent; try again.";
      }
      const clash = theirs ? checkAgainstTheirShifts(theirs, draft) : undefined;
      if (clash) return clash;
      const who = nameOf(memberId);
      const idempotencyKey = deps.newIdempotencyKey();
      const res = await get().outboxWrite({
        kind: "add-shift",
        memberId,
        request: {
          idempotency_key: idempotencyKey,
          shift: newPastShift({
            locationId,
            teamMemberId: memberId,
            startAt: start.at,
            endAt,
            breaks: breaks.value,
            wage: get().timeclock.wages[memberId],
          }),
        },
      });
      if (res.kind === "failed") return explainRefusal(res.error, memberId, draft);
      patch({ form: { kind: "none" } });
      if (res.kind === "kept") return undefined;
      if (res.answer.shift) saved(res.answer.shift);
      const span = `${localDate(start.at, zone)} ${localTime(start.at, zone)}–${endAt ? localTime(endAt, zone) : "still open"}`;
      get().setStatus({ kind: "info", text: `Added ${who}'s shift of ${span}.` });
      return undefined;
    },
  };
};
