import type { ShiftTimesInput } from "../domain/clock-rules.js";
import { exportFileName, locationNamesOf } from "../domain/csv.js";
import { reviewShiftsWithKept } from "../domain/kept-overlay.js";
import type { OvertimeRules } from "../domain/overtime.js";
import { ALL_LOCATIONS, buildReview, type Review } from "../domain/review.js";
import { REVIEW_PAGE } from "../domain/review-search.js";
import { compactShift, memberName, mergeChangedShifts, newestUpdate, SharedValues } from "../domain/shifts.js";
import { addDays, type PayPeriodRule, parseDate, payPeriodOf, weekStartOf, workdayOf } from "../domain/time.js";
import type { Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import type { WriteResult } from "./errors.js";
import { nothingToExport } from "./export-csv.js";
import { deleteShift, editShiftTimes, type ReviewIo } from "./review-edits.js";
import { reviewExportFiles } from "./review-export.js";
import { type ReviewScope, readReviewChanges, reviewShiftPages } from "./review-read.js";
import { timeZoneOf } from "./shell-slice.js";
import type { SliceCreator } from "./store.js";

/** What the review's range is, for its title. */
export type ReviewSpanKind = "days" | "week" | "pay-period";

/** The form open on the review, if any. */
export type ReviewForm =
  | { kind: "none" }
  | { kind: "range" }
  | { kind: "filter" }
  | { kind: "edit"; shiftId: string }
  /** The export form, with the values it reopens with (after "no" to replacing a file). */
  | { kind: "export"; path?: string; summary?: boolean };

/** An edit that lost to someone else's save: their shift, and the values the manager typed. */
export interface ReviewConflict {
  theirs: Shift;
  mine: ShiftTimesInput;
}

/** Data of the review screen. */
export interface ReviewData {
  from: string;
  to: string;
  /** Shifts of the range and of the earlier days of its first workweek (for weekly totals). */
  shifts: Shift[];
  result: Review | undefined;
  view: "members" | "shifts";
  /** When set, the shift view shows only this member. */
  memberId: string | undefined;
  /** Shows only members whose name holds this text (`/`). */
  filter: string;
  form: ReviewForm;
  /** The newer shift found when an edit lost to someone else's, with the manager's values. */
  conflict: ReviewConflict | undefined;
  /** Everyone's names and team member wages (a shift without a wage is costed at them). */
  team: { locationId: string; members: TeamMember[]; wages: Record<string, TeamMemberWage[]> } | undefined;
  /** Shifts with changes kept on this machine, not yet sent (shown as they will be). */
  keptIds: string[];
  /** The config's rules the figures follow, for the header. */
  overtime: OvertimeRules;
  payPeriod: PayPeriodRule;
  /** What the range is: workdays picked (or a day), a workweek, or the pay period — the title says which. */
  span: ReviewSpanKind;
  stale: boolean;
}

/** The review slice: the workday view, totals with overtime, shift edits and deletes, the CSV export. */
export interface ReviewSlice {
  review: ReviewData;
  markReviewStale(): void;
  loadReviewIfStale(): Promise<void>;
  /**
   * The background refresh: a range of more than a page of shifts reads only the shifts changed
   * since the last read (and whole every {@link WHOLE_READ_EVERY}th time, which also drops shifts
   * deleted elsewhere); a shorter range is read whole, as that is one request either way.
   */
  refreshReview(): Promise<void>;
  /**
   * Reads the range's shifts (the current range without one); `quiet` for the background refresh;
   * `span` says what a new range is (workdays unless said).
   */
  loadReview(
    range?: { from: string; to: string },
    options?: { quiet?: boolean; team?: boolean; span?: ReviewSpanKind },
  ): Promise<string | undefined>;
  /** Shows today's workday. */
  reviewToday(): Promise<void>;
  /** Moves the range by whole days (`[`/`]`). */
  shiftReviewRange(days: number): Promise<void>;
  /** Shows the workweek before or after the one holding the range's first day (`{`/`}`). */
  shiftReviewWeek(weeks: number): Promise<void>;
  /** Shows the pay period holding today (`p`). */
  reviewPayPeriod(): Promise<void>;
  /** Shows the workweek holding today (`.`). */
  reviewThisWeek(): Promise<void>;
  setReviewView(view: "members" | "shifts", memberId?: string): void;
  setReviewFilter(text: string): void;
  openReviewForm(form: ReviewForm): void;
  /** Saves a shift's times and breaks; a problem in words keeps the form open. */
  editShiftTimes(shiftId: string, input: ShiftTimesInput): Promise<string | undefined>;
  /** Deletes a shift (after the screen asked). */
  deleteShift(shiftId: string): Promise<void>;
  /**
   * Writes the review's rows as CSV (and the weekly summary) through the shell's `exportCsv`: a
   * file already there is replaced only after "Replace it?".
   */
  exportReview(typed: string, options?: { summary?: boolean }): Promise<WriteResult<string[]>>;
  /** Where the export goes unless told otherwise (the data folder's exports/, a name with the location). */
  exportPath(): string;
}

/** Every how many background refreshes the review reads its range whole rather than what changed. */
export const WHOLE_READ_EVERY = 10;

/** Builds the review slice. */
export const createReviewSlice: SliceCreator<ReviewSlice> = (set, get, deps) => {
  const patch = (p: Partial<ReviewData>) => set((s) => ({ review: { ...s.review, ...p } }));
  /** The export's file name: it names the store (or says all locations) and the workdays. */
  const defaultExportName = () => {
    const { from, to } = get().review;
    const here = scope().locationId;
    const location = get().locations.find((l) => l.id === here);
    return here === undefined
      ? exportFileName(ALL_LOCATIONS, "all", from, to)
      : exportFileName(location?.name ?? "", location?.id ?? "", from, to);
  };
  const context = () => {
    const s = get();
    return {
      tz: timeZoneOf(s),
      startOfDay: s.workweek?.start_of_day_local_time ?? "00:00",
      startOfWeek: s.workweek?.start_of_week ?? "MON",
    };
  };
  /** The store the review shows (undefined: all locations, the picker's choice), and every store. */
  const scope = (): ReviewScope => {
    const s = get();
    return {
      locationId: s.allLocations ? undefined : s.locationId,
      locationIds: s.locations.flatMap((l) => (l.id ? [l.id] : [])),
    };
  };
  const rebuild = (raw: Shift[]) => {
    // Shift changes kept on this machine are shown as they will be; the raw read stays as read.
    const kept = reviewShiftsWithKept(raw, get().outbox.entries, get().outbox.made);
    const shifts = kept.shifts;
    const { tz, startOfDay, startOfWeek } = context();
    const team = get().review.team;
    const members = new Map<string, TeamMember>();
    for (const m of team?.members ?? []) if (m.id) members.set(m.id, m);
    const wages = new Map(Object.entries(team?.wages ?? {}));
    const { from, to } = get().review;
    const here = scope().locationId;
    const locations = get().locations;
    const currency = locations.find((l) => l.id === (here ?? get().locationId))?.currency;
    const result = buildReview(shifts, {
      members,
      wages,
      timeZone: tz,
      startOfDay,
      startOfWeek,
      now: deps.clock.now(),
      from,
      to,
      overtime: deps.overtime,
      zones: new Map(locations.flatMap((l) => (l.id && l.timezone ? [[l.id, l.timezone] as const] : []))),
      ...(here === undefined ? {} : { locationId: here }),
      ...(currency ? { currency } : {}),
    });
    patch({ shifts: raw, result, keptIds: [...kept.keptIds] });
  };
  deps.events.on("kept-changed", () => {
    if (get().review.result) rebuild(get().review.shifts);
  });
  // Shifts saved on other screens (a clock-in, a clock-out) change what the review shows.
  deps.events.on("shift-saved", () => patch({ stale: true }));
  deps.events.on("shift-deleted", () => patch({ stale: true }));
  deps.events.on("location-changed", () => patch({ stale: true, team: undefined }));
  deps.events.on("all-locations-changed", () => patch({ stale: true }));
  const today = () => {
    const { tz, startOfDay } = context();
    return workdayOf(deps.clock.now(), tz, startOfDay);
  };
  const nameOf = (shift: Shift) =>
    memberName(get().review.team?.members.find((m) => m.id === (shift.team_member_id ?? shift.employee_id)));
  /**
   * What the last whole read covered, for a refresh that reads the shifts changed after `since`
   * (epoch ms, as the service stamps `updated_at`), and how many refreshes have read only that.
   */
  let lastRead: { key: string; since: number; refreshes: number } | undefined;
  let refreshing = false;
  const readKey = (from: string, to: string) => {
    const { tz, startOfWeek } = context();
    return JSON.stringify([scope().locationId ?? "all", from, to, tz, startOfWeek]);
  };
  const replaceShift = (shiftId: string, next: Shift | undefined) =>
    rebuild(
      next
        ? get().review.shifts.map((s) => (s.id === shiftId ? compactShift(next, new SharedValues()) : s))
        : get().review.shifts.filter((s) => s.id !== shiftId),
    );
  const io: ReviewIo = { get, patch, deps, replaceShift, nameOf, zoneOf: (shift) => zoneOfShift(get(), shift) };

  return {
    review: {
      from: "",
      to: "",
      shifts: [],
      result: undefined,
      view: "members",
      memberId: undefined,
      filter: "",
      form: { kind: "none" },
      conflict: undefined,
      team: undefined,
      keptIds: [],
      overtime: deps.overtime,
      payPeriod: deps.payPeriod,
      span: "days",
      stale: true,
    },

    markReviewStale() {
      patch({ stale: true });
    },

    async loadReviewIfStale() {
      if (get().review.stale) await get().loadReview();
    },

    async refreshReview() {
      if (refreshing) return;
      const { from, to, shifts, result, stale } = get().review;
      const locationId = get().locationId;
      if (!locationId || !from) return;
      const key = readKey(from, to);
      const last = lastRead?.key === key ? lastRead : undefined;
      refreshing = true;
      try {
        if (stale || !result || !last || shifts.length <= REVIEW_PAGE || last.refreshes + 1 >= WHOLE_READ_EVERY) {
          await get().loadReview(undefined, { quiet: true });
          return;
        }
        const { since } = last;
        const { tz, startOfWeek } = context();
        const span = { range: { from, to }, week: { timeZone: tz, startOfWeek } };
        const read = await get().runRead(
          "Loading shifts",
          () => readReviewChanges(deps.client, scope(), span, since, shifts),
          { quiet: true },
        );
        // A read begun since (another range, or `r`) supersedes what this one found.
        if (!read || lastRead !== last) return;
        if (read.kind === "read whole") {
          await get().loadReview(undefined, { quiet: true });
          return;
        }
        const changed = read.shifts;
        // Newest first, so a change saved during this read is newer than all it saw: the next
        // read goes back to the newest change seen.
        lastRead = { key, since: newestUpdate(changed, since), refreshes: last.refreshes + 1 };
        const current = get().review.shifts;
        const merged = mergeChangedShifts(current, changed, new SharedValues());
        // A shift still running grows with the clock, so its row is figured again even with no change.
        if (merged || current.some((s) => !s.end_at)) rebuild(merged ?? current);
      } finally {
        refreshing = false;
      }
    },

    async loadReview(range, options = {}) {
      const locationId = get().locationId;
      if (!locationId) return "No location is selected.";
      const from = (range?.from ?? (get().review.from || today())).trim();
      const to = (range?.to ?? (get().review.to || from)).trim();
      if (!parseDate(from) || !parseDate(to)) return "Dates are YYYY-MM-DD.";
      if (to < from) return "The range ends before it starts.";
      const { tz, startOfWeek } = context();
      const sc = scope();
      patch({ from, to, stale: false, ...(range ? { span: options.span ?? "days" } : {}) });
      // Until this read is in, a refresh has nothing to read changes since.
      lastRead = undefined;
      const known = get().review.team;
      const needTeam = options.team === true || !known || known.locationId !== locationId;
      const read = await get().runRead(
        "Loading shifts",
        async () => {
          const teamRead = needTeam
            ? Promise.all([
                // Everyone, not only who is assigned here now: a shift of someone since moved keeps their name.
                deps.client.team.searchTeamMembers({ limit: 200 }).all(),
                deps.client.labor.listTeamMemberWages({ limit: 200 }).all(),
              ])
            : undefined;
          const out: Shift[] = [];
          let newest = 0;
          const shared = new SharedValues();
          const span = { range: { from, to }, week: { timeZone: tz, startOfWeek } };
          for await (const page of reviewShiftPages(deps.client, sc, span)) {
            // Each page is compacted as it arrives, so a long range keeps a fraction of what its JSON parses into.
            newest = newestUpdate(page, newest);
            for (const shift of page) out.push(compactShift(shift, shared));
            // The count of shifts is unknown until the last page; the bar shows what has arrived.
            if (!options.quiet) set({ progress: { label: "Loading shifts", done: out.length, total: 0 } });
          }
          return { shifts: out, newest, team: await teamRead };
        },
        options,
      );
      if (get().progress) set({ progress: undefined });
      if (!read) {
        patch({ stale: true });
        return undefined;
      }
      if (read.team) {
        const [members, wages] = read.team;
        const byMember: Record<string, TeamMemberWage[]> = {};
        for (const w of wages) {
          if (w.team_member_id) byMember[w.team_member_id] = [...(byMember[w.team_member_id] ?? []), w];
        }
        patch({ team: { locationId, members, wages: byMember } });
      }
      const same = get().locationId === locationId && scope().locationId === sc.locationId;
      if (get().review.from === from && get().review.to === to && same) {
        // The next refresh reads the changes after the newest one this read saw. Two cases wait
        // for the next whole read (5 minutes at most): a shift changed during this read on a page
        // it had already read while a later page held a newer change, and a change saved in the
        // same instant as that newest one (a service may stamp whole seconds). Reaching back
        // further would re-read a range whose shifts were saved together, as an import saves them.
        lastRead = { key: readKey(from, to), since: read.newest, refreshes: 0 };
        rebuild(read.shifts);
      }
      return undefined;
    },

    async reviewToday() {
      await get().loadReview({ from: today(), to: today() });
    },

    async shiftReviewRange(days) {
      const { from, to } = get().review;
      if (!from) return;
      await get().loadReview({ from: addDays(from, days), to: addDays(to, days) });
    },

    async shiftReviewWeek(weeks) {
      const from = get().review.from || today();
      const first = weekStartOf(addDays(from, 7 * weeks), context().startOfWeek);
      await get().loadReview({ from: first, to: addDays(first, 6) }, { span: "week" });
    },

    async reviewPayPeriod() {
      await get().loadReview(payPeriodOf(today(), deps.payPeriod, context().startOfWeek), { span: "pay-period" });
    },

    async reviewThisWeek() {
      const first = weekStartOf(today(), context().startOfWeek);
      await get().loadReview({ from: first, to: addDays(first, 6) }, { span: "week" });
    },

    setReviewView(view, memberId) {
      patch({ view, memberId });
    },

    setReviewFilter(text) {
      patch({ filter: text });
    },

    openReviewForm(form) {
      const conflict = get().review.conflict;
      patch({ form, conflict: form.kind === "edit" && conflict?.theirs.id === form.shiftId ? conflict : undefined });
    },

    editShiftTimes: (shiftId, input) => editShiftTimes(io, shiftId, input),

    deleteShift: (shiftId) => deleteShift(io, shiftId),

    async exportReview(typed, options = {}) {
      const result = get().review.result;
      if (!result) return nothingToExport();
      const { startOfWeek } = context();
      const names = locationNamesOf(get().locations);
      const target = get().exportTarget(typed, defaultExportName());
      const files = reviewExportFiles(result, { names, startOfWeek }, target, options.summary === true);
      const written = await get().exportCsv(files);
      if (written.ok || written.error.kind === "exists") patch({ form: { kind: "none" } });
      return written;
    },

    exportPath() {
      return get().exportTarget("", defaultExportName());
    },
  };
};

/** The time zone of the store a shift was worked at (the selected location's when unknown). */
export function zoneOfShift(
  s: { locations: { id?: string; timezone?: string }[]; locationId: string | undefined },
  shift: Pick<Shift, "location_id">,
): string {
  return s.locations.find((l) => l.id === shift.location_id)?.timezone ?? timeZoneOf(s);
}
