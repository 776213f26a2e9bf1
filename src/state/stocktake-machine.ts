/**
 * The Stocktake screen's state as a pure machine: what it shows, the count it has open (the
 * journal's record, kept in memory so a scan needs no round trip), the counting line's prompt and
 * answer, the entries waiting their turn, and the commit's progress. `countReducer` is the one way
 * this state changes; the slice (stocktake-slice.ts) does the I/O and dispatches what happened.
 */
import type { QuantityUnits } from "../domain/quantity.js";
import type { CountLine, CountScope, ExpectedCount, StockItem, UncountedChoice } from "../domain/stocktake.js";
import type { CountHeader, CountListing, UnknownCode } from "../local/stocktake-journal.js";
import type { InventoryChange, TeamMember } from "../spec/generated/types.js";
import { type CommitOutcome, type CommitProgress, NO_PROGRESS } from "./stocktake-commit.js";
import { type LoadedCount, withBooks, withItems, withLine, withoutLine } from "./stocktake-count.js";
import type { CategoryChoice } from "./stocktake-source.js";

export {
  booksUnknown,
  countedOf,
  expectedChangedText,
  expectedOf,
  type LoadedCount,
  loadedCountOf,
} from "./stocktake-count.js";

/** What the Stocktake screen shows. */
export type StocktakeView =
  /** The location's open count (offered for resume, commit or discard) and recent counts. */
  | { kind: "home" }
  /** Starting a count: what to count, then who counts. */
  | { kind: "start"; step: "kind" | "category" | "search" | "skus" | "counter"; scope?: CountScope }
  /** Counting: the input line and the lines counted, most recent first. */
  | { kind: "count" }
  /** Review before commit: lines by absolute variance value, totals, uncounted items. */
  | { kind: "review" }
  /** The codes that matched nothing. */
  | { kind: "unknown" }
  /** One item's counts and adjustments, newest first. */
  | { kind: "history"; variationId: string; back: "count" | "review" }
  /** The commit: progress, then how it ended. */
  | { kind: "commit" };

/** What the counting line expects next. */
export type CountPrompt =
  | { kind: "code" }
  /** `skipped`: items scanned before it whose quantity was never typed (a burst of scans), named together. */
  | { kind: "quantity"; variationId: string; skipped?: readonly string[] }
  /** A name search found several items: pick one. */
  | { kind: "pick"; query: string; items: StockItem[]; resolving?: string };

/** The answer to the last entry, shown under the counting line. */
export type CountFeedback =
  | { kind: "counted"; variationId: string; quantity: string; added: boolean }
  /** A code kept to resolve later: the catalog has none (`unanswered`: the service could not be asked). */
  | { kind: "unknown"; code: string; unanswered: boolean }
  | { kind: "problem"; text: string }
  | { kind: "info"; text: string };

/** A form open over the view. */
export type StocktakeForm =
  | { kind: "none" }
  | { kind: "edit"; variationId: string }
  | { kind: "export"; what: "items" | "summary"; countId: string }
  | { kind: "resolve"; code: string };

/** Where an entry came from: typed on the counting line, or a scanner's burst (always a code). */
export type EntrySource = "typed" | "scan";

/** An entry waiting its turn: entries are handled one after another, in the order they came. */
export interface PendingEntry {
  seq: number;
  text: string;
  source: EntrySource;
}

/**
 * A question the count asks before it records a line: whether a bare quantity for an item
 * already counted adds to it or replaces it, or whether a count far from the books is meant.
 */
export type CountQuestion =
  | { kind: "add-or-replace"; variationId: string; units: QuantityUnits; text: string }
  | { kind: "far"; variationId: string; line: CountLine; added: boolean; text: string };

/** Book quantities to read for items that joined the count, a batch at a time. */
export interface BooksWanted {
  /** Items waiting for the next read. */
  wanted: readonly string[];
  /** A read is on its way. */
  reading: boolean;
}

