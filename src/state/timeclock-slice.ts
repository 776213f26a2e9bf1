import {
  checkClockIn,
  checkEndBreak,
  checkEndTime,
  checkStartBreak,
  newShift,
  shiftForUpdate,
  withBreakEnded,
  withBreakStarted,
  withShiftClosed,
} from "../domain/clock-rules.js";
import { memberName, runningBreak } from "../domain/shifts.js";
import { localTime, parseClockTime, parseDate, zonedInstant } from "../domain/time.js";
import type { Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import { isVersionConflict, writeProblem } from "./errors.js";
import { timeZoneOf } from "./shell-slice.js";
import type { SliceCreator } from "./store.js";

/** The form open on the time clock, if any. */
export type TimeClockForm =
  | { kind: "none" }
  | { kind: "filter" }
  | { kind: "pick-break"; memberId: string }
  | { kind: "fix-forgot"; shiftId: string };

/** Data of the time clock screen. */
export interface TimeClockData {
  members: TeamMember[];
  /** The first wage of each member, by member ID. */
  wages: Record<string, TeamMemberWage>;
  /** Open shifts at the location, one per member at most. */
  openShifts: Shift[];
  filter: string;
  form: TimeClockForm;
  loaded: boolean;
}

/** The time clock slice: who is here, clock in/out, breaks, forgotten clock-outs. */
export interface TimeClockSlice {
  timeclock: TimeClockData;
  /** Reads the team, wages and open shifts; `quiet` for the background refresh (no spinner). */
  loadTimeClock(options?: { quiet?: boolean }): Promise<void>;
  setFilter(text: string): void;
  openTimeClockForm(form: TimeClockForm): void;
  /** Opens the break picker, or explains why a break cannot start now. */
  openBreakPicker(memberId: string): void;
  /** Each write returns a problem in words when a rule stops it before sending. */
  clockIn(memberId: string): Promise<string | undefined>;
  startBreak(memberId: string, breakTypeId: string): Promise<string | undefined>;
  endBreak(memberId: string): Promise<string | undefined>;
  clockOut(memberId: string): Promise<string | undefined>;
  /** Ends a forgotten shift (and its open breaks) at a local date and time. */
  fixForgotten(shiftId: string, date: string, time: string): Promise<string | undefined>;
}

/** Builds the time clock slice. */
export const createTimeClockSlice: SliceCreator<TimeClockSlice> = (set, get, deps) => {
  const patch = (p: Partial<TimeClockData>) => set((s) => ({ timeclock: { ...s.timeclock, ...p } }));
  const openShiftOf = (memberId: string) => get().timeclock.openShifts.find((s) => s.team_member_id === memberId);
  const nameOf = (memberId: string) => memberName(get().timeclock.members.find((m) => m.id === memberId));
  // Keeps the open shifts in step with a saved shift: open ones replace their old copy, closed ones leave.
  const applySaved = (shift: Shift) => {
    const open = get().timeclock.openShifts;
    const others = open.filter((s) => s.id !== shift.id);
    const isOpen = shift.status !== "CLOSED" && !shift.end_at;
    if (!isOpen && others.length === open.length) return;
    patch({ openShifts: isOpen && shift.location_id === get().locationId ? [...others, shift] : others });
  };
  deps.events.on("shift-saved", (e) => applySaved(e.shift));
  deps.events.on("shift-deleted", (e) =>
    patch({ openShifts: get().timeclock.openShifts.filter((s) => s.id !== e.shiftId) }),
  );
  const saved = (shift: Shift) => deps.events.emit({ type: "shift-saved", shift });
  // A write refused because the shift changed elsewhere: read the time clock again so the next
  // try starts from what the service holds now.
  const reloadIfStale = (result: { ok: boolean; error?: { kind: string; cause?: unknown } }) => {
    if (!result.ok && result.error?.kind === "failed" && isVersionConflict(result.error.cause))
      void get().loadTimeClock();
  };
  const refuse = (text: string) => {
    get().setStatus({ kind: "rule", text });
    return text;
  };

  return {
    timeclock: { members: [], wages: {}, openShifts: [], filter: "", form: { kind: "none" }, loaded: false },

    async loadTimeClock(options = {}) {
      const locationId = get().locationId;
      if (!locationId) return;
      const data = await get().runRead(
        "Loading the team",
        async () => {
          const [members, wages, open] = await Promise.all([
            deps.client.team
              .searchTeamMembers({ query: { filter: { location_ids: [locationId], status: "ACTIVE" } }, limit: 200 })
              .all(),
            deps.client.labor.listTeamMemberWages({ limit: 200 }).all(),
            deps.client.labor
              .searchShifts({
                query: { filter: { location_ids: [locationId], team_member_ids: [], status: "OPEN" } },
                limit: 200,
              })
              .all(),
          ]);
          const byMember: Record<string, TeamMemberWage> = {};
          for (const w of wages) if (w.team_member_id && !byMember[w.team_member_id]) byMember[w.team_member_id] = w;
          return { members, wages: byMember, openShifts: open };
        },
        options,
      );
      if (data && get().locationId === locationId) patch({ ...data, loaded: true });
    },

    setFilter(text) {
      patch({ filter: text });
    },

    openTimeClockForm(form) {
      patch({ form });
    },

    openBreakPicker(memberId) {
      const problem = checkStartBreak(openShiftOf(memberId), timeZoneOf(get()));
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

    async clockIn(memberId) {
      const locationId = get().locationId;
      if (!locationId) return refuse("No location is selected.");
      const now = deps.clock.now();
      const problem = checkClockIn(openShiftOf(memberId), now, now, timeZoneOf(get()));
      if (problem) return refuse(`${nameOf(memberId)}: ${problem}`);
      const wage = get().timeclock.wages[memberId];
      // One key per logical clock-in, so a retry of this same press cannot create a second shift.
      const idempotencyKey = deps.newIdempotencyKey();
      const res = await get().runWrite(`shift:${memberId}`, `Clocking in ${nameOf(memberId)}`, () =>
        deps.client.labor.createShift({
          idempotency_key: idempotencyKey,
          shift: newShift({ locationId, teamMemberId: memberId, startAt: now, wage }),
        }),
      );
      const shift = res.ok ? res.value.shift : undefined;
      if (shift) {
        saved(shift);
        get().setStatus({
          kind: "info",
          text: `${nameOf(memberId)} clocked in at ${localTime(shift.start_at, timeZoneOf(get()))}.`,
        });
      }
      return undefined;
    },

    async startBreak(memberId, breakTypeId) {
      const shift = openShiftOf(memberId);
      const problem = checkStartBreak(shift, timeZoneOf(get()));
      if (problem || !shift?.id) return refuse(`${nameOf(memberId)}: ${problem ?? "no open shift"}`);
      const type = get().breakTypes.items.find((t) => t.id === breakTypeId);
      if (!type) return refuse("That break type no longer exists; reload with another location or screen.");
      const res = await get().runWrite(`shift:${memberId}`, `Starting ${type.break_name} for ${nameOf(memberId)}`, () =>
        deps.client.labor.updateShift(shift.id ?? "", {
          shift: shiftForUpdate(withBreakStarted(shift, type, deps.clock.now())),
        }),
      );
      if (res.ok && res.value.shift) {
        saved(res.value.shift);
        patch({ form: { kind: "none" } });
        get().setStatus({ kind: "info", text: `${nameOf(memberId)} is on ${type.break_name}.` });
      } else reloadIfStale(res);
      return undefined;
    },

    async endBreak(memberId) {
      const shift = openShiftOf(memberId);
      const problem = checkEndBreak(shift);
      if (problem || !shift?.id) return refuse(`${nameOf(memberId)}: ${problem ?? "no open shift"}`);
      const name = runningBreak(shift)?.name ?? "break";
      const res = await get().runWrite(`shift:${memberId}`, `Ending ${name} for ${nameOf(memberId)}`, () =>
        deps.client.labor.updateShift(shift.id ?? "", {
          shift: shiftForUpdate(withBreakEnded(shift, deps.clock.now())),
        }),
      );
      if (res.ok && res.value.shift) {
        saved(res.value.shift);
        get().setStatus({ kind: "info", text: `${nameOf(memberId)} is back from ${name}.` });
      } else reloadIfStale(res);
      return undefined;
    },

    async clockOut(memberId) {
      const shift = openShiftOf(memberId);
      const now = deps.clock.now();
      const problem = checkEndTime(shift, now, now, timeZoneOf(get()));
      if (problem || !shift?.id) return refuse(`${nameOf(memberId)}: ${problem ?? "no open shift"}`);
      const res = await get().runWrite(`shift:${memberId}`, `Clocking out ${nameOf(memberId)}`, () =>
        deps.client.labor.updateShift(shift.id ?? "", { shift: shiftForUpdate(withShiftClosed(shift, now)) }),
      );
      if (res.ok && res.value.shift) {
        saved(res.value.shift);
        get().setStatus({
          kind: "info",
          text: `${nameOf(memberId)} clocked out at ${localTime(now, timeZoneOf(get()))}.`,
        });
      } else reloadIfStale(res);
      return undefined;
    },

    async fixForgotten(shiftId, date, time) {
      const shift = get().timeclock.openShifts.find((s) => s.id === shiftId);
      if (!shift) return "That shift is no longer open.";
      if (!parseDate(date)) return `"${date}" is not a date (YYYY-MM-DD).`;
      if (!parseClockTime(time)) return `"${time}" is not a time (HH:MM).`;
      const tz = timeZoneOf(get());
      const endAt = zonedInstant(date, time, tz);
      const problem = checkEndTime(shift, endAt, deps.clock.now(), tz);
      if (problem) return problem;
      const memberId = shift.team_member_id ?? "";
      const res = await get().runWrite(`shift:${memberId}`, `Ending ${nameOf(memberId)}'s shift`, () =>
        deps.client.labor.updateShift(shiftId, { shift: shiftForUpdate(withShiftClosed(shift, endAt)) }),
      );
      if (!res.ok) {
        reloadIfStale(res);
        return writeProblem(res.error);
      }
      if (res.value.shift) saved(res.value.shift);
      patch({ form: { kind: "none" } });
      get().setStatus({ kind: "info", text: `${nameOf(memberId)}'s shift now ends ${date} ${time}.` });
      return undefined;
    },
  };
};
