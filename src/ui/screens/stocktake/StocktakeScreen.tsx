import { Box } from "ink";
import { useEffect, useMemo } from "react";
import {
  buildReview,
  countTotals,
  describeScope,
  formatMinor,
  type ReviewRow,
  sortReview,
} from "../../../domain/stocktake.js";
import { localDate, localTime } from "../../../domain/time.js";
import type { InventoryChange } from "../../../spec/generated/types.js";
import {
  type CountListing,
  type LoadedCount,
  selectTimeZone,
  type UnknownCode,
  useAppStore,
  useAppStoreApi,
} from "../../../state/index.js";
import { ColumnList } from "../../components/ColumnList.js";
import { ProgressBar } from "../../components/ProgressBar.js";
import { Txt } from "../../components/Txt.js";
import { useList } from "../../components/use-list.js";
import type { Command } from "../../keymap.js";
import { useScreenCommands } from "../../screen-commands.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { COUNT_HEAD_ROWS, CountView } from "./CountView.js";
import { countListColumns, historyColumns, reviewColumns, unknownColumns } from "./columns.js";
import { StartView, StocktakeForm, stocktakeFormHeight } from "./forms.js";

/** The review of a loaded count: rows by absolute variance value, and totals. */
function useReview(count: LoadedCount | undefined) {
  const lines = count?.lines;
  const expected = count?.expected;
  const uncounted = count?.header.uncounted;
  const scope = count?.scope;
  const items = count?.items;
  return useMemo(() => {
    if (!lines || !expected || !scope || !items || !uncounted) return undefined;
    const rows = sortReview(buildReview({ items, lines, expected, scope, uncounted }));
    const currency = rows.find((r) => r.item.currency)?.item.currency ?? "USD";
    return { rows, totals: countTotals(rows), currency };
  }, [lines, expected, uncounted, scope, items]);
}

/**
 * Stocktake: start a full or cycle count, count by scanner or keyboard on one input line, review
 * what differs from the books, and commit — journaled line by line, so nothing is lost or doubled.
 */
