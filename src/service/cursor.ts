import { invalid } from "./errors.js";
import { randomIds } from "./ids.js";
import { sortedJson } from "./sorted-json.js";

/**
 * Cursors are opaque to callers: a random token for a position (an offset or a keyset) that the
 * service keeps, with the operation and the query that made the listing. A cursor that was
 * altered, made up, or minted by another operation or another query is refused with
 * INVALID_CURSOR rather than paging from a position the query never produced.
 *
 * Kept rather than sealed: a position sealed into the cursor with an HMAC cost a listing page
 * 9–15 µs in `serve` (8–10 % of a page of counts or of a fuzzy customer search), nearly all of it
 * OpenSSL setting up the key for each seal.
 *
 * A cursor lives as long as the process and while it is among the newest given out: it does not
 * outlive a restart, and an old one expires, as a real service's cursors do.
 */
/** The most cursors kept. */
export const MAX_CURSORS = 10_000;
/**
 * The most characters of queries and positions kept: a query may be as long as a request body
 * (2 MB), and 10,000 of those would not fit in memory. Long queries' cursors expire sooner.
 */
export const MAX_CURSOR_CHARS = 8_000_000;
/** Characters of a token: 36^32, about 2^165 tokens. */
const TOKEN_LENGTH = 32;
/** Members of a query that move along a listing rather than shape it. */
const PAGING_KEYS = new Set(["cursor", "limit", "batch_token"]);

/** A cursor given out: the operation and query it pages, and the position it resumes at, as JSON. */
interface GivenCursor {
  op: string;
  query: string;
  position: string;
}

const charsOf = (c: GivenCursor): number => c.query.length + c.position.length;

/** The cursors given out, by token: the newest, within MAX_CURSORS and MAX_CURSOR_CHARS. */
class KeptCursors {
  private readonly byToken = new Map<string, GivenCursor>();
  /**
   * The tokens kept, a ring, oldest at `first`. Not the map's own order: finding a map's first key
   * walks the places of the keys deleted before it, thousands of them when the oldest goes each
   * time a cursor is given out (70 % of a page's cursor in a profile).
   */
  private readonly order: (string | undefined)[] = new Array(MAX_CURSORS);
  private first = 0;
  private count = 0;
  private chars = 0;

  get(token: string): GivenCursor | undefined {
    return this.byToken.get(token);
  }

  /** Keeps a cursor, forgetting the oldest as the limits require. */
  keep(token: string, cursor: GivenCursor): void {
    const chars = charsOf(cursor);
    while (this.count > 0 && (this.count >= MAX_CURSORS || this.chars + chars > MAX_CURSOR_CHARS)) {
      this.forgetOldest();
    }
    this.order[(this.first + this.count) % MAX_CURSORS] = token;
    this.count++;
    this.chars += chars;
    this.byToken.set(token, cursor);
  }

  private forgetOldest(): void {
    const token = this.order[this.first] ?? "";
    this.order[this.first] = undefined;
    this.first = (this.first + 1) % MAX_CURSORS;
    this.count--;
    const cursor = this.byToken.get(token);
    if (cursor === undefined) return;
    this.chars -= charsOf(cursor);
    this.byToken.delete(token);
  }
}

const kept = new KeptCursors();
const tokens = randomIds();

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

/** The query a cursor pages, as text: its members but paging, in order, written from one copy. */
function queryText(query: unknown): string {
  const omit = query !== null && typeof query === "object" && !Array.isArray(query) ? PAGING_KEYS : undefined;
  return sortedJson(query, omit);
}

/** The cursor of the page after `position`, for operation `op` and the query that made the listing. */
export function encodeCursor(op: string, query: unknown, position: unknown): string {
  const token = tokens.next(TOKEN_LENGTH);
  kept.keep(token, { op, query: queryText(query), position: JSON.stringify(position) });
  return token;
}

/**
 * The position a cursor holds, or undefined for no cursor; refused with INVALID_CURSOR (naming
 * `field`) unless this operation gave it out for this very query, and not too long ago. The
 * position is not checked: prefer {@link readCursor}, which is.
 */
export function decodeCursor(op: string, cursor: unknown, query: unknown, field = "cursor"): unknown {
  if (cursor === undefined || cursor === null || cursor === "") return undefined;
  const found = typeof cursor === "string" ? kept.get(cursor) : undefined;
  if (!found || found.op !== op || found.query !== queryText(query)) {
    throw invalid("INVALID_CURSOR", `The ${field} is not one this request gave out; start again without it.`, field);
  }
  return JSON.parse(found.position);
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
