/**
 * Committing a count: the lines become PHYSICAL_COUNT changes in requests of at most 100, each
 * request's idempotency key fixed and journaled before anything is sent, a few requests in
 * flight. A request whose answer never arrived (a crash, a dropped connection) is sent again
 * under the same key and body, so the service answers what it did the first time instead of
 * counting twice. Shared by the screen and the `stocktake` commands.
 */
import {
  buildReview,
  commitLinesOf,
  type PlannedBatch,
  planCommitBatches,
  refusedChangeIndex,
} from "../domain/stocktake.js";
import { SquareApiError, SquareError } from "../square/errors.js";
import type { RequestOptions } from "../square/transport.js";
import type { CountRecord, JournalBatch, RefusedLine, StocktakeJournal } from "./stocktake-journal.js";
import { CountStateError } from "./stocktake-journal.js";
import type { StocktakeClient } from "./stocktake-source.js";

/** How far a commit is. */
export interface CommitProgress {
  batchesDone: number;
  batchesTotal: number;
  linesDone: number;
  linesTotal: number;
  /** Requests on their way now. */
  inFlight: number;
  /** Lines the service refused so far (set aside; the rest is committed). */
  refused: number;
}

/** How a commit ended. */
export type CommitOutcome =
  | { kind: "committed"; lines: number; refused: RefusedLine[]; committedAt: string }
  | { kind: "stopped"; problem: string; details: string | undefined; progress: CommitProgress };

