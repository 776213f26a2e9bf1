import { Box } from "ink";
import { useMemo } from "react";
import { activityTotals, cardHistory, type Liability } from "../../../domain/gift-card-activity.js";
import { cardStateWords, cardTypeWords, shortGan } from "../../../domain/gift-cards.js";
import { KEPT_MARK, KEPT_SHORT } from "../../../domain/kept-words.js";
import { formatAmount, formatMoney } from "../../../domain/money.js";
import { plural } from "../../../domain/plural.js";
import { localDate } from "../../../domain/time.js";
import type { GiftCardActivity, Location } from "../../../spec/generated/types.js";
import { selectLocation, selectTimeZone, useLoadedStore, useLoadedStoreApi } from "../../../state/index.js";
import { type CardPane, cardAsItWillBe, type KnownCard } from "../../../state/screens.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { EntryLine } from "../../components/EntryLine.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import { type Theme, useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { activityColumns, historyColumns, type Places, reachesAnotherYear } from "./columns.js";
import { ACTIVITY_LIST, giftCardRows, HISTORY_LIST, LOOKUP_DRAFT, LOOKUP_FIELD } from "./commands.js";
import { DaysFormView, giftCardsFormHeight, WriteFormView } from "./forms.js";

/** Where activities happened and in what currency to show amounts, from the store's locations. */
function usePlaces(): Places {
  const locations = useLoadedStore((s) => s.locations);
  const here = useLoadedStore(selectLocation);
  const zone = useLoadedStore(selectTimeZone);
  return useMemo(() => {
    const byId = new Map<string, Location>(locations.map((l) => [l.id ?? "", l]));
    return {
      name: (id) => byId.get(id)?.name ?? id,
      zone: (id) => byId.get(id)?.timezone ?? zone,
      currency: here?.currency ?? "USD",
    };
  }, [locations, here, zone]);
}

/** Gift cards: a card looked up by scan, number or id, its history and its writes; the day's activity. */
export function GiftCardsScreen(props: ScreenProps) {
  const view = useLoadedStore((s) => s.giftCards.view);
  return view === "card" ? <CardView {...props} /> : <ActivityView {...props} />;
}

/** The look-up line: `/` gives it the keys; enter looks the card up; a scan needs no key at all. */
function LookupLine({ width }: { width: number }) {
  const store = useLoadedStoreApi();
  const text = useLoadedStore((s) => s.drafts[LOOKUP_DRAFT] ?? "");
  return (
    <EntryLine
      field={LOOKUP_FIELD}
      label="Card: "
      value={text}
      onChange={(v) => store.getState().setDraft(LOOKUP_DRAFT, v)}
      typing="its number or id, then enter"
      resting="scan a card, or / to type its number"
      maxLength={64}
      width={width}
    />
  );
}

const stateColor = (card: KnownCard, theme: Theme) =>
  card.state === "ACTIVE" ? theme.good : card.state === "PENDING" ? theme.muted : theme.bad;

/** The card's lines over its history: number, type, state, balance, customers. */
function CardLines({
  card,
  pane,
  width,
}: {
  card: KnownCard;
  pane: Extract<CardPane, { kind: "found" }>;
  width: number;
}) {
  const theme = useTheme();
  const tz = useLoadedStore(selectTimeZone);
  // The balance it will have once the loads and adjustments kept on this machine are sent.
  const kept = useLoadedStore((s) => cardAsItWillBe(s, card).kept);
  const balance = useLoadedStore((s) => cardAsItWillBe(s, card).card.balance_money?.amount);
  const money = formatMoney({ amount: balance ?? 0, currency: card.balance_money?.currency ?? "USD" });
  const names = pane.customers.map((c) => c.name ?? c.id);
  const customers =
    names.length === 0 ? "no customer linked" : `${names.length === 1 ? "customer" : "customers"} ${names.join(", ")}`;
  const created = card.created_at ? `created ${localDate(card.created_at, tz)}` : "";
  const restWith = (mark: string) =>
    ` · ${cardTypeWords(card.type)} · ${cardStateWords(card.state)} · balance ${money}${mark}`;
  // The kept mark in fewer words when the line, even with the short number, has no room for it.
  const full = ` ${KEPT_MARK} (${kept})`;
  const mark =
    kept === 0 ? "" : shortGan(card.gan).length + restWith(full).length <= width ? full : ` ${KEPT_SHORT} (${kept})`;
  const rest = restWith(mark);
  // The whole number when the line has room for it; else its last four digits.
  const number = (card.gan ?? "").length + rest.length <= width ? card.gan : shortGan(card.gan);
  return (
    <>
      <Txt wrap="truncate-end">
        <Txt bold>{number}</Txt>
        <Txt> · {cardTypeWords(card.type)} · </Txt>
        <Txt bold color={stateColor(card, theme)}>
          {cardStateWords(card.state)}
        </Txt>
        <Txt> · balance </Txt>
        <Txt bold>{money}</Txt>
        {mark ? <Txt color={theme.warn}>{mark}</Txt> : null}
      </Txt>
      <Txt color={theme.muted} wrap="truncate-end">
        {[customers, created].filter(Boolean).join(" · ")}
      </Txt>
    </>
  );
}

/** What the card pane says when there is no card to show. */
function paneText(pane: CardPane): string {
  switch (pane.kind) {
    case "empty":
      return "Scan a card, or press / and type its number or id.";
    case "looking":
      return `Looking up ${pane.query}…`;
    case "unknown":
      return `${pane.gan} is not registered with the service yet: a registers it as a physical card with this number and activates it.`;
    case "no-such-id":
      return `No gift card has the id ${pane.id}.`;
    case "failed":
      return `${pane.query}: ${pane.problem}`;
    case "found":
      return "";
  }
}

/** A change that was not answered, kept with its keys until it is sent again or dropped. */
function PendingLine() {
  const theme = useTheme();
  const pending = useLoadedStore((s) => s.giftCards.pending);
  if (!pending) return null;
  // The question without its balance line, the card's number cut to its last digits.
  const what = pending.plan.question.replace(/\?.*$/, "").replace(pending.plan.gan, shortGan(pending.plan.gan));
  const text =
    pending.state === "sending" ? `Sending: ${what}…` : `◷ Not answered, kept: ${what}. R sends it again, x drops it.`;
  return (
    <Txt color={pending.state === "sending" ? theme.muted : theme.warn} wrap="truncate-end">
      {text}
    </Txt>
  );
}

function CardView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const pane = useLoadedStore((s) => s.giftCards.card);
  const form = useLoadedStore((s) => s.giftCards.form);
  const pending = useLoadedStore((s) => s.giftCards.pending);
  const location = useLoadedStore(selectLocation);
  const places = usePlaces();
  const found = pane.kind === "found" ? pane : undefined;
  const rows = useMemo(() => (found ? cardHistory(found.history) : []), [found]);
  const ids = useLoadedStore((s) => giftCardRows(s).ids);
  const head = 2 + (found ? 2 : 1) + (pending ? 1 : 0) + (found ? 1 : 0);
  const formRows = giftCardsFormHeight(form);
  const listHeight = Math.max(3, height - head - formRows);
  // With a question over the form there is no room for the history: the form stays whole (a
  // screen drawn taller than its rows spills into the status bar), the history comes back after.
  const history = found !== undefined && (formRows === 0 || height - head - formRows >= 3);
  const list = useListWindow(HISTORY_LIST, ids, listRows(listHeight));
  // The year where the manager is: it changes once a year, so the columns are not made anew each minute.
  const zone = useLoadedStore(selectTimeZone);
  const thisYear = useLoadedStore((s) => localDate(s.now, zone).slice(0, 4));
  const withYear = useMemo(
    () =>
      reachesAnotherYear(
        rows.map((r) => r.activity),
        places,
        thisYear,
      ),
    [rows, places, thisYear],
  );
  const columns = useMemo(() => historyColumns(places, withYear), [places, withYear]);
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>Gift cards</Txt>
        <Txt color={theme.muted}> at {location?.name ?? "—"} · v: the day's activity</Txt>
      </Txt>
      <LookupLine width={width} />
      {found ? (
        <CardLines card={found.card} pane={found} width={width} />
      ) : (
        <Txt color={pane.kind === "failed" ? theme.bad : theme.muted} wrap="truncate-end">
          {paneText(pane)}
        </Txt>
      )}
      <PendingLine />
      {history ? (
        <>
          <Txt color={theme.muted}>History, newest first ({rows.length})</Txt>
          <ColumnList
            columns={columns}
            rows={rows}
            state={list}
            height={listHeight}
            width={width}
            rowKey={(r) => r.activity.id ?? ""}
            empty="No activity yet."
          />
        </>
      ) : null}
      {form.kind === "write" ? <WriteFormView kind={form.form.kind} /> : null}
    </Box>
  );
}

