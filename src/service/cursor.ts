import { createHmac, createSecretKey, randomBytes } from "node:crypto";
import { invalid } from "./errors.js";
import { sortedJson } from "./sorted-json.js";

/**
 * Cursors are opaque to callers: a position (an offset or a keyset) sealed with an HMAC over the
 * operation, the query and the position. A cursor that was altered, made up, or minted by another
 * operation or another query is refused with INVALID_CURSOR rather than paging from a position
 * the query never produced. The key lives for the process: a cursor does not outlive a restart,
 * as a real service's cursors expire. A key object, made once: createHmac takes it without
 * copying and checking raw bytes on every seal.
 */
const KEY = createSecretKey(randomBytes(32));
/** Members of a query that move along a listing rather than shape it. */
const PAGING_KEYS = new Set(["cursor", "limit", "batch_token"]);
/** Far longer than any cursor this service mints; a longer one is not ours. */
const MAX_CURSOR_LENGTH = 4096;

/** A check that a decoded position has the shape its listing writes. */
export type PositionGuard<P> = (p: unknown) => p is P;

/** An offset into a sorted list. */
export const isOffset: PositionGuard<number> = (p): p is number =>
  typeof p === "number" && Number.isSafeInteger(p) && p >= 0;

type FieldKind = "string" | "number";
type Shaped<S extends Record<string, FieldKind>> = { [K in keyof S]: S[K] extends "string" ? string : number };

/** A guard for a keyset position object with exactly these fields and kinds (`{t: "string", s: "number"}`). */
export function positionOf<S extends Record<string, FieldKind>>(shape: S): PositionGuard<Shaped<S>> {
  const fields = Object.entries(shape);
  return (p): p is Shaped<S> =>
    typeof p === "object" &&
    p !== null &&
    !Array.isArray(p) &&
    fields.every(([k, kind]) => {
      const v = (p as Record<string, unknown>)[k];
      return kind === "string" ? typeof v === "string" : typeof v === "number" && Number.isFinite(v);
    });
}

function seal(op: string, query: unknown, position: string): string {
  // The query's members but paging, in order, written from one copy.
  const omit = query !== null && typeof query === "object" && !Array.isArray(query) ? PAGING_KEYS : undefined;
  return createHmac("sha256", KEY)
    .update(`${op}\u0000${sortedJson(query, omit)}\u0000${position}`)
    .digest("base64url")
    .slice(0, 22);
}

/** The cursor of the page after `position`, for operation `op` and the query that made the listing. */
export function encodeCursor(op: string, query: unknown, position: unknown): string {
  const p = JSON.stringify(position);
  return Buffer.from(`{"p":${p},"m":"${seal(op, query, p)}"}`).toString("base64url");
}

/**
 * The position a cursor holds, or undefined for no cursor; refused with INVALID_CURSOR (naming
 * `field`) unless this operation minted it for this very query. The position is not checked:
 * prefer {@link readCursor}, which is.
 */
export function decodeCursor(op: string, cursor: unknown, query: unknown, field = "cursor"): unknown {
  if (cursor === undefined || cursor === null || cursor === "") return undefined;
  const refuse = () =>
    invalid("INVALID_CURSOR", `The ${field} is not one this request gave out; start again without it.`, field);
  if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_LENGTH) throw refuse();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  if (typeof parsed !== "object" || parsed === null || !("m" in parsed) || !("p" in parsed)) throw refuse();
  const { p, m } = parsed as { p: unknown; m: unknown };
  if (typeof m !== "string" || m !== seal(op, query, JSON.stringify(p))) throw refuse();
  return p;
}

/** The position a cursor holds, checked against the listing's position shape; undefined for no cursor. */
export function readCursor<P>(
  op: string,
  cursor: unknown,
  query: unknown,
  valid: PositionGuard<P>,
  field = "cursor",
): P | undefined {
  const p = decodeCursor(op, cursor, query, field);
  if (p === undefined) return undefined;
  if (!valid(p)) throw invalid("INVALID_CURSOR", `The ${field} is not valid.`, field);
  return p;
}

/**
 * One page of an already sorted list, by offset: the cursor holds the offset of the next record.
 * Rules with large tables should page in SQL with keyset positions instead.
 */
export function pageByOffset<T>(
  op: string,
  items: readonly T[],
  query: unknown,
  cursor: unknown,
  limit: number,
): { items: T[]; cursor?: string } {
  const start = readCursor(op, cursor, query, isOffset) ?? 0;
  const page = items.slice(start, start + limit);
  const next = start + limit < items.length ? encodeCursor(op, query, start + limit) : undefined;
  return next === undefined ? { items: page } : { items: page, cursor: next };
}
