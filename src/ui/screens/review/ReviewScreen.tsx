import { Box } from "ink";
import { useMemo } from "react";
import { formatMoney } from "../../../domain/shifts.js";
import { formatHours, localDate, localTime } from "../../../domain/time.js";
import {
  selectReviewMembers,
  selectReviewRows,
  selectTimeZone,
  useAppStore,
  useAppStoreApi,
} from "../../../state/index.js";
import { ColumnList } from "../../components/ColumnList.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { Txt } from "../../components/Txt.js";
import { useList } from "../../components/use-list.js";
import type { Command } from "../../keymap.js";
import { useScreenCommands } from "../../screen-commands.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { MEMBER_COLUMNS, shiftColumns } from "./columns.js";

/** The workday review: per member totals, then each shift; edit times and export CSV. */
export function ReviewScreen({ active, height, width }: ScreenProps) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const review = useAppStore((s) => s.review);
  const members = useAppStore(selectReviewMembers);
  const rows = useAppStore(selectReviewRows);
  const tz = useAppStore(selectTimeZone);
  const startOfDay = useAppStore((s) => s.workweek?.start_of_day_local_time ?? "00:00");
  const view = review.view;
  const count = view === "members" ? members.length : rows.length;
  const panel =
    review.form.kind === "none"
      ? 0
      : review.form.kind === "edit"
        ? formHeight(EDIT_FIELDS, true)
        : review.form.kind === "range"
          ? formHeight(RANGE_FIELDS, false)
          : formHeight(EXPORT_FIELDS, true);
  const listHeight = Math.max(3, height - 2 - panel);
  const [list, onList, select] = useList(count, listHeight - 1);
  const columns = useMemo(() => shiftColumns(tz), [tz]);
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
        <ColumnList
          columns={MEMBER_COLUMNS}
          rows={members}
          state={list}
          height={listHeight}
          width={width}
          rowKey={(m) => m.memberId}
          empty="No shifts in these workdays."
        />
      ) : (
        <ColumnList
          columns={columns}
          rows={rows}
          state={list}
          height={listHeight}
          width={width}
          rowKey={(r, i) => r.shift.id ?? String(i)}
          empty="No shifts."
        />
      )}
      {review.form.kind === "range" ? <RangeForm /> : null}
      {review.form.kind === "export" ? <ExportForm /> : null}
      {review.form.kind === "edit" ? <EditShiftForm shiftId={review.form.shiftId} /> : null}
    </Box>
  );
}

const RANGE_FIELDS: FieldSpec[] = [
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

const EXPORT_FIELDS: FieldSpec[] = [{ name: "path", label: "Write CSV to" }];

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

const EDIT_FIELDS: FieldSpec[] = [
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
      title="Edit shift times"
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
