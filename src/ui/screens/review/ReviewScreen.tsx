import { Box } from "ink";
import { useMemo } from "react";
import stringWidth from "string-width";
import { onField } from "../../../domain/form-problem.js";
import { formatMoney } from "../../../domain/money.js";
import { describeOvertime } from "../../../domain/overtime.js";
import { plural } from "../../../domain/plural.js";
import { addToTotals, emptyPayTotals, type PayTotals } from "../../../domain/review.js";
import { describePayPeriod, formatHours, localDate, localTime } from "../../../domain/time.js";
import {
  exportProblem,
  selectReviewMembers,
  selectReviewRows,
  selectTimeZone,
  shiftTimesInputOf,
  useLoadedStore,
  useLoadedStoreApi,
  useShallow,
} from "../../../state/index.js";
import { type ReviewSpanKind, zoneOfShift } from "../../../state/screens.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { firstThatFits, wrapSegments } from "../../components/columns.js";
import { FilterLine } from "../../components/FilterLine.js";
import { FormView, formHeight } from "../../components/FormView.js";
import type { FieldSpec } from "../../components/form.js";
import { NotReadYet } from "../../components/NotRead.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { shiftTimesFields, shiftTimesFrom } from "../shift-times.js";
import { memberColumns, shiftColumns } from "./columns.js";

/** The review's title: the pay period, the workweek, or the workdays it shows. */
export function reviewTitle(r: { from: string; to: string; span: ReviewSpanKind }): string {
  if (r.span === "pay-period") return `Pay period ${r.from} → ${r.to}`;
  if (r.span === "week") return `Week ${r.from} → ${r.to}`;
  return r.from === r.to ? `Workday ${r.from || "…"}` : `Workdays ${r.from} → ${r.to}`;
}

/** Some totals in two lines: shifts, paid hours and cost; then regular and overtime apart. */
export function totalsText(t: PayTotals): [string, string] {
  const noWage = t.noWageShifts ? ` · ${t.noWageShifts} without wage, not costed` : "";
  return [
    `Total: ${plural(t.shifts, "shift")} · paid ${formatHours(t.paidHours)} h · cost ${formatMoney(t.cost)}${noWage}`,
    `Regular ${formatHours(t.regularHours)} h, ${formatMoney(t.regularCost)} · overtime ${formatHours(t.overtimeHours)} h, ${formatMoney(t.overtimeCost)}`,
  ];
}

/** The workday review: per member totals, then each shift; edit times and breaks, delete, export CSV. */
export function ReviewScreen({ height, width }: ScreenProps) {
  const theme = useTheme();
  const review = useLoadedStore((s) => s.review);
  const members = useLoadedStore(selectReviewMembers);
  const rows = useLoadedStore(selectReviewRows);
  const view = review.view;
  const listHeight = Math.max(3, height - 4 - panelHeight(review.form.kind));
  const ids = useMemo(
    () => (view === "members" ? members.map((m) => m.memberId) : rows.map((r, i) => r.shift.id ?? String(i))),
    [view, members, rows],
  );
  const list = useListWindow(view === "members" ? "review.members" : "review.shifts", ids, listRows(listHeight));
  const rules = review.overtime;
  const keptIds = useLoadedStore((s) => s.review.keptIds);
  const kept = useMemo(() => new Set(keptIds), [keptIds]);
  const result = review.result;
  const allStores = result !== undefined && result.locationId === undefined;
  const locations = useLoadedStore((s) => s.locations);
  const names = useMemo(() => new Map(locations.map((l) => [l.id ?? "", l.name ?? ""] as const)), [locations]);
  const nameOfStore = useMemo(() => (id: string) => names.get(id) ?? id, [names]);
  const columns = useMemo(
    () => shiftColumns(rules, allStores ? nameOfStore : undefined, kept),
    [rules, allStores, nameOfStore, kept],
  );
  const mColumns = useMemo(() => memberColumns(rules), [rules]);

  // A filter, or one member's shifts, totals what is shown.
  const partial = review.filter !== "" || (view === "shifts" && review.memberId !== undefined);
  const totals = result ? totalsText(partial ? sumRows(rows) : result.totals) : undefined;
  return (
    <Box flexDirection="column" width={width}>
      <ReviewTitle width={width} allStores={allStores} nameOfStore={nameOfStore} />
      <Txt color={theme.muted} wrap="truncate-end">
        {describeOvertime(rules)} · pay period {describePayPeriod(review.payPeriod)}
      </Txt>
      {totals ? (
        <>
          <Txt wrap="truncate-end">{totals[0]}</Txt>
          <Txt wrap="truncate-end">{totals[1]}</Txt>
        </>
      ) : (
        <Box height={2}>
          <NotReadYet what="the shifts" loading="No shifts loaded." />
        </Box>
      )}
      {view === "members" ? (
        <ColumnList
          columns={mColumns}
          rows={members}
          state={list}
          height={listHeight}
          width={width}
          rowKey={(m) => m.memberId}
          empty={review.filter ? `No one matches "${review.filter}".` : result ? "No shifts in these workdays." : ""}
        />
      ) : (
        <ColumnList
          columns={columns}
          rows={rows}
          state={list}
          height={listHeight}
          width={width}
          rowKey={(r, i) => r.shift.id ?? String(i)}
          empty={result ? "No shifts." : ""}
        />
      )}
      {review.form.kind === "filter" ? <ReviewFilter /> : null}
      {review.form.kind === "range" ? <RangeForm /> : null}
      {review.form.kind === "export" ? <ExportForm path={review.form.path} summary={review.form.summary} /> : null}
      {review.form.kind === "edit" ? <EditShiftForm shiftId={review.form.shiftId} /> : null}
    </Box>
  );
}

