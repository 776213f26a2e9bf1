import type { Location, SearchShiftsRequest, ShiftSortField } from "../../spec/generated/types.js";
import { encodeCursor, positionOf, readCursor } from "../cursor.js";
import { type Db, limitSql } from "../db.js";
import { invalid } from "../errors.js";
import { pageLimit, parseTime, sortOrder } from "../params.js";
import { FAR_FUTURE, SHIFT_COLUMNS, type StoredShift, shiftFromRow } from "./repo.js";
import { checkDate, isTimeZone, workdayWindow } from "./time.js";

const SORT_COLUMNS: Record<ShiftSortField, string> = {
  START_AT: "start_ms",
  END_AT: `COALESCE(end_ms, ${FAR_FUTURE})`,
  CREATED_AT: "created_ms",
  UPDATED_AT: "updated_ms",
};

/** Where a page stops: the last shift's sort value and id. */
const isPosition = positionOf({ v: "number", id: "string" });

/** What a search needs besides the request: the seller's locations and the workday start. */
export interface SearchScope {
  /** The operation asking, whose cursors are good for it alone. */
  op: string;
  merchantId: string;
  locations: readonly Location[];
  /** The workweek config's `start_of_day_local_time`, `HH:MM`. */
  startOfDay: string;
}

/**
 * One page of searchShifts, filtered and sorted in SQL and paged by keyset (sort value, id), so
 * deep pages over large histories stay cheap. The cursor is tied to the query.
 */
export function searchShifts(
  db: Db,
  req: SearchShiftsRequest,
  scope: SearchScope,
): { shifts: StoredShift[]; cursor?: string } {
  const limit = pageLimit(req.limit, { max: 200, def: 200 });
  const query = req.query ?? {};
  const filter = query.filter;
  const field: ShiftSortField = query.sort?.field ?? "START_AT";
  const order = sortOrder(query.sort?.order, "DESC", "query.sort.order");
  const where = ["merchant_id = ?"];
  const args: unknown[] = [scope.merchantId];
  const inList = (column: string, values: readonly string[]) => {
    where.push(`${column} IN (${values.map(() => "?").join(",")})`);
    args.push(...values);
  };

  if (filter) {
    const locations = filter.location_ids ?? [];
    if (locations.length > 0) inList("location_id", locations);
    const members = [...new Set([...(filter.team_member_ids ?? []), ...(filter.employee_ids ?? [])])];
    if (members.length > 0) inList("team_member_id", members);
    if (filter.status) {
      where.push("status = ?");
      args.push(filter.status);
    }
    for (const [name, column] of [
      ["start", "start_ms"],
      ["end", "end_ms"],
    ] as const) {
      const range = filter[name];
      if (range?.start_at) {
        where.push(`${column} >= ?`);
        args.push(parseTime(range.start_at, `query.filter.${name}.start_at`).getTime());
      }
      if (range?.end_at) {
        where.push(`${column} <= ?`);
        args.push(parseTime(range.end_at, `query.filter.${name}.end_at`).getTime());
      }
    }
    if (filter.workday) workdayClause(filter.workday, locations, scope, where, args);
  }

  const position = readCursor(scope.op, req.cursor, query, isPosition);
  const column = SORT_COLUMNS[field];
  if (position !== undefined) {
    const cmp = order === "ASC" ? ">" : "<";
    where.push(`(${column} ${cmp} ? OR (${column} = ? AND id ${cmp} ?))`);
    args.push(position.v, position.v, position.id);
  }
  const rows = db
    .prepare(
      `SELECT ${SHIFT_COLUMNS}, ${column} AS sort_value, id FROM shifts WHERE ${where.join(" AND ")}
       ORDER BY ${column} ${order}, id ${order} LIMIT ${limitSql(limit + 1)}`,
    )
    .all(...args) as (Parameters<typeof shiftFromRow>[0] & { sort_value: number; id: string })[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const shifts = page.map(shiftFromRow);
  if (rows.length > limit && last)
    return { shifts, cursor: encodeCursor(scope.op, query, { v: last.sort_value, id: last.id }) };
  return { shifts };
}

/**
 * The workday filter: each location's workdays turned into instants at that location's time zone
 * (or `default_timezone` for a location without one), starting at the workweek's start of day.
 * START_AT keeps shifts that start within the workdays, END_AT those that end within them, and
 * INTERSECTION those whose time overlaps them (an open shift reaches to now and beyond).
 */
function workdayClause(
  workday: NonNullable<NonNullable<SearchShiftsRequest["query"]>["filter"]>["workday"] & object,
  locationIds: readonly string[],
  scope: SearchScope,
  where: string[],
  args: unknown[],
): void {
  const range = workday.date_range ?? {};
  if (range.start_date) checkDate(range.start_date, "query.filter.workday.date_range.start_date");
  if (range.end_date) checkDate(range.end_date, "query.filter.workday.date_range.end_date");
  if (range.start_date && range.end_date && range.end_date < range.start_date) {
    throw invalid(
      "INVALID_DATE",
      "end_date must not be before start_date.",
      "query.filter.workday.date_range.end_date",
    );
  }
  const fallback = workday.default_timezone;
  if (fallback !== undefined && !isTimeZone(fallback)) {
    throw invalid(
      "INVALID_VALUE",
      "default_timezone is not a known time zone.",
      "query.filter.workday.default_timezone",
    );
  }
  const wanted = locationIds.length > 0 ? new Set(locationIds) : undefined;
  const parts: string[] = [];
  for (const loc of scope.locations) {
    if (!loc.id || (wanted && !wanted.has(loc.id))) continue;
    const tz = loc.timezone ?? fallback;
    if (!tz) {
      throw invalid(
        "MISSING_REQUIRED_PARAMETER",
        `Location ${loc.id} has no time zone; set default_timezone.`,
        "query.filter.workday.default_timezone",
      );
    }
    const { from, to } = workdayWindow(range, tz, scope.startOfDay);
    switch (workday.match_shifts_by ?? "START_AT") {
      case "START_AT":
        parts.push("(location_id = ? AND start_ms >= ? AND start_ms < ?)");
        args.push(loc.id, from, to);
        break;
      case "END_AT":
        parts.push("(location_id = ? AND end_ms IS NOT NULL AND end_ms >= ? AND end_ms < ?)");
        args.push(loc.id, from, to);
        break;
      case "INTERSECTION":
        parts.push("(location_id = ? AND start_ms < ? AND (end_ms IS NULL OR end_ms > ?))");
        args.push(loc.id, to, from);
        break;
    }
  }
  where.push(parts.length > 0 ? `(${parts.join(" OR ")})` : "0");
}
