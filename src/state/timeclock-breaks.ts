/** The time clock's breaks: the picker opened only when a break can start, starting and ending one. */
import { checkEndBreak, checkStartBreak } from "../domain/clock-rules.js";
import { runningBreak } from "../domain/shifts.js";
import type { BreakType, Shift } from "../spec/generated/types.js";
import { hasErrorCode, type WriteError } from "./errors.js";
import {
  changeShift,
  closeForm,
  elsewhereOf,
  explainRefusal,
  locationName,
  nameOf,
  openShiftOf,
  refuse,
  type TimeClockIo,
  tz,
} from "./timeclock-io.js";

/** Opens the break picker, or explains why a break cannot start now. */
export function openBreakPicker(io: TimeClockIo, memberId: string): void {
  const away = elsewhereOf(io, memberId);
  if (!openShiftOf(io, memberId) && away) {
    refuse(io, `${nameOf(io, memberId)} is on shift at ${locationName(io, away.location_id)}; breaks are taken there.`);
    return;
  }
  const problem = checkStartBreak(openShiftOf(io, memberId), tz(io));
  if (problem) {
    refuse(io, `${nameOf(io, memberId)}: ${problem}`);
    return;
  }
  if (io.get().breakTypes.items.length === 0) {
    refuse(io, "This location has no break types; add one on the Break types screen (3).");
    return;
  }
  io.patch({ form: { kind: "pick-break", memberId } });
}

/**
 * After the service refused a break: when its type was deleted in another terminal, the break
 * types are read again, the picker stays open on the rest, and that is said; undefined otherwise.
 */
async function breakTypeGone(
  io: TimeClockIo,
  memberId: string,
  type: BreakType,
  error: WriteError,
): Promise<string | undefined> {
  if (error.kind !== "failed" || !hasErrorCode(error.cause, "BAD_REQUEST")) return undefined;
  const locationId = io.get().locationId ?? "";
  const types = await io
    .get()
    .runRead("Reading break types", () => io.deps.client.labor.listBreakTypes({ location_id: locationId }).all(), {
      quiet: true,
    });
  if (!types || types.some((t) => t.id === type.id)) return undefined;
  io.deps.events.emit({ type: "break-types-read", locationId, items: types });
  io.patch({ form: types.length ? { kind: "pick-break", memberId } : { kind: "none" } });
  return refuse(
    io,
    `The break type ${type.break_name} was deleted elsewhere, so it cannot start; the list is read again${types.length ? " — pick another" : ""}.`,
    error.problem.details,
  );
}

/** Starts a break of the given type on the member's open shift. */
export async function startBreak(io: TimeClockIo, memberId: string, breakTypeId: string): Promise<string | undefined> {
  const shift = openShiftOf(io, memberId);
  const problem = checkStartBreak(shift, tz(io));
  if (problem || !shift?.id) return refuse(io, `${nameOf(io, memberId)}: ${problem ?? "no open shift"}`);
  const type = io.get().breakTypes.items.find((t) => t.id === breakTypeId);
  if (!type) return refuse(io, "That break type no longer exists; reload with another location or screen.");
  const breakType = {
    id: type.id ?? breakTypeId,
    name: type.break_name,
    expectedDuration: type.expected_duration,
    isPaid: type.is_paid,
  };
  const res = await changeShift(io, memberId, shift, {
    op: "start-break",
    breakType,
    at: io.deps.clock.now().toISOString(),
  });
  if (res.kind !== "failed") {
    closeForm(io);
    if (res.kind === "sent")
      io.get().setStatus({
        screen: "timeclock",
        kind: "info",
        text: `${nameOf(io, memberId)} is on ${type.break_name}.`,
      });
    return undefined;
  }
  const gone = await breakTypeGone(io, memberId, { ...type, id: breakTypeId }, res.error);
  return gone ?? explainRefusal(io, res.error, memberId, spanOf(shift), shift.id);
}

/** Ends the member's running break now. */
export async function endBreak(io: TimeClockIo, memberId: string): Promise<string | undefined> {
  const shift = openShiftOf(io, memberId);
  const problem = checkEndBreak(shift);
  if (problem || !shift?.id) return refuse(io, `${nameOf(io, memberId)}: ${problem ?? "no open shift"}`);
  const name = runningBreak(shift)?.name ?? "break";
  const res = await changeShift(io, memberId, shift, { op: "end-break", at: io.deps.clock.now().toISOString() });
  if (res.kind === "sent")
    io.get().setStatus({ screen: "timeclock", kind: "info", text: `${nameOf(io, memberId)} is back from ${name}.` });
  else if (res.kind === "failed") await explainRefusal(io, res.error, memberId, spanOf(shift), shift.id);
  return undefined;
}

/** An open shift's span for the rules (it has no end yet). */
const spanOf = (shift: Shift) => ({ startAt: new Date(shift.start_at), endAt: undefined });
