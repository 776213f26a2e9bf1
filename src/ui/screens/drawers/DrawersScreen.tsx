import { Box } from "ink";
import { useMemo } from "react";
import stringWidth from "string-width";
import {
  chartDateLabels,
  type DrawerTotals,
  eventTimeline,
  filterTimeline,
  localDateTime,
  overShortChart,
  overShortWord,
  reconcileShift,
} from "../../../domain/cash-drawers.js";
import { formatAmount, formatSigned } from "../../../domain/money.js";
import { parseDate } from "../../../domain/time.js";
import type { Currency } from "../../../spec/generated/types.js";
import { selectLocation, selectTimeZone, useAppStore } from "../../../state/index.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { segmentsThatFit, wrapLines, wrapSegments } from "../../components/columns.js";
import { StaticTable } from "../../components/StaticTable.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { closerColumns, dayColumns, differenceColumns, eventColumns, overShortColor } from "./columns.js";
import { EVENTS_PANE, trendCursor } from "./commands.js";
import { DrawersExportForm, DrawersRangeForm, drawersFormHeight, EventFilterPicker } from "./forms.js";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** `Mon 2026-06-15`. */
function dayName(date: string): string {
  const d = parseDate(date);
  if (!d) return date;
  return `${WEEKDAYS[new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay()]} ${date}`;
}

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
      `Totals: ${t.shifts} shift${t.shifts === 1 ? "" : "s"}, ${t.countedShifts} counted`,
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

/** Cash drawers: the day's shifts with their over/short, one shift in detail, and the trend. */
export function DrawersScreen(props: ScreenProps) {
  const view = useAppStore((s) => s.drawers.view);
  switch (view) {
    case "day":
      return <DayView {...props} />;
    case "detail":
      return <DetailView {...props} />;
    case "trend":
      return <TrendView {...props} />;
  }
}

/** The form under the current view, when one is open. */
function OpenForm() {
  const form = useAppStore((s) => s.drawers.form);
  if (form.kind === "range") return <DrawersRangeForm />;
  if (form.kind === "export") return <DrawersExportForm what={form.what} />;
  if (form.kind === "filter") return <EventFilterPicker />;
  return null;
}

function DayView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const d = useAppStore((s) => s.drawers);
  const tz = useAppStore(selectTimeZone);
  const location = useAppStore(selectLocation);
  const day = d.day;
  const rows = day?.rows ?? [];
  const totals = day ? totalsLines(day.totals, width - 1) : [];
  const formRows = drawersFormHeight(d.form.kind);
  const legend = wrapLines(LEGEND, width - 1, 2);
  const listHeight = Math.max(3, height - 1 - legend.length - Math.max(1, totals.length) - formRows);
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
          <Txt color={theme.muted}>Reading the drawers…</Txt>
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

