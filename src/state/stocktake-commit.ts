/**
 * Committing a count: the lines become PHYSICAL_COUNT changes in requests of at most 100, each
 * request's idempotency key fixed and journaled before anything is sent, a few requests in
 * flight. A request whose answer never arrived (a crash, a dropped connection) is sent again
 * under the same key and body, so the service answers what it did the first time instead of
 * counting twice. Shared by the screen and the `stocktake` commands.
 */

import { partOf, plural } from "../domain/plural.js";
import {
  buildReview,
  commitLinesOf,
  type PlannedBatch,
  planCommitBatches,
  refusedChangeIndex,
} from "../domain/stocktake.js";
import {
  type CountRecord,
  CountStateError,
  type JournalBatch,
  type RefusedLine,
  type StocktakeJournal,
} from "../local/stocktake-journal.js";
import type { RequestOptions } from "../square/transport.js";
import { isUnreachable } from "./errors.js";
import {
  classifyFailure,
  DEFAULT_ROUNDS,
  type FailureVerdict,
  type ReplayEvent,
  type ReplayStop,
  replay,
} from "./replay.js";
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
  /**
   * Requests waiting to be tried again after a try that did not reach the service (`unreachable`)
   * or was told "later" (a 5xx, 429); `nextTryAt`: the soonest next try (ISO). Absent: none waits.
   */
  waiting?: { requests: number; unreachable: boolean; nextTryAt: string } | undefined;
  /**
   * Requests on their way again after a try that failed (the transport's own retries, or a try after
   * a wait): `attempt`, the furthest one's try, of `attempts` at most; `unreachable` as for
   * `waiting`. Absent: every request on its way is on its first try.
   */
  trying?: { requests: number; attempt: number; attempts: number; unreachable: boolean } | undefined;
}

/** A commit with nothing sent yet. */
export const NO_PROGRESS: CommitProgress = {
  batchesDone: 0,
  batchesTotal: 0,
  linesDone: 0,
  linesTotal: 0,
  inFlight: 0,
  refused: 0,
};

/** How a commit ended. */
export type CommitOutcome =
  | { kind: "committed"; lines: number; refused: RefusedLine[]; committedAt: string }
  | { kind: "stopped"; problem: string; short?: string; details: string | undefined; progress: CommitProgress };

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
  retryDelayMs?: ((round: number) => number) | undefined;
  /** How a wait is made (the store's timers). */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Per call: the transport's retries and timeout. */
  requestOptions?: RequestOptions;
  onProgress?: (p: CommitProgress) => void;
  /** Each try's end: `error` when it failed (a failure in transit: the service was not reached). */
  onTry?: (error: unknown) => void;
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
    firstSeq: journal.requests.nextSeq(countId),
  });
  journal.requests.plan(countId, batches, now.toISOString());
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

