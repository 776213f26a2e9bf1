/**
 * The Stocktake slice: I/O only. Its state is `StocktakeData` (stocktake-machine.ts) and changes
 * only through `countReducer`; the actions read and write the journal and the service
 * (stocktake-io.ts, -start.ts, -edits.ts, -finish.ts) and dispatch what happened.
 */
import type { FormProblem } from "../domain/form-problem.js";
import type { CountScope, UncountedChoice } from "../domain/stocktake.js";
import type { WriteResult } from "./errors.js";
import {
  dismissUnknown,
  openHistory,
  pickItem,
  refreshBooks,
  removeLine,
  resolveUnknown,
  setLine,
  setUncounted,
  toggleBlind,
  toggleScanOne,
} from "./stocktake-edits.js";
import { commitCount, exportCount, exportPathOf } from "./stocktake-finish.js";
import { answerQuestion, data, type StocktakeIo, submitEntry } from "./stocktake-io.js";
import {
  type CountEvent,
  countReducer,
  INITIAL_STOCKTAKE,
  type StocktakeData,
  type StocktakeForm,
  type StocktakeView,
} from "./stocktake-machine.js";
import { chooseScope, discardCount, refreshHome, resumeCount, startCount, startNew } from "./stocktake-start.js";
import type { LoadedSliceCreator } from "./store.js";

export { type EntryContext, type EntryReading, interpretEntry } from "./stocktake-entry.js";
export {
  type CountEvent,
  type CountFeedback,
  type CountPrompt,
  type CountQuestion,
  countedOf,
  countReducer,
  type EntrySource,
  expectedChangedText,
  expectedOf,
  INITIAL_STOCKTAKE,
  type LoadedCount,
  loadedCountOf,
  type PendingEntry,
  type StocktakeData,
  type StocktakeForm,
  type StocktakeView,
} from "./stocktake-machine.js";

/** The Stocktake slice. */
export interface StocktakeSlice {
  stocktake: StocktakeData;
  /** Applies an event to the screen's state: the one way it changes (the slice's I/O dispatches too). */
  stocktakeDispatch(event: CountEvent): void;
  /** Reads the journal for the location: an open count to offer, and recent counts. */
  loadStocktakeHome(): Promise<void>;
  stocktakeShow(view: StocktakeView): void;
  /** Begins starting a count (or offers the open one first). */
  stocktakeNew(): Promise<void>;
  stocktakeChooseScope(scope: CountScope | "category" | "search" | "skus"): Promise<void>;
  /**
   * Starts the count with its scope and counter: reads the catalog and the books, journals the
   * header. `blind`: the expected quantities hidden while counting, shown in the review.
   */
  stocktakeStart(counterId: string, options?: { blind?: boolean }): Promise<string | undefined>;
  /** Opens the location's open count (resume), including a commit that stopped halfway. */
  stocktakeResume(): Promise<void>;
  stocktakeDiscard(): Promise<void>;
  /** One entry of the counting line: a code, a quantity, +N, or words to search; resolves once handled. */
  stocktakeSubmit(text: string): Promise<void>;
  /** A scanner's code, wherever the keyboard is: counted as a code (never as a quantity); resolves once handled. */
  stocktakeScan(code: string): Promise<void>;
  stocktakePick(index: number): Promise<void>;
  stocktakeCancelPrompt(): void;
  stocktakeSetTyping(typing: boolean): void;
  stocktakeToggleScanOne(): Promise<void>;
  /** Blind count on or off (the expected quantities hidden while counting). */
  stocktakeToggleBlind(): Promise<void>;
  /**
   * Answers the counting line's question: yes adds a bare quantity to what is counted (or keeps a
   * count far from the books); no replaces the count with it (or drops the far count);
   * `undefined` (esc on add or replace) does neither.
   */
  stocktakeAnswer(yes: boolean | undefined): Promise<void>;
  stocktakeSetUncounted(choice: UncountedChoice): Promise<void>;
  /** Sets a line's count from the review (any line is editable). */
  stocktakeSetLine(variationId: string, text: string): Promise<FormProblem>;
  stocktakeRemoveLine(variationId: string): Promise<void>;
  stocktakeDismissUnknown(code: string): Promise<void>;
  /** Looks up what an unknown code is (a SKU, UPC or words) and counts it as that item. */
  stocktakeResolveUnknown(code: string, text: string): Promise<FormProblem>;
  /** Reads the books' quantities changed since the last read (`updated_after`). */
  stocktakeRefreshExpected(options?: { quiet?: boolean }): Promise<void>;
  stocktakeHistory(variationId: string): Promise<void>;
  stocktakeCommit(): Promise<void>;
  stocktakeOpenForm(form: StocktakeForm): void;
  stocktakeExportPath(what: "items" | "summary", countId: string): string;
  /** Writes the count's items or summary as CSV through the shell's `exportCsv`. */
  stocktakeExport(what: "items" | "summary", countId: string, typed: string): Promise<WriteResult<string[]>>;
  /** Leaves the loaded count (it stays in the journal). */
  stocktakeClose(): void;
  /** Another location: the count of the old one stays in the journal; this one's open count is offered. */
  stocktakeLocationChanged(): Promise<void>;
}