/** Data of the Stocktake screen. */
export interface StocktakeData {
  view: StocktakeView;
  count: LoadedCount | undefined;
  /** The open (or half-committed) count at the location, when none is loaded. */
  openHere: CountListing | undefined;
  /** Recent counts at the location. */
  recent: CountListing[];
  categories: CategoryChoice[];
  members: TeamMember[];
  prompt: CountPrompt;
  feedback: CountFeedback | undefined;
  /** Whether the counting line has the keyboard (esc lets go of it for the screen's keys). */
  typing: boolean;
  /** Entries not handled yet, oldest first; the first is the one being handled. */
  entries: readonly PendingEntry[];
  /** The number of the last entry queued. */
  entrySeq: number;
  /** A code or words being looked up at the service (slow ones hold the entries behind them). */
  lookingUp: string | undefined;
  commit: { progress: CommitProgress; outcome: CommitOutcome | undefined } | undefined;
  history: { variationId: string; changes: InventoryChange[] | undefined } | undefined;
  form: StocktakeForm;
  busy: string | undefined;
  /** The question open on the counting line, if any (its line is recorded only when answered). */
  question: CountQuestion | undefined;
  /** Items whose count far from the books was kept: not asked about again in this count. */
  farKept: readonly string[];
  books: BooksWanted;
}

/** What happens to the Stocktake screen: I/O done by the slice, or a choice made on the screen. */
export type CountEvent =
  | { type: "home-read"; openHere: CountListing | undefined; recent: CountListing[] }
  /** `n` while a count is open here: it is offered first. */
  | { type: "open-count-first"; text: string }
  | { type: "show"; view: StocktakeView }
  /** `n`: what to count is asked first. */
  | { type: "start-asked" }
  | { type: "categories-read"; categories: CategoryChoice[] }
  | { type: "members-read"; members: TeamMember[]; scope: CountScope }
  | { type: "busy"; label: string | undefined }
  | { type: "count-opened"; count: LoadedCount; view: "count" | "review"; note: string }
  | { type: "count-closed" }
  | { type: "discarded"; countId: string }
  | { type: "entry-queued"; text: string; source: EntrySource }
  | { type: "entry-handled"; seq: number }
  /** A look-up at the service began (`text`) or ended (undefined). */
  | { type: "looking-up"; text: string | undefined }
  /** A line journaled: the count shows it and says so. */
  | { type: "line-recorded"; countId: string; line: CountLine; added: boolean }
  | { type: "line-removed"; countId: string; variationId: string }
  | { type: "quantity-asked"; variationId: string; skipped?: readonly string[] }
  | { type: "pick-offered"; query: string; items: StockItem[]; resolving?: string }
  | { type: "prompt-cancelled" }
  | { type: "typing"; typing: boolean }
  | { type: "problem"; text: string }
  | { type: "note"; text: string }
  /** Catalog entries found during the count (a look-up at the service), journaled with it. */
  | { type: "items-found"; countId: string; items: readonly StockItem[] }
  | { type: "unknown-kept"; countId: string; code: string; unknown: UnknownCode[]; unanswered: boolean }
  | { type: "unknown-resolved"; countId: string; code: string; variationId: string }
  | { type: "unknown-dismissed"; countId: string; code: string }
  /** `quiet`: the feedback line is left as it is (a change undone after a failure, which it reports). */
  | {
      type: "settings-changed";
      countId: string;
      scanOne?: boolean;
      uncounted?: UncountedChoice;
      blind?: boolean;
      quiet?: boolean;
    }
  /** Book quantities read (incrementally), and where the next read starts. */
  | { type: "books-read"; countId: string; counts: ReadonlyMap<string, ExpectedCount>; syncedAt: string | undefined }
  | { type: "history-opened"; variationId: string }
  | { type: "history-read"; variationId: string; changes: InventoryChange[] }
  | { type: "commit-started"; progress: CommitProgress }
  | { type: "commit-planned"; header: CountHeader }
  | { type: "commit-progress"; progress: CommitProgress }
  | { type: "commit-ended"; outcome: CommitOutcome; count: LoadedCount | undefined }
  | { type: "form"; form: StocktakeForm }
  | { type: "question-asked"; countId: string; question: CountQuestion }
  | { type: "question-closed" }
  | { type: "far-kept"; countId: string; variationId: string }
  /** Items joined the count whose book quantities are not known: read them (batched). */
  | { type: "books-wanted"; countId: string; ids: readonly string[] }
  /** The wanted items' read went out (the wanted list is emptied), or came back. */
  | { type: "books-reading"; countId: string; reading: boolean };

