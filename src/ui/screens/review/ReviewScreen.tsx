import { Box } from "ink";
import { formatMoney, type MemberSummary, type ReviewRow } from "../../../domain/shifts.js";
import { formatHours, localDate, localTime } from "../../../domain/time.js";
import {
  selectReviewMembers,
  selectReviewRows,
  selectTimeZone,
  useAppStore,
  useAppStoreApi,
} from "../../../state/index.js";
import { FormView } from "../../components/FormView.js";
import { Txt } from "../../components/Txt.js";
import { useList } from "../../components/use-list.js";
import { WindowedList } from "../../components/WindowedList.js";
import type { Command } from "../../keymap.js";
import { useScreenCommands } from "../../screen-commands.js";
import { useTheme } from "../../theme.js";

/** The workday review: per member totals, then each shift; edit times and export CSV. */
export function ReviewScreen({ active, height, width }: { active: boolean; height: number; width: number }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const review = useAppStore((s) => s.review);
  const members = useAppStore(selectReviewMembers);
  const rows = useAppStore(selectReviewRows);
  const tz = useAppStore(selectTimeZone);
  const startOfDay = useAppStore((s) => s.workweek?.start_of_day_local_time ?? "00:00");
  const view = review.view;
  const count = view === "members" ? members.length : rows.length;
  const formHeight = review.form.kind === "none" ? 0 : review.form.kind === "edit" ? 10 : 6;
  const listHeight = Math.max(3, height - 4 - formHeight);
  const [list, onList, select] = useList(count, listHeight);
  const s = () => store.getState();
  const result = review.result;

  const onCommand = (c: Command) => {
    if (onList(c)) return;
    switch (c) {
      case "open": {
        if (view === "members") {
          const m = members[list.cursor];
          if (m) {
            s().setReviewView("shifts", m.memberId);
            select(0);
          }
        } else openEdit();
        return;
      }
      case "editShift":
        if (view === "shifts") openEdit();
        else s().setStatus({ kind: "info", text: "Open a member (enter) or all shifts (s) to edit a shift." });
        return;
      case "back":
        if (view === "shifts") {
          const at = members.findIndex((m) => m.memberId === review.memberId);
          s().setReviewView("members");
          select(Math.max(0, at));
        }
        return;
      case "allShifts":
        s().setReviewView(view === "members" ? "shifts" : "members");
        select(0);
        return;
      case "prevDay":
        void s().shiftReviewRange(-1);
        return;
      case "nextDay":
        void s().shiftReviewRange(1);
        return;
      case "today":
        void s().reviewToday();
        return;
      case "range":
        s().openReviewForm({ kind: "range" });
        return;
      case "reload":
        void s().loadReview();
        return;
      case "export":
        if (!result) s().setStatus({ kind: "info", text: "Nothing to export yet." });
        else s().openReviewForm({ kind: "export" });
        return;
      default:
        return;
    }
  };
  const openEdit = () => {
    const r = rows[list.cursor];
    if (!r?.shift.id) return;
    if (s().readOnly) {
      s().setStatus({ kind: "rule", text: "Read-only mode: edit shift times is disabled." });
      return;
    }
    s().openReviewForm({ kind: "edit", shiftId: r.shift.id });
  };
  useScreenCommands(["list", "review"], onCommand, active && review.form.kind === "none");

  const title = review.from === review.to ? `Workday ${review.from || "…"}` : `Workdays ${review.from} → ${review.to}`;
  const memberName = members.find((m) => m.memberId === review.memberId)?.memberName;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>{title}</Txt>
        <Txt color={theme.muted}>
          {" "}
          · days start {startOfDay.slice(0, 5)} {tz}
          {view === "shifts" ? ` · ${memberName ?? "all members"}` : ""}
        </Txt>
      </Txt>
      {result ? (
        <Txt wrap="truncate-end">
          Total: {result.totals.shifts} shifts · paid {formatHours(result.totals.paidHours)} h · unpaid{" "}
          {formatHours(result.totals.unpaidHours)} h · cost {formatMoney(result.totals.cost)}
        </Txt>
      ) : (
        <Txt color={theme.muted}>No shifts loaded.</Txt>
      )}
      {view === "members" ? (
        <>
          <Txt
            color={theme.muted}
          >{`  ${"Member".padEnd(20)}${"Shifts".padStart(7)}${"Paid h".padStart(8)}${"Unpaid h".padStart(9)}${"Cost".padStart(13)}  Flags`}</Txt>
          <WindowedList
            items={members}
            state={list}
            height={listHeight}
            rowKey={(m) => m.memberId}
            empty="No shifts in these workdays."
            renderRow={(m) => <MemberLine m={m} />}
          />
        </>
      ) : (
        <>
          <Txt
            color={theme.muted}
          >{`  ${"Member".padEnd(16)}${"Workday".padEnd(11)}${"Start–End".padEnd(12)}${"Breaks".padStart(7)}${"Paid h".padStart(7)}${"Cost".padStart(12)}  Flags`}</Txt>
          <WindowedList
            items={rows}
            state={list}
            height={listHeight}
            rowKey={(r, i) => r.shift.id ?? String(i)}
            empty="No shifts."
            renderRow={(r) => <ShiftLine r={r} tz={tz} />}
          />
        </>
      )}
      {review.form.kind === "range" ? <RangeForm /> : null}
      {review.form.kind === "export" ? <ExportForm /> : null}
      {review.form.kind === "edit" ? <EditShiftForm shiftId={review.form.shiftId} /> : null}
    </Box>
  );
}

