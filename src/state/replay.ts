/**
 * Replaying a log of journaled requests (local/request-log.ts): the stocktake commit's requests
 * today, the outbox's writes next. Each unsettled request is marked sent in the log, then sent
 * with the key and body it was written down with, then marked accepted — so a request whose
 * answer never arrived (a crash, a dropped connection) is sent again under the same key, and the
 * service answers what it did the first time instead of acting twice.
 *
 * The loop owns only the mechanism: how many at once, how often a request is tried across
 * transport failures, and when to stop. What a failure means (`classify`), what to do with a
 * refused part (`refusePart`) and the words of the outcome belong to the caller.
 */
import type { LoggedRequest, RequestLog } from "../local/request-log.js";
import { SquareApiError, SquareError } from "../square/errors.js";

// 408 and 429 and 5xx say "try again later"; the transport retried them already and will again.
const TRANSIENT_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** What a failed try means. */
export type FailureVerdict =
  /** Try again later, with the same key and body; `cause`: the failure (did the service answer?). */
  | { kind: "transient"; details: string; cause?: unknown }
  /** The service refused one part of the request (a line of a batch); the rest may go through. */
  | { kind: "part"; index: number; problem: string; details: string }
  /** Nothing more will go through now (signed out, refused as a whole). */
  | { kind: "fatal"; problem: string; details: string };

/** Why a replay stopped before every request was settled. */
export type ReplayStop = FailureVerdict | { kind: "aborted" };

/** What happened to a request, for a progress display. */
export type ReplayEvent<R> =
  | { kind: "sending"; request: R }
  /** A try ended (whatever its outcome): the request is no longer in flight; `error`: how it failed. */
  | { kind: "tried"; request: R; error?: unknown }
  /** A try failed in transit: the request is tried again after `ms`. */
  | { kind: "waiting"; request: R; verdict: Extract<FailureVerdict, { kind: "transient" }>; ms: number }
  | { kind: "accepted"; request: R }
  /** A part was refused; `replacement` (the rest, under a new key) is sent next, if any. */
  | { kind: "refused"; request: R; replacement: R | undefined };

/** What a replay needs. */
export interface ReplayOptions<R extends LoggedRequest, Answer> {
  log: RequestLog<R, Answer>;
  send: (request: R) => Promise<Answer>;
  /** What a failure of `request` means. */
  classify: (err: unknown, request: R) => FailureVerdict;
  /** Journals a refused part and returns what is left of the request as a new one, if anything. */
  refusePart?: (request: R, verdict: Extract<FailureVerdict, { kind: "part" }>) => R | undefined;
  now: () => Date;
  /** Requests in flight at once. Default 4. */
  concurrency?: number | undefined;
  /** Tries of one request across transport failures. Default 6. */
  rounds?: number | undefined;
  /** Wait before the next try of a request that failed in transit. */
  retryDelayMs?: ((round: number) => number) | undefined;
  /** How a wait is made (the store's timers; tests pass their own). */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Stops sending new requests (those on their way finish and are journaled). */
  signal?: AbortSignal | undefined;
  onEvent?: ((event: ReplayEvent<R>) => void) | undefined;
}

/** Tries of one request across transport failures, unless the caller says otherwise. */
export const DEFAULT_ROUNDS = 6;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const defaultDelay = (round: number) => Math.min(10_000, 500 * 2 ** round);

/**
 * Sends every unsettled request of the log, a few at a time, in order. Resolves with why it
 * stopped, or undefined when every request was settled.
 */
export async function replay<R extends LoggedRequest, Answer>(
  opts: ReplayOptions<R, Answer>,
): Promise<ReplayStop | undefined> {
  const queue = opts.log.unsettled();
  const run: { stop: ReplayStop | undefined } = { stop: undefined };
  const worker = async () => {
    for (;;) {
      if (run.stop || opts.signal?.aborted) return;
      const request = queue.shift();
      if (!request) return;
      // A log shared with other processes hands each request to one sender; one not ready waits.
      if (opts.log.claim && !opts.log.claim(request)) continue;
      try {
        const replacement = await tryRequest(request, opts, run);
        if (replacement) queue.unshift(replacement);
      } finally {
        opts.log.release?.(request);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));
  return run.stop ?? (opts.signal?.aborted ? { kind: "aborted" } : undefined);
}

/** Tries one request until it is settled, refused in part, or the replay stops; returns a replacement to send. */
async function tryRequest<R extends LoggedRequest, Answer>(
  request: R,
  opts: ReplayOptions<R, Answer>,
  run: { stop: ReplayStop | undefined },
): Promise<R | undefined> {
  const rounds = opts.rounds ?? DEFAULT_ROUNDS;
  for (let round = 0; ; round++) {
    opts.log.markSent(request, opts.now().toISOString());
    opts.onEvent?.({ kind: "sending", request });
    let verdict: FailureVerdict;
    let error: unknown;
    try {
      const answer = await opts.send(request);
      opts.log.markAccepted(request, answer, opts.now().toISOString());
      opts.onEvent?.({ kind: "accepted", request });
      opts.onEvent?.({ kind: "tried", request });
      return undefined;
    } catch (err) {
      error = err;
      verdict = opts.classify(err, request);
    }
    if (verdict.kind === "part" && opts.refusePart) {
      const replacement = opts.refusePart(request, verdict);
      opts.onEvent?.({ kind: "refused", request, replacement });
      opts.onEvent?.({ kind: "tried", request, error });
      return replacement;
    }
    opts.onEvent?.({ kind: "tried", request, error });
    const again = verdict.kind === "transient" && round + 1 < rounds && !run.stop && !opts.signal?.aborted;
    if (!again || verdict.kind !== "transient") {
      run.stop ??= verdict;
      return undefined;
    }
    const ms = (opts.retryDelayMs ?? defaultDelay)(round);
    opts.onEvent?.({ kind: "waiting", request, verdict, ms });
    await (opts.sleep ?? defaultSleep)(ms);
  }
}

/** How {@link classifyFailure} words a stop, and finds the part a refusal names. */
export interface FailureWords {
  /** What is being written, after "for": "inventory changes". */
  changes: string;
  /** The whole, as the subject of a sentence: "the commit". */
  whole: string;
  /** The part of the request a refused field names (`changes[3].quantity` → 3), if any. */
  partOf?: (field: string | undefined) => number | undefined;
}

/**
 * What a failure of a write to the service means: a transport failure or a "later" status is
 * transient; a refused sign-in is fatal; a 4xx that names one part refuses that part.
 */
export function classifyFailure(err: unknown, words: FailureWords): FailureVerdict {
  if (err instanceof SquareApiError) {
    const details = err.message;
    if (TRANSIENT_STATUS.has(err.status)) return { kind: "transient", details, cause: err };
    if (err.status === 401 || err.status === 403) {
      const problem = `The service no longer accepts this sign-in for ${words.changes}; sign in again, then resume.`;
      return { kind: "fatal", problem, details };
    }
    const first = err.errors[0];
    const index = words.partOf?.(first?.field);
    if (index !== undefined && err.status >= 400 && err.status < 500) {
      return { kind: "part", index, problem: first?.detail ?? first?.code ?? `HTTP ${err.status}`, details };
    }
    return { kind: "fatal", problem: `The service refused ${words.whole}.`, details };
  }
  if (err instanceof SquareError) return { kind: "transient", details: err.message, cause: err };
  const subject = words.whole.charAt(0).toUpperCase() + words.whole.slice(1);
  return { kind: "fatal", problem: `${subject} stopped on an unexpected error.`, details: String(err) };
}