/** Another location: a count of the old one is closed (it stays in the journal), and this one's is offered. */
async function locationChanged(io: StocktakeIo): Promise<void> {
  const count = data(io).count;
  if (count && count.header.locationId !== io.get().locationId) io.dispatch({ type: "count-closed" });
  else if (!count && data(io).view.kind !== "home") io.dispatch({ type: "show", view: { kind: "home" } });
  await refreshHome(io);
}

/** Builds the Stocktake slice. */
export const createStocktakeSlice: LoadedSliceCreator<StocktakeSlice> = (set, get, deps) => {
  const dispatch = (event: CountEvent) => set((s) => ({ stocktake: countReducer(s.stocktake, event) }));
  const io: StocktakeIo = { get, dispatch, deps };
  return {
    stocktake: INITIAL_STOCKTAKE,
    stocktakeDispatch: dispatch,
    loadStocktakeHome: () => refreshHome(io),
    stocktakeShow: (view) => dispatch({ type: "show", view }),
    stocktakeNew: () => startNew(io),
    stocktakeChooseScope: (scope) => chooseScope(io, scope),
    stocktakeStart: (counterId, options) => startCount(io, counterId, options),
    stocktakeResume: () => resumeCount(io),
    stocktakeDiscard: () => discardCount(io),
    stocktakeSubmit: (text) => submitEntry(io, text, "typed"),
    stocktakeScan: (code) => submitEntry(io, code, "scan"),
    stocktakePick: (index) => pickItem(io, index),
    stocktakeCancelPrompt: () => dispatch({ type: "prompt-cancelled" }),
    stocktakeSetTyping: (typing) => dispatch({ type: "typing", typing }),
    stocktakeToggleScanOne: () => toggleScanOne(io),
    stocktakeToggleBlind: () => toggleBlind(io),
    stocktakeAnswer: (yes) => answerQuestion(io, yes),
    stocktakeSetUncounted: (choice) => setUncounted(io, choice),
    stocktakeSetLine: (variationId, text) => setLine(io, variationId, text),
    stocktakeRemoveLine: (variationId) => removeLine(io, variationId),
    stocktakeDismissUnknown: (code) => dismissUnknown(io, code),
    stocktakeResolveUnknown: (code, text) => resolveUnknown(io, code, text),
    stocktakeRefreshExpected: (options) => refreshBooks(io, options),
    stocktakeHistory: (variationId) => openHistory(io, variationId),
    stocktakeCommit: () => commitCount(io),
    stocktakeOpenForm: (form) => dispatch({ type: "form", form }),
    stocktakeExportPath: (what, countId) => exportPathOf(io, what, countId),
    stocktakeExport: (what, countId, path) => exportCount(io, what, countId, path),
    stocktakeClose: () => {
      dispatch({ type: "count-closed" });
      void refreshHome(io);
    },
    stocktakeLocationChanged: () => locationChanged(io),
  };
};
