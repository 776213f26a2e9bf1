import { MAX_BREAK_TYPES_PER_LOCATION } from "../../domain/limits.js";
import type { EmployeeWage, Shift, ShiftWage } from "../../spec/generated/types.js";
import { merchantOf, type RequestContext, type RouteTable } from "../context.js";
import { pageByOffset } from "../cursor.js";
import { allLocations, findLocation, findTeamMember, locationExists } from "../directory/repo.js";
import { badRequest, conflict, notFound } from "../errors.js";
import { pageLimit } from "../params.js";
import {
  countBreakTypes,
  deleteBreakType,
  deleteShift,
  findOpenShift,
  findOverlappingShift,
  getBreakType,
  getShift,
  getWage,
  getWorkweek,
  listBreakTypes,
  listWages,
  type StoredBreakType,
  type StoredShift,
  type StoredWage,
  type StoredWorkweek,
  saveBreakType,
  saveShift,
  saveWorkweek,
} from "./repo.js";
import { buildShift, checkAgainstOthers, normalizeBreakDuration } from "./rules.js";
import { searchShifts } from "./search.js";
import { normalizeLocalTime } from "./time.js";

/** The workweek every seller has until it changes it: Monday, midnight. */
const DEFAULT_WORKWEEK = { start_of_week: "MON", start_of_day_local_time: "00:00" } as const;

/** The seller's workweek config; a seller that never wrote one gets the default, stored on first use. */
function workweekOf(ctx: RequestContext): StoredWorkweek {
  const merchant = merchantOf(ctx);
  const found = getWorkweek(ctx.db, merchant);
  if (found) return found;
  const at = ctx.now.toISOString();
  const made: StoredWorkweek = { id: ctx.ids.next(), ...DEFAULT_WORKWEEK, version: 1, created_at: at, updated_at: at };
  saveWorkweek(ctx.db, merchant, made);
  return made;
}

function requireBreakType(ctx: RequestContext): StoredBreakType {
  const id = ctx.path.id ?? "";
  const bt = getBreakType(ctx.db, merchantOf(ctx), id);
  if (!bt) throw notFound(`Break type not found: ${id}.`);
  return bt;
}

function requireShift(ctx: RequestContext): StoredShift {
  const id = ctx.path.id ?? "";
  const s = getShift(ctx.db, merchantOf(ctx), id);
  if (!s) throw notFound(`Shift not found: ${id}.`);
  return s;
}

