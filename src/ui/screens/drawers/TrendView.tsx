import { Box } from "ink";
import { useMemo } from "react";
import stringWidth from "string-width";
import { type DayOverShort, overShortWord } from "../../../domain/cash-drawers.js";
import { chartDateLabels, overShortChart } from "../../../domain/cash-drawers-chart.js";
import { formatAmount, formatSigned } from "../../../domain/money.js";
import type { Currency } from "../../../spec/generated/types.js";
import { type LoadedState, selectLocation, useLoadedStore } from "../../../state/index.js";
import { ColumnList } from "../../components/ColumnList.js";
import { segmentsThatFit, wrapSegments } from "../../components/columns.js";
import { Txt } from "../../components/Txt.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { closerColumns, dayName, differenceColumns, overShortColor } from "./columns.js";
import { trendCursor } from "./commands.js";
import { drawersFormHeight, OpenForm } from "./forms.js";

type Chart = ReturnType<typeof overShortChart>;

/** The chart's rows with their scale in the gutter, the picked day inverted, and the date labels. */
function TrendChart({
  chart,
  dates,
  cursor,
  currency,
}: {
  chart: Chart;
  dates: string[];
  cursor: number;
  currency: Currency;
}) {
  const theme = useTheme();
  const gutter = TREND_GUTTER;
  const scale = chart.unit * chart.rowsPerSide;
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
  const at = cursor * chart.cellWidth;
  // Each line is a height on the chart: rows above the zero line are overs, below it shorts.
  const colorOf = (i: number, picked: boolean) =>
    i < chart.axisLine ? theme.good : i === chart.axisLine ? (picked ? theme.accent : theme.muted) : theme.bad;
  return (
    <>
      {chart.lines
        .map((line, i) => ({ line, i, level: chart.axisLine - i }))
        .map(({ line, i, level }) => (
          <Txt key={`level${level}`} wrap="truncate-end">
            <Txt color={theme.muted}>{gutterText(i)}</Txt>
            <Txt color={colorOf(i, false)}>{line.slice(0, at)}</Txt>
            <Txt inverse color={colorOf(i, true)}>
              {line.slice(at, at + chart.cellWidth)}
            </Txt>
            <Txt color={colorOf(i, false)}>{line.slice(at + chart.cellWidth)}</Txt>
          </Txt>
        ))}
      <Txt color={theme.muted} wrap="truncate-end">
        {" ".repeat(gutter)}
        {chartDateLabels(dates, chart.cellWidth)}
      </Txt>
    </>
  );
}

/** The picked day's line: its counts, over, short and net, each part whole or left out. */
function TrendDay({ day, currency, width }: { day: DayOverShort | undefined; currency: Currency; width: number }) {
  const theme = useTheme();
  if (!day) return <Txt> </Txt>;
  const parts: { text: string; color?: string | undefined }[] = [
    ...(day.counted
      ? [
          { text: `over ${formatSigned(day.over, currency)}`, color: day.over ? theme.good : undefined },
          { text: `short ${formatAmount(day.short, currency)}`, color: day.short ? theme.bad : undefined },
          {
            text: `net ${formatSigned(day.net, currency)} ${overShortWord(day.net)}`,
            color: overShortColor(day.net, theme),
          },
        ]
      : []),
    { text: "←/→ day · enter opens it", color: theme.muted },
  ];
  const head = `${dayName(day.date)}: ${day.counted} counted`;
  const kept = segmentsThatFit([head, ...parts.map((p) => p.text)], width - 1) - 1;
  return (
    <Txt>
      <Txt bold>{head}</Txt>
      {parts.slice(0, kept).map((part) => (
        <Txt key={part.text} color={part.color}>
          {" · "}
          {part.text}
        </Txt>
      ))}
    </Txt>
  );
}

/** Under the chart: the largest differences of the 30 days, and the totals by who closed. */
function TrendLists({
  trend,
  height,
  width,
}: {
  trend: NonNullable<LoadedState["drawers"]["trend"]>;
  height: number;
  width: number;
}) {
  const names = useLoadedStore((s) => s.drawers.names);
  const currency: Currency = trend.rows[0]?.currency ?? "USD";
  const half = Math.floor((width - 1) / 2);
  const diffColumns = useMemo(() => differenceColumns(names), [names]);
  const closerCols = useMemo(() => closerColumns(names, currency), [names, currency]);
  return (
    <Box flexDirection="row">
      <Box flexDirection="column" width={half} flexShrink={0}>
        <Txt bold>Largest differences</Txt>
        <ColumnList
          columns={diffColumns}
          rows={trend.largest}
          state={{ cursor: -1, offset: 0 }}
          height={height}
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
          height={height}
          width={width - half}
          rowKey={(c) => c.teamMemberId ?? "(none)"}
          empty="No drawer was counted."
        />
      </Box>
    </Box>
  );
}

/** Cells left of the chart for its scale. */
const TREND_GUTTER = 10;

export function TrendView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const formKind = useLoadedStore((s) => s.drawers.form.kind);
  const trend = useLoadedStore((s) => s.drawers.trend);
  const location = useLoadedStore(selectLocation);
  const days = trend?.daily ?? [];
  const cursor = useLoadedStore(trendCursor);
  const currency: Currency = trend?.rows[0]?.currency ?? "USD";
  const cellWidth = width - TREND_GUTTER >= days.length * 2 ? 2 : 1;
  const formRows = drawersFormHeight(formKind);
  // Title, date labels and the day's line, then the lists under the chart: at least a header and four rows.
  const listsMin = 7;
  const rowsPerSide = Math.max(1, Math.min(6, Math.floor((height - 4 - listsMin - formRows) / 2)));
  const chart = useMemo(() => overShortChart(days, rowsPerSide, cellWidth), [days, rowsPerSide, cellWidth]);
  const listHeight = Math.max(3, height - 3 - chart.lines.length - formRows);
  if (!trend) {
    return (
      <Box flexDirection="column" width={width}>
        <Txt bold>{location?.name ?? ""} · over/short, last 30 days</Txt>
        <Txt color={theme.muted}>Reading 30 days of drawers…</Txt>
      </Box>
    );
  }
  // Whole parts only on the title: on a narrow terminal the last ones go.
  const title =
    wrapSegments([location?.name ?? "", `over/short per day, ${trend.from} to ${trend.to}`], width - 1)[0] ?? "";
  const legendParts = ["█ over ▒ short", ...(chart.unit ? [`a row ≈ ${formatAmount(chart.unit, currency)}`] : [])];
  const legend = wrapSegments(legendParts, width - 1 - stringWidth(title) - 3)[0] ?? "";
  return (
    <Box flexDirection="column" width={width}>
      <Txt>
        <Txt bold>{title}</Txt>
        <Txt color={theme.muted}>{legend ? ` · ${legend}` : ""}</Txt>
      </Txt>
      <TrendChart chart={chart} dates={days.map((x) => x.date)} cursor={cursor} currency={currency} />
      <TrendDay day={days[cursor]} currency={currency} width={width} />
      <TrendLists trend={trend} height={listHeight - 1} width={width} />
      <OpenForm />
    </Box>
  );
}
