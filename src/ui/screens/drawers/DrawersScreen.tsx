import { Box } from "ink";
import { useMemo } from "react";
import {
  type DrawerTotals,
  eventTimeline,
  filterTimeline,
  localDateTime,
  overShortWord,
  reconcileShift,
} from "../../../domain/cash-drawers.js";
import { formatAmount, formatSigned } from "../../../domain/money.js";
import { plural } from "../../../domain/plural.js";
import { addDays } from "../../../domain/time.js";
import type { Currency } from "../../../spec/generated/types.js";
import { type StillOpen, stillOpenSpan } from "../../../state/drawers-load.js";
import { selectLocation, selectTimeZone, useLoadedStore } from "../../../state/index.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { wrapLines, wrapSegments } from "../../components/columns.js";
import { NotReadYet } from "../../components/NotRead.js";
import { StaticTable } from "../../components/StaticTable.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useTheme } from "../../theme.js";
import { type ScreenProps, screenOfViews } from "../screen-def.js";
import { dayColumns, dayName, eventColumns, overShortColor } from "./columns.js";
import { EVENTS_PANE } from "./commands.js";
import { drawersFormHeight, OpenForm } from "./forms.js";
import { TrendView } from "./TrendView.js";

/** What the marks of the day's list mean: whole, on one or two lines. */
const LEGEND =
  "! needs attention (open, or ended and not counted) · ≠ events disagree with expected cash · +over -short";

/** The day's totals as the lines under the list. */
function totalsLines(t: DrawerTotals, width: number): string[] {
  const c = t.currency;
  const m = (n: number) => formatAmount(n, c);
  // The figures a manager checks first come first: on a narrow terminal the rest are cut.
  return wrapSegments(
    [
      `Totals: ${plural(t.shifts, "shift")}, ${t.countedShifts} counted`,
      `expected ${m(t.expected)}`,
      `counted ${m(t.counted)} of ${m(t.expectedOfCounted)}`,
      `net ${formatSigned(t.net, c)} ${overShortWord(t.net).toUpperCase()}`,
      `over ${formatSigned(t.over, c)}`,
      `short ${formatAmount(t.short, c)}`,
      ...(t.attention ? [`${t.attention} need attention`] : []),
      ...(t.mismatches ? [`${t.mismatches} with events that disagree`] : []),
      `opening ${m(t.opened)}`,
      `cash sales ${m(t.cashSales)}`,
      `refunds ${m(t.cashRefunds)}`,
      `paid in ${m(t.paidIn)}`,
      `paid out ${m(t.paidOut)}`,
    ],
    width,
    4,
  );
}

/**
 * The note of drawers still open from earlier days (after midnight, the evening's drawers), and
 * the key that shows them: `[` for the day before the ones shown, else the date form.
 */
export function stillOpenNote(stillOpen: readonly StillOpen[], from: string): string {
  const span = stillOpenSpan(stillOpen);
  if (!span) return "";
  const { total, first, last } = span;
  const short = (date: string) => `${dayName(date).slice(0, 4)}${date.slice(5)}`;
  const what = `${plural(total, "drawer")} still open from`;
  if (first === last) {
    return `${what} ${short(first)}: ${first === addDays(from, -1) ? "[ to see them" : "d to pick that day"}.`;
  }
  return `${what} ${short(first)} to ${short(last)}: d to pick the days.`;
}

/** Cash drawers: the day's shifts with their over/short, one shift in detail, and the trend. */
export const DrawersScreen = screenOfViews((s) => s.drawers.view, {
  day: DayView,
  detail: DetailView,
  trend: TrendView,
});

function DayView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const d = useLoadedStore((s) => s.drawers);
  const tz = useLoadedStore(selectTimeZone);
  const location = useLoadedStore(selectLocation);
  const day = d.day;
  const rows = day?.rows ?? [];
  const totals = day ? totalsLines(day.totals, width - 1) : [];
  const formRows = drawersFormHeight(d.form.kind);
  const legend = wrapLines(LEGEND, width - 1, 2);
  const note = day ? wrapLines(stillOpenNote(d.stillOpen, d.from), width - 1, 2) : [];
  const listHeight = Math.max(3, height - 1 - note.length - legend.length - Math.max(1, totals.length) - formRows);
  const keys = useMemo(() => rows.map((r) => r.id), [rows]);
  const list = useListWindow("drawers.day", keys, listRows(listHeight));
  const oneDay = d.from === d.to;
  const columns = useMemo(() => dayColumns(d.names, tz, !oneDay), [d.names, tz, oneDay]);

  const today = d.followToday ? " (today)" : "";
  const title = !d.from ? "Cash drawers" : oneDay ? dayName(d.from) + today : `${dayName(d.from)} → ${dayName(d.to)}`;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>
          {location?.name ?? "Cash drawers"} · {title}
        </Txt>
        <Txt color={theme.muted}> · {tz}</Txt>
        {day && !day.eventsChecked ? <Txt color={theme.warn}> · expected cash not checked against events</Txt> : null}
      </Txt>
      {note.map((line) => (
        <Txt key={line} color={theme.warn}>
          {line}
        </Txt>
      ))}
      {day ? (
        <ColumnList
          columns={columns}
          rows={rows}
          state={list}
          height={listHeight}
          width={width}
          rowKey={(r) => r.id}
          empty={oneDay ? "No drawer was opened on this day." : "No drawer was opened on these days."}
          dim={d.stale}
        />
      ) : (
        <Box height={listHeight}>
          <NotReadYet what="the drawers" loading="Reading the drawers…" />
        </Box>
      )}
      {totals.map((line) => (
        <Txt key={line} wrap="truncate-end">
          {line}
        </Txt>
      ))}
      {legend.map((line) => (
        <Txt key={line} color={theme.muted}>
          {line}
        </Txt>
      ))}
      <OpenForm />
    </Box>
  );
}

