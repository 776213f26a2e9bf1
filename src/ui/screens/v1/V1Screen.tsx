import { Box } from "ink";
import { useMemo } from "react";
import { formatMoney } from "../../../domain/money.js";
import { plural } from "../../../domain/plural.js";
import { OFFLINE_NOTE, paymentTotals } from "../../../domain/v1-records.js";
import { describeV1Range, isSplitTender } from "../../../domain/v1-rules.js";
import type { V1Payment } from "../../../spec/generated/types.js";
import { placeKey, selectLocation, useLoadedStore, useShallow } from "../../../state/index.js";
import { LIST_OPERATION } from "../../../state/v1-load.js";
import { queryKey, recordKey, V1_LIST_NAMES, V1_VIEWS, type V1View } from "../../../state/v1-machine.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { type Column, firstThatFits, wrapLines } from "../../components/columns.js";
import { NotReadYet } from "../../components/NotRead.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { wrapParts } from "../../components/wrap.js";
import { type Theme, useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { orderColumns, paymentColumns, type RowPlaces, refundColumns, settlementColumns } from "./columns.js";
import { detailRows, detailTop, VIEW_TITLES } from "./commands.js";
import { type DetailLine, detailLinesOf, placesOf } from "./detail-lines.js";
import { refundFormHeight, V1OrderActionForm, V1RangeForm, V1RefundForm, v1FormHeight } from "./forms.js";

/** The line under the title: these operations are the service's old ones, kept for history. */
export const DEPRECATED_NOTE = "The service has deprecated these operations (V1); they may stop answering.";

const TITLE = "Old transactions (V1)";

const VIEW_KEYS: Readonly<Record<V1View, string>> = { payments: "p", refunds: "f", settlements: "s", orders: "o" };
const SHORT_VIEW_TITLES: Readonly<Record<V1View, string>> = { ...VIEW_TITLES, orders: "Online orders" };
const SHORT_DEPRECATED_NOTE = "Deprecated by the service (V1): it may stop answering.";
const viewsText = (titles: Readonly<Record<V1View, string>>) =>
  V1_VIEWS.map((view) => `${VIEW_KEYS[view]} ${titles[view]}`).join(" · ");

/** Old transactions (V1): payments, refunds, settlements and online-store orders; refunds and order updates. */
export function V1Screen({ height, width }: ScreenProps) {
  const theme = useTheme();
  const v = useLoadedStore((s) => s.v1);
  const location = useLoadedStore(selectLocation);
  const all = useLoadedStore((s) => s.allLocations);
  const where = all ? "all locations" : (location?.name ?? "—");
  const dates = v.view === "orders" ? "every order" : describeV1Range(v.filters).split(" (")[0];
  const range = v.view === "orders" ? dates : `${v.filters.from} to ${v.filters.to}`;
  // Shortened by priority: the dates themselves survive a narrow terminal; the wording goes first,
  // then the place moves behind them (where it is what is cut).
  const about = firstThatFits(
    [` · ${where} · ${dates}`, ` · ${where} · ${range}`, ` · ${range} · ${where}`],
    width - TITLE.length,
  );
  // The views' keys are whole at 60 columns: the longest title shortens first.
  const titles = viewsText(VIEW_TITLES).length <= width ? VIEW_TITLES : SHORT_VIEW_TITLES;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>{TITLE}</Txt>
        <Txt color={theme.muted}>{about}</Txt>
      </Txt>
      <Txt color={theme.warn} wrap="truncate-end">
        {firstThatFits([DEPRECATED_NOTE, SHORT_DEPRECATED_NOTE], width)}
      </Txt>
      <Txt wrap="truncate-end">
        {V1_VIEWS.map((view, i) => (
          <Txt key={view}>
            {i > 0 ? <Txt color={theme.muted}> · </Txt> : null}
            <Txt
              color={view === v.view ? theme.accent : theme.muted}
              bold={view === v.view}
              inverse={view === v.view && !theme.color}
            >
              {VIEW_KEYS[view]} {titles[view]}
            </Txt>
          </Txt>
        ))}
      </Txt>
      {v.detail ? <DetailPane height={height - 3} width={width} /> : <ListPane height={height - 3} width={width} />}
    </Box>
  );
}

