// The review's writes: a shift's times and breaks saved, a shift deleted. Both go through the
// outbox (state/outbox-slice.ts): made at once when the service answers, kept on this machine when
// it does not — the review then shows the shift as it will be, marked ◷. A save that lost to
// someone else's shows their version, the manager's values kept in the form.
import {
  breakDrafts,
  checkNoOverlap,
  parseBreaks,
  type ShiftTimesInput,
  withBreakDrafts,
  withShiftTimes,
} from "../domain/clock-rules.js";
import { type FormProblem, onField } from "../domain/form-problem.js";
import { targetOf } from "../domain/kept-writes.js";
import { checkDraftFields, readShiftTimes } from "../domain/shift-times-read.js";
import { localDate, localTime } from "../domain/time.js";
import type { Shift } from "../spec/generated/types.js";
import { isVersionConflict, writeProblem } from "./errors.js";
import { readMemberShifts } from "./member-shifts.js";
import type { ReviewData } from "./review-slice.js";
import type { LoadedState, StoreDeps } from "./store.js";

/** What the review's writes use of its slice. */
export interface ReviewIo {
  get: () => LoadedState;
  patch: (p: Partial<ReviewData>) => void;
  deps: StoreDeps;
  /** Puts a saved shift in place (or takes a deleted one out) and rebuilds the review. */
  replaceShift(shiftId: string, next: Shift | undefined): void;
  nameOf(shift: Shift): string;
  /** The time zone of the store a shift was worked at. */
  zoneOf(shift: Shift): string;
}

/** A shift as the review shows it: with the changes kept on this machine applied. */
export function shownShift(s: LoadedState, shiftId: string): Shift | undefined {
  return (
    s.review.result?.rows.find((r) => r.shift.id === shiftId)?.shift ?? s.review.shifts.find((x) => x.id === shiftId)
  );
}

/**
 * Checks the form's values against the rules and the member's other shifts; the change, or a
 * problem (naming the field it is about when it is about one).
 */
async function checkedChange(io: ReviewIo, shift: Shift & { id: string }, input: ShiftTimesInput) {
  const { get, deps } = io;
  const tz = io.zoneOf(shift);
  const times = readShiftTimes(input, tz);
  if ("text" in times) return times;
  const { startAt, endAt } = times;
  if (!endAt && shift.end_at)
    return onField("A closed shift needs an end; empty both end fields only for a shift still running.", "endDate");
  const now = deps.clock.now();
  const existing = breakDrafts(shift);
  const breaks =
    input.breaks === undefined
      ? { ok: true as const, value: existing }
      : parseBreaks(input.breaks, {
          startAt,
          endAt: endAt ?? now,
          timeZone: tz,
          types: get().breakTypes.items,
          existing,
        });
  if (!breaks.ok) return onField(breaks.problem, "breaks");
  const draft = { startAt, endAt, breaks: breaks.value };
  const problem = checkDraftFields(draft, now, tz);
  if (problem) return problem;
  const memberId = shift.team_member_id ?? shift.employee_id ?? "";
  // Moving a shift's times may run into another of the member's shifts, at any location.
  const theirs = await get().runRead(
    "Reading the member's shifts",
    () => readMemberShifts(deps.client, memberId, startAt.getTime(), (endAt ?? now).getTime()),
    { quiet: true },
  );
  // Offline, the other shifts cannot be read: the service checks the overlap when the edit goes.
  if (!theirs && get().connection.state !== "offline") {
    return "Their other shifts could not be read, so nothing was sent; try again.";
  }
  const clash = theirs
    ? checkNoOverlap(draft, theirs, tz, shift.id, (id) =>
        id === get().locationId ? undefined : get().locations.find((l) => l.id === id)?.name,
      )
    : undefined;
  if (clash) return clash;
  const body = withBreakDrafts(withShiftTimes(shift, startAt, endAt), breaks.value);
  return {
    memberId,
    change: {
      op: "set-times" as const,
      startAt: startAt.toISOString(),
      endAt: endAt?.toISOString(),
      breaks: body.breaks ?? [],
    },
  };
}

