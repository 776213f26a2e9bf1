import { checkShiftTimes, shiftForUpdate, withShiftTimes } from "../domain/clock-rules.js";
import { reviewCsv } from "../domain/csv.js";
import { buildReview, type Review, reviewShiftSearch } from "../domain/shifts.js";
import { addDays, localTime, parseClockTime, parseDate, workdayOf, zonedInstant } from "../domain/time.js";
import type { Shift, TeamMember } from "../spec/generated/types.js";
import { isVersionConflict, problemOf, writeProblem } from "./errors.js";
import { timeZoneOf } from "./shell-slice.js";
import type { SliceCreator } from "./store.js";

/** The form open on the review, if any. */
export type ReviewForm = { kind: "none" } | { kind: "range" } | { kind: "edit"; shiftId: string } | { kind: "export" };

/** What the shift edit form submits: local dates and times; an empty end keeps the shift open. */
export interface ShiftTimesInput {
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
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
  form: ReviewForm;
  /** The newer shift found when an edit lost to someone else's. */
  conflict: Shift | undefined;
  stale: boolean;
}

/** The review slice: the workday view, totals, shift edits and the CSV export. */
export interface ReviewSlice {
  review: ReviewData;
  markReviewStale(): void;
  loadReviewIfStale(): Promise<void>;
  /** Reads the range's shifts (the current range without one); `quiet` for the background refresh. */
  loadReview(range?: { from: string; to: string }, options?: { quiet?: boolean }): Promise<string | undefined>;
  /** Shows today's workday. */
  reviewToday(): Promise<void>;
  /** Moves the range by whole days (`[`/`]`). */
  shiftReviewRange(days: number): Promise<void>;
  setReviewView(view: "members" | "shifts", memberId?: string): void;
  openReviewForm(form: ReviewForm): void;
  editShiftTimes(shiftId: string, input: ShiftTimesInput): Promise<string | undefined>;
  /** Writes the review's rows as CSV; returns a problem in words or undefined. */
  exportReview(path: string): Promise<string | undefined>;
  /** The default file name of the export. */
  exportPath(): string;
}