function DetailView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const d = useAppStore((s) => s.drawers);
  const tz = useAppStore(selectTimeZone);
  const detail = d.detail;
  const shift = detail?.shift;
  const currency: Currency = shift?.opened_cash_money?.currency ?? "USD";
  const pane = useAppStore((s) => (s.flags[EVENTS_PANE] ? "events" : "reconciliation"));
  const timeline = useMemo(
    () => (shift ? eventTimeline(shift.opened_cash_money, detail?.events ?? []) : []),
    [shift, detail?.events],
  );
  const shown = useMemo(() => filterTimeline(timeline, new Set(d.filter)), [timeline, d.filter]);
  const rec = useMemo(
    () => (shift ? reconcileShift(shift, detail?.complete ? detail.events : undefined) : undefined),
    [shift, detail?.complete, detail?.events],
  );
  // Side by side on a wide terminal; else one pane at a time (v switches).
  const side = width >= 110;
  const formOpen = d.form.kind !== "none";
  const room = height - drawersFormHeight(d.form.kind);
  const full = tableHeight(8);
  // The sentence about a mismatch when there is room; the table's ≠ marks say it anyway.
  const sentence = rec?.mismatch !== undefined && room >= 4 + full;
  const head = 3 + (sentence ? 1 : 0);
  // The whole reconciliation in the table when it fits; else counted and over/short on a line under it.
  const fullTable = room - head >= full;
  const listHeight = Math.max(3, room - head);
  const keys = useMemo(() => shown.map((e, i) => e.id || String(i)), [shown]);
  const list = useListWindow("drawers.events", keys, listRows(listHeight));
  const columns = useMemo(() => eventColumns(d.names, tz, currency), [d.names, tz, currency]);

  if (!detail) return null;
  const who = (id: string | undefined) => (id ? (d.names.get(id) ?? id) : "—");
  // A time on the day the shift opened reads as HH:MM; another day's with its date.
  const openedOn = shift?.opened_at ? localDateTime(shift.opened_at, tz).slice(0, 10) : "";
  const at = (iso: string | undefined) => {
    if (!iso) return "—";
    const local = localDateTime(iso, tz);
    return local.startsWith(openedOn) ? local.slice(11) : local.slice(5);
  };
  const stateFlag = shift?.state === "OPEN" ? "still open" : shift?.state === "ENDED" ? "ended, not counted" : "";
  const filterText = d.filter.length ? d.filter.join(", ") : "all types";
  const eventsTitle = `Events ${shown.length}${d.filter.length ? ` of ${timeline.length}` : ""} (${filterText})${detail.complete ? "" : " · reading…"}`;
  const money = (n: number | undefined, signed = false) =>
    n === undefined ? "—" : signed ? formatSigned(n, currency) : formatAmount(n, currency);

  const table = rec ? (
    <Box flexDirection="column">
      <StaticTable
        data={(fullTable ? rec.lines : rec.lines.slice(0, 6)).map((l) => ({
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
      {fullTable ? null : (
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
  ) : (
    <Txt color={theme.muted}>Reading the shift…</Txt>
  );
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
      <Txt wrap="truncate-end">
        <Txt bold>{shift?.description ?? detail.shiftId}</Txt>
        <Txt color={shift?.state === "CLOSED" ? undefined : theme.warn}>
          {" "}
          · {shift?.state ?? "…"}
          {stateFlag ? ` ! ${stateFlag}` : ""}
        </Txt>
        {rec?.mismatch ? <Txt color={theme.bad}> · ≠ events disagree</Txt> : null}
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
      {sentence && rec?.mismatch ? (
        <Txt wrap="truncate-end" color={theme.bad}>
          ≠ The events add up to {formatAmount(rec.mismatch.fromEvents, currency)}, not the{" "}
          {formatAmount(rec.mismatch.reported, currency)} the shift reports as expected (
          {formatSigned(-rec.mismatch.difference, currency)}).
        </Txt>
      ) : null}
      <Txt color={theme.muted}>
        {wrapSegments(
          side
            ? ["Reconciliation", eventsTitle, "f filter", "p paid outs and no sales", "esc back"]
            : [
                pane === "reconciliation" ? "[Reconciliation]" : "Reconciliation",
                pane === "events" ? `[${eventsTitle}]` : eventsTitle,
                "v switch",
                "esc back",
              ],
          width - 1,
        ).join("")}
      </Txt>
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

function TrendView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const d = useAppStore((s) => s.drawers);
  const location = useAppStore(selectLocation);
  const trend = d.trend;
  const days = trend?.daily ?? [];
  const cursor = useAppStore(trendCursor);
  const currency: Currency = trend?.rows[0]?.currency ?? "USD";
  const gutter = 10;
  const cellWidth = width - gutter >= days.length * 2 ? 2 : 1;
  const formRows = drawersFormHeight(d.form.kind);
  // Title, date labels and the day's line, then the lists under the chart: at least a header and four rows.
  const listsMin = 7;
  const rowsPerSide = Math.max(1, Math.min(6, Math.floor((height - 4 - listsMin - formRows) / 2)));
  const chart = useMemo(() => overShortChart(days, rowsPerSide, cellWidth), [days, rowsPerSide, cellWidth]);
  const listHeight = Math.max(3, height - 3 - chart.lines.length - formRows);
  const half = Math.floor((width - 1) / 2);
  const diffColumns = useMemo(() => differenceColumns(d.names), [d.names]);
  const closerCols = useMemo(() => closerColumns(d.names, currency), [d.names, currency]);
  if (!trend) {
    return (
      <Box flexDirection="column" width={width}>
        <Txt bold>{location?.name ?? ""} · over/short, last 30 days</Txt>
        <Txt color={theme.muted}>Reading 30 days of drawers…</Txt>
      </Box>
    );
  }
  const sel = days[cursor];
  const scale = chart.unit * chart.rowsPerSide;
  // Whole parts only on the title and the day's line: on a narrow terminal the last ones go.
  const titleParts = [location?.name ?? "", `over/short per day, ${trend.from} to ${trend.to}`];
  const title = wrapSegments(titleParts, width - 1)[0] ?? "";
  const legendParts = ["█ over ▒ short", ...(chart.unit ? [`a row ≈ ${formatAmount(chart.unit, currency)}`] : [])];
  const legend = wrapSegments(legendParts, width - 1 - stringWidth(title) - 3)[0] ?? "";
  const dayParts: { text: string; color?: string | undefined }[] = sel
    ? [
        { text: `${dayName(sel.date)}: ${sel.counted} counted` },
        ...(sel.counted
          ? [
              { text: `over ${formatSigned(sel.over, currency)}`, color: sel.over ? theme.good : undefined },
              { text: `short ${formatAmount(sel.short, currency)}`, color: sel.short ? theme.bad : undefined },
              {
                text: `net ${formatSigned(sel.net, currency)} ${overShortWord(sel.net)}`,
                color: overShortColor(sel.net, theme),
              },
            ]
          : []),
        { text: "←/→ day · enter opens it", color: theme.muted },
      ]
    : [];
  const kept = segmentsThatFit(
    dayParts.map((p) => p.text),
    width - 1,
  );
  const gutterText = (i: number) => {
    const label =
      i === 0
        ? formatSigned(scale, currency)
        : i === chart.axisLine
          ? "0"
          : i === chart.lines.length - 1
            ? formatSigned(-scale, currency)
            : "";
    return `${label.padStart(gutter - 1)} `;
  };
  // Each line is a height on the chart: rows above the zero line are overs, below it shorts.
  const chartRows = chart.lines.map((line, i) => ({ line, i, level: chart.axisLine - i }));
  const at = cursor * chart.cellWidth;
  return (
    <Box flexDirection="column" width={width}>
      <Txt>
        <Txt bold>{title}</Txt>
        <Txt color={theme.muted}>{legend ? ` · ${legend}` : ""}</Txt>
      </Txt>
      {chartRows.map(({ line, i, level }) => (
        <Txt key={`level${level}`} wrap="truncate-end">
          <Txt color={theme.muted}>{gutterText(i)}</Txt>
          <Txt color={i < chart.axisLine ? theme.good : i === chart.axisLine ? theme.muted : theme.bad}>
            {line.slice(0, at)}
          </Txt>
          <Txt inverse color={i < chart.axisLine ? theme.good : i === chart.axisLine ? theme.accent : theme.bad}>
            {line.slice(at, at + chart.cellWidth)}
          </Txt>
          <Txt color={i < chart.axisLine ? theme.good : i === chart.axisLine ? theme.muted : theme.bad}>
            {line.slice(at + chart.cellWidth)}
          </Txt>
        </Txt>
      ))}
      <Txt color={theme.muted} wrap="truncate-end">
        {" ".repeat(gutter)}
        {chartDateLabels(
          days.map((x) => x.date),
          chart.cellWidth,
        )}
      </Txt>
      <Txt>
        {sel ? (
          <>
            <Txt bold>
              {dayName(sel.date)}: {sel.counted} counted
            </Txt>
            {dayParts.slice(1, kept).map((part) => (
              <Txt key={part.text} color={part.color}>
                {" · "}
                {part.text}
              </Txt>
            ))}
          </>
        ) : null}
      </Txt>
      <Box flexDirection="row">
        <Box flexDirection="column" width={half} flexShrink={0}>
          <Txt bold>Largest differences</Txt>
          <ColumnList
            columns={diffColumns}
            rows={trend.largest}
            state={{ cursor: -1, offset: 0 }}
            height={listHeight - 1}
            width={half - 1}
            rowKey={(r) => r.id}
            empty="Every drawer counted exactly."
          />
        </Box>
        <Box flexDirection="column" width={width - half} flexShrink={0}>
          <Txt bold>By who closed</Txt>
          <ColumnList
            columns={closerCols}
            rows={trend.closers}
            state={{ cursor: -1, offset: 0 }}
            height={listHeight - 1}
            width={width - half}
            rowKey={(c) => c.teamMemberId ?? "(none)"}
            empty="No drawer was counted."
          />
        </Box>
      </Box>
      <OpenForm />
    </Box>
  );
}
