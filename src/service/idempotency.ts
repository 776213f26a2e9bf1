import { hash } from "node:crypto";
import type { HandlerResult, RequestContext } from "./context.js";
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
 * wrote it; the version stage shapes a replay as it shapes the first answer.
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
  // The body as sent, keys in order (pipeline.ts, readInput): the same JSON sent with other white
  // space or key order is the same request. Taken from the checked body if the caller had none.
  // One-shot: a third of the time of a Hash object (createHash → update → digest) for a small body.
  const bodyHash = hash("sha256", sent === "" ? sortedJson(ctx.body) : sent, "hex");
  const seen = db
    .prepare("SELECT body_hash, status, response FROM idempotency WHERE merchant_id = ? AND operation = ? AND key = ?")
    .get(merchant, ctx.op.name, key) as { body_hash: string; status: number; response: string } | undefined;
  if (seen) {
    if (seen.body_hash !== bodyHash) {
      throw invalid("IDEMPOTENCY_KEY_REUSED", "The idempotency key was already used for a different request.", field);
    }
    const replay: HandlerResult = { status: seen.status, body: JSON.parse(seen.response) };
    serialized.set(replay, seen.response);
    return replay;
  }
  const result = handler(ctx);
  // A rule that has its answer as JSON already (HandlerResult.json) is not stringified again.
  const text = result.json ?? JSON.stringify(result.body);
  serialized.set(result, text);
  db.prepare(
    "INSERT INTO idempotency (merchant_id, operation, key, body_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(merchant, ctx.op.name, key, bodyHash, result.status ?? 200, text, ctx.now.toISOString());
  return result;
}
