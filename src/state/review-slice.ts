/**
 * The review slice: its data and actions. The reads live in review-load.ts (a range read whole,
 * the refresh of what changed), the writes in review-edits.ts, the export's files in
 * review-export.ts; here the actions are grouped by job and wired to them.
 */
import type { ShiftTimesInput } from "../domain/clock-rules.js";
import { exportFileName, locationNamesOf } from "../domain/csv.js";
import type { FormProblem } from "../domain/form-problem.js";
import type { OvertimeRules } from "../domain/overtime.js";
import { ALL_LOCATIONS, type Review } from "../domain/review.js";
import { compactShift, memberName, SharedValues } from "../domain/shifts.js";
import { addDays, notComeYet, type PayPeriodRule, payPeriodOf, weekStartOf } from "../domain/time.js";
import type { Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import type { WriteResult } from "./errors.js";
import { nothingToExport } from "./export-csv.js";
import { deleteShift, editShiftTimes, type ReviewIo } from "./review-edits.js";
import { reviewExportFiles } from "./review-export.js";
import {
  loadReview,
  type ReviewReader,
  rebuildReview,
  refreshReview,
  reviewClock,
  reviewScope,
  reviewToday,
} from "./review-load.js";
import { timeZoneOf } from "./shell-slice.js";
import type { LoadedSliceCreator, LoadedState, StoreDeps } from "./store.js";

export { WHOLE_READ_EVERY } from "./review-load.js";

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
  ): Promise<FormProblem>;
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
  /** Saves a shift's times and breaks; a problem (in words, naming its field) keeps the form open. */
  editShiftTimes(shiftId: string, input: ShiftTimesInput): Promise<FormProblem>;
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

/** The review's data before the first read. */
const initialReview = (deps: StoreDeps): ReviewData => ({
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
});

/** Keeps the review in step with the other screens: kept changes shown, saves elsewhere making it stale. */
function followEvents(io: ReviewReader): void {
  const { get, patch, deps } = io;
  deps.events.on("kept-changed", () => {
    if (get().review.result) rebuildReview(io, get().review.shifts);
  });
  // Shifts saved on other screens (a clock-in, a clock-out) change what the review shows.
  deps.events.on("shift-saved", () => patch({ stale: true }));
  deps.events.on("shift-deleted", () => patch({ stale: true }));
  deps.events.on("location-changed", () => patch({ stale: true, team: undefined }));
  deps.events.on("all-locations-changed", () => patch({ stale: true }));
}

/** The actions that choose which workdays the review shows: today, a day or week on, the pay period. */
function rangeActions({ get, deps }: ReviewReader) {
  const today = () => reviewToday(get(), deps);
  const startOfWeek = () => reviewClock(get()).startOfWeek;
  const sayNotComeYet = (day: string) => get().setStatus({ kind: "rule", text: notComeYet(day, today()) });
  return {
    async reviewToday() {
      await get().loadReview({ from: today(), to: today() });
    },
    async shiftReviewRange(days: number) {
      const { from, to } = get().review;
      if (!from) return;
      const next = addDays(from, days);
      // Days to come have no shifts worked: the dates stop once they would start after today.
      if (days > 0 && next > today()) return sayNotComeYet(next);
      await get().loadReview({ from: next, to: addDays(to, days) });
    },
    async shiftReviewWeek(weeks: number) {
      const from = get().review.from || today();
      const first = weekStartOf(addDays(from, 7 * weeks), startOfWeek());
      if (weeks > 0 && first > today()) return sayNotComeYet(first);
      await get().loadReview({ from: first, to: addDays(first, 6) }, { span: "week" });
    },
    async reviewPayPeriod() {
      await get().loadReview(payPeriodOf(today(), deps.payPeriod, startOfWeek()), { span: "pay-period" });
    },
    async reviewThisWeek() {
      const first = weekStartOf(today(), startOfWeek());
      await get().loadReview({ from: first, to: addDays(first, 6) }, { span: "week" });
    },
  } satisfies Partial<ReviewSlice>;
}

/** The export's file name: it names the store (or says all locations) and the workdays. */
function defaultExportName(s: LoadedState): string {
  const { from, to } = s.review;
  const here = reviewScope(s).locationId;
  const location = s.locations.find((l) => l.id === here);
  return here === undefined
    ? exportFileName(ALL_LOCATIONS, "all", from, to)
    : exportFileName(location?.name ?? "", location?.id ?? "", from, to);
}

/** The actions of the CSV export: where it goes, and the files written. */
function exportActions({ get, patch }: ReviewReader) {
  return {
    async exportReview(typed: string, options: { summary?: boolean } = {}) {
      const result = get().review.result;
      if (!result) return nothingToExport();
      const { startOfWeek } = reviewClock(get());
      const names = locationNamesOf(get().locations);
      const target = get().exportTarget(typed, defaultExportName(get()));
      const files = reviewExportFiles(result, { names, startOfWeek }, target, options.summary === true);
      const written = await get().exportCsv(files);
      if (written.ok || written.error.kind === "exists") patch({ form: { kind: "none" } });
      return written;
    },
    exportPath: () => get().exportTarget("", defaultExportName(get())),
  } satisfies Partial<ReviewSlice>;
}

/** The review's writes (review-edits.ts), with a saved shift put in place and the review figured again. */
function editActions(reader: ReviewReader) {
  const { get } = reader;
  const io: ReviewIo = {
    ...reader,
    replaceShift: (shiftId, next) =>
      rebuildReview(
        reader,
        next
          ? get().review.shifts.map((s) => (s.id === shiftId ? compactShift(next, new SharedValues()) : s))
          : get().review.shifts.filter((s) => s.id !== shiftId),
      ),
    nameOf: (shift) =>
      memberName(get().review.team?.members.find((m) => m.id === (shift.team_member_id ?? shift.employee_id))),
    zoneOf: (shift) => zoneOfShift(get(), shift),
  };
  return {
    editShiftTimes: (shiftId: string, input: ShiftTimesInput) => editShiftTimes(io, shiftId, input),
    deleteShift: (shiftId: string) => deleteShift(io, shiftId),
  } satisfies Partial<ReviewSlice>;
}

/** Builds the review slice. */
export const createReviewSlice: LoadedSliceCreator<ReviewSlice> = (set, get, deps) => {
  const patch = (p: Partial<ReviewData>) => set((s) => ({ review: { ...s.review, ...p } }));
  const setProgress = (progress: LoadedState["progress"]) => set({ progress });
  const io: ReviewReader = { get, setProgress, patch, deps, reads: { last: undefined, refreshing: false } };
  followEvents(io);
  return {
    review: initialReview(deps),
    markReviewStale: () => patch({ stale: true }),
    async loadReviewIfStale() {
      if (get().review.stale) await get().loadReview();
    },
    refreshReview: () => refreshReview(io),
    loadReview: (range, options = {}) => loadReview(io, range, options),
    ...rangeActions(io),
    setReviewView: (view, memberId) => patch({ view, memberId }),
    setReviewFilter: (text) => patch({ filter: text }),
    openReviewForm(form) {
      const conflict = get().review.conflict;
      patch({ form, conflict: form.kind === "edit" && conflict?.theirs.id === form.shiftId ? conflict : undefined });
    },
    ...editActions(io),
    ...exportActions(io),
  };
};

/** The time zone of the store a shift was worked at (the selected location's when unknown). */
export function zoneOfShift(
  s: { locations: { id?: string; timezone?: string }[]; locationId: string | undefined },
  shift: Pick<Shift, "location_id">,
): string {
  return s.locations.find((l) => l.id === shift.location_id)?.timezone ?? timeZoneOf(s);
}
