// Sending what the outbox keeps, when the service answers again: the writes of one service in the
// order made, through the shared replay loop (replay.ts) — each claimed in the outbox file first,
// so a second backroom on this machine never sends the same write, then marked sent, sent with
// its own key and settled. A write the service refuses is set aside in To resolve with the
// refusal in words; the writes that wait for it stay kept. A failure in transit stops the round:
// the service is not answering, and the next connection check starts another.

import { type Refusal, refusalOf } from "../domain/kept-words.js";
import type { KeptAnswer, KeptEntry } from "../domain/kept-writes.js";
import type { Outbox, OutboxRequest } from "../local/outbox.js";
import { SquareApiError } from "../square/errors.js";
import { type KeptClient, KeptTargetMissing, sendKept } from "./outbox-send.js";
import { classifyFailure, type FailureVerdict, type ReplayStop, replay } from "./replay.js";

/** What happened to one write while the outbox was being sent. */
export type FlushEvent =
  | { kind: "sending"; entry: KeptEntry }
  | { kind: "accepted"; entry: KeptEntry; answer: KeptAnswer }
  | { kind: "refused"; entry: KeptEntry; refusal: Refusal };

/** What a flush needs. */
export interface FlushOptions {
  outbox: Outbox;
  /** The service whose writes are sent. */
  service: string;
  client: KeptClient;
  now: () => Date;
  signal?: AbortSignal;
  onEvent?: (event: FlushEvent) => void;
}

/** How a flush ended. */
export interface FlushResult {
  sent: number;
  refused: number;
  /** Why it stopped with writes still kept (the service stopped answering, the sign-in was refused). */
  stop: ReplayStop | undefined;
}

/** A refusal worked out in `classify`, for `refusePart` to journal. */
type Refused = OutboxRequest & { refusal?: Refusal; refusalDetails?: string };

const WORDS = { changes: "the changes kept on this machine", whole: "a kept change", partOf: () => 0 };

/** What a failed try of a kept write means: a refusal of this one write, or a reason to stop. */
function classify(err: unknown, request: Refused): FailureVerdict {
  if (err instanceof KeptTargetMissing) {
    const problem = `${request.entry.label}: what it changes was never made at the service.`;
    request.refusal = { problem, choices: ["discard"] };
    return { kind: "part", index: 0, problem, details: err.message };
  }
  const verdict = classifyFailure(err, WORDS);
  if (verdict.kind === "part" && err instanceof SquareApiError) {
    const first = err.errors[0];
    request.refusal = refusalOf(
      request.entry.write,
      { status: err.status, code: err.code, detail: first?.detail },
      request.entry.label,
    );
    request.refusalDetails = [err.code, `HTTP ${err.status}`, err.operation, first?.field ? `field ${first.field}` : ""]
      .filter(Boolean)
      .join(" · ");
  }
  return verdict;
}

/**
 * Sends a service's kept writes, in order, until each is settled or set aside, or the service
 * stops answering. Writes kept while it runs are sent in the same call.
 */
export async function flushOutbox(opts: FlushOptions): Promise<FlushResult> {
  const result: FlushResult = { sent: 0, refused: 0, stop: undefined };
  for (let round = 0; round < 50; round++) {
    const before = result.sent + result.refused;
    const log = opts.outbox.log(opts.service, opts.now);
    result.stop = await replay<Refused, KeptAnswer>({
      log,
      concurrency: 1,
      // The transport retried already; the next connection check starts another round.
      rounds: 1,
      now: opts.now,
      signal: opts.signal,
      send: (r) =>
        sendKept(r.entry.write, { client: opts.client, earlier: opts.outbox.answersBefore(opts.service, r.seq) }),
      classify,
      refusePart: (r) => {
        const refusal = r.refusal ?? { problem: `${r.entry.label}: the service refused it.`, choices: ["discard"] };
        opts.outbox.markRefused(r.seq, refusal.problem, r.refusalDetails, opts.now().toISOString());
        result.refused += 1;
        opts.onEvent?.({ kind: "refused", entry: r.entry, refusal });
        return undefined;
      },
      onEvent: (e) => {
        if (e.kind === "sending") opts.onEvent?.({ kind: "sending", entry: e.request.entry });
        if (e.kind === "accepted") {
          result.sent += 1;
          const settled = opts.outbox.get(e.request.seq);
          opts.onEvent?.({ kind: "accepted", entry: e.request.entry, answer: settled?.answer ?? {} });
        }
      },
    });
    // Another round only when this one settled something and more is ready (kept meanwhile).
    if (result.stop || result.sent + result.refused === before) break;
  }
  return result;
}