/** Rows the form open under the list takes. */
function panelHeight(kind: string): number {
  if (kind === "none") return 0;
  if (kind === "filter") return 1;
  if (kind === "edit") return formHeight(shiftTimesFields([], ""), true);
  return kind === "range" ? formHeight(RANGE_FIELDS, false) : formHeight(EXPORT_FIELDS, true);
}

/**
 * The title line: the span, all locations, the member (and their hours at the other stores,
 * which count toward their overtime here), the filter, and when days start.
 */
function ReviewTitle({
  width,
  allStores,
  nameOfStore,
}: {
  width: number;
  allStores: boolean;
  nameOfStore: (id: string) => string;
}) {
  const theme = useTheme();
  const review = useLoadedStore((s) => s.review);
  const members = useLoadedStore(selectReviewMembers);
  const tz = useLoadedStore(selectTimeZone);
  const startOfDay = useLoadedStore((s) => s.workweek?.start_of_day_local_time ?? "00:00");
  const title = reviewTitle(review);
  const member = members.find((m) => m.memberId === review.memberId);
  const room = width - 1 - stringWidth(title) - 3;
  const who = review.view === "shifts" ? (member?.memberName ?? "all members") : "";
  // The member's hours elsewhere in fewer words when the line is short: the figures stay whole.
  const elsewhere = member?.elsewhere ?? [];
  const whoAndElsewhere =
    who && member && elsewhere.length > 0
      ? firstThatFits(
          [
            `${who} · also ${elsewhere.map((e) => `${formatHours(e.hours)} h at ${nameOfStore(e.locationId)}`).join(", ")} (counted toward overtime)`,
            `${who} · also ${elsewhere.map((e) => `${formatHours(e.hours)} h at ${nameOfStore(e.locationId)}`).join(", ")}`,
            `${who} · +${formatHours(elsewhere.reduce((sum, e) => sum + e.hours, 0))} h elsewhere`,
            `${who} +${formatHours(elsewhere.reduce((sum, e) => sum + e.hours, 0))} h elsewhere`,
            who,
          ],
          room,
        )
      : who;
  return (
    <Txt wrap="truncate-end">
      <Txt bold>{title}</Txt>
      <Txt color={theme.muted}>
        {/* Whole parts, what is shown first: on a narrow terminal the day's start and zone go. */}
        {` · ${wrapSegments(
          [
            allStores ? "all locations" : "",
            whoAndElsewhere,
            review.filter ? `filter "${review.filter}"` : "",
            `days start ${startOfDay.slice(0, 5)} ${allStores ? "in each store's time zone" : tz}`,
          ].filter(Boolean),
          room,
        ).join("")}`}
      </Txt>
    </Txt>
  );
}