/** The Stocktake screen before anything is read. */
export const INITIAL_STOCKTAKE: StocktakeData = {
  view: { kind: "home" },
  count: undefined,
  openHere: undefined,
  recent: [],
  categories: [],
  members: [],
  prompt: { kind: "code" },
  feedback: undefined,
  typing: true,
  entries: [],
  entrySeq: 0,
  lookingUp: undefined,
  commit: undefined,
  history: undefined,
  form: { kind: "none" },
  busy: undefined,
  question: undefined,
  farKept: [],
  books: { wanted: [], reading: false },
};

const SCAN_ONE_ON = "Scan = 1 unit: every scan adds one.";
const SCAN_ONE_OFF = "Scan, then type the quantity (or +N to add to what is counted).";

/** Changes to the open count, applied only while the event's count is the one open. */
function countReducerOfCount(state: StocktakeData, count: LoadedCount, event: CountEvent): StocktakeData {
  switch (event.type) {
    case "line-recorded": {
      const { line, added } = event;
      const feedback: CountFeedback = {
        kind: "counted",
        variationId: line.variationId,
        quantity: line.quantity,
        added,
      };
      return { ...state, count: withLine(count, line), feedback, prompt: { kind: "code" } };
    }
    case "line-removed": {
      const name = count.items.get(event.variationId)?.name ?? event.variationId;
      const feedback: CountFeedback = { kind: "info", text: `Removed ${name}.` };
      return { ...state, count: withoutLine(count, event.variationId), feedback };
    }
    case "items-found":
      return { ...state, count: withItems(count, event.items) };
    case "unknown-kept":
      return {
        ...state,
        count: { ...count, unknown: event.unknown },
        feedback: { kind: "unknown", code: event.code, unanswered: event.unanswered },
        prompt: { kind: "code" },
      };
    case "unknown-resolved": {
      const unknown = count.unknown.map((u) => (u.code === event.code ? { ...u, resolvedTo: event.variationId } : u));
      return { ...state, count: { ...count, unknown } };
    }
    case "unknown-dismissed":
      return { ...state, count: { ...count, unknown: count.unknown.filter((u) => u.code !== event.code) } };
    case "settings-changed": {
      const header = {
        ...count.header,
        ...(event.scanOne === undefined ? {} : { scanOne: event.scanOne }),
        ...(event.uncounted === undefined ? {} : { uncounted: event.uncounted }),
        ...(event.blind === undefined ? {} : { blind: event.blind }),
      };
      const feedback: CountFeedback | undefined =
        event.scanOne === undefined || event.quiet
          ? state.feedback
          : { kind: "info", text: event.scanOne ? SCAN_ONE_ON : SCAN_ONE_OFF };
      return { ...state, count: { ...count, header }, feedback };
    }
    case "books-read":
      return { ...state, count: withBooks(count, event) };
    case "question-asked":
      return { ...state, question: event.question };
    case "far-kept":
      return state.farKept.includes(event.variationId)
        ? state
        : { ...state, farKept: [...state.farKept, event.variationId] };
    case "books-wanted": {
      const known = new Set([...state.books.wanted, ...event.ids]);
      return { ...state, books: { ...state.books, wanted: [...known] } };
    }
    case "books-reading":
      return { ...state, books: { wanted: event.reading ? [] : state.books.wanted, reading: event.reading } };
    default:
      return state;
  }
}

/** The id of the count an event is about, for the events that name one. */
function countIdOf(event: CountEvent): string | undefined {
  return "countId" in event && event.type !== "discarded" ? event.countId : undefined;
}