/** After a save lost to someone else's: their version shown, the manager's values kept in the form. */
async function showTheirs(io: ReviewIo, shift: Shift & { id: string }, input: ShiftTimesInput): Promise<string> {
  const { get, deps } = io;
  const tz = io.zoneOf(shift);
  const fresh = await get().runRead("Reading the shift again", () => deps.client.labor.getShift(shift.id));
  const newer = fresh?.shift;
  if (newer) {
    io.replaceShift(shift.id, newer);
    // The manager's typed values stay in the form; saving again applies them over the newer version.
    deps.events.emit({ type: "shift-saved", shift: newer });
    // The event marked the review stale; it already shows the newer version.
    io.patch({ conflict: { theirs: newer, mine: { ...input } }, stale: false });
  }
  const text = newer
    ? `Someone else changed this shift first: it now runs ${localTime(newer.start_at, tz)}–${newer.end_at ? localTime(newer.end_at, tz) : "open"}. Your values are kept; enter saves them over it.`
    : "Someone else changed this shift first; your edit was not saved.";
  get().setStatus({
    screen: "review",
    kind: "rule",
    text,
    details: `shift ${shift.id} · version ${newer?.version ?? "?"}`,
  });
  return text;
}

/** Saves a shift's times and breaks (the version read travels with it); a problem keeps the form open. */
export async function editShiftTimes(io: ReviewIo, shiftId: string, input: ShiftTimesInput): Promise<FormProblem> {
  const { get, deps } = io;
  const found = shownShift(get(), shiftId);
  if (!found) return "That shift is not in the review any more.";
  const shift = { ...found, id: shiftId };
  const checked = await checkedChange(io, shift, input);
  if (typeof checked === "string" || "text" in checked) return checked;
  const res = await get().outboxWrite({
    kind: "shift-change",
    memberId: checked.memberId,
    shift: targetOf(shift),
    change: checked.change,
  });
  if (res.kind === "kept") {
    io.patch({ form: { kind: "none" }, conflict: undefined });
    return undefined;
  }
  if (res.kind === "failed") {
    if (res.error.kind !== "failed" || !isVersionConflict(res.error.cause)) return writeProblem(res.error);
    return showTheirs(io, shift, input);
  }
  const saved = res.answer.shift;
  if (!saved) return "The service did not return the saved shift.";
  io.replaceShift(shiftId, saved);
  deps.events.emit({ type: "shift-saved", shift: saved });
  // The event marked the review stale; what it shows is this very save.
  io.patch({ form: { kind: "none" }, conflict: undefined, stale: false });
  const tz = io.zoneOf(saved);
  get().setStatus({
    screen: "review",
    kind: "info",
    text: `Saved ${io.nameOf(saved)}'s shift of ${localDate(saved.start_at, tz)}.`,
  });
  return undefined;
}

/** Deletes a shift (after the screen asked); one deleted elsewhere already is caught up with. */
export async function deleteShift(io: ReviewIo, shiftId: string): Promise<void> {
  const { get, deps } = io;
  const shift = shownShift(get(), shiftId);
  if (!shift) return;
  const tz = io.zoneOf(shift);
  const who = io.nameOf(shift);
  const res = await get().outboxWrite({
    kind: "delete-shift",
    memberId: shift.team_member_id ?? shift.employee_id ?? "",
    shiftId,
    startAt: shift.start_at,
  });
  if (res.kind !== "sent") return;
  io.replaceShift(shiftId, undefined);
  if (res.answer.gone) {
    // Already gone (deleted in another terminal): the review just catches up.
    get().setStatus({ screen: "review", kind: "info", text: `${who}'s shift was already deleted elsewhere.` });
    return;
  }
  deps.events.emit({ type: "shift-deleted", shiftId });
  io.patch({ stale: false });
  get().setStatus({
    screen: "review",
    kind: "info",
    text: `Deleted ${who}'s shift of ${localDate(shift.start_at, tz)} ${localTime(shift.start_at, tz)}.`,
  });
}
