/**
 * The Stocktake slice's I/O at the end of a count: the commit (planned and replayed from the
 * journal, progress shown as requests settle) and the CSV exports of a count in the journal.
 */

import { plural } from "../domain/plural.js";
import type { StocktakeJournal } from "../local/stocktake-journal.js";
import { type WriteResult, writeProblem } from "./errors.js";
import { nothingToExport } from "./export-csv.js";
import { type CommitOutcome, NO_PROGRESS, planCommit, runCommit } from "./stocktake-commit.js";
import { data, type StocktakeIo, withJournal } from "./stocktake-io.js";
import { loadedCountOf } from "./stocktake-machine.js";
import { itemsCsvOfRecord, summaryCsvOfRecord } from "./stocktake-review.js";

/** Plans the commit if the count is still open, then sends what is not settled yet. */
async function planAndRun(io: StocktakeIo, countId: string): Promise<CommitOutcome> {
  const j = await io.deps.stocktakeJournal.open();
  const now = () => io.deps.clock.now();
  if (j.get(countId)?.status === "open") planCommit(j, countId, now(), io.deps.newIdempotencyKey);
  const header = j.get(countId);
  if (header) io.dispatch({ type: "commit-planned", header });
  const shown = { key: "" };
  return runCommit({
    journal: j,
    countId,
    client: io.deps.client,
    now,
    newKey: io.deps.newIdempotencyKey,
    sleep: (ms) => new Promise((resolve) => io.deps.timers.after(ms, resolve)),
    // Each try tells the header whether the service answered: offline at the first that finds none.
    onTry: (error) => io.get().noteTry(error),
    onProgress: (p) => {
      // Only what the screen shows redraws it: requests settled, in flight, refused, waiting, trying again.
      const w = p.waiting;
      const t = p.trying;
      const key = `${p.batchesDone}/${p.batchesTotal}/${p.inFlight}/${p.refused}/${w ? `${w.requests}${w.unreachable}${w.nextTryAt}` : ""}/${t ? `${t.requests}${t.attempt}${t.unreachable}` : ""}`;
      if (key === shown.key) return;
      shown.key = key;
      io.dispatch({ type: "commit-progress", progress: p });
    },
  });
}

/** Says how a commit ended, in the status bar. */
function sayOutcome(io: StocktakeIo, countId: string, outcome: CommitOutcome): void {
  if (outcome.kind === "committed") {
    const refused = outcome.refused.length ? `; ${outcome.refused.length} refused by the service` : "";
    io.get().setStatus({
      screen: "stocktake",
      kind: "info",
      text: `Committed ${plural(outcome.lines, "line")} of ${countId}${refused}.`,
    });
  } else {
    const details = outcome.details ? { details: outcome.details } : {};
    const short = outcome.short ? { short: outcome.short } : {};
    io.get().setStatus({ screen: "stocktake", kind: "error", text: outcome.problem, ...short, ...details });
  }
}

/** Commits the open count (or finishes a commit that stopped): every line once, whatever happens on the way. */
export async function commitCount(io: StocktakeIo): Promise<void> {
  const count = data(io).count;
  if (!count) return;
  const id = count.header.id;
  if (count.header.status === "open" && count.lines.length === 0 && count.header.uncounted !== "zero") {
    io.get().setStatus({ screen: "stocktake", kind: "rule", text: "Nothing to commit: no line has been counted." });
    return;
  }
  io.dispatch({ type: "commit-started", progress: NO_PROGRESS });
  const res = await io.get().runWrite(`stocktake:${id}`, `Committing ${id}`, () => planAndRun(io, id), {
    triesTold: true,
  });
  if (!res.ok) {
    const problem = res.error.kind === "failed" ? res.error.problem.headline : writeProblem(res.error);
    if (!problem) {
      io.dispatch({ type: "show", view: { kind: "review" } });
      return;
    }
    const details = res.error.kind === "failed" ? res.error.problem.details : undefined;
    const progress = data(io).commit?.progress ?? NO_PROGRESS;
    io.dispatch({ type: "commit-ended", outcome: { kind: "stopped", problem, details, progress }, count: undefined });
    return;
  }
  const record = await withJournal(io, "Reading the count", (j: StocktakeJournal) => j.load(id));
  io.dispatch({ type: "commit-ended", outcome: res.value, count: record ? loadedCountOf(record) : undefined });
  sayOutcome(io, id, res.value);
}

/** The file an export offers first: the count's id and what it holds, in the exports folder. */
export const exportPathOf = (io: StocktakeIo, what: "items" | "summary", countId: string): string =>
  io.get().exportTarget("", `${countId}-${what}.csv`);

/** Writes the items or the summary of a count in the journal as CSV, through the shell's one writer. */
export async function exportCount(
  io: StocktakeIo,
  what: "items" | "summary",
  countId: string,
  typed: string,
): Promise<WriteResult<string[]>> {
  const rec = await withJournal(io, "Reading the count", (j) => j.load(countId));
  if (!rec) return nothingToExport(`There is no count ${countId} in the journal.`);
  const text = what === "items" ? itemsCsvOfRecord(rec) : summaryCsvOfRecord(rec);
  const path = io.get().exportTarget(typed, `${countId}-${what}.csv`);
  const written = await io.get().exportCsv([{ path, text, what: `the ${what} of ${countId}` }]);
  // A file already there is asked about in the one confirmation; the form closes either way.
  if (written.ok || written.error.kind === "exists") io.dispatch({ type: "form", form: { kind: "none" } });
  return written;
}