/** Columns the reconciliation table takes beside the events on a wide terminal. */
const SIDE_TABLE = 53;

/** Terminal rows of the reconciliation table: ink-table draws a rule between rows. */
const tableHeight = (rows: number) => 3 + 2 * rows;

/** A shift's reconciliation as the shift reports it and as its events add up; short rooms show its first lines. */
function ReconciliationTable({
  rec,
  full,
  currency,
}: {
  rec: ReturnType<typeof reconcileShift> | undefined;
  full: boolean;
  currency: Currency;
}) {
  const theme = useTheme();
  if (!rec) return <Txt color={theme.muted}>Reading the shift…</Txt>;
  const money = (n: number | undefined, signed = false) =>
    n === undefined ? "—" : signed ? formatSigned(n, currency) : formatAmount(n, currency);
  return (
    <Box flexDirection="column">
      <StaticTable
        data={(full ? rec.lines : rec.lines.slice(0, 6)).map((l) => ({
          Line: `${l.op || " "} ${l.label}`,
          Shift: money(l.shift, l.key === "difference"),
          Events: rec.fromEvents === undefined || l.events === undefined ? "" : money(l.events),
          Check: l.differs
            ? "≠ differs"
            : l.key === "difference" && l.shift !== undefined
              ? overShortWord(l.shift).toUpperCase()
              : "",
        }))}
        align={{ Shift: "right", Events: "right" }}
      />
      {full ? null : (
        <Txt wrap="truncate-end">
          {"  Counted "}
          {money(rec.counted)}
          {" · over/short "}
          <Txt color={overShortColor(rec.difference, theme)}>
            {money(rec.difference, true)}
            {rec.difference === undefined ? " (not counted)" : ` ${overShortWord(rec.difference).toUpperCase()}`}
          </Txt>
        </Txt>
      )}
    </Box>
  );
}

/** The open shift's first lines: its name and state, who opened, ended and closed it, the panes. */
function DetailHead({
  sentence,
  panes,
  mismatch,
  width,
}: {
  sentence: readonly string[];
  panes: readonly string[];
  mismatch: boolean;
  width: number;
}) {
  const theme = useTheme();
  const d = useLoadedStore((s) => s.drawers);
  const tz = useLoadedStore(selectTimeZone);
  const detail = d.detail;
  const shift = detail?.shift;
  const who = (id: string | undefined) => (id ? (d.names.get(id) ?? id) : "—");
  // A time on the day the shift opened reads as HH:MM; another day's with its date.
  const openedOn = shift?.opened_at ? localDateTime(shift.opened_at, tz).slice(0, 10) : "";
  const at = (iso: string | undefined) => {
    if (!iso) return "—";
    const local = localDateTime(iso, tz);
    return local.startsWith(openedOn) ? local.slice(11) : local.slice(5);
  };
  const stateFlag = shift?.state === "OPEN" ? "still open" : shift?.state === "ENDED" ? "ended, not counted" : "";
  return (
    <>
      <Txt wrap="truncate-end">
        <Txt bold>{shift?.description ?? detail?.shiftId}</Txt>
        <Txt color={shift?.state === "CLOSED" ? undefined : theme.warn}>
          {" "}
          · {shift?.state ?? "…"}
          {stateFlag ? ` ! ${stateFlag}` : ""}
        </Txt>
        {mismatch ? <Txt color={theme.bad}> · ≠ events disagree</Txt> : null}
      </Txt>
      <Txt color={theme.muted}>
        {wrapSegments(
          [
            `Opened ${at(shift?.opened_at)} ${who(shift?.opening_team_member_id)}`,
            `ended ${at(shift?.ended_at)} ${who(shift?.ending_team_member_id)}`,
            `closed ${at(shift?.closed_at)} ${who(shift?.closing_team_member_id)}`,
          ],
          width - 1,
        ).join("")}
      </Txt>
      {sentence.map((line) => (
        <Txt key={line} color={theme.bad}>
          {line}
        </Txt>
      ))}
      <Txt color={theme.muted}>{wrapSegments(panes, width - 1).join("")}</Txt>
    </>
  );
}

