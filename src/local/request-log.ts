// The shape every journal of requests shares — the stocktake commit's requests today, the outbox's
// writes next. A request is written down with its idempotency key and body before it is sent,
// marked sent before each try, and settled as accepted (with what the service answered) or
// superseded (set aside, with why). Replaying the unsettled ones after a crash sends the same key
// and body again, so the service answers what it did the first time instead of acting twice.

/** Where a journaled request stands. */
export type RequestState = "planned" | "sent" | "accepted" | "superseded";

/** A request as its log holds it. */
export interface LoggedRequest {
  /** Its position in the log: requests are sent in this order. */
  seq: number;
  /** Fixed when the request is written down; every try sends it. */
  idempotencyKey: string;
  state: RequestState;
  /** Tries so far. */
  attempts: number;
}

/** The log a replay reads and writes; each write is one transaction, on disk before the next step. */
export interface RequestLog<R extends LoggedRequest, Answer> {
  /** The requests not settled yet (planned, or sent with no answer heard), in order. */
  unsettled(): R[];
  /** Notes that a request is on its way: from now on its outcome is unknown until it is settled. */
  markSent(request: R, at: string): void;
  /** Notes that the service accepted it, with what the service answered. */
  markAccepted(request: R, answer: Answer, at: string): void;
}

/** Whether a request still has to be sent (again). */
export const isUnsettled = (state: RequestState): boolean => state === "planned" || state === "sent";
