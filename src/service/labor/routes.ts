import type { EmployeeWage } from "../../spec/generated/types.js";
import { type HandlerResult, merchantOf, type RequestContext, type RouteTable } from "../context.js";
import { pageByOffset } from "../cursor.js";
import { allLocations } from "../directory/repo.js";
import { conflict, notFound } from "../errors.js";
import { pageLimit } from "../params.js";
import {
  deleteBreakType,
  deleteShift,
  getBreakType,
  getShift,
  getWage,
  listBreakTypes,
  listWages,
  type StoredBreakType,
  type StoredShift,
  type StoredWage,
  type StoredWorkweek,
  saveBreakType,
  saveWorkweek,
} from "./repo.js";
import { normalizeBreakDuration } from "./rules.js";
import { searchShifts } from "./search.js";
import { normalizeLocalTime } from "./time.js";
import { checkBreakTypeRoom, type WrittenShift, workweekOf, writeShift } from "./writes.js";

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

/** A team member wage in the deprecated employee shape. */
const asEmployeeWage = (w: StoredWage): EmployeeWage => ({
  id: w.id,
  employee_id: w.team_member_id,
  ...(w.title === undefined ? {} : { title: w.title }),
  ...(w.hourly_rate === undefined ? {} : { hourly_rate: w.hourly_rate }),
});

const withCursor = <K extends string, T>(key: K, page: { items: T[]; cursor?: string }) =>
  ({ [key]: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) }) as Record<K, T[]> & { cursor?: string };

/** A shift write's answer; its JSON is the stored row's, not made a second time (see HandlerResult.json). */
const shiftAnswer = (w: WrittenShift): HandlerResult => ({
  body: { shift: w.stored.shift },
  json: `{"shift":${w.json}}`,
});

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
    return shiftAnswer(writeShift(ctx, ctx.body.shift, undefined));
  },

  GetShift(ctx) {
    return { body: { shift: requireShift(ctx).shift } };
  },

  UpdateShift(ctx) {
    const existing = requireShift(ctx);
    return shiftAnswer(writeShift(ctx, ctx.body.shift, existing));
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