/** The open shift, its events as the filter shows them, and its reconciliation. */
function useShiftDetail() {
  const detail = useLoadedStore((s) => s.drawers.detail);
  const filter = useLoadedStore((s) => s.drawers.filter);
  const shift = detail?.shift;
  const currency: Currency = shift?.opened_cash_money?.currency ?? "USD";
  const timeline = useMemo(
    () => (shift ? eventTimeline(shift.opened_cash_money, detail?.events ?? []) : []),
    [shift, detail?.events],
  );
  const shown = useMemo(() => filterTimeline(timeline, new Set(filter)), [timeline, filter]);
  const rec = useMemo(
    () => (shift ? reconcileShift(shift, detail?.complete ? detail.events : undefined) : undefined),
    [shift, detail?.complete, detail?.events],
  );
  return { detail, currency, timeline, shown, rec };
}

/** "≠ The events add up to …, not the … the shift reports as expected (…)." on one or two lines. */
function mismatchLines(
  m: NonNullable<ReturnType<typeof reconcileShift>["mismatch"]>,
  currency: Currency,
  width: number,
): string[] {
  return wrapLines(
    `≠ The events add up to ${formatAmount(m.fromEvents, currency)}, not the ${formatAmount(m.reported, currency)} the shift reports as expected (${formatSigned(-m.difference, currency)}).`,
    width,
    2,
  );
}

function DetailView({ height, width }: ScreenProps) {
  const d = useLoadedStore((s) => s.drawers);
  const tz = useLoadedStore(selectTimeZone);
  const { detail, currency, timeline, shown, rec } = useShiftDetail();
  const pane = useLoadedStore((s) => (s.flags[EVENTS_PANE] ? "events" : "reconciliation"));
  // Side by side on a wide terminal; else one pane at a time (v switches).
  const side = width >= 110;
  const formOpen = d.form.kind !== "none";
  const room = height - drawersFormHeight(d.form.kind);
  const full = tableHeight(8);
  // The sentence about a mismatch, whole, when there is room; the table's ≠ marks say it anyway.
  const sentenceLines = rec?.mismatch && room >= 5 + full ? mismatchLines(rec.mismatch, currency, width - 1) : [];
  const head = 3 + sentenceLines.length;
  // The whole reconciliation in the table when it fits; else counted and over/short on a line under it.
  const fullTable = room - head >= full;
  const listHeight = Math.max(3, room - head);
  const keys = useMemo(() => shown.map((e, i) => e.id || String(i)), [shown]);
  const list = useListWindow("drawers.events", keys, listRows(listHeight));
  const columns = useMemo(() => eventColumns(d.names, tz, currency), [d.names, tz, currency]);

  if (!detail) return null;
  const filterText = d.filter.length ? d.filter.join(", ") : "all types";
  const eventsTitle = `Events ${shown.length}${d.filter.length ? ` of ${timeline.length}` : ""} (${filterText})${detail.complete ? "" : " · reading…"}`;
  const table = <ReconciliationTable rec={rec} full={fullTable} currency={currency} />;
  const events = (
    <ColumnList
      columns={columns}
      rows={shown}
      state={list}
      height={listHeight}
      width={side && !formOpen ? width - SIDE_TABLE : width}
      rowKey={(e, i) => e.id || String(i)}
      empty={detail.complete ? "No events of these types." : "Reading the events…"}
    />
  );
  return (
    <Box flexDirection="column" width={width}>
      <DetailHead
        sentence={sentenceLines}
        panes={
          side
            ? ["Reconciliation", eventsTitle, "f filter", "p paid outs and no sales", "esc back"]
            : [
                pane === "reconciliation" ? "[Reconciliation]" : "Reconciliation",
                pane === "events" ? `[${eventsTitle}]` : eventsTitle,
                "v switch",
                "esc back",
              ]
        }
        mismatch={rec?.mismatch !== undefined}
        width={width}
      />
      {formOpen ? (
        // A form takes the table's place: the events stay in view (the filter acts on them).
        <>
          {events}
          <OpenForm />
        </>
      ) : side ? (
        <Box flexDirection="row">
          <Box width={SIDE_TABLE} flexShrink={0}>
            {table}
          </Box>
          {events}
        </Box>
      ) : pane === "reconciliation" ? (
        table
      ) : (
        events
      )}
    </Box>
  );
}