function MemberLine({ m }: { m: MemberSummary }) {
  const theme = useTheme();
  const flags = [m.overDays.length ? `>8h ${m.overDays.length}d` : "", m.overWeeks.length ? ">40h wk" : ""].filter(
    Boolean,
  );
  return (
    <Txt wrap="truncate-end">
      {" "}
      {m.memberName.slice(0, 19).padEnd(20)}
      {String(m.shifts).padStart(6)}
      {formatHours(m.paidHours).padStart(8)}
      {formatHours(m.unpaidHours).padStart(9)}
      {formatMoney(m.cost).padStart(13)}
      <Txt color={theme.bad} bold>
        {"  "}
        {flags.join(" ")}
      </Txt>
    </Txt>
  );
}

function ShiftLine({ r, tz }: { r: ReviewRow; tz: string }) {
  const theme = useTheme();
  const s = r.shift;
  const end = s.end_at ? new Date(s.end_at) : undefined;
  const breakMin = r.totals.paidBreakMinutes + r.totals.unpaidBreakMinutes;
  const flags = [r.overDay ? ">8h" : "", r.overWeek ? ">40h" : ""].filter(Boolean).join(" ");
  return (
    <Txt wrap="truncate-end">
      {" "}
      {r.memberName.slice(0, 15).padEnd(16)}
      {r.workday.padEnd(11)}
      {`${localTime(s.start_at, tz)}–${end ? localTime(end, tz) : "open"}`.padEnd(12)}
      {`${Math.round(breakMin)}m`.padStart(6)}
      {formatHours(r.totals.paidHours).padStart(7)}
      {formatMoney(r.totals.cost).padStart(12)}
      <Txt color={theme.bad} bold>
        {"  "}
        {flags}
      </Txt>
    </Txt>
  );
}

const RANGE_FIELDS = [
  { name: "from", label: "From", hint: "YYYY-MM-DD" },
  { name: "to", label: "To", hint: "YYYY-MM-DD" },
];

function RangeForm() {
  const store = useAppStoreApi();
  const { from, to } = useAppStore((s) => s.review);
  return (
    <FormView
      title="Workdays to review"
      fields={RANGE_FIELDS}
      initial={{ from, to }}
      onSubmit={async (v) => {
        const problem = await store.getState().loadReview({ from: v.from ?? "", to: v.to ?? "" });
        if (!problem) store.getState().openReviewForm({ kind: "none" });
        return problem;
      }}
      onCancel={() => store.getState().openReviewForm({ kind: "none" })}
    />
  );
}

const EXPORT_FIELDS = [{ name: "path", label: "Write CSV to" }];

function ExportForm() {
  const store = useAppStoreApi();
  const rows = useAppStore((s) => s.review.result?.rows.length ?? 0);
  return (
    <FormView
      title={`Export ${rows} shifts as CSV`}
      note="Enter confirms the path; an existing file is replaced."
      fields={EXPORT_FIELDS}
      initial={{ path: store.getState().exportPath() }}
      onSubmit={(v) => store.getState().exportReview(v.path ?? "")}
      onCancel={() => store.getState().openReviewForm({ kind: "none" })}
    />
  );
}

const EDIT_FIELDS = [
  { name: "startDate", label: "Start date", hint: "YYYY-MM-DD" },
  { name: "startTime", label: "Start time", hint: "HH:MM" },
  { name: "endDate", label: "End date", hint: "YYYY-MM-DD (empty: still open)" },
  { name: "endTime", label: "End time", hint: "HH:MM" },
];

function EditShiftForm({ shiftId }: { shiftId: string }) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const shift = useAppStore((s) => s.review.shifts.find((x) => x.id === shiftId));
  const conflict = useAppStore((s) => s.review.conflict);
  const tz = useAppStore(selectTimeZone);
  if (!shift) return null;
  const initial = {
    startDate: localDate(shift.start_at, tz),
    startTime: localTime(shift.start_at, tz),
    endDate: shift.end_at ? localDate(shift.end_at, tz) : "",
    endTime: shift.end_at ? localTime(shift.end_at, tz) : "",
  };
  return (
    <FormView
      title={`Edit shift times (version ${shift.version ?? "?"})`}
      resetKey={`${shift.version ?? ""}`}
      note={
        conflict ? (
          <Txt color={theme.warn}>
            Someone else changed this shift. It now runs {localTime(conflict.start_at, tz)}–
            {conflict.end_at ? localTime(conflict.end_at, tz) : "open"}; the form shows their values.
          </Txt>
        ) : undefined
      }
      fields={EDIT_FIELDS}
      initial={initial}
      onSubmit={(v) =>
        store.getState().editShiftTimes(shiftId, {
          startDate: v.startDate ?? "",
          startTime: v.startTime ?? "",
          endDate: v.endDate ?? "",
          endTime: v.endTime ?? "",
        })
      }
      onCancel={() => store.getState().openReviewForm({ kind: "none" })}
    />
  );
}
