import { plural } from "../../../domain/plural.js";
import type { ReviewRow } from "../../../domain/stocktake.js";
import { leftOutText } from "../../../domain/stocktake-checks.js";
import { type LoadedState, notKeptOffline } from "../../../state/index.js";
import { type LoadedCount, reviewOfRecord } from "../../../state/screens.js";
import {
  ch,
  defineLoadedCommands,
  type ListRows,
  listCommands,
  named,
  openRowCommand,
  selectedRow,
} from "../../commands.js";
import { scannedText } from "../../scan-detector.js";
import { countedRows } from "./columns.js";

/** The counting line's name as a focus place. */
export const COUNTING_LINE = "counting line";
/** Where the counting line's text is kept: it stays when esc gives the keys back (a second esc clears it). */
export const COUNT_DRAFT = "stocktake.count";

/**
 * Remembers the answer for each count, so a key press does not rebuild the review. Held weakly: a
 * count closed or discarded (10,000 lines: 9 MB) is let go with its answers, not kept until the
 * next count is reviewed.
 */
function perCount<R extends object>(compute: (count: LoadedCount) => R): (count: LoadedCount) => R {
  const made = new WeakMap<LoadedCount, R>();
  return (count) => {
    let value = made.get(count);
    if (value === undefined) {
      value = compute(count);
      made.set(count, value);
    }
    return value;
  };
}

/** The review of a count: rows by absolute variance value, totals, and the currency. */
export const countReview = perCount((count: LoadedCount) => reviewOfRecord(count));

const countedIds = perCount((count: LoadedCount) => countedRows(count).map((l) => l.variationId));

/** Ids of a list's rows, made once per array of rows (so a selector can return them as they are). */
function idsBy<T>(id: (row: T, index: number) => string): (rows: readonly T[]) => readonly string[] {
  const made = new WeakMap<readonly T[], readonly string[]>();
  return (rows) => {
    let ids = made.get(rows);
    if (!ids) {
      ids = rows.map(id);
      made.set(rows, ids);
    }
    return ids;
  };
}

type StocktakeData = LoadedState["stocktake"];
const recentIds = idsBy((c: StocktakeData["recent"][number]) => c.id);
const reviewIds = idsBy((r: ReviewRow) => r.item.variationId);
const unknownIds = idsBy((u: NonNullable<StocktakeData["count"]>["unknown"][number]) => u.code);
const changeIds = idsBy(
  (c: NonNullable<NonNullable<StocktakeData["history"]>["changes"]>[number], i: number) =>
    c.physical_count?.id ?? c.adjustment?.id ?? c.transfer?.id ?? String(i),
);
const NONE: readonly string[] = [];

/** The list the view shows and its rows' ids (the same array while the rows are the same). */
export function stocktakeRows(s: LoadedState): ListRows | undefined {
  const st = s.stocktake;
  const count = st.count;
  switch (st.view.kind) {
    case "home":
      return { list: "stocktake.home", ids: recentIds(st.recent) };
    case "count":
      return count ? { list: "stocktake.count", ids: countedIds(count) } : undefined;
    case "review":
      return count ? { list: "stocktake.review", ids: reviewIds(countReview(count).rows) } : undefined;
    case "unknown":
      return { list: "stocktake.unknown", ids: count ? unknownIds(count.unknown) : NONE };
    case "history":
      return { list: "stocktake.history", ids: st.history?.changes ? changeIds(st.history.changes) : NONE };
    default:
      return undefined;
  }
}

/** The item under the cursor on the count or the review. */
function selectedItem(s: LoadedState): string | undefined {
  const kind = s.stocktake.view.kind;
  return kind === "count" || kind === "review" ? selectedRow(s, stocktakeRows(s)) : undefined;
}

const isOpen = (s: LoadedState) => s.stocktake.count?.header.status === "open";
const needCount = (s: LoadedState) =>
  s.stocktake.count
    ? undefined
    : s.stocktake.openHere
      ? "Resume the open count first (enter)."
      : "No count is open: n starts one.";