/** The totals of the rows a filter leaves. */
function sumRows(rows: ReturnType<typeof selectReviewRows>): PayTotals {
  const t = emptyPayTotals(rows.find((r) => r.cost)?.cost?.total.currency ?? "USD");
  for (const r of rows) addToTotals(t, r);
  return t;
}

/** The `/` filter line of the review: by member name. */
function ReviewFilter() {
  const store = useLoadedStoreApi();
  const filter = useLoadedStore((s) => s.review.filter);
  return (
    <FilterLine
      field="filter"
      value={filter}
      what="member name"
      onChange={(text) => store.getState().setReviewFilter(text)}
      onDone={() => store.getState().openReviewForm({ kind: "none" })}
    />
  );
}

const RANGE_FIELDS: FieldSpec[] = [
  { name: "from", label: "From", hint: "YYYY-MM-DD" },
  { name: "to", label: "To", hint: "YYYY-MM-DD" },
];

function RangeForm() {
  const store = useLoadedStoreApi();
  const { from, to } = useLoadedStore(useShallow((s) => ({ from: s.review.from, to: s.review.to })));
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

const EXPORT_FIELDS: FieldSpec[] = [
  { name: "path", label: "Write CSV to" },
  { name: "summary", label: "Weekly summary", hint: "y: also <file>-summary.csv, per member per week" },
];

function ExportForm({ path: given, summary: asked }: { path?: string | undefined; summary?: boolean | undefined }) {
  const store = useLoadedStoreApi();
  const rows = useLoadedStore((s) => s.review.result?.rows.length ?? 0);
  const submit = async (v: Record<string, string>) => {
    const answer = (v.summary ?? "").trim().toLowerCase();
    if (!["", "y", "yes", "n", "no"].includes(answer)) return onField("Weekly summary is y or n.", "summary");
    // A file already there is asked about in the one confirmation; the form has closed by then.
    const written = await store.getState().exportReview(v.path ?? "", { summary: answer.startsWith("y") });
    return written.ok ? undefined : exportProblem(written.error);
  };
  return (
    <FormView
      title={`Export ${plural(rows, "shift")} as CSV`}
      note="A file already there is replaced only if you say so."
      fields={EXPORT_FIELDS}
      initial={{ path: given ?? store.getState().exportPath(), summary: asked ? "y" : "n" }}
      onSubmit={submit}
      onCancel={() => store.getState().openReviewForm({ kind: "none" })}
    />
  );
}

function EditShiftForm({ shiftId }: { shiftId: string }) {
  const theme = useTheme();
  const store = useLoadedStoreApi();
  const shift = useLoadedStore((s) => s.review.shifts.find((x) => x.id === shiftId));
  const conflict = useLoadedStore((s) => s.review.conflict);
  const who = useLoadedStore((s) => s.review.result?.rows.find((r) => r.shift.id === shiftId)?.memberName ?? "");
  const types = useLoadedStore(useShallow((s) => s.breakTypes.items.map((t) => t.break_name)));
  const fields = useMemo(() => shiftTimesFields(types, "empty: still open"), [types]);
  // The shift's own store's zone: a review of all locations edits shifts of stores in other zones.
  const tz = useLoadedStore((s) => (shift ? zoneOfShift(s, shift) : selectTimeZone(s)));
  if (!shift) return null;
  const theirs = conflict?.theirs;
  const mine = conflict ? ({ ...conflict.mine } as unknown as Record<string, string>) : undefined;
  return (
    <FormView
      title={`Edit ${who ? `${who}'s` : "the"} shift of ${localDate(shift.start_at, tz)}`}
      resetKey={`${shift.version ?? ""}`}
      {...(mine ? { resetValues: mine } : {})}
      note={
        theirs ? (
          <Txt color={theme.warn} wrap="truncate-end">
            Someone else changed it first: now {localTime(theirs.start_at, tz)}–
            {theirs.end_at ? localTime(theirs.end_at, tz) : "open"}. Your values are kept: enter saves them over it.
          </Txt>
        ) : (
          `Break types here: ${types.join(", ") || "none"}.`
        )
      }
      fields={fields}
      initial={{ ...(shiftTimesInputOf(shift, tz) as unknown as Record<string, string>) }}
      onSubmit={(v) => store.getState().editShiftTimes(shiftId, shiftTimesFrom(v))}
      onCancel={() => store.getState().openReviewForm({ kind: "none" })}
    />
  );
}