/** Builds the review slice. */
export const createReviewSlice: SliceCreator<ReviewSlice> = (set, get, deps) => {
  const patch = (p: Partial<ReviewData>) => set((s) => ({ review: { ...s.review, ...p } }));
  const context = () => {
    const s = get();
    return {
      tz: timeZoneOf(s),
      startOfDay: s.workweek?.start_of_day_local_time ?? "00:00",
      startOfWeek: s.workweek?.start_of_week ?? "MON",
    };
  };
  const rebuild = (shifts: Shift[]) => {
    const { tz, startOfDay, startOfWeek } = context();
    const members = new Map<string, TeamMember>();
    for (const m of get().timeclock.members) if (m.id) members.set(m.id, m);
    const { from, to } = get().review;
    const result = buildReview(shifts, {
      members,
      timeZone: tz,
      startOfDay,
      startOfWeek,
      now: deps.clock.now(),
      from,
      to,
    });
    patch({ shifts, result });
  };
  // Shifts saved on other screens (a clock-in, a clock-out) change what the review shows.
  deps.events.on("shift-saved", () => patch({ stale: true }));
  deps.events.on("shift-deleted", () => patch({ stale: true }));
  deps.events.on("location-changed", () => patch({ stale: true }));
  const today = () => {
    const { tz, startOfDay } = context();
    return workdayOf(deps.clock.now(), tz, startOfDay);
  };

  return {
    review: {
      from: "",
      to: "",
      shifts: [],
      result: undefined,
      view: "members",
      memberId: undefined,
      form: { kind: "none" },
      conflict: undefined,
      stale: true,
    },

    markReviewStale() {
      patch({ stale: true });
    },

    async loadReviewIfStale() {
      if (get().review.stale) await get().loadReview();
    },

    async loadReview(range, options = {}) {
      const locationId = get().locationId;
      if (!locationId) return "No location is selected.";
      const from = range?.from ?? (get().review.from || today());
      const to = range?.to ?? (get().review.to || from);
      if (!parseDate(from) || !parseDate(to)) return "Dates are YYYY-MM-DD.";
      if (to < from) return "The range ends before it starts.";
      const { tz, startOfWeek } = context();
      patch({ from, to, stale: false, conflict: undefined });
      const shifts = await get().runRead(
        "Loading shifts",
        async () => {
          const out: Shift[] = [];
          const pages = deps.client.labor
            .searchShifts(reviewShiftSearch(locationId, { from, to }, { timeZone: tz, startOfWeek }))
            .pages();
          for await (const page of pages) {
            out.push(...(page.shifts ?? []));
            // The count of shifts is unknown until the last page; the bar shows what has arrived.
            if (!options.quiet) set({ progress: { label: "Loading shifts", done: out.length, total: 0 } });
          }
          return out;
        },
        options,
      );
      if (get().progress) set({ progress: undefined });
      if (!shifts) {
        patch({ stale: true });
        return undefined;
      }
      if (get().review.from === from && get().review.to === to) rebuild(shifts);
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

    setReviewView(view, memberId) {
      patch({ view, memberId });
    },

    openReviewForm(form) {
      patch({ form, conflict: form.kind === "edit" ? get().review.conflict : undefined });
    },

    async editShiftTimes(shiftId, input) {
      const shift = get().review.shifts.find((s) => s.id === shiftId);
      if (!shift) return "That shift is not in the review any more.";
      const { tz } = context();
      if (!parseDate(input.startDate) || !parseClockTime(input.startTime)) return "Start is YYYY-MM-DD and HH:MM.";
      const hasEnd = input.endDate.trim() !== "" || input.endTime.trim() !== "";
      if (hasEnd && (!parseDate(input.endDate) || !parseClockTime(input.endTime)))
        return "End is YYYY-MM-DD and HH:MM, or both empty.";
      const startAt = zonedInstant(input.startDate, input.startTime, tz);
      const endAt = hasEnd ? zonedInstant(input.endDate, input.endTime, tz) : undefined;
      if (!endAt && shift.end_at) return "A closed shift needs an end.";
      const problem = checkShiftTimes(shift, startAt, endAt, deps.clock.now(), tz);
      if (problem) return problem;
      // The version we read travels with the edit: the service refuses it if someone saved since.
      const res = await get().runWrite(`shift:${shift.team_member_id ?? shiftId}`, "Saving the shift", () =>
        deps.client.labor.updateShift(shiftId, { shift: shiftForUpdate(withShiftTimes(shift, startAt, endAt)) }),
      );
      if (!res.ok) {
        if (res.error.kind !== "failed" || !isVersionConflict(res.error.cause)) return writeProblem(res.error);
        const fresh = await get().runRead("Reading the shift again", () => deps.client.labor.getShift(shiftId));
        const theirs = fresh?.shift;
        if (theirs) {
          rebuild(get().review.shifts.map((s) => (s.id === shiftId ? theirs : s)));
          patch({ conflict: theirs });
          deps.events.emit({ type: "shift-saved", shift: theirs });
        }
        const text = theirs
          ? `Someone else changed this shift; it now runs ${localTime(theirs.start_at, tz)}–${theirs.end_at ? localTime(theirs.end_at, tz) : "open"}. Your edit was not saved.`
          : "Someone else changed this shift; your edit was not saved.";
        get().setStatus({ kind: "rule", text, details: `shift ${shiftId}, version ${theirs?.version ?? "?"}` });
        return text;
      }
      const saved = res.value.shift;
      if (!saved) return "The service did not return the saved shift.";
      rebuild(get().review.shifts.map((s) => (s.id === shiftId ? saved : s)));
      deps.events.emit({ type: "shift-saved", shift: saved });
      // The event marked the review stale; what it shows is this very save.
      patch({ form: { kind: "none" }, conflict: undefined, stale: false });
      get().setStatus({ kind: "info", text: "Shift saved." });
      return undefined;
    },

    async exportReview(path) {
      const target = path.trim();
      if (!target) return "Give a file path.";
      const result = get().review.result;
      if (!result) return "Nothing to export yet.";
      const { tz } = context();
      try {
        await deps.writeFile(target, reviewCsv(result.rows, tz, deps.clock.now()));
      } catch (err) {
        const problem = problemOf(err);
        get().setStatus({ kind: "error", text: `The file was not written: ${problem.headline}`, details: target });
        return problem.headline;
      }
      patch({ form: { kind: "none" } });
      get().setStatus({ kind: "info", text: `Wrote ${result.rows.length} shifts to ${target}.` });
      return undefined;
    },

    exportPath() {
      const { from, to } = get().review;
      return from === to ? `shifts-${from}.csv` : `shifts-${from}-to-${to}.csv`;
    },
  };
};