/** The location's break-type slots: a location holds at most three. */
function checkBreakTypeRoom(ctx: RequestContext, locationId: string, exceptId?: string): void {
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

/** Builds, checks and stores a shift (new, or replacing `existing`), and raises its event. */
function writeShift(ctx: RequestContext, input: Shift, existing: StoredShift | undefined): StoredShift {
  const merchant = merchantOf(ctx);
  const location = findLocation(ctx.db, merchant, input.location_id);
  if (!location) throw badRequest(`Location not found: ${input.location_id}.`, "shift.location_id");

  const given = [input.team_member_id, input.employee_id].filter((x): x is string => typeof x === "string" && x !== "");
  if (given.length === 2 && given[0] !== given[1]) {
    throw badRequest("team_member_id and employee_id name different team members.", "shift.team_member_id");
  }
  const memberId = given[0] ?? existing?.shift.team_member_id;
  if (!memberId) throw badRequest("A shift needs a team_member_id.", "shift.team_member_id");
  if (existing && memberId !== existing.shift.team_member_id) {
    throw badRequest("The team member of a shift cannot be changed.", "shift.team_member_id");
  }
  if (!existing && !findTeamMember(ctx.db, merchant, memberId)) {
    throw badRequest(`Team member not found: ${memberId}.`, "shift.team_member_id");
  }
  if (existing && input.version !== undefined && input.version !== existing.shift.version) {
    throw conflict(
      `The shift was changed since version ${input.version}; it is at version ${existing.shift.version}.`,
      "shift.version",
    );
  }

  const firstWage = listWages(ctx.db, merchant, memberId)[0];
  const currency = location.currency ?? "USD";
  const defaultWage: ShiftWage = {
    ...(firstWage?.title ? { title: firstWage.title } : {}),
    hourly_rate: { amount: 0, currency: currency as "USD" },
  };
  const built = buildShift({
    input,
    ...(existing ? { existing: existing.shift } : {}),
    timeZone: location.timezone ?? "UTC",
    currency,
    now: ctx.now,
    newId: () => ctx.ids.next(),
    breakType: (id) => getBreakType(ctx.db, merchant, id),
    defaultWage,
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
      id: existing?.shift.id ?? ctx.ids.next(),
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
  saveShift(ctx.db, merchant, stored);
  ctx.emit({
    type: existing ? "labor.shift.updated" : "labor.shift.created",
    merchantId: merchant,
    locationId: stored.shift.location_id,
    dataType: "shift",
    dataId: stored.shift.id,
    object: { shift: stored.shift },
  });
  return stored;
}

/** A team member wage in the deprecated employee shape. */
const asEmployeeWage = (w: StoredWage): EmployeeWage => ({
  id: w.id,
  employee_id: w.team_member_id,
  ...(w.title === undefined ? {} : { title: w.title }),
  ...(w.hourly_rate === undefined ? {} : { hourly_rate: w.hourly_rate }),
});

const withCursor = <K extends string, T>(key: K, page: { items: T[]; cursor?: string }) =>
  ({ [key]: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) }) as Record<K, T[]> & { cursor?: string };

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The labor operations: break types, shifts, wages, workweek configs. */
export const laborRoutes: RouteTable = {
  ListBreakTypes(ctx) {
    const limit = pageLimit(ctx.query.limit, { max: 200, def: 200 });
    const locationId = text(ctx.query.location_id);
    const items = listBreakTypes(ctx.db, merchantOf(ctx), locationId);
    return {
      body: withCursor(
        "break_types",
        pageByOffset(ctx.op.name, items, { location_id: locationId }, ctx.query.cursor, limit),
      ),
    };
  },

  CreateBreakType(ctx) {
    const { break_type: input } = ctx.body;
    const expected_duration = normalizeBreakDuration(input.expected_duration, "break_type.expected_duration");
    checkBreakTypeRoom(ctx, input.location_id);
    const at = ctx.now.toISOString();
    const bt: StoredBreakType = {
      id: ctx.ids.next(),
      location_id: input.location_id,
      break_name: input.break_name,
      expected_duration,
      is_paid: input.is_paid,
      version: 1,
      created_at: at,
      updated_at: at,
    };
    saveBreakType(ctx.db, merchantOf(ctx), bt);
    return { body: { break_type: bt } };
  },

  GetBreakType(ctx) {
    return { body: { break_type: requireBreakType(ctx) } };
  },

  UpdateBreakType(ctx) {
    const old = requireBreakType(ctx);
    const { break_type: input } = ctx.body;
    if (input.version !== undefined && input.version !== old.version) {
      throw conflict(
        `The break type was changed since version ${input.version}; it is at version ${old.version}.`,
        "break_type.version",
      );
    }
    const expected_duration = normalizeBreakDuration(input.expected_duration, "break_type.expected_duration");
    if (input.location_id !== old.location_id) checkBreakTypeRoom(ctx, input.location_id, old.id);
    const bt: StoredBreakType = {
      ...old,
      location_id: input.location_id,
      break_name: input.break_name,
      expected_duration,
      is_paid: input.is_paid,
      version: old.version + 1,
      updated_at: ctx.now.toISOString(),
    };
    saveBreakType(ctx.db, merchantOf(ctx), bt);
    return { body: { break_type: bt } };
  },

  DeleteBreakType(ctx) {
    const bt = requireBreakType(ctx);
    deleteBreakType(ctx.db, merchantOf(ctx), bt.id);
    return { body: {} };
  },

  CreateShift(ctx) {
    const { shift } = ctx.body;
    return { body: { shift: writeShift(ctx, shift, undefined).shift } };
  },

  GetShift(ctx) {
    return { body: { shift: requireShift(ctx).shift } };
  },

  UpdateShift(ctx) {
    const existing = requireShift(ctx);
    const { shift } = ctx.body;
    return { body: { shift: writeShift(ctx, shift, existing).shift } };
  },

  DeleteShift(ctx) {
    const s = requireShift(ctx);
    const merchant = merchantOf(ctx);
    deleteShift(ctx.db, merchant, s.shift.id);
    ctx.emit({
      type: "labor.shift.deleted",
      merchantId: merchant,
      locationId: s.shift.location_id,
      dataType: "shift",
      dataId: s.shift.id,
      deleted: true,
    });
    return { body: {} };
  },

  SearchShifts(ctx) {
    const merchant = merchantOf(ctx);
    const req = ctx.body;
    const page = searchShifts(ctx.db, req, {
      op: ctx.op.name,
      merchantId: merchant,
      locations: req.query?.filter?.workday ? allLocations(ctx.db, merchant) : [],
      startOfDay: req.query?.filter?.workday ? workweekOf(ctx).start_of_day_local_time : "00:00",
    });
    return { body: { shifts: page.shifts.map((s) => s.shift), ...(page.cursor ? { cursor: page.cursor } : {}) } };
  },

  ListTeamMemberWages(ctx) {
    const limit = pageLimit(ctx.query.limit, { max: 200, def: 200 });
    const memberId = text(ctx.query.team_member_id);
    const items = listWages(ctx.db, merchantOf(ctx), memberId);
    return {
      body: withCursor(
        "team_member_wages",
        pageByOffset(ctx.op.name, items, { team_member_id: memberId }, ctx.query.cursor, limit),
      ),
    };
  },

  GetTeamMemberWage(ctx) {
    const id = ctx.path.id ?? "";
    const w = getWage(ctx.db, merchantOf(ctx), id);
    if (!w) throw notFound(`Team member wage not found: ${id}.`);
    return { body: { team_member_wage: w } };
  },

  ListEmployeeWages(ctx) {
    const limit = pageLimit(ctx.query.limit, { max: 200, def: 200 });
    const employeeId = text(ctx.query.employee_id);
    const items = listWages(ctx.db, merchantOf(ctx), employeeId).map(asEmployeeWage);
    return {
      body: withCursor(
        "employee_wages",
        pageByOffset(ctx.op.name, items, { employee_id: employeeId }, ctx.query.cursor, limit),
      ),
    };
  },

  GetEmployeeWage(ctx) {
    const id = ctx.path.id ?? "";
    const w = getWage(ctx.db, merchantOf(ctx), id);
    if (!w) throw notFound(`Employee wage not found: ${id}.`);
    return { body: { employee_wage: asEmployeeWage(w) } };
  },

  ListWorkweekConfigs(ctx) {
    const limit = pageLimit(ctx.query.limit, { max: 200, def: 200 });
    return {
      body: withCursor("workweek_configs", pageByOffset(ctx.op.name, [workweekOf(ctx)], {}, ctx.query.cursor, limit)),
    };
  },

  UpdateWorkweekConfig(ctx) {
    const id = ctx.path.id ?? "";
    const old = workweekOf(ctx);
    if (old.id !== id) throw notFound(`Workweek config not found: ${id}.`);
    const { workweek_config: input } = ctx.body;
    if (input.version !== undefined && input.version !== old.version) {
      throw conflict(
        `The workweek config was changed since version ${input.version}; it is at version ${old.version}.`,
        "workweek_config.version",
      );
    }
    const updated: StoredWorkweek = {
      ...old,
      start_of_week: input.start_of_week,
      start_of_day_local_time: normalizeLocalTime(
        input.start_of_day_local_time,
        "workweek_config.start_of_day_local_time",
      ),
      version: old.version + 1,
      updated_at: ctx.now.toISOString(),
    };
    saveWorkweek(ctx.db, merchantOf(ctx), updated);
    return { body: { workweek_config: updated } };
  },
};
