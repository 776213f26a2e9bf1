// The review's reads: a range read whole (with the team when it is needed), the background
// refresh that reads only the shifts changed since, and the review figured again from what was
// read plus the shift changes kept on this machine.
import { type FormProblem, onField } from "../domain/form-problem.js";
import { reviewShiftsWithKept } from "../domain/kept-overlay.js";
import { buildReview } from "../domain/review.js";
import { REVIEW_PAGE } from "../domain/review-search.js";
import { compactShift, mergeChangedShifts, newestUpdate, SharedValues } from "../domain/shifts.js";
import { parseDate, workdayOf } from "../domain/time.js";
import type { Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import { type ReviewScope, type ReviewSpan, readReviewChanges, reviewShiftPages } from "./review-read.js";
import type { ReviewData, ReviewSpanKind } from "./review-slice.js";
import { timeZoneOf } from "./shell-slice.js";
import type { LoadedState, StoreDeps } from "./store.js";
import type { StoreClient } from "./types.js";

/** Every how many background refreshes the review reads its range whole rather than what changed. */
export const WHOLE_READ_EVERY = 10;

/**
 * What the last whole read covered, for a refresh that reads the shifts changed after `since`
 * (epoch ms, as the service stamps `updated_at`), and how many refreshes have read only that.
 */
interface LastRead {
  key: string;
  since: number;
  refreshes: number;
}

/** What the review's reads work with: the store, the dependencies, and what the last read covered. */
export interface ReviewReader {
  get: () => LoadedState;
  /** Sets the shell's progress bar. */
  setProgress: (progress: LoadedState["progress"]) => void;
  patch: (p: Partial<ReviewData>) => void;
  deps: StoreDeps;
  /** The last whole read (undefined until one is in), and whether a refresh is under way. */
  reads: { last: LastRead | undefined; refreshing: boolean };
}

/** The workday and workweek settings the review follows: the location's zone, start of day and of week. */
export function reviewClock(s: LoadedState) {
  return {
    tz: timeZoneOf(s),
    startOfDay: s.workweek?.start_of_day_local_time ?? "00:00",
    startOfWeek: s.workweek?.start_of_week ?? "MON",
  };
}

/** The store the review shows (undefined: all locations, the picker's choice), and every store. */
export function reviewScope(s: LoadedState): ReviewScope {
  return {
    locationId: s.allLocations ? undefined : s.locationId,
    locationIds: s.locations.flatMap((l) => (l.id ? [l.id] : [])),
  };
}

/** Today's workday at the location. */
export function reviewToday(s: LoadedState, deps: StoreDeps): string {
  const { tz, startOfDay } = reviewClock(s);
  return workdayOf(deps.clock.now(), tz, startOfDay);
}

/** The workdays and workweek of a range, as the reads of review-read.ts take them. */
function spanOf(s: LoadedState, from: string, to: string): ReviewSpan {
  const { tz, startOfWeek } = reviewClock(s);
  return { range: { from, to }, week: { timeZone: tz, startOfWeek } };
}

/** What a read covers: a refresh reads only changes when the same store, range and week were read last. */
function readKey(s: LoadedState, from: string, to: string): string {
  const { tz, startOfWeek } = reviewClock(s);
  return JSON.stringify([reviewScope(s).locationId ?? "all", from, to, tz, startOfWeek]);
}

/** Figures the review again from the shifts as read; changes kept on this machine are shown as they will be. */
export function rebuildReview(io: ReviewReader, raw: Shift[]): void {
  const s = io.get();
  const kept = reviewShiftsWithKept(raw, s.outbox.entries, s.outbox.made);
  const { tz, startOfDay, startOfWeek } = reviewClock(s);
  const team = s.review.team;
  const members = new Map<string, TeamMember>();
  for (const m of team?.members ?? []) if (m.id) members.set(m.id, m);
  const here = reviewScope(s).locationId;
  const currency = s.locations.find((l) => l.id === (here ?? s.locationId))?.currency;
  const result = buildReview(kept.shifts, {
    members,
    wages: new Map(Object.entries(team?.wages ?? {})),
    timeZone: tz,
    startOfDay,
    startOfWeek,
    now: io.deps.clock.now(),
    from: s.review.from,
    to: s.review.to,
    overtime: io.deps.overtime,
    zones: new Map(s.locations.flatMap((l) => (l.id && l.timezone ? [[l.id, l.timezone] as const] : []))),
    ...(here === undefined ? {} : { locationId: here }),
    ...(currency ? { currency } : {}),
  });
  io.patch({ shifts: raw, result, keptIds: [...kept.keptIds] });
}

/** Everyone's names and wages: everyone, not only who is assigned here now (a shift of someone since moved keeps their name). */
function readTeam(client: StoreClient) {
  return Promise.all([
    client.team.searchTeamMembers({ limit: 200 }).all(),
    client.labor.listTeamMemberWages({ limit: 200 }).all(),
  ]);
}

/** The wages grouped by member. */
function wagesByMember(wages: readonly TeamMemberWage[]): Record<string, TeamMemberWage[]> {
  const byMember: Record<string, TeamMemberWage[]> = {};
  for (const w of wages) {
    if (w.team_member_id) byMember[w.team_member_id] = [...(byMember[w.team_member_id] ?? []), w];
  }
  return byMember;
}

/**
 * Reads every shift of a range, compacting each page as it arrives (a long range keeps a fraction
 * of what its JSON parses into); `progress` hears how many have arrived (the total is unknown until
 * the last page). Returns the shifts and the newest change among them.
 */
async function readRangeShifts(
  client: StoreClient,
  scope: ReviewScope,
  span: ReviewSpan,
  progress: ((done: number) => void) | undefined,
): Promise<{ shifts: Shift[]; newest: number }> {
  const shifts: Shift[] = [];
  let newest = 0;
  const shared = new SharedValues();
  for await (const page of reviewShiftPages(client, scope, span)) {
    newest = newestUpdate(page, newest);
    for (const shift of page) shifts.push(compactShift(shift, shared));
    progress?.(shifts.length);
  }
  return { shifts, newest };
}

/**
 * Reads the range's shifts whole (the current range without one; the team too when asked or not
 * yet read for this location). `quiet` for the background refresh; `span` says what a new range is.
 */
export async function loadReview(
  io: ReviewReader,
  range: { from: string; to: string } | undefined,
  options: { quiet?: boolean; team?: boolean; span?: ReviewSpanKind },
): Promise<FormProblem> {
  const locationId = io.get().locationId;
  if (!locationId) return "No location is selected.";
  const from = (range?.from ?? (io.get().review.from || reviewToday(io.get(), io.deps))).trim();
  const to = (range?.to ?? (io.get().review.to || from)).trim();
  if (!parseDate(from)) return onField("Dates are YYYY-MM-DD.", "from");
  if (!parseDate(to)) return onField("Dates are YYYY-MM-DD.", "to");
  if (to < from) return "The range ends before it starts.";
  const span = spanOf(io.get(), from, to);
  const scope = reviewScope(io.get());
  io.patch({ from, to, stale: false, ...(range ? { span: options.span ?? "days" } : {}) });
  // Until this read is in, a refresh has nothing to read changes since.
  io.reads.last = undefined;
  const known = io.get().review.team;
  const needTeam = options.team === true || !known || known.locationId !== locationId;
  const progress = options.quiet
    ? undefined
    : (done: number) => io.setProgress({ label: "Loading shifts", done, total: 0 });
  const read = await io.get().runRead(
    "Loading shifts",
    async () => {
      const teamRead = needTeam ? readTeam(io.deps.client) : undefined;
      // Read beside the shifts: when their read fails first, this one's failure (the same cause)
      // must not be left unhandled, which would end the process.
      teamRead?.catch(() => undefined);
      const shifts = await readRangeShifts(io.deps.client, scope, span, progress);
      return { ...shifts, team: await teamRead };
    },
    options,
  );
  if (io.get().progress) io.setProgress(undefined);
  if (!read) {
    io.patch({ stale: true });
    return undefined;
  }
  if (read.team) {
    const [members, wages] = read.team;
    io.patch({ team: { locationId, members, wages: wagesByMember(wages) } });
  }
  const s = io.get();
  const same = s.locationId === locationId && reviewScope(s).locationId === scope.locationId;
  if (s.review.from === from && s.review.to === to && same) {
    // The next refresh reads the changes after the newest one this read saw. Two cases wait
    // for the next whole read (5 minutes at most): a shift changed during this read on a page
    // it had already read while a later page held a newer change, and a change saved in the
    // same instant as that newest one (a service may stamp whole seconds). Reaching back
    // further would re-read a range whose shifts were saved together, as an import saves them.
    io.reads.last = { key: readKey(s, from, to), since: read.newest, refreshes: 0 };
    rebuildReview(io, read.shifts);
  }
  return undefined;
}

/**
 * The background refresh: a range of more than a page of shifts reads only the shifts changed
 * since the last read (and whole every {@link WHOLE_READ_EVERY}th time, which also drops shifts
 * deleted elsewhere); a shorter range is read whole, as that is one request either way.
 */
export async function refreshReview(io: ReviewReader): Promise<void> {
  if (io.reads.refreshing) return;
  const { from, to, shifts, result, stale } = io.get().review;
  if (!io.get().locationId || !from) return;
  const key = readKey(io.get(), from, to);
  const last = io.reads.last?.key === key ? io.reads.last : undefined;
  io.reads.refreshing = true;
  try {
    if (stale || !result || !last || shifts.length <= REVIEW_PAGE || last.refreshes + 1 >= WHOLE_READ_EVERY) {
      await io.get().loadReview(undefined, { quiet: true });
      return;
    }
    const { since } = last;
    const scope = reviewScope(io.get());
    const span = spanOf(io.get(), from, to);
    const read = await io
      .get()
      .runRead("Loading shifts", () => readReviewChanges(io.deps.client, scope, span, since, shifts), { quiet: true });
    // A read begun since (another range, or `r`) supersedes what this one found.
    if (!read || io.reads.last !== last) return;
    if (read.kind === "read whole") {
      await io.get().loadReview(undefined, { quiet: true });
      return;
    }
    const changed = read.shifts;
    // Newest first, so a change saved during this read is newer than all it saw: the next
    // read goes back to the newest change seen.
    io.reads.last = { key, since: newestUpdate(changed, since), refreshes: last.refreshes + 1 };
    const current = io.get().review.shifts;
    const merged = mergeChangedShifts(current, changed, new SharedValues());
    // A shift still running grows with the clock, so its row is figured again even with no change.
    if (merged || current.some((s) => !s.end_at)) rebuildReview(io, merged ?? current);
  } finally {
    io.reads.refreshing = false;
  }
}
