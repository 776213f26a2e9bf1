// The searches a review of workdays sends: by store and member, from the day before its first
// workweek, newest change first for a refresh.
import type { SearchShiftsRequest } from "../spec/generated/types.js";
import { addDays, weekStartOf } from "./time.js";

/** Shifts a page of the review's search asks for (the most the service gives). */
export const REVIEW_PAGE = 200;

/** Whose shifts a review's search reads: at some stores (none listed: every store), of some members (none: everyone). */
export interface ReviewWhere {
  locationIds: readonly string[];
  memberIds?: readonly string[];
}

/**
 * The search for a review of workdays `from`..`to`: it starts the day before `from`'s workweek,
 * so weekly totals count the days before the range and the hours of a shift that crossed into
 * the week. Each store's workdays are in its own time zone (`timeZone` for one without).
 */
export function reviewShiftSearch(
  where: ReviewWhere,
  range: { from: string; to: string },
  week: { timeZone: string; startOfWeek: string },
): SearchShiftsRequest {
  return {
    query: {
      filter: {
        location_ids: [...where.locationIds],
        team_member_ids: [...(where.memberIds ?? [])],
        workday: {
          date_range: { start_date: addDays(weekStartOf(range.from, week.startOfWeek), -1), end_date: range.to },
          match_shifts_by: "START_AT",
          default_timezone: week.timeZone,
        },
      },
    },
    limit: REVIEW_PAGE,
  };
}

/**
 * The review's search, newest change first: a reader of what changed since an instant stops at
 * the first shift changed before it. (The service filters shifts by time and workday, not by when
 * they changed.)
 */
export function reviewChangesSearch(
  where: ReviewWhere,
  range: { from: string; to: string },
  week: { timeZone: string; startOfWeek: string },
): SearchShiftsRequest {
  const search = reviewShiftSearch(where, range, week);
  return { ...search, query: { ...search.query, sort: { field: "UPDATED_AT", order: "DESC" } } };
}
