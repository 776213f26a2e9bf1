import { Box } from "ink";
import { useMemo } from "react";
import { formatMoney } from "../../../domain/money.js";
import { partOf, plural } from "../../../domain/plural.js";
import { groupedQuantity } from "../../../domain/quantity.js";
import { type countTotals, describeScope, type ReviewRow } from "../../../domain/stocktake.js";
import { localDate, localTime, localTimeSeconds } from "../../../domain/time.js";
import type { InventoryChange } from "../../../spec/generated/types.js";
import { selectTimeZone, useLoadedStore, useShallow } from "../../../state/index.js";
import type { CountListing, LoadedCount, UnknownCode } from "../../../state/screens.js";
import type { CommitProgress } from "../../../state/stocktake-commit.js";
import { ColumnList, listRows } from "../../components/ColumnList.js";
import { wrapLines, wrapSegments } from "../../components/columns.js";
import { ProgressBar } from "../../components/ProgressBar.js";
import { Txt } from "../../components/Txt.js";
import { useListWindow } from "../../components/use-list.js";
import type { ListState } from "../../components/windowed-list.js";
import { useTheme } from "../../theme.js";
import type { ScreenProps } from "../screen-def.js";
import { COUNT_HEAD_ROWS, CountView } from "./CountView.js";
import { countListColumns, historyColumns, reviewColumns, unknownColumns } from "./columns.js";
import { countReview, stocktakeRows } from "./commands.js";
import { StocktakeForm, stocktakeFormHeight } from "./forms.js";
import { StartView } from "./StartView.js";

const NO_IDS: readonly string[] = [];

/**
 * Stocktake: start a full or cycle count, count by scanner or keyboard on one input line, review
 * what differs from the books, and commit — journaled line by line, so nothing is lost or doubled.
 */
export function StocktakeScreen({ height, width }: ScreenProps) {
  const theme = useTheme();
  const view = useLoadedStore((s) => s.stocktake.view);
  const count = useLoadedStore((s) => s.stocktake.count);
  const form = useLoadedStore((s) => s.stocktake.form);
  const openHere = useLoadedStore((s) => s.stocktake.openHere);
  const recent = useLoadedStore((s) => s.stocktake.recent);
  const history = useLoadedStore((s) => s.stocktake.history);
  const feedback = useLoadedStore((s) => s.stocktake.feedback);
  const locationName = useLoadedStore((s) => s.locations.find((l) => l.id === s.locationId)?.name ?? "—");
  const tz = useLoadedStore(selectTimeZone);
  const review = view.kind === "review" && count ? countReview(count) : undefined;

  const panel = stocktakeFormHeight(form.kind);
  const bodyHeight = Math.max(4, height - panel);
  const unknown = count?.unknown ?? [];
  const listHeight =
    view.kind === "count"
      ? bodyHeight - COUNT_HEAD_ROWS
      : view.kind === "review" && count && review
        ? bodyHeight - reviewHead(count, review, width).rows - 1
        : view.kind === "home"
          ? bodyHeight - homeHead(openHere, feedback?.kind === "info" ? feedback.text : undefined, width, tz).rows - 1
          : bodyHeight - 2;
  const rows = useLoadedStore(useShallow((s) => stocktakeRows(s) ?? { list: "stocktake.none", ids: NO_IDS }));
  const list = useListWindow(rows.list, rows.ids, listRows(Math.max(3, listHeight)));
  const formOpen = form.kind !== "none";

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
        return <StartView height={bodyHeight} width={width} />;
      case "count":
        return <CountView height={bodyHeight} width={width} list={list} />;
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

/** The home view's lines above its list: the open count (if any) and the note, wrapped whole. */
function homeHead(openHere: CountListing | undefined, note: string | undefined, width: number, tz: string) {
  const stamp = (iso: string) => `${localDate(iso, tz)} ${localTime(iso, tz)}`;
  const open = !openHere
    ? []
    : wrapLines(
        openHere.status === "committing"
          ? `Unfinished commit: ${openHere.id} (${describeScope(openHere.scope)}) stopped at ${openHere.batchesAccepted} of ${plural(openHere.batches, "request")}.`
          : `Open count: ${openHere.id} (${describeScope(openHere.scope)}), started ${stamp(openHere.startedAt)}${openHere.counterName ? ` by ${openHere.counterName}` : ""}, ${plural(openHere.lines, "line")}${openHere.unknownCodes ? `, ${plural(openHere.unknownCodes, "unknown code")}` : ""}.`,
        width,
        3,
      );
  const said = wrapLines(
    note ?? "n starts a count: everything at the location, or a category, a search or a list of SKUs.",
    width,
    3,
  );
  // The title, the open count and its keys line, the note.
  return { open, note: said, rows: 1 + (open.length ? open.length + 1 : 0) + said.length };
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
  list: ListState;
  height: number;
  width: number;
  tz: string;
  locationName: string;
  note: string | undefined;
}) {
  const theme = useTheme();
  const columns = useMemo(() => countListColumns(tz), [tz]);
  const head = homeHead(openHere, note, width, tz);
  return (
    <Box flexDirection="column">
      <Txt bold>Stocktake at {locationName}</Txt>
      {head.open.map((line) => (
        <Txt key={line} color={theme.warn}>
          {line}
        </Txt>
      ))}
      {openHere ? (
        <Txt>
          <Txt bold>enter</Txt> resume · <Txt bold>c</Txt> commit · <Txt bold>D</Txt> discard
        </Txt>
      ) : null}
      {head.note.map((line) => (
        <Txt key={line} color={theme.muted}>
          {line}
        </Txt>
      ))}
      <ColumnList
        columns={columns}
        rows={recent}
        state={list}
        height={Math.max(3, height - head.rows)}
        width={width}
        rowKey={(c) => c.id}
        empty="No finished counts here yet."
      />
    </Box>
  );
}