/** How the counting line and its answer change. */
function promptReducer(state: StocktakeData, event: CountEvent): StocktakeData {
  switch (event.type) {
    case "quantity-asked":
      // The quantity is typed next: the counting line takes the keys (after a scan too, so digits are
      // typed into it rather than read as the shell's number keys).
      return {
        ...state,
        prompt: {
          kind: "quantity",
          variationId: event.variationId,
          ...(event.skipped?.length ? { skipped: event.skipped } : {}),
        },
        feedback: undefined,
        typing: true,
      };
    case "pick-offered": {
      const { query, resolving } = event;
      // The count's own items first: a search for "tape" at a count of Electrical finds painter's tape too.
      const inScope = state.count?.inScope;
      const items = inScope
        ? [
            ...event.items.filter((i) => inScope.has(i.variationId)),
            ...event.items.filter((i) => !inScope.has(i.variationId)),
          ]
        : event.items;
      return { ...state, prompt: { kind: "pick", query, items, ...(resolving ? { resolving } : {}) }, typing: false };
    }
    case "prompt-cancelled":
      return { ...state, prompt: { kind: "code" }, typing: true, feedback: undefined };
    case "typing":
      return { ...state, typing: event.typing };
    case "problem":
      return { ...state, feedback: { kind: "problem", text: event.text } };
    case "note":
      return { ...state, feedback: { kind: "info", text: event.text } };
    case "entry-queued": {
      const seq = state.entrySeq + 1;
      return { ...state, entrySeq: seq, entries: [...state.entries, { seq, text: event.text, source: event.source }] };
    }
    case "entry-handled":
      return { ...state, entries: state.entries.filter((e) => e.seq !== event.seq) };
    case "looking-up":
      return { ...state, lookingUp: event.text };
    default:
      return state;
  }
}

/** How the count being committed changes. */
function commitReducer(state: StocktakeData, event: CountEvent): StocktakeData {
  switch (event.type) {
    case "commit-started":
      return { ...state, view: { kind: "commit" }, commit: { progress: event.progress, outcome: undefined } };
    case "commit-planned":
      return state.count?.header.id === event.header.id
        ? { ...state, count: { ...state.count, header: event.header } }
        : state;
    case "commit-progress":
      return { ...state, commit: { progress: event.progress, outcome: undefined } };
    case "commit-ended": {
      const { outcome } = event;
      const progress = outcome.kind === "stopped" ? outcome.progress : (state.commit?.progress ?? NO_PROGRESS);
      return { ...state, count: event.count ?? state.count, commit: { progress, outcome } };
    }
    default:
      return state;
  }
}

/** How the views, the home listing and the forms change. */
function screenReducer(state: StocktakeData, event: CountEvent): StocktakeData {
  switch (event.type) {
    case "home-read":
      return { ...state, openHere: event.openHere, recent: event.recent };
    case "open-count-first":
      return { ...state, view: { kind: "home" }, feedback: { kind: "info", text: event.text } };
    case "show":
      return {
        ...state,
        view: event.view,
        form: { kind: "none" },
        ...(event.view.kind === "count" ? { typing: true } : {}),
      };
    case "start-asked":
      return { ...state, view: { kind: "start", step: "kind" }, feedback: undefined };
    case "categories-read":
      return { ...state, categories: event.categories, view: { kind: "start", step: "category" } };
    case "members-read":
      return { ...state, members: event.members, view: { kind: "start", step: "counter", scope: event.scope } };
    case "busy":
      return { ...state, busy: event.label };
    case "count-opened":
      return {
        ...state,
        count: event.count,
        view: { kind: event.view },
        prompt: { kind: "code" },
        typing: true,
        feedback: { kind: "info", text: event.note },
        openHere: undefined,
        question: undefined,
        farKept: [],
        books: { wanted: [], reading: false },
      };
    case "question-closed":
      return { ...state, question: undefined };
    case "count-closed":
      return {
        ...state,
        count: undefined,
        view: { kind: "home" },
        prompt: { kind: "code" },
        feedback: undefined,
        commit: undefined,
      };
    case "discarded":
      return {
        ...state,
        count: state.count?.header.id === event.countId ? undefined : state.count,
        view: { kind: "home" },
        feedback: undefined,
      };
    case "history-opened": {
      const back = state.view.kind === "review" ? "review" : "count";
      return {
        ...state,
        view: { kind: "history", variationId: event.variationId, back },
        history: { variationId: event.variationId, changes: undefined },
      };
    }
    case "history-read":
      return state.history?.variationId === event.variationId
        ? { ...state, history: { variationId: event.variationId, changes: event.changes } }
        : state;
    case "form":
      return { ...state, form: event.form };
    default:
      return commitReducer(promptReducer(state, event), event);
  }
}

/**
 * The Stocktake screen's reducer: every change of its state is one of these events. An event
 * about a count that is no longer the one open (an answer that came back after it was closed)
 * changes nothing.
 */
export function countReducer(state: StocktakeData, event: CountEvent): StocktakeData {
  const about = countIdOf(event);
  if (about !== undefined) {
    return state.count?.header.id === about ? countReducerOfCount(state, state.count, event) : state;
  }
  return screenReducer(state, event);
}