const onView = (kinds: readonly string[], reason: string) => (s: LoadedState) =>
  kinds.includes(s.stocktake.view.kind) ? undefined : reason;
const exportable = (s: LoadedState) =>
  s.stocktake.view.kind === "home"
    ? (selectedRow(s, stocktakeRows(s)) ?? s.stocktake.openHere?.id)
    : s.stocktake.count?.header.id;

/** Why a commit waits while the service does not answer (after "The service is not answering, and "). */
export const COMMIT_NOT_KEPT = "a commit needs it: the count waits in the journal; c when it is back.";

/** Asks before committing: enter answers no (a commit cannot be taken back). */
function confirmCommit(s: LoadedState): void {
  const c = s.stocktake.count;
  if (!c) return;
  const offline = notKeptOffline(s, COMMIT_NOT_KEPT);
  if (offline) {
    s.setStatus({ kind: "rule", text: offline });
    return;
  }
  const resuming = c.header.status === "committing";
  const { totals } = countReview(c);
  const leftOut = leftOutText({
    unknownCodes: c.unknown.filter((u) => !u.resolvedTo).length,
    uncounted: totals.uncounted,
    uncountedChoice: c.header.uncounted,
  });
  s.ask({
    message: resuming
      ? `Finish committing ${c.header.id}? Requests the service already accepted are not sent as new changes.`
      : `Commit ${plural(totals.lines, "line")} of ${c.header.id} at ${c.header.locationName} as physical counts?${
          c.header.uncounted === "zero" && c.header.scope.kind === "full" ? " Uncounted items are set to zero." : ""
        }${leftOut ? ` ${leftOut}` : ""} It cannot be taken back.`,
    risky: true,
    yes: "Commit",
    onYes: () => s.stocktakeCommit(),
  });
}

/**
 * A scan on the Stocktake screen: counted on the open count whatever has the keyboard (the
 * counting line open or not), through the count's machine — a scan is always a code, never the
 * quantity the line asks for. The count's lines are shown, so the answer can be seen.
 */
export function scanIntoCount(s: LoadedState, code: string): unknown {
  const st = s.stocktake;
  const say = (text: string) => s.setStatus({ kind: "rule", text: `Scanned ${scannedText(code)}: ${text}` });
  if (!st.count) return say(st.openHere ? "resume the open count first (enter)." : "no count is open; n starts one.");
  if (!isOpen(s)) return say("this count is being committed; its lines can no longer change.");
  if (st.view.kind !== "count") s.stocktakeShow({ kind: "count" });
  return s.stocktakeScan(code);
}

/** What `r` reads again. */
export function reloadStocktake(s: LoadedState): unknown {
  return s.stocktake.count ? s.stocktakeRefreshExpected() : s.loadStocktakeHome();
}

