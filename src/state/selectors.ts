import { shiftsWithKept, targetId } from "../domain/kept-overlay.js";
import { isPending, type KeptEntry, keptId } from "../domain/kept-writes.js";
import {
  breakOverrun,
  isForgotten,
  type MemberState,
  memberName,
  memberState,
  minutesSince,
  runningBreak,
  stateRank,
} from "../domain/shifts.js";
import type { BreakType, Location, Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import { countryOf, timeZoneOf } from "./shell-slice.js";
import type { AppState, Loaded } from "./store.js";

/** The state with the review's slice in (its selectors are read by the review screen only). */
type ReviewState = Loaded<"review">;

/** One line of "who is here". */
export interface WhoIsHereRow {
  member: TeamMember;
  id: string;
  name: string;
  state: MemberState;
  /** An open shift that began on an earlier workday. */
  forgotten: Shift | undefined;
  wage: TeamMemberWage | undefined;
  /** The member's open shift at another location, and that location's name. */
  elsewhere: { shift: Shift; locationName: string } | undefined;
  /** Minutes since clock-in, while on shift here. */
  shiftMinutes: number | undefined;
  /** Minutes on the running break, and how many past its expected length. */
  breakMinutes: number | undefined;
  breakOverrun: number;
  /** Writes of this member are kept on this machine, not yet sent: the row shows them as they will be. */
  kept: boolean;
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

const openWithKept = memo(
  (open: Shift[], entries: KeptEntry[], locationId: string | undefined, made: Record<number, string>) =>
    shiftsWithKept(open, entries, locationId, made),
);

/** The open shifts at the location as they will be: the last read with the kept writes laid over. */
const openShiftsView = (s: AppState) =>
  openWithKept(s.timeclock.openShifts, s.outbox.entries, s.locationId, s.outbox.made);

/** The open shifts at the location, kept writes applied (a member clocked in offline is on shift). */
export const selectOpenShifts = (s: AppState): Shift[] => openShiftsView(s).shifts;

const whoIsHere = memo(
  (
    members: TeamMember[],
    openShifts: Shift[],
    kept: ReadonlySet<string>,
    elsewhere: Shift[],
    locations: Location[],
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
        const away = open ? undefined : elsewhere.find((s) => s.team_member_id === id);
        const running = runningBreak(open);
        return {
          member: m,
          id,
          name: memberName(m),
          state: memberState(open, tz),
          forgotten: open && isForgotten(open, now, tz, startOfDay) ? open : undefined,
          wage: wages[id],
          elsewhere: away
            ? {
                shift: away,
                locationName: locations.find((l) => l.id === away.location_id)?.name ?? "another location",
              }
            : undefined,
          shiftMinutes: open ? minutesSince(open.start_at, now) : undefined,
          breakMinutes: running ? minutesSince(running.start_at, now) : undefined,
          breakOverrun: running ? breakOverrun(running, now) : 0,
          kept: kept.has(id),
        };
      })
      .filter((r) => !needle || r.name.toLowerCase().includes(needle));
    // On shift here first, then at another location, then clocked out.
    const rank = (r: WhoIsHereRow) => (r.elsewhere ? 1 : stateRank(r.state) * 2);
    return rows.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  },
);

/** Who is here: members of the location with their state, on shift first, filtered by name. */
export const selectWhoIsHere = (s: AppState): WhoIsHereRow[] =>
  whoIsHere(
    s.timeclock.members,
    openShiftsView(s).shifts,
    openShiftsView(s).keptMembers,
    s.timeclock.elsewhere,
    s.locations,
    s.timeclock.wages,
    s.timeclock.filter,
    timeZoneOf(s),
    s.workweek?.start_of_day_local_time ?? "00:00",
    s.now,
  );

const headCount = memo((members: TeamMember[], openShifts: Shift[]) => {
  const open = new Set(openShifts.map((s) => s.team_member_id));
  const here = members.filter((m) => m.id);
  return { members: here.length, onShift: here.filter((m) => open.has(m.id)).length };
});

/**
 * How many team members the location has and how many of them are on shift there (kept clock-ins
 * counted), whatever the `/` filter shows: the title's count is the store's, not the rows'.
 */
export const selectHeadCount = (s: AppState): { members: number; onShift: number } =>
  headCount(s.timeclock.members, openShiftsView(s).shifts);

/** The selected location. */
export const selectLocation = (s: AppState): Location | undefined => s.locations.find((l) => l.id === s.locationId);

/** The selected location's time zone. */
export const selectTimeZone = (s: AppState): string => timeZoneOf(s);

/** The selected location's country: phone numbers are read and shown as its numbers. */
export const selectCountry = (s: AppState): string | undefined => countryOf(s);

/** The merchant's name as the header shows it. */
export const selectMerchantName = (s: AppState): string =>
  selectLocation(s)?.business_name ?? s.locations[0]?.business_name ?? s.merchantId ?? "—";

/** Break types of the selected location (array of stored objects: use with useShallow). */
export const selectBreakTypes = (s: AppState): BreakType[] => s.breakTypes.items;

/** Whether a write is on its way. */
export const selectBusy = (s: AppState): boolean => s.inFlight.length > 0;

const matches = (name: string, needle: string) => !needle || name.toLowerCase().includes(needle);

/** Review rows of the current view: every shift, or one member's, and only names holding the filter. */
const reviewRows = memo(
  (
    rows: NonNullable<ReviewState["review"]["result"]>["rows"] | undefined,
    memberId: string | undefined,
    filter: string,
  ) => {
    const needle = filter.trim().toLowerCase();
    return (rows ?? []).filter((r) => (!memberId || r.memberId === memberId) && matches(r.memberName, needle));
  },
);

/** The review's shift rows shown now. */
export const selectReviewRows = (s: ReviewState) =>
  reviewRows(s.review.result?.rows, s.review.memberId, s.review.filter);

const reviewMembers = memo(
  (members: NonNullable<ReviewState["review"]["result"]>["members"] | undefined, filter: string) => {
    const needle = filter.trim().toLowerCase();
    return (members ?? []).filter((m) => matches(m.memberName, needle));
  },
);

/** The review's per-member summaries, only names holding the filter. */
export const selectReviewMembers = (s: ReviewState) => reviewMembers(s.review.result?.members, s.review.filter);

const keptCustomerIds = memo((entries: KeptEntry[], made: Record<number, string>): ReadonlySet<string> => {
  const ids = new Set<string>();
  for (const e of entries) {
    if (!isPending(e.state)) continue;
    const w = e.write;
    if (w.kind === "create-customer") ids.add(made[e.seq] ?? keptId(e.seq));
    if (w.kind === "update-customer" || w.kind === "customer-group") ids.add(targetId(w.customer, made));
  }
  return ids;
});

/** The profiles with changes kept on this machine, not yet sent (marked `◷` on the customers screen). */
export const selectKeptCustomers = (s: AppState): ReadonlySet<string> =>
  keptCustomerIds(s.outbox.entries, s.outbox.made);

/** How many writes are kept for this service (waiting, or being sent) and how many wait in To resolve. */
export const selectKeptCounts = (s: AppState): { pending: number; refused: number } => {
  let pending = 0;
  let refused = 0;
  for (const e of s.outbox.entries) {
    if (isPending(e.state)) pending += 1;
    else if (e.state === "refused") refused += 1;
  }
  return { pending, refused };
};
