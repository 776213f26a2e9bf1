/**
 * What the time clock's actions share: the store, the dependencies, and the look-ups and answers
 * every clock-in, clock-out and break needs (whose shift is open where, a refusal in words, a
 * change of a shift sent through the outbox).
 */
import { checkClockIn, checkNoOverlap, checkNotOnShiftElsewhere, type RuleProblem } from "../domain/clock-rules.js";
import { type ShiftChange, targetOf } from "../domain/kept-writes.js";
import { memberName } from "../domain/shifts.js";
import type { Shift } from "../spec/generated/types.js";
import { hasErrorCode, isVersionConflict, type WriteError, writeProblem } from "./errors.js";
import { readMemberShifts } from "./member-shifts.js";
import type { KeptResult } from "./outbox-slice.js";
import { selectOpenShifts } from "./selectors.js";
import { timeZoneOf } from "./shell-slice.js";
import type { AppState, StoreDeps } from "./store.js";
import type { TimeClockData } from "./timeclock-slice.js";

/** What the time clock's actions work with: the store, a patch of the screen's data, the dependencies. */
export interface TimeClockIo {
  get: () => AppState;
  patch: (p: Partial<TimeClockData>) => void;
  deps: StoreDeps;
}

/** A shift's start and end as the rules check them (no end: still open). */
export interface ShiftSpan {
  startAt: Date;
  endAt: Date | undefined;
}

/** The member's open shift as it will be: a clock-in kept offline counts (a break may start on it). */
export const openShiftOf = (io: TimeClockIo, memberId: string): Shift | undefined =>
  selectOpenShifts(io.get()).find((s) => s.team_member_id === memberId);

/** The member's open shift at another location, if any. */
export const elsewhereOf = (io: TimeClockIo, memberId: string): Shift | undefined =>
  io.get().timeclock.elsewhere.find((s) => s.team_member_id === memberId);

/** The member's name as the screen shows it. */
export const nameOf = (io: TimeClockIo, memberId: string): string =>
  memberName(io.get().timeclock.members.find((m) => m.id === memberId));

/** The location's time zone. */
export const tz = (io: TimeClockIo): string => timeZoneOf(io.get());

/** A location's name, for a shift at another store. */
export const locationName = (io: TimeClockIo, id: string): string =>
  io.get().locations.find((l) => l.id === id)?.name ?? "another location";

/** Says in the status bar why a rule stops the action, and returns the same words. */
export function refuse(io: TimeClockIo, text: string, details?: string): string {
  io.get().setStatus({ screen: "timeclock", kind: "rule", text, ...(details ? { details } : {}) });
  return text;
}

/** Closes the open form. */
export const closeForm = (io: TimeClockIo): void => io.patch({ form: { kind: "none" } });

/** Tells the other slices (and this one) that a shift was saved. */
export const announceSaved = (io: TimeClockIo, shift: Shift): void =>
  io.deps.events.emit({ type: "shift-saved", shift });

/** Keeps the open shifts in step with a saved shift: open ones replace their old copy, closed ones leave. */
export function applySaved(io: TimeClockIo, shift: Shift): void {
  const { openShifts, elsewhere } = io.get().timeclock;
  const isOpen = shift.status !== "CLOSED" && !shift.end_at;
  const here = shift.location_id === io.get().locationId;
  const others = openShifts.filter((s) => s.id !== shift.id);
  const away = elsewhere.filter((s) => s.id !== shift.id);
  io.patch({
    openShifts: isOpen && here ? [...others, shift] : others,
    elsewhere: isOpen && !here ? [...away, shift] : away,
  });
}

/** Drops a deleted shift from the open shifts. */
export function applyDeleted(io: TimeClockIo, shiftId: string): void {
  const { openShifts, elsewhere } = io.get().timeclock;
  io.patch({
    openShifts: openShifts.filter((s) => s.id !== shiftId),
    elsewhere: elsewhere.filter((s) => s.id !== shiftId),
  });
}

/** The member's shifts (any location) that could overlap the instants from `fromMs` to `toMs`. */
export const memberShifts = (io: TimeClockIo, memberId: string, fromMs: number, toMs: number) =>
  io.get().runRead("Reading the member's shifts", () => readMemberShifts(io.deps.client, memberId, fromMs, toMs), {
    quiet: true,
  });

/** The rules between a new or changed shift and the member's other shifts, in words. */
export function checkAgainstTheirShifts(
  io: TimeClockIo,
  shifts: readonly Shift[],
  draft: ShiftSpan,
  exceptId?: string,
): RuleProblem {
  const here = io.get().locationId;
  if (!draft.endAt) {
    const open = shifts.find((s) => !s.end_at && s.id !== exceptId);
    if (open && open.location_id !== here) {
      return checkNotOnShiftElsewhere(open, here ?? "", locationName(io, open.location_id), tz(io));
    }
    if (open) return checkClockIn(open, draft.startAt, io.deps.clock.now(), tz(io));
  }
  return checkNoOverlap(draft, shifts, tz(io), exceptId, (id) => (id === here ? undefined : locationName(io, id)));
}

/**
 * A write the service refused: when data changed elsewhere broke one of the time clock's rules
 * (a shift created in another terminal, a clock-in at another location), say which in words,
 * with the service's code on the details line, and read the time clock again.
 */
export async function explainRefusal(
  io: TimeClockIo,
  error: WriteError,
  memberId: string,
  draft: ShiftSpan,
  exceptId?: string,
): Promise<string | undefined> {
  if (error.kind !== "failed") return writeProblem(error);
  if (isVersionConflict(error.cause)) {
    void io.get().loadTimeClock();
    return refuse(
      io,
      `${nameOf(io, memberId)}'s shift was changed elsewhere meanwhile; the list is read again — try once more.`,
      error.problem.details,
    );
  }
  if (!hasErrorCode(error.cause, "BAD_REQUEST")) return error.problem.headline;
  const until = draft.endAt ?? io.deps.clock.now();
  const theirs = await memberShifts(io, memberId, draft.startAt.getTime(), until.getTime());
  const problem = theirs ? checkAgainstTheirShifts(io, theirs, draft, exceptId) : undefined;
  if (!problem) return error.problem.headline;
  void io.get().loadTimeClock({ quiet: true });
  // The list is read again, so the rows show what changed; the service's code goes to details.
  return refuse(io, `${nameOf(io, memberId)}: ${problem}`, `changed elsewhere · ${error.problem.details ?? ""}`);
}

/**
 * Changes a member's open shift through the outbox (kept when the service does not answer, or
 * when the shift itself was kept); a shift the service saved is shown at once.
 */
export async function changeShift(
  io: TimeClockIo,
  memberId: string,
  shift: Shift,
  change: ShiftChange,
): Promise<KeptResult> {
  const res = await io.get().outboxWrite({
    kind: "shift-change",
    memberId,
    shift: targetOf({ ...shift, id: shift.id ?? "" }),
    change,
  });
  if (res.kind === "sent" && res.answer.shift) announceSaved(io, res.answer.shift);
  return res;
}
