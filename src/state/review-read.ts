// Reading the shifts a review needs. Overtime counts all of a member's hours at every store of the
// business, so a review of one store also reads its members' shifts at the other stores in the
// same workweeks; a review of all locations reads every store's.
import { type ReviewWhere, reviewChangesSearch, reviewShiftSearch } from "../domain/review-search.js";
import type { Shift } from "../spec/generated/types.js";
import type { StoreClient } from "./types.js";

/** Which store a review shows (undefined: all locations), and the business's other stores. */
export interface ReviewScope {
  locationId: string | undefined;
  /** Every store's id (the one shown among them or not). */
  locationIds: readonly string[];
}

/** The workdays of a review and its workweek. */
export interface ReviewSpan {
  range: { from: string; to: string };
  week: { timeZone: string; startOfWeek: string };
}

/** Members named in one search of other stores' shifts, so a long team list stays a modest request. */
export const MEMBERS_PER_SEARCH = 100;

/** The stores other than the one a review shows. */
export const otherStores = (scope: ReviewScope): string[] =>
  scope.locationId === undefined ? [] : scope.locationIds.filter((id) => id !== scope.locationId);

/**
 * The pages of shifts a review needs: the store's own (every store's for all locations), then the
 * shifts its members worked at the other stores in the same workdays (from the day before the
 * first workweek), which count toward their daily and weekly overtime.
 */
export async function* reviewShiftPages(
  client: StoreClient,
  scope: ReviewScope,
  span: ReviewSpan,
): AsyncGenerator<Shift[], void, undefined> {
  const members = new Set<string>();
  const where: ReviewWhere = { locationIds: scope.locationId === undefined ? [] : [scope.locationId] };
  for await (const page of client.labor.searchShifts(reviewShiftSearch(where, span.range, span.week)).pages()) {
    const shifts = page.shifts ?? [];
    for (const s of shifts) {
      const id = s.team_member_id ?? s.employee_id;
      if (id) members.add(id);
    }
    yield shifts;
  }
  const others = otherStores(scope);
  if (others.length === 0) return;
  const ids = [...members].sort();
  for (let at = 0; at < ids.length; at += MEMBERS_PER_SEARCH) {
    const elsewhere = { locationIds: others, memberIds: ids.slice(at, at + MEMBERS_PER_SEARCH) };
    for await (const page of client.labor.searchShifts(reviewShiftSearch(elsewhere, span.range, span.week)).pages()) {
      yield page.shifts ?? [];
    }
  }
}

const memberOf = (shift: Shift) => shift.team_member_id ?? shift.employee_id ?? "";

/**
 * The shifts of the review's workdays changed after `since` (epoch ms) that a review holding
 * `held` shows or counts: at every store, newest change first, stopping at the first shift
 * changed no later than `since`. Those of its store (all, for all locations) and of its members
 * elsewhere are kept. A shift here of a member new to the review asks for a whole read instead:
 * that member's hours at the other stores are not held yet.
 */
export async function readReviewChanges(
  client: StoreClient,
  scope: ReviewScope,
  span: ReviewSpan,
  since: number,
  held: readonly Shift[],
): Promise<{ kind: "changed"; shifts: Shift[] } | { kind: "read whole" }> {
  const here = scope.locationId;
  const members = new Set(held.map(memberOf));
  const shifts: Shift[] = [];
  const pages = client.labor.searchShifts(reviewChangesSearch({ locationIds: [] }, span.range, span.week)).pages();
  read: for await (const page of pages) {
    for (const shift of page.shifts ?? []) {
      if (shift.updated_at && Date.parse(shift.updated_at) <= since) break read;
      if (here === undefined || shift.location_id === here || members.has(memberOf(shift))) shifts.push(shift);
    }
  }
  const newcomer = shifts.some((s) => s.location_id === here && !members.has(memberOf(s)));
  return newcomer && otherStores(scope).length > 0 ? { kind: "read whole" } : { kind: "changed", shifts };
}