/** What a failed request of the commit means: a line the service named is set aside, the rest retried or stopped. */
function verdictOf(err: unknown, b: JournalBatch): FailureVerdict {
  const v = classifyFailure(err, { changes: "inventory changes", whole: "the commit", partOf: refusedChangeIndex });
  if (v.kind === "part" && v.index >= b.variationIds.length) {
    return { kind: "fatal", problem: "The service refused the commit.", details: v.details };
  }
  return v;
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

/** How far a planned commit is, from its requests in the journal. */
function progressOf(all: readonly JournalBatch[]): CommitProgress {
  const live = all.filter((b) => b.state !== "superseded");
  const accepted = live.filter((b) => b.state === "accepted");
  return {
    batchesDone: accepted.length,
    batchesTotal: live.length,
    linesDone: accepted.reduce((n, b) => n + b.variationIds.length, 0),
    linesTotal: live.reduce((n, b) => n + b.variationIds.length, 0),
    inFlight: 0,
    refused: all.length - live.length,
  };
}

/** The requests waiting to be tried again, by seq: when each is tried next, and whether it found no service. */
type Waits = Map<number, { at: number; unreachable: boolean }>;

/**
 * What the commit knows of each request's tries, by seq: how many were started, whether one is on
 * its way, and whether the last failure found no service; `attempts`: tries of one request at most.
 */
interface Tries {
  bySeq: Map<number, { started: number; onItsWay: boolean; unreachable: boolean }>;
  attempts: number;
}

/** The progress's `trying` from the requests on their way after a failed try. */
function tryingOf(tries: Tries): CommitProgress["trying"] {
  const again = [...tries.bySeq.values()].filter((t) => t.onItsWay && t.started > 1);
  if (again.length === 0) return undefined;
  return {
    requests: again.length,
    attempt: Math.max(...again.map((t) => t.started)),
    attempts: tries.attempts,
    unreachable: again.some((t) => t.unreachable),
  };
}

/** A request's try failed and the transport tries it again at once (after its short backoff). */
function noteRetry(progress: CommitProgress, tries: Tries, seq: number, error: unknown): void {
  const t = tries.bySeq.get(seq) ?? { started: 1, onItsWay: true, unreachable: false };
  tries.bySeq.set(seq, { started: t.started + 1, onItsWay: true, unreachable: isUnreachable(error) });
  progress.trying = tryingOf(tries);
}

/** A request is sent (a round's first try) or its round ended. */
function noteTries(progress: CommitProgress, tries: Tries, event: ReplayEvent<JournalBatch>): void {
  const seq = event.request.seq;
  const t = tries.bySeq.get(seq) ?? { started: 0, onItsWay: false, unreachable: false };
  if (event.kind === "sending") tries.bySeq.set(seq, { ...t, started: t.started + 1, onItsWay: true });
  else if (event.kind === "tried")
    tries.bySeq.set(seq, {
      ...t,
      onItsWay: false,
      unreachable: event.error !== undefined && isUnreachable(event.error),
    });
  progress.trying = tryingOf(tries);
}

/** The progress's `waiting` from the requests that wait now. */
function waitingOf(waits: Waits): CommitProgress["waiting"] {
  const all = [...waits.values()];
  if (all.length === 0) return undefined;
  const next = Math.min(...all.map((w) => w.at));
  return { requests: all.length, unreachable: all.some((w) => w.unreachable), nextTryAt: new Date(next).toISOString() };
}

/** Counts what happens to the requests into the progress the screen shows. */
function track(progress: CommitProgress, event: ReplayEvent<JournalBatch>, waits: Waits, now: () => Date): void {
  switch (event.kind) {
    case "sending":
      progress.inFlight++;
      waits.delete(event.request.seq);
      progress.waiting = waitingOf(waits);
      return;
    case "waiting":
      waits.set(event.request.seq, {
        at: now().getTime() + event.ms,
        unreachable: isUnreachable(event.verdict.cause),
      });
      progress.waiting = waitingOf(waits);
      return;
    case "tried":
      progress.inFlight--;
      return;
    case "accepted":
      progress.batchesDone++;
      progress.linesDone += event.request.variationIds.length;
      return;
    case "refused":
      progress.refused++;
      progress.linesTotal--;
      if (!event.replacement) progress.batchesTotal--;
      return;
  }
}

/**
 * The manager's words for a commit that stopped, with what is committed and what waits; `short`
 * in fewer words for a narrow terminal's status bar.
 */
export function stoppedProblem(
  stop: ReplayStop,
  progress: CommitProgress,
): { problem: string; short: string; details: string | undefined } {
  const cause =
    stop.kind === "aborted"
      ? "The commit was stopped."
      : stop.kind === "transient"
        ? // It answered "later" (a 5xx, 429) or was not reached at all: the manager is told which.
          stop.cause === undefined || isUnreachable(stop.cause)
          ? "The service cannot be reached."
          : "The service said to try later."
        : stop.kind === "part"
          ? "The service refused the commit."
          : stop.problem;
  const left = progress.batchesTotal - progress.batchesDone;
  return {
    problem: `${cause} Committed so far: ${partOf(progress.linesDone, progress.linesTotal, "line")}; ${plural(left, "request")} wait${left === 1 ? "s" : ""} in the journal — resume to finish, nothing is counted twice.`,
    short: `${cause} ${partOf(progress.linesDone, progress.linesTotal, "line")} committed; c resumes, nothing counts twice.`,
    details: stop.kind === "aborted" ? undefined : stop.details,
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
  const progress = progressOf(journal.requests.list(countId));
  const report = () => opts.onProgress?.({ ...progress });
  if (header.status === "committed") {
    const refused = refusedOf(journal, countId);
    return { kind: "committed", lines: progress.linesDone, refused, committedAt: header.committedAt ?? "" };
  }
  report();
  const waits: Waits = new Map();
  const perCall: RequestOptions = { maxRetries: 4, ...opts.requestOptions };
  const tries: Tries = {
    bySeq: new Map(),
    attempts: ((perCall.maxRetries ?? 0) + 1) * (opts.rounds ?? DEFAULT_ROUNDS),
  };
  const stop = await replay<JournalBatch, readonly string[]>({
    log: journal.requests.log(countId),
    send: async (b) => {
      const res = await opts.client.inventory.batchChangeInventory(b.body, {
        ...perCall,
        // The transport's own retries: the line says it is trying again, and the header whether the service answered.
        onRetry: ({ error }) => {
          noteRetry(progress, tries, b.seq, error);
          opts.onTry?.(error);
          report();
        },
      });
      return (res.changes ?? []).map((c) => c.physical_count?.id ?? "").filter((id) => id !== "");
    },
    classify: verdictOf,
    refusePart: (b, v) => {
      const variationId = b.variationIds[v.index] ?? "";
      const seq = journal.requests.nextSeq(countId);
      const replacement = withoutChange(b, v.index, seq, opts.newKey());
      const at = opts.now().toISOString();
      journal.requests.supersede(countId, b.seq, { variationId, problem: v.problem }, replacement, at);
      return replacement ? journal.requests.list(countId).find((x) => x.seq === seq) : undefined;
    },
    now: opts.now,
    concurrency: opts.concurrency,
    rounds: opts.rounds,
    retryDelayMs: opts.retryDelayMs,
    sleep: opts.sleep,
    signal: opts.signal,
    onEvent: (event) => {
      track(progress, event, waits, opts.now);
      noteTries(progress, tries, event);
      if (event.kind === "tried") opts.onTry?.(event.error);
      // A try's outcome is counted before its end: one report for each change of what is in flight.
      if (event.kind === "sending" || event.kind === "tried" || event.kind === "waiting") report();
    },
  });
  if (stop) {
    // Nothing waits any more: the commit stopped, and says why.
    progress.waiting = undefined;
    progress.trying = undefined;
    return { kind: "stopped", ...stoppedProblem(stop, progress), progress: { ...progress } };
  }
  const committedAt = opts.now().toISOString();
  journal.requests.finish(countId, committedAt);
  return { kind: "committed", lines: progress.linesDone, refused: refusedOf(journal, countId), committedAt };
}

function refusedOf(journal: StocktakeJournal, countId: string): RefusedLine[] {
  return journal.load(countId)?.refused ?? [];
}