export function StocktakeScreen({ active, height, width }: ScreenProps) {
  const theme = useTheme();
  const store = useAppStoreApi();
  const view = useAppStore((s) => s.stocktake.view);
  const count = useAppStore((s) => s.stocktake.count);
  const form = useAppStore((s) => s.stocktake.form);
  const typing = useAppStore((s) => s.stocktake.typing);
  const prompt = useAppStore((s) => s.stocktake.prompt);
  const openHere = useAppStore((s) => s.stocktake.openHere);
  const recent = useAppStore((s) => s.stocktake.recent);
  const history = useAppStore((s) => s.stocktake.history);
  const feedback = useAppStore((s) => s.stocktake.feedback);
  const locationName = useAppStore((s) => s.locations.find((l) => l.id === s.locationId)?.name ?? "—");
  const tz = useAppStore(selectTimeZone);
  const review = useReview(view.kind === "review" ? count : undefined);
  const s = () => store.getState();

  const panel = stocktakeFormHeight(form.kind);
  const bodyHeight = Math.max(4, height - panel);
  const unknown = count?.unknown ?? [];
  const changes = history?.changes ?? [];
  const rowCount =
    view.kind === "count"
      ? (count?.lines.length ?? 0)
      : view.kind === "review"
        ? (review?.rows.length ?? 0)
        : view.kind === "unknown"
          ? unknown.length
          : view.kind === "history"
            ? changes.length
            : view.kind === "home"
              ? recent.length
              : 0;
  const listHeight =
    view.kind === "count"
      ? bodyHeight - COUNT_HEAD_ROWS
      : view.kind === "review"
        ? bodyHeight - 4
        : view.kind === "home"
          ? bodyHeight - (openHere ? 5 : 3)
          : bodyHeight - 2;
  const [list, onList, select] = useList(rowCount, Math.max(3, listHeight) - 1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new view starts at its first row.
  useEffect(() => select(0), [view.kind]);

  const selectedVariation = (): string | undefined => {
    if (view.kind === "review") return review?.rows[list.cursor]?.item.variationId;
    if (view.kind === "count" && count) {
      const line = count.lines[count.lines.length - 1 - list.cursor];
      return line?.variationId;
    }
    return undefined;
  };
  const countIdForExport = (): string | undefined =>
    view.kind === "home" ? (recent[list.cursor]?.id ?? openHere?.id) : count?.header.id;
  const canCommit = count && (count.header.status === "open" || count.header.status === "committing");

  const onCommand = (c: Command) => {
    if (onList(c)) return;
    switch (c) {
      case "stNew":
        if (view.kind === "home" || view.kind === "commit") void s().stocktakeNew();
        return;
      case "stOpen":
      case "stType":
        if (view.kind === "home" && openHere && c === "stOpen") void s().stocktakeResume();
        else if (view.kind === "count") s().stocktakeSetTyping(true);
        else if (view.kind === "review" && c === "stOpen") {
          const id = selectedVariation();
          if (id && count?.header.status === "open") s().stocktakeOpenForm({ kind: "edit", variationId: id });
        } else if (view.kind === "unknown" && c === "stOpen") {
          const u = unknown[list.cursor];
          if (u) s().stocktakeOpenForm({ kind: "resolve", code: u.code });
        } else if (count?.header.status === "open") s().stocktakeShow({ kind: "count" });
        return;
      case "stReview":
        if (count) s().stocktakeShow({ kind: "review" });
        return;
      case "stCommit":
        if (view.kind === "home" && openHere && !count) {
          void s()
            .stocktakeResume()
            .then(() => s().stocktakeShow({ kind: "review" }));
          return;
        }
        if (!count || !canCommit) return;
        if (view.kind !== "review" && view.kind !== "commit") {
          s().stocktakeShow({ kind: "review" });
          s().setStatus({ kind: "info", text: "Check the review, then c commits." });
          return;
        }
        confirmCommit(count, review?.totals.lines);
        return;
      case "stScanOne":
        s().stocktakeToggleScanOne();
        return;
      case "stUncounted":
        if (count) s().stocktakeSetUncounted(count.header.uncounted === "zero" ? "leave" : "zero");
        return;
      case "stUnknown":
        if (count) s().stocktakeShow({ kind: "unknown" });
        return;
      case "stHistory": {
        const id = selectedVariation();
        if (id) void s().stocktakeHistory(id);
        return;
      }
      case "stRemove":
        if (view.kind === "unknown") {
          const u = unknown[list.cursor];
          if (u) s().stocktakeDismissUnknown(u.code);
        } else {
          const id = selectedVariation();
          const item = id ? count?.items.get(id) : undefined;
          if (id && item && count?.lineAt.has(id)) {
            s().openOverlay({
              kind: "confirm",
              message: `Remove the line of ${item.name} from the count?`,
              destructive: true,
              onYes: () => s().stocktakeRemoveLine(id),
            });
          }
        }
        return;
      case "stDiscard": {
        const target = count ?? openHere;
        if (!target) return;
        const accepted = count ? 0 : (openHere?.batchesAccepted ?? 0);
        s().openOverlay({
          kind: "confirm",
          message: `Discard the count ${count?.header.id ?? openHere?.id}?${accepted ? ` ${accepted} of its requests are already committed and stay so.` : " Nothing of it has been committed."}`,
          destructive: true,
          onYes: () => s().stocktakeDiscard(),
        });
        return;
      }
      case "stExportItems":
      case "stExportSummary": {
        const id = countIdForExport();
        if (id)
          s().stocktakeOpenForm({ kind: "export", what: c === "stExportItems" ? "items" : "summary", countId: id });
        return;
      }
      case "back":
        if (view.kind === "history") s().stocktakeShow({ kind: view.back });
        else if (view.kind === "review" || view.kind === "unknown") {
          s().stocktakeShow({ kind: count?.header.status === "open" ? "count" : "home" });
          if (count?.header.status !== "open") s().stocktakeClose();
        } else if (view.kind === "count" || view.kind === "commit") s().stocktakeClose();
        return;
      case "reload":
        if (count) void s().stocktakeRefreshExpected();
        else void s().loadStocktakeHome();
        return;
      default:
        return;
    }
  };

  const confirmCommit = (c: LoadedCount, lines: number | undefined) => {
    const resuming = c.header.status === "committing";
    s().openOverlay({
      kind: "confirm",
      message: resuming
        ? `Finish committing ${c.header.id}? Requests the service already accepted are not sent as new changes.`
        : `Commit ${lines ?? c.lines.length} lines of ${c.header.id} at ${c.header.locationName} as physical counts?${
            c.header.uncounted === "zero" && c.header.scope.kind === "full" ? " Uncounted items are set to zero." : ""
          }`,
      onYes: () => s().stocktakeCommit(),
    });
  };

  const formOpen = form.kind !== "none";
  const picking = view.kind === "count" && prompt.kind === "pick";
  const keysActive = active && !formOpen && view.kind !== "start" && !picking && !(view.kind === "count" && typing);
  useScreenCommands(["list", "stocktake"], onCommand, keysActive);

  const body = (() => {
    switch (view.kind) {
      case "home":
        return (
          <HomeView
            openHere={openHere}
            recent={recent}
            list={list}
            height={bodyHeight}
            width={width}
            tz={tz}
            locationName={locationName}
            note={feedback?.kind === "info" ? feedback.text : undefined}
          />
        );
      case "start":
        return <StartView active={active && !formOpen} height={bodyHeight} width={width} />;
      case "count":
        return <CountView active={active && !formOpen} height={bodyHeight} width={width} list={list} onList={onList} />;
      case "review":
        return count && review ? (
          <ReviewView count={count} review={review} list={list} height={bodyHeight} width={width} />
        ) : null;
      case "unknown":
        return <UnknownView unknown={unknown} list={list} height={bodyHeight} width={width} tz={tz} />;
      case "history":
        return (
          <HistoryView
            name={count?.items.get(view.variationId)?.name ?? view.variationId}
            changes={history?.changes}
            countId={count?.header.id}
            list={list}
            height={bodyHeight}
            width={width}
            tz={tz}
          />
        );
      case "commit":
        return <CommitView />;
    }
  })();
  return (
    <Box flexDirection="column" width={width}>
      <Box flexDirection="column" height={bodyHeight} overflowY="hidden">
        {body}
      </Box>
      {formOpen ? <StocktakeForm /> : null}
      {view.kind === "home" && !openHere && recent.length === 0 ? (
        <Txt color={theme.muted}>n starts a count.</Txt>
      ) : null}
    </Box>
  );
}

function HomeView({
  openHere,
  recent,
  list,
  height,
  width,
  tz,
  locationName,
  note,
}: {
  openHere: CountListing | undefined;
  recent: CountListing[];
  list: ReturnType<typeof useList>[0];
  height: number;
  width: number;
  tz: string;
  locationName: string;
  note: string | undefined;
}) {
  const theme = useTheme();
  const columns = useMemo(() => countListColumns(tz), [tz]);
  const stamp = (iso: string) => `${localDate(iso, tz)} ${localTime(iso, tz)}`;
  return (
    <Box flexDirection="column">
      <Txt bold>Stocktake at {locationName}</Txt>
      {openHere ? (
        <Box flexDirection="column">
          <Txt color={theme.warn} wrap="truncate-end">
            {openHere.status === "committing"
              ? `Unfinished commit: ${openHere.id} (${describeScope(openHere.scope)}) stopped at ${openHere.batchesAccepted} of ${openHere.batches} requests.`
              : `Open count: ${openHere.id} (${describeScope(openHere.scope)}), started ${stamp(openHere.startedAt)}${openHere.counterName ? ` by ${openHere.counterName}` : ""}, ${openHere.lines} line${openHere.lines === 1 ? "" : "s"}${openHere.unknownCodes ? `, ${openHere.unknownCodes} unknown codes` : ""}.`}
          </Txt>
          <Txt>
            <Txt bold>enter</Txt> resume · <Txt bold>c</Txt> commit · <Txt bold>D</Txt> discard
          </Txt>
        </Box>
      ) : null}
      <Txt color={theme.muted} wrap="truncate-end">
        {note ?? "n starts a count: everything at the location, or a category, a search or a list of SKUs."}
      </Txt>
      <ColumnList
        columns={columns}
        rows={recent}
        state={list}
        height={Math.max(3, height - (openHere ? 4 : 2))}
        width={width}
        rowKey={(c) => c.id}
        empty="No finished counts here yet."
      />
    </Box>
  );
}

function ReviewView({
  count,
  review,
  list,
  height,
  width,
}: {
  count: LoadedCount;
  review: { rows: ReviewRow[]; totals: ReturnType<typeof countTotals>; currency: string };
  list: ReturnType<typeof useList>[0];
  height: number;
  width: number;
}) {
  const theme = useTheme();
  const columns = useMemo(() => reviewColumns(review.currency), [review.currency]);
  const t = review.totals;
  const c = review.currency;
  const unknown = count.unknown.filter((u) => !u.resolvedTo).length;
  const h = count.header;
  return (
    <Box flexDirection="column">
      <Txt wrap="truncate-end">
        <Txt bold>Review</Txt>{" "}
        <Txt color={theme.muted}>
          {h.id} · {describeScope(h.scope)} · {t.lines} line{t.lines === 1 ? "" : "s"}
        </Txt>{" "}
        <Txt color={theme.good}>
          over {t.unitsOver} ({formatMinor(t.valueOver)} {c})
        </Txt>{" "}
        <Txt color={theme.bad}>
          short {t.unitsShort} ({formatMinor(t.valueShort)} {c})
        </Txt>{" "}
        <Txt bold>
          net {formatMinor(t.valueNet)} {c}
        </Txt>
      </Txt>
      <Txt wrap="truncate-end" color={t.uncounted || unknown ? theme.warn : theme.muted}>
        {t.uncounted
          ? `${t.uncounted} items not counted: ${h.uncounted === "zero" ? "set to zero" : "left untouched"} (z changes)`
          : "Every item of the count was counted."}
        {unknown ? ` · ${unknown} unknown code${unknown === 1 ? "" : "s"} (u)` : ""}
        {t.unpriced ? ` · ${t.unpriced} without a price` : ""}
        {h.status === "committing" ? " · its commit stopped halfway: c finishes it" : ""}
      </Txt>
      <Txt color={theme.muted} wrap="truncate-end">
        Each line carries the moment it was counted: the service places it among the sales made meanwhile.
      </Txt>
      <ColumnList
        columns={columns}
        rows={review.rows}
        state={list}
        height={Math.max(3, height - 3)}
        width={width}
        rowKey={(r) => r.item.variationId}
        empty="Nothing counted yet."
      />
    </Box>
  );
}

function UnknownView({
  unknown,
  list,
  height,
  width,
  tz,
}: {
  unknown: readonly UnknownCode[];
  list: ReturnType<typeof useList>[0];
  height: number;
  width: number;
  tz: string;
}) {
  const columns = useMemo(() => unknownColumns(tz), [tz]);
  return (
    <Box flexDirection="column">
      <Txt bold wrap="truncate-end">
        Unknown codes: scanned or typed, matched nothing. enter says which item it is · x dismisses · esc back
      </Txt>
      <ColumnList
        columns={columns}
        rows={unknown}
        state={list}
        height={Math.max(3, height - 1)}
        width={width}
        rowKey={(u) => u.code}
        empty="No unknown codes."
      />
    </Box>
  );
}

function HistoryView({
  name,
  changes,
  countId,
  list,
  height,
  width,
  tz,
}: {
  name: string;
  changes: InventoryChange[] | undefined;
  countId: string | undefined;
  list: ReturnType<typeof useList>[0];
  height: number;
  width: number;
  tz: string;
}) {
  const columns = useMemo(() => historyColumns(tz, countId), [tz, countId]);
  return (
    <Box flexDirection="column">
      <Txt bold wrap="truncate-end">
        History of {name}: counts and adjustments here, newest first · esc back
      </Txt>
      {changes ? (
        <ColumnList
          columns={columns}
          rows={changes}
          state={list}
          height={Math.max(3, height - 1)}
          width={width}
          rowKey={(c, i) => c.physical_count?.id ?? c.adjustment?.id ?? c.transfer?.id ?? String(i)}
          empty="No counts or adjustments of this item here."
        />
      ) : (
        <Txt>Reading the history…</Txt>
      )}
    </Box>
  );
}

function CommitView() {
  const theme = useTheme();
  const commit = useAppStore((s) => s.stocktake.commit);
  const count = useAppStore((s) => s.stocktake.count);
  if (!commit) return null;
  const p = commit.progress;
  const outcome = commit.outcome;
  return (
    <Box flexDirection="column">
      <Txt bold>Committing {count?.header.id}</Txt>
      <ProgressBar label="lines" done={p.linesDone} total={p.linesTotal} width={30} />
      <Txt color={theme.muted}>
        {p.batchesDone} of {p.batchesTotal} requests accepted · {p.inFlight} in flight
        {p.refused ? ` · ${p.refused} refused` : ""}
      </Txt>
      {outcome?.kind === "committed" ? (
        <Box flexDirection="column">
          <Txt color={theme.good}>
            ✓ Committed {outcome.lines} lines as physical counts.
            {outcome.refused.length ? ` ${outcome.refused.length} refused by the service:` : ""}
          </Txt>
          {outcome.refused.slice(0, 5).map((r) => (
            <Txt key={r.variationId} color={theme.bad} wrap="truncate-end">
              {"  "}
              {count?.items.get(r.variationId)?.name ?? r.variationId}: {r.problem}
            </Txt>
          ))}
          <Txt color={theme.muted}>e items CSV · E summary CSV · n new count · esc done</Txt>
        </Box>
      ) : outcome?.kind === "stopped" ? (
        <Box flexDirection="column">
          <Txt color={theme.bad} wrap="wrap">
            ! {outcome.problem}
          </Txt>
          <Txt color={theme.muted}>c resumes the commit · esc leaves it in the journal</Txt>
        </Box>
      ) : null}
    </Box>
  );
}
