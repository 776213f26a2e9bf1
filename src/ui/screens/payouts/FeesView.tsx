import { Box } from "ink";
import { useMemo } from "react";
import { formatMoney } from "../../../domain/money.js";
import { formatRate } from "../../../domain/payouts.js";
import { partOf, plural } from "../../../domain/plural.js";
import { selectedIndex, useLoadedStore } from "../../../state/index.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { barCellWidth, feeChartLines, weekLabels } from "./chart.js";
import { feeColumns } from "./columns.js";
import { LISTS, payoutsRows, whereWords } from "./commands.js";
import { OpenForm, payoutsFormHeight } from "./forms.js";

const NO_IDS: readonly string[] = [];
/** Columns left of the bars: the largest week's fees. */
const GUTTER = 11;

/** Fees over time: per week, the fees and the effective rate, as a bar chart and as a table. */
export function FeesView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const p = useLoadedStore((s) => s.payouts);
  const where = useLoadedStore(whereWords);
  const currency = useLoadedStore((s) => s.payouts.payouts?.[0]?.amount_money?.currency ?? "USD");
  const ids = useLoadedStore((s) => payoutsRows(s)?.ids ?? NO_IDS);
  const cursor = useLoadedStore((s) => selectedIndex(s.selection[LISTS.fees], ids));
  const weeks = p.fees?.weeks;
  const formRows = payoutsFormHeight(p.form.kind);
  // The chart gets a third of the room, 2 to 6 rows; the table the rest (at least its header and 3 weeks).
  const chartRows = Math.max(2, Math.min(6, Math.floor((height - 4 - formRows) / 3)));
  const listHeight = Math.max(3, height - 4 - chartRows - formRows);
  const list = useListWindow(LISTS.fees, ids, listRows(listHeight));
  const columns = useMemo(() => feeColumns(currency), [currency]);
  const cell = barCellWidth(weeks?.length ?? 0, width - GUTTER);
  const lines = useMemo(
    () =>
      feeChartLines(
        (weeks ?? []).map((w) => w.fees),
        chartRows,
        cell,
      ),
    [weeks, chartRows, cell],
  );
  const totals = useMemo(() => {
    const fees = (weeks ?? []).reduce((sum, w) => sum + w.fees, 0);
    const gross = (weeks ?? []).reduce((sum, w) => sum + w.chargesGross, 0);
    return { fees, gross, rate: gross > 0 ? fees / gross : undefined };
  }, [weeks]);
  const max = Math.max(0, ...(weeks ?? []).map((w) => w.fees));
  const title = (
    <Txt wrap="truncate-end">
      <Txt bold>{where} · fees per week</Txt>
      <Txt>
        {" "}
        · payouts created {p.filters.from} → {p.filters.to}
      </Txt>
      <Txt color={theme.muted}> · paid and in transit · esc back</Txt>
    </Txt>
  );
  if (!weeks) {
    const f = p.fees;
    return (
      <Box flexDirection="column" width={width}>
        {title}
        <Txt color={f?.stopped ? theme.bad : theme.muted}>
          {!f
            ? "Reading the payouts…"
            : f.stopped
              ? `The entries of ${partOf(f.total - f.done, f.total, "payout")} could not be read: r reads them again.`
              : `Reading the entries of ${plural(f.total, "payout")}… ${f.done} done.`}
        </Txt>
        <OpenForm />
      </Box>
    );
  }
  const at = cursor * cell;
  return (
    <Box flexDirection="column" width={width}>
      {title}
      {lines
        .map((line, i) => ({ line, top: i === 0, level: chartRows - i }))
        .map(({ line, top, level }) => (
          <Txt key={`level${level}`} wrap="truncate-end">
            <Txt color={theme.muted}>
              {(top ? formatMoney({ amount: max, currency }).replace(` ${currency}`, "") : "").padStart(
                GUTTER - 1,
              )}{" "}
            </Txt>
            <Txt color={theme.accent}>{line.slice(0, at)}</Txt>
            <Txt inverse>{line.slice(at, at + cell)}</Txt>
            <Txt color={theme.accent}>{line.slice(at + cell)}</Txt>
          </Txt>
        ))}
      <Txt color={theme.muted} wrap="truncate-end">
        {" ".repeat(GUTTER)}
        {weekLabels(
          weeks.map((w) => w.week),
          cell,
        )}
      </Txt>
      <ColumnList
        columns={columns}
        rows={weeks}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(w) => w.week}
        empty="No entries in this range."
      />
      <Txt wrap="truncate-end">
        Fees {formatMoney({ amount: totals.fees, currency })} on charges of{" "}
        {formatMoney({ amount: totals.gross, currency })}: <Txt bold>{formatRate(totals.rate)}</Txt>
      </Txt>
      <OpenForm />
    </Box>
  );
}
