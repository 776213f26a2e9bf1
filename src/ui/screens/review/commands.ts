import { localDate } from "../../../domain/time.js";
import { type LoadedState, selectReviewMembers, selectReviewRows } from "../../../state/index.js";
import {
  ch,
  defineLoadedCommands,
  type ListRows,
  listCommands,
  named,
  openRowCommand,
  selectedRow,
} from "../../commands.js";
import { shiftSpan } from "./columns.js";

/** The list shown: the members' totals, or the shifts (of one member, or all). */
export function reviewRows(s: LoadedState): ListRows {
  return s.review.view === "members"
    ? { list: "review.members", ids: selectReviewMembers(s).map((m) => m.memberId) }
    : { list: "review.shifts", ids: selectReviewRows(s).map((r, i) => r.shift.id ?? String(i)) };
}

/** The member under the cursor (members view). */
function selectedMember(s: LoadedState) {
  if (s.review.view !== "members") return undefined;
  const id = selectedRow(s, reviewRows(s));
  return selectReviewMembers(s).find((m) => m.memberId === id);
}

/** The shift under the cursor (shifts view). */
function selectedShift(s: LoadedState) {
  if (s.review.view !== "shifts") return undefined;
  const id = selectedRow(s, reviewRows(s));
  return selectReviewRows(s).find((r) => r.shift.id === id);
}

const noShift = (s: LoadedState) =>
  s.review.view !== "shifts"
    ? "Open a member (enter) or all shifts (s), then pick the shift."
    : selectedShift(s)
      ? undefined
      : "There is no shift here.";

const loaded = (s: LoadedState) => (s.review.result ? undefined : "The shifts are still being read.");

/** The review's commands. */
export const REVIEW_COMMANDS = defineLoadedCommands({
  ...listCommands(reviewRows),
  openMember: openRowCommand({
    description: "the member's shifts",
    short: "shifts",
    hint: 2,
    target: (s) => (s.review.view === "members" ? selectedMember(s) : undefined),
    open: (s, m) => {
      s.setReviewView("shifts", m.memberId);
      s.selectRow("review.shifts", [], 0);
    },
    why: (s) =>
      s.review.view !== "members"
        ? "Already showing shifts: esc goes back to the members."
        : "There is no member here.",
  }),
  editShift: {
    keys: [named("return"), ch("E")],
    label: "enter/E",
    description: "edit shift times and breaks",
    short: "edit",
    write: true,
    hint: 2,
    run: (s) => {
      const id = selectedShift(s)?.shift.id;
      if (id) s.openReviewForm({ kind: "edit", shiftId: id });
    },
    unavailable: noShift,
  },
  allShifts: {
    keys: [ch("s")],
    label: "s",
    description: "all shifts / by member",
    short: "all / by member",
    hint: 5,
    run: (s) => {
      const shifts = s.review.view === "members";
      s.setReviewView(shifts ? "shifts" : "members");
      s.selectRow(shifts ? "review.shifts" : "review.members", [], 0);
    },
  },
  back: {
    keys: [named("escape")],
    label: "esc",
    description: "back to the members / clear the filter",
    palette: false,
    run: (s) => {
      if (s.review.view === "shifts") {
        const members = selectReviewMembers(s).map((m) => m.memberId);
        s.setReviewView("members");
        s.selectRow("review.members", members, Math.max(0, members.indexOf(s.review.memberId ?? "")));
      } else s.setReviewFilter("");
    },
    unavailable: (s) => (s.review.view === "shifts" || s.review.filter ? undefined : "Nothing to go back from."),
  },
  filter: {
    keys: [ch("/")],
    label: "/",
    description: "filter by member (esc clears)",
    short: "filter",
    hint: 6,
    run: (s) => s.openReviewForm({ kind: "filter" }),
  },
  prevDay: { keys: [ch("[")], label: "[", description: "previous day", hint: 3, run: (s) => s.shiftReviewRange(-1) },
  nextDay: { keys: [ch("]")], label: "]", description: "next day", hint: 3, run: (s) => s.shiftReviewRange(1) },
  prevWeek: {
    keys: [ch("{")],
    label: "{",
    description: "previous workweek",
    hint: 4,
    run: (s) => s.shiftReviewWeek(-1),
  },
  nextWeek: { keys: [ch("}")], label: "}", description: "next workweek", hint: 4, run: (s) => s.shiftReviewWeek(1) },
  payPeriod: { keys: [ch("p")], label: "p", description: "this pay period", run: (s) => s.reviewPayPeriod() },
  thisWeek: { keys: [ch(".")], label: ".", description: "this workweek", run: (s) => s.reviewThisWeek() },
  today: { keys: [ch("t")], label: "t", description: "today", run: (s) => s.reviewToday() },
  range: { keys: [ch("d")], label: "d", description: "date range", run: (s) => s.openReviewForm({ kind: "range" }) },
  deleteShift: {
    keys: [ch("x")],
    label: "x",
    description: "delete shift (asks first)",
    write: true,
    run: (s) => {
      const r = selectedShift(s);
      const id = r?.shift.id;
      if (!r || !id) return;
      s.ask({
        message: `Delete ${r.memberName}'s shift of ${localDate(r.shift.start_at, r.timeZone)} ${shiftSpan(r)} (${Math.round(r.totals.spanMinutes)} min)? It cannot be undone.`,
        risky: true,
        yes: "Delete",
        onYes: () => s.deleteShift(id),
      });
    },
    unavailable: noShift,
  },
  export: {
    keys: [ch("e")],
    label: "e",
    description: "export CSV",
    hint: 5,
    run: (s) => s.openReviewForm({ kind: "export" }),
    unavailable: loaded,
  },
});