/** The form open under the list or the record, if any. */
function OpenForm() {
  const form = useLoadedStore((s) => s.v1.form);
  if (form.kind === "range") return <V1RangeForm />;
  if (form.kind === "refund") return <V1RefundForm form={form} />;
  if (form.kind === "order-action") return <V1OrderActionForm form={form} />;
  return null;
}

/** Rows the open form takes (a refund's depend on the payment: the tender row is for split tenders). */
function useFormRows(): number {
  return useLoadedStore((s) => {
    const f = s.v1.form;
    if (f.kind === "refund") return refundFormHeight(f, isSplitTender(s.v1Current().payment ?? {}));
    return v1FormHeight(f.kind, f.kind === "order-action" ? f.action : undefined);
  });
}

/** The list of the view: its filters, the records, their totals. */
function ListPane({ height, width }: { height: number; width: number }) {
  const theme = useTheme();
  const v = useLoadedStore((s) => s.v1);
  const locations = useLoadedStore((s) => s.locations);
  const locationId = useLoadedStore((s) => s.locationId);
  // All locations (the location picker's choice): a location column.
  const all = useLoadedStore((s) => s.allLocations);
  const place = useLoadedStore(placeKey);
  const retired = v.retired[LIST_OPERATION[v.view]];
  const info = infoLines(v.view, v.filters, width);
  const records = v.lists[v.view];
  // The totals are said whole: on a second line where they do not fit one.
  const foot = retired ? [""] : wrapParts(footParts(v.view, records ?? []), width);
  const listHeight = Math.max(3, height - info.length - foot.length - useFormRows());
  const places: RowPlaces = useMemo(
    () => ({ ...placesOf({ locations, locationId }), all }),
    [locations, locationId, all],
  );
  const rows = (records ?? []) as readonly object[];
  const ids = useMemo(() => rows.map((r) => recordKey(v.view, r)), [rows, v.view]);
  const list = useListWindow(V1_LIST_NAMES[v.view], ids, listRows(listHeight));
  const columns = useMemo(() => columnsOf(v.view, places), [v.view, places]);
  return (
    <Box flexDirection="column">
      {info.map((line) => (
        <Txt key={line.text} color={line.tone === "warn" ? theme.warn : theme.muted} wrap="truncate-end">
          {line.text}
        </Txt>
      ))}
      {retired ? (
        <Box height={listHeight} flexDirection="column">
          <Txt color={theme.bad}>{retired}</Txt>
          <Txt color={theme.muted}>The other lists, and the rest of the app, carry on.</Txt>
        </Box>
      ) : records ? (
        <ColumnList
          columns={columns as Column<object>[]}
          rows={rows}
          state={list}
          height={listHeight}
          width={width}
          rowKey={(r) => recordKey(v.view, r)}
          empty={emptyText(v.view)}
          dim={v.readFor[v.view] !== queryKey(v.view, v.filters, place)}
        />
      ) : (
        <Box height={listHeight}>
          <NotReadYet
            what={`the ${VIEW_TITLES[v.view].toLowerCase()}`}
            loading={`Reading ${VIEW_TITLES[v.view].toLowerCase()}…`}
          />
        </Box>
      )}
      {foot.map((line) => (
        <Txt key={line} wrap="truncate-end">
          {line}
        </Txt>
      ))}
      <OpenForm />
    </Box>
  );
}

function columnsOf(view: V1View, places: RowPlaces): Column<never>[] {
  switch (view) {
    case "payments":
      return paymentColumns(places) as Column<never>[];
    case "refunds":
      return refundColumns(places) as Column<never>[];
    case "settlements":
      return settlementColumns(places) as Column<never>[];
    case "orders":
      return orderColumns(places) as Column<never>[];
  }
}

const emptyText = (view: V1View) =>
  view === "orders" ? "The online store has no orders here." : `No ${VIEW_TITLES[view].toLowerCase()} on these days.`;

