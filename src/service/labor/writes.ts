import { MAX_BREAK_TYPES_PER_LOCATION } from "../../domain/limits.js";
import type { Shift } from "../../spec/generated/types.js";
import { merchantOf, type RequestContext } from "../context.js";
import { locationExists, teamMemberExists } from "../directory/repo.js";
import { badRequest } from "../errors.js";
import { timeOrderedId } from "../ids.js";
import {
  countBreakTypes,
  findOpenShift,
  findOverlappingShift,
  firstWageTitle,
  getBreakType,
  getWorkweek,
  insertShift,
  locationZone,
  type StoredShift,
  type StoredWorkweek,
  saveShift,
  saveWorkweek,
} from "./repo.js";
import { buildShift, checkAgainstOthers, defaultShiftWage, memberOfShift } from "./rules.js";

/** The workweek every seller has until it changes it: Monday, midnight. */
const DEFAULT_WORKWEEK = { start_of_week: "MON", start_of_day_local_time: "00:00" } as const;

/** The seller's workweek config; a seller that never wrote one gets the default, stored on first use. */
export function workweekOf(ctx: RequestContext): StoredWorkweek {
  const merchant = merchantOf(ctx);
  const found = getWorkweek(ctx.db, merchant);
  if (found) return found;
  const at = ctx.now.toISOString();
  const made: StoredWorkweek = { id: ctx.ids.next(), ...DEFAULT_WORKWEEK, version: 1, created_at: at, updated_at: at };
  saveWorkweek(ctx.db, merchant, made);
  return made;
}

/** The location's break-type slots: a location holds at most three. */
export function checkBreakTypeRoom(ctx: RequestContext, locationId: string, exceptId?: string): void {
  const merchant = merchantOf(ctx);
  if (!locationExists(ctx.db, merchant, locationId)) {
    throw badRequest(`Location not found: ${locationId}.`, "break_type.location_id");
  }
  if (countBreakTypes(ctx.db, merchant, locationId, exceptId) >= MAX_BREAK_TYPES_PER_LOCATION) {
    throw badRequest(
      `The limit of ${MAX_BREAK_TYPES_PER_LOCATION} breaks per location was exceeded for location ${locationId}.`,
      "break_type.location_id",
    );
  }
}

/** A shift as written, and its JSON as stored: the answer's `shift`, made once. */
export interface WrittenShift {
  stored: StoredShift;
  json: string;
}

/**
 * A shift write (new, or replacing `existing`): the rules of one shift (labor/rules.ts), the
 * member's other shifts, then the store and the shift's webhook event.
 */
export function writeShift(ctx: RequestContext, input: Shift, existing: StoredShift | undefined): WrittenShift {
  const merchant = merchantOf(ctx);
  const location = locationZone(ctx.db, merchant, input.location_id);
  if (!location) throw badRequest(`Location not found: ${input.location_id}.`, "shift.location_id");
  const memberId = memberOfShift(input, existing?.shift);
  if (!existing && !teamMemberExists(ctx.db, merchant, memberId)) {
    throw badRequest(`Team member not found: ${memberId}.`, "shift.team_member_id");
  }

  const currency = location.currency ?? "USD";
  const built = buildShift({
    input,
    existing: existing?.shift,
    timeZone: location.timezone ?? "UTC",
    currency,
    now: ctx.now,
    newId: () => ctx.ids.next(),
    breakType: (id) => getBreakType(ctx.db, merchant, id),
    defaultWage: defaultShiftWage(firstWageTitle(ctx.db, merchant, memberId), currency),
  });
  const exceptId = existing?.shift.id ?? "";
  checkAgainstOthers(
    built,
    built.endMs === null ? findOpenShift(ctx.db, merchant, memberId, exceptId)?.shift : undefined,
    findOverlappingShift(ctx.db, merchant, memberId, built.startMs, built.endMs, exceptId)?.shift,
  );

  const nowMs = ctx.now.getTime();
  const at = ctx.now.toISOString();
  const stored: StoredShift = {
    shift: {
      // Time-ordered: the id index takes a new shift at its end, not at a random page (see timeOrderedId).
      id: existing?.shift.id ?? timeOrderedId(ctx.now, ctx.ids),
      employee_id: memberId,
      ...built.shift,
      version: existing ? existing.shift.version + 1 : 1,
      created_at: existing?.shift.created_at ?? at,
      updated_at: at,
      team_member_id: memberId,
    },
    startMs: built.startMs,
    endMs: built.endMs,
    createdMs: existing?.createdMs ?? nowMs,
    updatedMs: nowMs,
  };
  const json = (existing ? saveShift : insertShift)(ctx.db, merchant, stored);
  ctx.emit({
    type: existing ? "labor.shift.updated" : "labor.shift.created",
    merchantId: merchant,
    locationId: stored.shift.location_id,
    dataType: "shift",
    dataId: stored.shift.id,
    object: { shift: stored.shift },
  });
  return { stored, json };
}