/** The days' totals per kind, each a segment kept whole when the line wraps. */
function totalsSegments(rows: readonly GiftCardActivity[], currency: string): string[] {
  const t = activityTotals(rows, currency);
  const m = (n: number, sign = false) => formatAmount(n, currency, sign ? { sign: "always" } : {});
  return [
    `sold ${t.sold.count} · ${m(t.sold.amount)}`,
    `loaded ${t.loaded.count} · ${m(t.loaded.amount)}`,
    `redeemed ${t.redeemed.count} · ${m(t.redeemed.amount)}`,
    `adjusted ${t.adjusted.count} · ${m(t.adjusted.amount, true)}`,
    ...(t.refunded.count ? [`refunded ${t.refunded.count} · ${m(t.refunded.amount)}`] : []),
  ];
}

/** The liability, and apart from it what blocked cards hold (owed too, but not spendable now). */
function liabilitySegments(l: Liability | undefined): string[] {
  if (!l) return ["Liability: being read…"];
  return [
    `Liability ${formatMoney(l.active)} on ${plural(l.activeCards, "active card")}`,
    ...(l.blockedCards > 0 ? [`blocked: ${formatMoney(l.blocked)} on ${l.blockedCards}, not in it`] : []),
  ];
}

/** Rows the segments take at this width (two spaces between them), at most `max`. */
function segmentRows(segments: readonly string[], width: number, max: number): number {
  let rows = 1;
  let used = 0;
  for (const seg of segments) {
    const need = used === 0 ? seg.length : used + 2 + seg.length;
    if (need > width && used > 0) {
      rows++;
      used = seg.length;
    } else used = need;
  }
  return Math.min(rows, max);
}