/**
 * The review's lines above its list, each part whole: the count, its totals (wrapped onto a second
 * line when narrow), what is uncounted or unknown, and a note that is left out when it does not fit.
 */
function reviewHead(
  count: LoadedCount,
  review: { totals: ReturnType<typeof countTotals>; currency: string },
  width: number,
) {
  const t = review.totals;
  const h = count.header;
  const money = (amount: number) => formatMoney({ amount, currency: review.currency });
  const unknown = count.unknown.filter((u) => !u.resolvedTo).length;
  const room = width - 1;
  const title = wrapSegments([h.id, describeScope(h.scope), plural(t.lines, "line")], room - 7)[0] ?? "";
  const totals = wrapLines(
    `over ${groupedQuantity(t.unitsOver)} (${money(t.valueOver)}) short ${groupedQuantity(t.unitsShort)} (${money(t.valueShort)}) net ${money(t.valueNet)}`,
    room,
    2,
  );
  const state = wrapSegments(
    [
      t.uncounted
        ? `${plural(t.uncounted, "item")} not counted: ${h.uncounted === "zero" ? "set to zero" : "left untouched"} (z changes)`
        : "Every item of the count was counted.",
      unknown ? `${plural(unknown, "unknown code")} (u)` : "",
      t.unpriced ? `${t.unpriced} without a price` : "",
      t.outOfScope ? `${t.outOfScope} not in the count's scope` : "",
      t.expectedPending ? `expected of ${t.expectedPending} still being read (…)` : "",
      h.status === "committing" ? "its commit stopped halfway: c finishes it" : "",
    ].filter(Boolean),
    room,
    2,
  );
  const NOTE = "Each line carries the moment it was counted: the service places it among the sales made meanwhile.";
  const note = NOTE.length <= room ? NOTE : undefined;
  return {
    title,
    totals,
    state,
    warn: t.uncounted > 0 || unknown > 0,
    note,
    rows: 1 + totals.length + state.length + (note ? 1 : 0),
  };
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
  list: ListState;
  height: number;
  width: number;
}) {
  const theme = useTheme();
  const columns = useMemo(() => reviewColumns(review.currency), [review.currency]);
  const head = reviewHead(count, review, width);
  return (
    <Box flexDirection="column">
      <Txt>
        <Txt bold>Review</Txt> <Txt color={theme.muted}>{head.title}</Txt>
      </Txt>
      {head.totals.map((line) => (
        <Txt key={line} bold>
          {line}
        </Txt>
      ))}
      {head.state.map((line) => (
        <Txt key={line} color={head.warn ? theme.warn : theme.muted}>
          {line}
        </Txt>
      ))}
      {head.note ? <Txt color={theme.muted}>{head.note}</Txt> : null}
      <ColumnList
        columns={columns}
        rows={review.rows}
        state={list}
        height={Math.max(3, height - head.rows)}
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
  list: ListState;
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
  list: ListState;
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

/** Why a request of the commit is not through yet, in the manager's words. */
const whyNotThrough = (unreachable: boolean) =>
  unreachable ? "the service cannot be reached" : "the service said to try later";

/**
 * A commit whose requests failed a try: trying again now (which try, of how many at most), or
 * waiting for the next try (and when); and what the journal keeps meanwhile.
 */
function CommitRetrying({ progress: p }: { progress: CommitProgress }) {
  const theme = useTheme();
  const tz = useLoadedStore(selectTimeZone);
  const kept = p.batchesTotal - p.batchesDone;
  const t = p.trying;
  const w = p.waiting;
  // Each line fits 60 columns whole: the journal's promise (nothing counted twice) is said when it stops.
  return (
    <Box flexDirection="column">
      <Txt color={theme.warn} wrap="wrap">
        {t
          ? `Trying again (try ${t.attempt} of ${t.attempts}): ${whyNotThrough(t.unreachable)}.`
          : w
            ? `Waiting: ${whyNotThrough(w.unreachable)}; next try ${localTimeSeconds(w.nextTryAt, tz)}.`
            : ""}
      </Txt>
      <Txt color={theme.muted} wrap="wrap">
        {partOf(p.batchesDone, p.batchesTotal, "request")} accepted · {kept} kept in the journal
        {p.refused ? ` · ${p.refused} refused` : ""}
      </Txt>
    </Box>
  );
}

function CommitView() {
  const theme = useTheme();
  const commit = useLoadedStore((s) => s.stocktake.commit);
  const count = useLoadedStore((s) => s.stocktake.count);
  if (!commit) return null;
  const p = commit.progress;
  const outcome = commit.outcome;
  return (
    <Box flexDirection="column">
      <Txt bold>Committing {count?.header.id}</Txt>
      <ProgressBar label="lines" done={p.linesDone} total={p.linesTotal} width={30} />
      {(p.waiting || p.trying) && !outcome ? (
        <CommitRetrying progress={p} />
      ) : (
        <Txt color={theme.muted}>
          {partOf(p.batchesDone, p.batchesTotal, "request")} accepted
          {outcome ? "" : ` · ${p.inFlight} in flight`}
          {p.refused ? ` · ${p.refused} refused` : ""}
        </Txt>
      )}
      {outcome?.kind === "committed" ? (
        <Box flexDirection="column">
          <Txt color={theme.good}>
            ✓ Committed {plural(outcome.lines, "line")} as physical counts.
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
