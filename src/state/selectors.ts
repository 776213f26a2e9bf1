import { isForgotten, type MemberState, memberName, memberState, stateRank } from "../domain/shifts.js";
import type { BreakType, Location, Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import { timeZoneOf } from "./shell-slice.js";
import type { AppState } from "./store.js";

/** One line of "who is here". */
export interface WhoIsHereRow {
  member: TeamMember;
  id: string;
  name: string;
  state: MemberState;
  /** An open shift that began on an earlier workday. */
  forgotten: Shift | undefined;
  wage: TeamMemberWage | undefined;
}

/**
 * Remembers the last result for the same inputs (by identity), so a selector that builds a new
 * array returns the same array while nothing it reads has changed.
 */
function memo<A extends readonly unknown[], R>(compute: (...args: A) => R): (...args: A) => R {
  let last: { args: A; value: R } | undefined;
  return (...args: A) => {
    if (last && last.args.length === args.length && last.args.every((a, i) => Object.is(a, args[i]))) return last.value;
    const value = compute(...args);
    last = { args, value };
    return value;
  };
}

const whoIsHere = memo(
  (
    members: TeamMember[],
    openShifts: Shift[],
    wages: Record<string, TeamMemberWage>,
    filter: string,
    tz: string,
    startOfDay: string,
    now: Date,
  ): WhoIsHereRow[] => {
    const needle = filter.trim().toLowerCase();
    const rows = members
      .filter((m) => m.id)
      .map((m) => {
        const id = m.id ?? "";
        const open = openShifts.find((s) => s.team_member_id === id);
        return {
          member: m,
          id,
          name: memberName(m),
          state: memberState(open, tz),
          forgotten: open && isForgotten(open, now, tz, startOfDay) ? open : undefined,
          wage: wages[id],
        };
      })
      .filter((r) => !needle || r.name.toLowerCase().includes(needle));
    return rows.sort((a, b) => stateRank(a.state) - stateRank(b.state) || a.name.localeCompare(b.name));
  },
);

/** Who is here: members of the location with their state, on shift first, filtered by name. */
export const selectWhoIsHere = (s: AppState): WhoIsHereRow[] =>
  whoIsHere(
    s.timeclock.members,
    s.timeclock.openShifts,
    s.timeclock.wages,
    s.timeclock.filter,
    timeZoneOf(s),
    s.workweek?.start_of_day_local_time ?? "00:00",
    s.now,
  );

/** The selected location. */
export const selectLocation = (s: AppState): Location | undefined => s.locations.find((l) => l.id === s.locationId);

/** The selected location's time zone. */
export const selectTimeZone = (s: AppState): string => timeZoneOf(s);

/** The merchant's name as the header shows it. */
export const selectMerchantName = (s: AppState): string =>
  selectLocation(s)?.business_name ?? s.locations[0]?.business_name ?? s.merchantId ?? "—";

/** Break types of the selected location (array of stored objects: use with useShallow). */
export const selectBreakTypes = (s: AppState): BreakType[] => s.breakTypes.items;

/** Whether a write is on its way. */
export const selectBusy = (s: AppState): boolean => s.inFlight.length > 0;

/** Review rows of the current view: every shift, or one member's. */
const reviewRows = memo(
  (rows: NonNullable<AppState["review"]["result"]>["rows"] | undefined, memberId: string | undefined) =>
    (rows ?? []).filter((r) => !memberId || r.memberId === memberId),
);

/** The review's shift rows shown now. */
export const selectReviewRows = (s: AppState) => reviewRows(s.review.result?.rows, s.review.memberId);

/** The review's per-member summaries. */
export const selectReviewMembers = (s: AppState) => s.review.result?.members ?? EMPTY;

const EMPTY: never[] = [];