/** The lines over a list: what it is filtered by, and for payments the late-arrival note. */
function infoLines(view: V1View, f: { includePartial: boolean; status: string }, width: number): DetailLine[] {
  if (view === "payments") {
    const partial = f.includePartial
      ? "Partial payments shown (still being taken: tenders so far, no items yet) · i hides them"
      : "Complete payments only · i shows partial ones too";
    return [
      { text: partial, tone: "muted" },
      ...wrapLines(OFFLINE_NOTE, width).map((text) => ({ text, tone: "warn" as const })),
    ];
  }
  if (view === "settlements") {
    const which = f.status === "ALL" ? "Sent and failed" : f.status === "SENT" ? "Sent only" : "Failed only";
    return [{ text: `${which} · t: all, sent, failed · enter: its entries`, tone: "muted" }];
  }
  if (view === "refunds") return [{ text: "Refunds of the days · enter opens the payment", tone: "muted" }];
  return [{ text: "Every order, newest first · enter opens one with its history", tone: "muted" }];
}

/** The parts of the line under a list: how many, and for payments what they collected, paid in fees, refunded. */
function footParts(view: V1View, records: readonly object[]): string[] {
  if (view !== "payments") return [`${records.length} ${VIEW_TITLES[view].toLowerCase()}`];
  const list = records as V1Payment[];
  const t = paymentTotals(list);
  const currency = list[0]?.total_collected_money?.currency_code ?? "USD";
  const m = (n: number) => formatMoney({ amount: n, currency });
  const partial = t.partial ? [`${t.partial} partial`] : [];
  return [
    plural(t.count, "payment"),
    `collected ${m(t.collected)}`,
    `fees ${m(t.fees)}`,
    `refunded ${m(t.refunded)}`,
    ...partial,
  ];
}

/** The open record, a window of its lines (j/k scroll). */
function DetailPane({ height, width }: { height: number; width: number }) {
  const theme = useTheme();
  const state = useLoadedStore(
    useShallow((s) => ({ v1: s.v1, locations: s.locations, locationId: s.locationId, selection: s.selection })),
  );
  const detail = state.v1.detail;
  const lines = detailLinesOf(state, width);
  const formHeight = useFormRows();
  const visible = Math.max(1, detailRows(height + 3) - formHeight);
  const top = detailTop(state, lines.length, visible);
  // Each line keyed by its place in the record: lines repeat ("  none"), places do not.
  const shown = lines.slice(top, top + visible).map((line, i) => ({ line, at: top + i }));
  const kind = detail?.kind ?? "payment";
  const what = `${kind[0]?.toUpperCase()}${kind.slice(1)} ${detail?.id ?? ""}`;
  const scroll = lines.length > visible ? ` · lines ${top + 1}–${top + shown.length} of ${lines.length}` : "";
  // Hints are whole or left out, from the end: the record and where it is come first.
  const last = firstThatFits(
    [`${what}${scroll}${scroll ? " · j/k scroll" : ""} · esc back`, `${what}${scroll} · esc back`, `${what}${scroll}`],
    width,
  );
  return (
    <Box flexDirection="column">
      <Box height={visible} flexDirection="column">
        {state.v1.record ? (
          shown.map(({ line, at }) => (
            <Txt key={at} wrap="truncate-end" {...toneProps(line, theme)}>
              {line.text}
            </Txt>
          ))
        ) : (
          <Txt color={theme.muted}>Reading the {kind}…</Txt>
        )}
      </Box>
      <Txt color={theme.muted} wrap="truncate-end">
        {last}
      </Txt>
      <OpenForm />
    </Box>
  );
}

function toneProps(l: DetailLine, theme: Theme): { color?: string; bold?: boolean } {
  const color =
    l.tone === "heading"
      ? theme.accent
      : l.tone === "muted"
        ? theme.muted
        : l.tone === "warn"
          ? theme.warn
          : l.tone === "bad"
            ? theme.bad
            : l.tone === "good"
              ? theme.good
              : undefined;
  return { ...(color ? { color } : {}), ...(l.tone === "heading" ? { bold: true } : {}) };
}
