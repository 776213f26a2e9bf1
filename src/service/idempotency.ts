import { hash } from "node:crypto";
import type { HandlerResult, Replayable, RequestContext } from "./context.js";
import type { Db } from "./db.js";
import { invalid } from "./errors.js";
import { sortedJson } from "./sorted-json.js";

/** A rule as the pipeline calls it, with the body the validator passed. */
export type UntypedHandler = (ctx: RequestContext<Record<string, unknown>>) => HandlerResult;

/** A stored write's response as it was serialised for the idempotency record: sent as is. */
export const serialized = new WeakMap<HandlerResult, string>();

/**
 * A write that carries an idempotency key answers the first response again for the same body,
 * and refuses a different body under the same key. The record holds the answer as the rules
 * wrote it, or the rule's note to write it again from (HandlerResult.kept); the version stage
 * shapes a replay as it shapes the first answer. `sent` is the body's text as the caller sent it
 * (pipeline.ts, readInput), or "" when there is none (then the checked body, in canonical form).
 */
export function runIdempotent(
  db: Db,
  ctx: RequestContext<Record<string, unknown>>,
  sent: string,
  handler: UntypedHandler,
): HandlerResult {
  const field = ctx.op.idempotency?.field;
  const key = field ? ctx.body[field] : undefined;
  if (typeof key !== "string" || key === "" || !ctx.auth) return handler(ctx);
  const merchant = ctx.auth.merchantId;
  const request = sent === "" ? sortedJson(ctx.body) : sent;
  const seen = db
    .prepare(
      "SELECT body_hash, request, status, response, kept FROM idempotency WHERE merchant_id = ? AND operation = ? AND key = ?",
    )
    .get(merchant, ctx.op.name, key) as IdempotencyRecord | undefined;
  if (seen) {
    if (!sameRequest(seen, request)) {
      throw invalid("IDEMPOTENCY_KEY_REUSED", "The idempotency key was already used for a different request.", field);
    }
    const text = seen.kept === null ? seen.response : replayFrom(handler, ctx, seen.kept);
    return { status: seen.status, body: JSON.parse(text), json: text };
  }
  const result = handler(ctx);
  // A rule that has its answer as JSON already (HandlerResult.json) is not stringified again; one
  // that has not has the text kept for its answer. Only then: each entry keeps a large answer
  // alive through the next young-generation collection (a batch's 58 kB).
  let text = result.json;
  if (text === undefined) {
    text = JSON.stringify(result.body);
    serialized.set(result, text);
  }
  // A note is kept only by a rule that can write its answer again from it.
  const kept = result.kept !== undefined && replayOf(handler) ? result.kept : null;
  db.prepare(
    "INSERT INTO idempotency (merchant_id, operation, key, body_hash, request, status, response, kept, created_at) VALUES (?, ?, ?, '', ?, ?, ?, ?, ?)",
  ).run(
    merchant,
    ctx.op.name,
    key,
    request,
    result.status ?? 200,
    kept === null ? text : "",
    kept,
    ctx.now.toISOString(),
  );
  return result;
}

/** A rule's replay, if it keeps notes (see Replayable). */
const replayOf = (handler: UntypedHandler): Replayable["replay"] | undefined => (handler as Partial<Replayable>).replay;

/** The answer a record's note writes again. */
function replayFrom(handler: UntypedHandler, ctx: RequestContext, kept: string): string {
  const replay = replayOf(handler);
  if (!replay) throw new Error(`${ctx.op.name} kept a note for its replay but has no replay.`);
  return replay(ctx, kept);
}

interface IdempotencyRecord {
  /** SHA-256 of the canonical body: records made before migration 019 ("" after). */
  body_hash: string;
  /** The body as it was sent: records made since migration 019 (NULL before). */
  request: string | null;
  status: number;
  /** The answer as JSON, or "" when the rule kept a note to write it again from. */
  response: string;
  /** The rule's note (HandlerResult.kept), or NULL. */
  kept: string | null;
}

/**
 * Whether a request is the one a record was made for. The same text is the usual retry (a client
 * sends its stored body again); otherwise the two are compared as JSON values, whatever their key
 * order and white space.
 */
function sameRequest(seen: IdempotencyRecord, request: string): boolean {
  if (seen.request === null) return hash("sha256", canonical(request), "hex") === seen.body_hash;
  return seen.request === request || canonical(seen.request) === canonical(request);
}

/** A body's text in canonical form (keys sorted, no white space); text that is not JSON as it is. */
function canonical(text: string): string {
  try {
    return sortedJson(JSON.parse(text));
  } catch {
    return text;
  }
}