/** The Stocktake screen's commands. */
export const STOCKTAKE_COMMANDS = defineLoadedCommands({
  ...listCommands(stocktakeRows),
  newCount: {
    keys: [ch("n")],
    label: "n",
    description: "start a new count",
    short: "new count",
    hint: 2,
    run: (s) => s.stocktakeNew(),
    unavailable: onView(["home", "commit"], "Leave this count first (esc); it stays in the journal."),
  },
  resume: {
    keys: [named("return")],
    label: "enter",
    description: "resume the open count",
    short: "resume",
    hint: 2,
    run: (s) => s.stocktakeResume(),
    unavailable: (s) =>
      s.stocktake.view.kind !== "home"
        ? "Counts are resumed from the Stocktake home."
        : s.stocktake.openHere
          ? undefined
          : "No count is open here: n starts one.",
  },
  editLine: {
    keys: [named("return")],
    label: "enter",
    description: "review: change the line's count",
    run: (s) => {
      const id = selectedItem(s);
      if (id) s.stocktakeOpenForm({ kind: "edit", variationId: id });
    },
    unavailable: (s) =>
      s.stocktake.view.kind !== "review"
        ? "Lines are changed from the review (v)."
        : !isOpen(s)
          ? "This count is being committed; its lines can no longer change."
          : selectedItem(s)
            ? undefined
            : "Nothing counted yet.",
  },
  resolve: openRowCommand({
    description: "unknown codes: say which item it is",
    target: (s) => (s.stocktake.view.kind === "unknown" ? selectedRow(s, stocktakeRows(s)) : undefined),
    open: (s, code) => s.stocktakeOpenForm({ kind: "resolve", code }),
    why: (s) =>
      s.stocktake.view.kind !== "unknown" ? "Codes are resolved from the unknown codes (u)." : "No unknown codes.",
  }),
  type: {
    keys: [named("return"), ch("i")],
    label: "enter/i",
    description: "type on the counting line",
    short: "type",
    hint: 2,
    run: (s) => (s.stocktake.view.kind === "count" ? s.stocktakeSetTyping(true) : s.stocktakeShow({ kind: "count" })),
    unavailable: (s) =>
      !isOpen(s)
        ? (needCount(s) ?? "This count is being committed; its lines can no longer change.")
        : s.stocktake.view.kind === "count" && s.stocktake.prompt.kind === "pick"
          ? "Choose the item first (enter), or esc."
          : undefined,
  },
  review: {
    keys: [ch("v")],
    label: "v",
    description: "review the count before committing",
    short: "review",
    hint: 3,
    run: (s) => s.stocktakeShow({ kind: "review" }),
    unavailable: needCount,
  },
  commit: {
    keys: [ch("c")],
    label: "c",
    description: "commit the count (or finish a commit that stopped)",
    short: "commit",
    write: true,
    hint: 4,
    run: (s) => {
      const st = s.stocktake;
      if (!st.count && st.openHere) return s.stocktakeResume().then(() => s.stocktakeShow({ kind: "review" }));
      if (st.view.kind !== "review" && st.view.kind !== "commit") {
        s.stocktakeShow({ kind: "review" });
        s.setStatus({ kind: "info", text: "Check the review, then c commits." });
        return;
      }
      confirmCommit(s);
    },
    unavailable: (s) => {
      const st = s.stocktake;
      if (!st.count) return st.view.kind === "home" && st.openHere ? undefined : "No count is open: n starts one.";
      const status = st.count.header.status;
      return status === "open" || status === "committing" ? undefined : "This count is already committed.";
    },
  },
  scanOne: {
    keys: [ch("s")],
    label: "s",
    description: "scan = 1 unit on/off",
    short: "scan = 1 unit",
    hint: 5,
    run: (s) => s.stocktakeToggleScanOne(),
    unavailable: (s) => needCount(s) ?? (isOpen(s) ? undefined : "This count is being committed."),
  },
  blind: {
    keys: [ch("b")],
    label: "b",
    description: "blind count on/off (expected hidden while counting, shown in the review)",
    run: (s) => s.stocktakeToggleBlind(),
    unavailable: (s) => needCount(s) ?? (isOpen(s) ? undefined : "This count is being committed."),
  },
  uncounted: {
    keys: [ch("z")],
    label: "z",
    description: "uncounted items: set to zero / leave untouched",
    short: "uncounted",
    hint: 5,
    run: (s) => {
      const count = s.stocktake.count;
      if (count) s.stocktakeSetUncounted(count.header.uncounted === "zero" ? "leave" : "zero");
    },
    unavailable: (s) => needCount(s) ?? (isOpen(s) ? undefined : "This count is being committed."),
  },
  unknown: {
    keys: [ch("u")],
    label: "u",
    description: "unknown codes",
    hint: 6,
    run: (s) => s.stocktakeShow({ kind: "unknown" }),
    unavailable: needCount,
  },
  history: {
    keys: [ch("h")],
    label: "h",
    description: "the item's counts and adjustments",
    run: (s) => {
      const id = selectedItem(s);
      if (id) return s.stocktakeHistory(id);
    },
    unavailable: (s) => (selectedItem(s) ? undefined : "Pick an item on the count or the review first."),
  },
  remove: {
    keys: [ch("x")],
    label: "x",
    description: "remove the line / dismiss the code",
    run: (s) => {
      if (s.stocktake.view.kind === "unknown") {
        const code = selectedRow(s, stocktakeRows(s));
        if (code) s.stocktakeDismissUnknown(code);
        return;
      }
      const id = selectedItem(s);
      const item = id ? s.stocktake.count?.items.get(id) : undefined;
      if (!id || !item) return;
      s.ask({
        message: `Remove the line of ${item.name} from the count?`,
        risky: true,
        yes: "Remove",
        onYes: () => s.stocktakeRemoveLine(id),
      });
    },
    unavailable: (s) => {
      if (s.stocktake.view.kind === "unknown")
        return selectedRow(s, stocktakeRows(s)) ? undefined : "No unknown codes.";
      if (!isOpen(s)) return needCount(s) ?? "This count is being committed; its lines can no longer change.";
      const id = selectedItem(s);
      return id && s.stocktake.count?.lineAt.has(id) ? undefined : "Pick a counted line on the count or the review.";
    },
  },
  discard: {
    keys: [ch("D")],
    label: "D",
    description: "discard the open count",
    run: (s) => {
      const { count, openHere } = s.stocktake;
      const accepted = count ? 0 : (openHere?.batchesAccepted ?? 0);
      s.ask({
        message: `Discard the count ${count?.header.id ?? openHere?.id}?${accepted ? ` ${accepted === 1 ? "1 of its requests is already committed and stays" : `${accepted} of its requests are already committed and stay`} so.` : " Nothing of it has been committed."} It cannot be taken back.`,
        risky: true,
        yes: "Discard",
        onYes: () => s.stocktakeDiscard(),
      });
    },
    unavailable: (s) => (s.stocktake.count || s.stocktake.openHere ? undefined : "No count is open here."),
  },
  exportItems: {
    keys: [ch("e")],
    label: "e",
    description: "export the items as CSV",
    short: "export",
    hint: 7,
    run: (s) => {
      const id = exportable(s);
      if (id) s.stocktakeOpenForm({ kind: "export", what: "items", countId: id });
    },
    unavailable: (s) => (exportable(s) ? undefined : "No count to export yet."),
  },
  exportSummary: {
    keys: [ch("E")],
    label: "E",
    description: "export the summary as CSV",
    run: (s) => {
      const id = exportable(s);
      if (id) s.stocktakeOpenForm({ kind: "export", what: "summary", countId: id });
    },
    unavailable: (s) => (exportable(s) ? undefined : "No count to export yet."),
  },
  back: {
    keys: [named("escape")],
    label: "esc",
    description: "back (on the count: clear the line, then leave the count)",
    palette: false,
    run: (s) => {
      const { view, count } = s.stocktake;
      // esc never lands in a field (src/ui/focus.ts): back on the count, the line is let go, so a
      // number key next is a screen; enter or i types again, and a scan is still counted.
      if (view.kind === "history") {
        s.stocktakeShow({ kind: view.back });
        if (view.back === "count") s.stocktakeSetTyping(false);
      } else if (view.kind === "review" || view.kind === "unknown") {
        const open = count?.header.status === "open";
        s.stocktakeShow({ kind: open ? "count" : "home" });
        if (open) s.stocktakeSetTyping(false);
        else s.stocktakeClose();
      } else if (view.kind === "count" && s.stocktake.prompt.kind === "pick") s.stocktakeCancelPrompt();
      else if (view.kind === "count" && s.drafts[COUNT_DRAFT]) s.setDraft(COUNT_DRAFT, "");
      else s.stocktakeClose();
    },
    unavailable: onView(["history", "review", "unknown", "count", "commit"], "Nothing to go back from."),
  },
});