/** Segments on as many rows as they need (at most `rows`), none cut in the middle. */
function Segments({
  segments,
  rows,
  color,
}: {
  segments: readonly string[];
  rows: number;
  color?: string | undefined;
}) {
  return (
    <Box flexWrap="wrap" columnGap={2} height={rows} overflow="hidden">
      {segments.map((seg) => (
        <Txt key={seg} color={color}>
          {seg}
        </Txt>
      ))}
    </Box>
  );
}

function ActivityView({ height, width }: ScreenProps) {
  const theme = useTheme();
  const a = useLoadedStore((s) => s.giftCards.activity);
  const form = useLoadedStore((s) => s.giftCards.form);
  const location = useLoadedStore(selectLocation);
  // All locations (the location picker's choice): where each happened is a column.
  const all = useLoadedStore((s) => s.allLocations);
  const places = usePlaces();
  const ids = useLoadedStore((s) => giftCardRows(s).ids);
  const oneDay = a.from === a.to;
  const totals = totalsSegments(a.rows, places.currency);
  const owed = liabilitySegments(a.liability);
  const totalRows = segmentRows(totals, width, 2);
  const owedRows = segmentRows(owed, width, 2);
  const listHeight = Math.max(3, height - 1 - totalRows - owedRows - giftCardsFormHeight(form));
  const list = useListWindow(ACTIVITY_LIST, ids, listRows(listHeight));
  const columns = useMemo(() => activityColumns(places, !oneDay, all), [places, oneDay, all]);
  const days = !a.from ? "" : oneDay ? `${a.from}${a.followToday ? " (today)" : ""}` : `${a.from} → ${a.to}`;
  return (
    <Box flexDirection="column" width={width}>
      <Txt wrap="truncate-end">
        <Txt bold>{width < 72 ? "Activity" : "Gift card activity"}</Txt>
        <Txt>
          {" "}
          at {all ? "all locations" : (location?.name ?? "—")} · {days}
        </Txt>
        <Txt color={theme.muted}> · {a.filter || "every kind"}</Txt>
      </Txt>
      <Segments segments={totals} rows={totalRows} />
      <Segments segments={owed} rows={owedRows} color={theme.accent} />
      <ColumnList
        columns={columns}
        rows={a.rows}
        state={list}
        height={listHeight}
        width={width}
        rowKey={(r) => r.id ?? ""}
        empty={
          a.loading
            ? "Reading the activity…"
            : `No ${a.filter || "gift card"} activity on ${oneDay ? "this day" : "these days"}.`
        }
      />
      {form.kind === "range" ? <DaysFormView /> : null}
    </Box>
  );
}
