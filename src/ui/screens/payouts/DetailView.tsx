import { Box } from "ink";
import { useMemo } from "react";
import { localDateTime } from "../../../domain/cash-drawers.js";
import { formatMoney } from "../../../domain/money.js";
import { keptWords, maskDestination, payoutStatusWord } from "../../../domain/payouts.js";
import { plural } from "../../../domain/plural.js";
import { useLoadedStore } from "../../../state/index.js";
import { detailSummary } from "../../../state/screens.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { wrapLines } from "../../components/columns.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { entryColumns, groupColumns, statusColor } from "./columns.js";
import { LISTS, payoutsRows } from "./commands.js";
import { OpenForm, payoutsFormHeight } from "./forms.js";

const NO_IDS: readonly string[] = [];
/** Most entry types shown in the groups table; more are summed into the total anyway. */
const MAX_GROUP_ROWS = 6;

/** One payout: what it is, its entries by type with the check of their net, then every entry. */
export function DetailView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const detail = useLoadedStore((s) => s.payouts.detail);
  const formKind = useLoadedStore((s) => s.payouts.form.kind);
  const from = useLoadedStore((s) => s.payouts.detailFrom);
  const zone = useLoadedStore(
    (s) => s.locations.find((l) => l.id === s.payouts.detail?.payout?.location_id)?.timezone ?? "UTC",
  );
  const ids = useLoadedStore((s) => payoutsRows(s)?.ids ?? NO_IDS);
  const summary = useMemo(() => (detail ? detailSummary({ detail }) : undefined), [detail]);
  const groups = useMemo(() => {
    if (!summary || summary.breakdown.total.count === 0) return [];
    const c = summary.breakdown.currency;
    const shown = summary.breakdown.groups.slice(0, MAX_GROUP_ROWS).map((g) => ({ ...g, currency: c }));
    const t = summary.breakdown.total;
    return [...shown, { type: "TOTAL", words: "total", ...t, currency: c }];
  }, [summary]);
  const groupsHeight = groups.length + 2;
  const currency = detail?.payout?.amount_money?.currency ?? summary?.breakdown.currency ?? "USD";
  const fine = `✓ The entries add up to the payout. ${keptWords(detail?.entries ?? [], currency)}`;
  // A difference, and at 60 columns the check that they add up, is said whole: it may take two lines.
  const fineLines = wrapLines(fine, width, 2);
  const checkRows = summary?.problem ? 2 : summary?.checked && !detail?.stopped ? fineLines.length : 1;
  const listHeight = Math.max(3, height - 2 - checkRows - groupsHeight - payoutsFormHeight(formKind));
  const list = useListWindow(LISTS.detail, ids, listRows(listHeight));
  const columns = useMemo(() => entryColumns(zone), [zone]);
  if (!detail) return null;
  const p = detail.payout;
  const check = detail.stopped ? (
    <Txt color={theme.bad} wrap="truncate-end">
      {plural(detail.entries.length, "entry", "entries")} read before the service stopped answering: r reads them again.
    </Txt>
  ) : !summary?.checked ? (
    <Txt color={theme.muted} wrap="truncate-end">
      Reading the entries… {detail.entries.length} so far; the check against the payout waits for the last.
    </Txt>
  ) : summary.problem ? (
    <Box height={2} overflow="hidden">
      <Txt color={theme.bad}>≠ {summary.problem}</Txt>
    </Box>
  ) : (
    fineLines.map((line) => (
      <Txt key={line} color={theme.good}>
        {line}
      </Txt>
    ))
  );
  const title = `Payout ${p ? formatMoney(p.amount_money) : "…"} · ${payoutStatusWord(p?.status)} · arrives ${p?.arrival_date ?? "—"}`;
  const back = ` · esc back to the ${from === "reconcile" ? "reconciliation" : "list"}`;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>Payout {p ? formatMoney(p.amount_money) : "…"}</Txt>
        <Txt color={statusColor(p?.status, theme)}> · {payoutStatusWord(p?.status)}</Txt>
        <Txt> · arrives {p?.arrival_date ?? "—"}</Txt>
        {/* A hint is whole or left out: esc works all the same. */}
        {title.length + back.length <= width ? <Txt color={theme.muted}>{back}</Txt> : null}
      </Txt>
      <Txt color={theme.muted} wrap="truncate-end">
        {maskDestination(p?.destination)} · ref {p?.end_to_end_id ?? "—"} · created {localDateTime(p?.created_at, zone)}{" "}
        · {detail.payoutId}
      </Txt>
      <ColumnList
        columns={groupColumns}
        rows={groups}
        state={{ cursor: -1, offset: 0 }}
        height={groupsHeight}
        width={width}
        rowKey={(g) => g.type}
        empty={detail.complete ? "No entries." : " "}
      />
      {check}
      <ColumnList
        columns={columns}
        rows={detail.entries}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(e) => e.id}
        empty={detail.complete ? "This payout has no entries." : "Reading the entries…"}
      />
      <OpenForm />
    </Box>
  );
}