/** What a commit needs. */
export interface CommitOptions {
  journal: StocktakeJournal;
  countId: string;
  client: Pick<StocktakeClient, "inventory">;
  now: () => Date;
  newKey: () => string;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Tries of one request across transport failures (each try has the transport's own retries). Default 6. */
  rounds?: number;
  /** Wait before the next try of a request that failed in transit. */
  retryDelayMs?: (round: number) => number;
  /** Per call: the transport's retries and timeout. */
  requestOptions?: RequestOptions;
  onProgress?: (p: CommitProgress) => void;
  /** Stops sending new requests (those on their way finish and are journaled). */
  signal?: AbortSignal;
}

/**
 * Fixes the commit of an open count in the journal: the review's lines (a full count's
 * uncounted items at zero when so chosen), in requests with their keys. Returns the number of
 * lines; refuses a count with nothing to commit.
 */
export function planCommit(
  journal: StocktakeJournal,
  countId: string,
  now: Date,
  newKey: () => string,
): { lines: number; batches: number } {
  const record = journal.load(countId);
  if (!record) throw new CountStateError(`There is no count ${countId}.`);
  if (record.header.status !== "open") throw new CountStateError(`This count is already ${record.header.status}.`);
  const lines = commitLinesOfRecord(record, now);
  if (lines.length === 0) throw new CountStateError("Nothing to commit: no line has been counted.");
  const batches = planCommitBatches(lines, {
    referenceId: record.header.id,
    locationId: record.header.locationId,
    now,
    newKey,
    firstSeq: journal.nextBatchSeq(countId),
  });
  journal.planCommit(countId, batches, now.toISOString());
  return { lines: lines.length, batches: batches.length };
}

/** The lines a count would commit now. */
export function commitLinesOfRecord(record: CountRecord, now: Date) {
  const rows = buildReview({
    items: record.items,
    lines: record.lines,
    expected: record.expected,
    scope: record.scope,
    uncounted: record.header.uncounted,
  });
  return commitLinesOf(rows, now.toISOString(), record.header.counterId);
}

// 408 and 429 and 5xx say "try again later"; the transport retried them already and will again.
const TRANSIENT_STATUS = new Set([408, 429, 500, 502, 503, 504]);

type Verdict =
  | { kind: "transient"; details: string }
  | { kind: "line"; index: number; problem: string; details: string }
  | { kind: "fatal"; problem: string; details: string };

function verdictOf(err: unknown): Verdict {
  if (err instanceof SquareApiError) {
    const details = err.message;
    if (TRANSIENT_STATUS.has(err.status)) return { kind: "transient", details };
    if (err.status === 401 || err.status === 403) {
      return {
        kind: "fatal",
        problem: "The service no longer accepts this sign-in for inventory changes; sign in again, then resume.",
        details,
      };
    }
    const first = err.errors[0];
    const index = refusedChangeIndex(first?.field);
    if (index !== undefined && err.status >= 400 && err.status < 500) {
      return { kind: "line", index, problem: first?.detail ?? first?.code ?? `HTTP ${err.status}`, details };
    }
    return { kind: "fatal", problem: "The service refused the commit.", details };
  }
  if (err instanceof SquareError) return { kind: "transient", details: err.message };
  return { kind: "fatal", problem: "The commit stopped on an unexpected error.", details: String(err) };
}

/** The same request without one change, under a new key (the refused one changed nothing). */
function withoutChange(b: JournalBatch, index: number, seq: number, key: string): PlannedBatch | undefined {
  const changes = (b.body.changes ?? []).filter((_, i) => i !== index);
  if (changes.length === 0) return undefined;
  return {
    seq,
    idempotencyKey: key,
    variationIds: b.variationIds.filter((_, i) => i !== index),
    body: { ...b.body, idempotency_key: key, changes },
  };
}

/**
 * Sends every request of a planned commit that is not settled yet, a few at a time, journaling
 * each one as sent and then as accepted; finishes the count when all are. A line the service
 * refuses is set aside with its reason and the rest of its request sent again; a request that
 * keeps failing in transit stops the commit with everything journaled, to be resumed.
 */
export async function runCommit(opts: CommitOptions): Promise<CommitOutcome> {
  const { journal, countId } = opts;
  const header = journal.get(countId);
  if (!header) throw new CountStateError(`There is no count ${countId}.`);
  if (header.status === "open") throw new CountStateError("This count has no commit planned yet.");
  const all = journal.batches(countId);
  const live = all.filter((b) => b.state !== "superseded");
  const progress: CommitProgress = {
    batchesDone: live.filter((b) => b.state === "accepted").length,
    batchesTotal: live.length,
    linesDone: live.filter((b) => b.state === "accepted").reduce((n, b) => n + b.variationIds.length, 0),
    linesTotal: live.reduce((n, b) => n + b.variationIds.length, 0),
    inFlight: 0,
    refused: all.filter((b) => b.state === "superseded").length,
  };
  const report = () => opts.onProgress?.({ ...progress });
  if (header.status === "committed") {
    return {
      kind: "committed",
      lines: progress.linesDone,
      refused: refusedOf(journal, countId),
      committedAt: header.committedAt ?? "",
    };
  }

  const queue = live.filter((b) => b.state === "planned" || b.state === "sent");
  const rounds = opts.rounds ?? 6;
  const delay = opts.retryDelayMs ?? ((r: number) => Math.min(10_000, 500 * 2 ** r));
  const requestOptions: RequestOptions = { maxRetries: 4, ...opts.requestOptions };
  let stop: { problem: string; details: string | undefined } | undefined;
  report();

  const sendOne = async (b: JournalBatch): Promise<void> => {
    for (let round = 0; ; round++) {
      let again = false;
      journal.markSent(countId, b.seq, opts.now().toISOString());
      progress.inFlight++;
      report();
      try {
        const res = await opts.client.inventory.batchChangeInventory(b.body, requestOptions);
        const ids = (res.changes ?? []).map((c) => c.physical_count?.id ?? "").filter((id) => id !== "");
        journal.markAccepted(countId, b.seq, ids, opts.now().toISOString());
        progress.batchesDone++;
        progress.linesDone += b.variationIds.length;
        return;
      } catch (err) {
        const v = verdictOf(err);
        if (v.kind === "line" && v.index < b.variationIds.length) {
          const variationId = b.variationIds[v.index] ?? "";
          const replacement = withoutChange(b, v.index, journal.nextBatchSeq(countId), opts.newKey());
          journal.supersede(countId, b.seq, { variationId, problem: v.problem }, replacement, opts.now().toISOString());
          progress.refused++;
          progress.linesTotal--;
          if (!replacement) progress.batchesTotal--;
          else {
            const fresh = journal.batches(countId).find((x) => x.seq === replacement.seq);
            if (fresh) queue.unshift(fresh);
          }
          return;
        }
        if (v.kind === "transient" && round + 1 < rounds && !stop && !opts.signal?.aborted) again = true;
        else {
          stop ??=
            v.kind === "transient"
              ? { problem: "The service is not answering.", details: v.details }
              : { problem: v.kind === "line" ? "The service refused the commit." : v.problem, details: v.details };
          return;
        }
      } finally {
        progress.inFlight--;
        report();
      }
      if (again) await new Promise((r) => setTimeout(r, delay(round)));
    }
  };

  const worker = async () => {
    for (;;) {
      if (stop || opts.signal?.aborted) return;
      const b = queue.shift();
      if (!b) return;
      await sendOne(b);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));

  if (!stop && opts.signal?.aborted) stop = { problem: "The commit was stopped.", details: undefined };
  if (stop) {
    const left = progress.batchesTotal - progress.batchesDone;
    return {
      kind: "stopped",
      problem: `${stop.problem} ${progress.linesDone} of ${progress.linesTotal} lines are committed; ${left} request${left === 1 ? "" : "s"} wait${left === 1 ? "s" : ""} in the journal — resume to finish, nothing is counted twice.`,
      details: stop.details,
      progress: { ...progress },
    };
  }
  const committedAt = opts.now().toISOString();
  journal.finishCommit(countId, committedAt);
  return { kind: "committed", lines: progress.linesDone, refused: refusedOf(journal, countId), committedAt };
}

function refusedOf(journal: StocktakeJournal, countId: string): RefusedLine[] {
  return journal.load(countId)?.refused ?? [];
}
