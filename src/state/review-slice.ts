import { checkShiftTimes, shiftForUpdate, withShiftTimes } from "../domain/clock-rules.js";
import { reviewCsv } from "../domain/csv.js";
import { buildReview, type Review, reviewShiftSearch } from "../domain/shifts.js";
import { addDays, localTime, parseClockTime, parseDate, workdayOf, zonedInstant } from "../domain/time.js";
import type { Shift, TeamMember } from "../spec/generated/types.js";
import { isVersionConflict, statusOfError } from "./errors.js";
import type { SliceCreator } from "./store.js";
import { timeZoneOf } from "./timeclock-slice.js";

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
  loadReview(range?: { from: string; to: string }): Promise<string | undefined>;
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

    async loadReview(range) {
      const locationId = get().locationId;
      if (!locationId) return "No location is selected.";
      const from = range?.from ?? (get().review.from || today());
      const to = range?.to ?? (get().review.to || from);
      if (!parseDate(from) || !parseDate(to)) return "Dates are YYYY-MM-DD.";
      if (to < from) return "The range ends before it starts.";
      const { tz, startOfWeek } = context();
      patch({ from, to, stale: false, conflict: undefined });
      const shifts = await get().runRead("Loading shifts", async () => {
        const out: Shift[] = [];
        const pages = deps.client.labor
          .searchShifts(reviewShiftSearch(locationId, { from, to }, { timeZone: tz, startOfWeek }))
          .pages();
        for await (const page of pages) {
          out.push(...(page.shifts ?? []));
          // The count of shifts is unknown until the last page; the bar shows what has arrived.
          set({ progress: { label: "Loading shifts", done: out.length, total: 0 } });
        }
        return out;
      });
      set({ progress: undefined });
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
      let conflict = false;
      const res = await get().runWrite(`shift:${shift.team_member_id ?? shiftId}`, "Saving the shift", async () => {
        try {
          // The version we read travels with the edit: the service refuses it if someone saved since.
          return await deps.client.labor.updateShift(shiftId, {
            shift: shiftForUpdate(withShiftTimes(shift, startAt, endAt)),
          });
        } catch (err) {
          if (!isVersionConflict(err)) throw err;
          conflict = true;
          return undefined;
        }
      });
      if (conflict) {
        const fresh = await get().runRead("Reading the shift again", () => deps.client.labor.getShift(shiftId));
        const theirs = fresh?.shift;
        if (theirs) {
          rebuild(get().review.shifts.map((s) => (s.id === shiftId ? theirs : s)));
          patch({ conflict: theirs });
        }
        const text = theirs
          ? `Someone else changed this shift; it now runs ${localTime(theirs.start_at, tz)}–${theirs.end_at ? localTime(theirs.end_at, tz) : "open"} (version ${theirs.version ?? "?"}). Your edit was not saved.`
          : "Someone else changed this shift; your edit was not saved.";
        get().setStatus({ kind: "rule", text });
        return text;
      }
      if (!res?.shift) {
        const st = get().status;
        return st.kind === "error" ? `${st.code}: ${st.detail}` : undefined;
      }
      const saved = res.shift;
      rebuild(get().review.shifts.map((s) => (s.id === shiftId ? saved : s)));
      // The time clock holds open shifts too; its copy must carry the new version.
      const tc = get().timeclock;
      if (tc.openShifts.some((s) => s.id === shiftId)) {
        const open = saved.end_at
          ? tc.openShifts.filter((s) => s.id !== shiftId)
          : tc.openShifts.map((s) => (s.id === shiftId ? saved : s));
        set({ timeclock: { ...tc, openShifts: open } });
      }
      patch({ form: { kind: "none" }, conflict: undefined });
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
        const st = statusOfError(err);
        get().setStatus(st);
        return `${st.code}: ${st.detail}`;
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
