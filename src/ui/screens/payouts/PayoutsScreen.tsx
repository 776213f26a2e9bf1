import { Box } from "ink";
import { useMemo } from "react";
import { formatMoney } from "../../../domain/money.js";
import { missingPermissionMessage } from "../../../domain/payouts.js";
import { placeKey, useLoadedStore } from "../../../state/index.js";
import { payoutsQueryKey, rangeTotals } from "../../../state/screens.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { wrapParts } from "../../components/wrap.js";
import { useHasFocus } from "../../shell.js";
import { useTheme } from "../../theme.js";
import { type ScreenProps, screenOfViews } from "../screen-def.js";
import { payoutColumns } from "./columns.js";
import { FIND_FIELD, LISTS, payoutsRows, shownPayouts, statusWords, whereWords } from "./commands.js";
import { DetailView } from "./DetailView.js";
import { FeesView } from "./FeesView.js";
import { FindLine, OpenForm, payoutsFormHeight } from "./forms.js";
import { ReconcileView } from "./ReconcileView.js";

const NO_IDS: readonly string[] = [];

/** Payouts: the list of a range, one payout's entries, the fees over time, a statement reconciled. */
export const PayoutsScreen = screenOfViews((s) => (s.payouts.permission === "missing" ? "missing" : s.payouts.view), {
  missing: MissingPermission,
  list: ListView,
  detail: DetailView,
  fees: FeesView,
  reconcile: ReconcileView,
});

/** The range's totals as lines of at most `width` cells: paid first, then in transit, then failed. */
function totalLines(t: ReturnType<typeof rangeTotals>, width: number): string[] {
  const m = (amount: number) => formatMoney({ amount, currency: t.currency });
  return wrapParts(
    [
      `Paid ${t.paid.count} · ${m(t.paid.amount)}`,
      `in transit ${t.inTransit.count} · ${m(t.inTransit.amount)}`,
      `failed ${t.failed.count} · ${m(t.failed.amount)}`,
    ],
    width,
    "   ",
  );
}

function ListView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const p = useLoadedStore((s) => s.payouts);
  const where = useLoadedStore(whereWords);
  const status = useLoadedStore(statusWords);
  const locations = useLoadedStore((s) => s.locations);
  // All locations (the location picker's choice): a location column.
  const all = useLoadedStore((s) => s.allLocations);
  const rows = useLoadedStore(shownPayouts);
  const ids = useLoadedStore((s) => payoutsRows(s)?.ids ?? NO_IDS);
  const finding = useHasFocus(FIND_FIELD);
  const busy = useLoadedStore((s) => s.loading !== undefined);
  const showFind = finding || p.filters.query !== "";
  // The note is said whole: two lines when it does not fit one.
  const noteRows = p.note ? (p.note.length > width - 1 ? 2 : 1) : 0;
  // Rows read for other filters (a location or range just chosen) show dim until the new ones come.
  const stale = useLoadedStore((s) => s.payouts.readFor !== payoutsQueryKey(s.payouts.filters, placeKey(s)));
  const totals = useMemo(() => totalLines(rangeTotals(p), width - 1), [p, width]);
  const listHeight = Math.max(
    3,
    height - 1 - totals.length - noteRows - (showFind ? 1 : 0) - payoutsFormHeight(p.form.kind),
  );
  const list = useListWindow(LISTS.list, ids, listRows(listHeight));
  const columns = useMemo(() => {
    const names = all ? new Map(locations.map((l) => [l.id ?? "", l.name ?? l.id ?? ""])) : undefined;
    const zones = new Map(locations.map((l) => [l.id ?? "", l.timezone ?? "UTC"]));
    return payoutColumns(names, (payout) => zones.get(payout.location_id) ?? "UTC");
  }, [all, locations]);
  const empty = p.filters.query
    ? `No payout of ${p.filters.from} → ${p.filters.to} matches "${p.filters.query}".`
    : `No payouts created ${p.filters.from} → ${p.filters.to}${p.filters.status ? ` with status ${status}` : ""}.`;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>{where} · payouts</Txt>
        {/* The word "created" goes before the status is cut: the dates and the status stay whole. */}
        <Txt>
          {`${where} · payouts created ${p.filters.from} → ${p.filters.to} · ${status}`.length <= width
            ? " created"
            : ""}{" "}
          {p.filters.from} → {p.filters.to}
        </Txt>
        <Txt color={theme.muted}> · {status}</Txt>
      </Txt>
      {p.note ? (
        <Box height={noteRows} overflow="hidden">
          <Txt color={theme.warn}>{p.note}</Txt>
        </Box>
      ) : null}
      {p.payouts ? (
        <Box height={listHeight} flexDirection="column">
          <ColumnList
            columns={columns}
            rows={rows}
            state={list}
            height={listHeight}
            width={width}
            rowKey={(r) => r.id}
            empty={empty}
            dim={stale}
          />
        </Box>
      ) : (
        <Box height={listHeight}>
          <Txt color={theme.muted}>
            {busy ? "Reading payouts…" : "The payouts have not been read (the service did not answer): r reads them."}
          </Txt>
        </Box>
      )}
      {showFind ? <FindLine /> : null}
      {totals.map((line) => (
        <Txt key={line} wrap="truncate-end">
          {p.payouts ? line : " "}
        </Txt>
      ))}
      <OpenForm />
    </Box>
  );
}

/** Without PAYOUTS_READ: which permission is missing and how to sign in with it. */
function MissingPermission({ width }: ScreenProps) {
  const theme = useTheme();
  const env = useLoadedStore((s) => s.env);
  const where = useLoadedStore(whereWords);
  const environment = env === "DEMO" ? undefined : env.toLowerCase();
  return (
    <Box flexDirection="column" width={width}>
      <Txt bold wrap="truncate-end">
        {where} · payouts
      </Txt>
      <Txt> </Txt>
      <Txt color={theme.warn}>{missingPermissionMessage(environment)}</Txt>
      <Txt> </Txt>
      <Txt color={theme.muted}>Everything else works as before; r tries again.</Txt>
    </Box>
  );
}
