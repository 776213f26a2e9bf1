import { createHash } from "node:crypto";
import { invalid } from "./errors.js";

/** What a paged query is: everything that shapes its results except the cursor and the limit. */
function fingerprint(query: unknown): string {
  return createHash("sha256").update(stableJson(query)).digest("base64url").slice(0, 16);
}

/** JSON with sorted keys, so that two equal queries give the same text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => v !== undefined && k !== "cursor" && k !== "limit" && k !== "batch_token")
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** An opaque cursor holding a position, tied to the query it came from. */
export function encodeCursor(query: unknown, position: unknown): string {
  return Buffer.from(JSON.stringify({ q: fingerprint(query), p: position })).toString("base64url");
}

/**
 * The position a cursor holds, or undefined for no cursor. A cursor that is not ours, or that
 * came from another query, is refused: paging a changed query would skip or repeat records.
 */
export function decodeCursor<P>(cursor: unknown, query: unknown, field = "cursor"): P | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  let parsed: { q?: unknown; p?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(String(cursor), "base64url").toString("utf8"));
  } catch {
    throw invalid("INVALID_CURSOR", "The cursor is not valid.", field);
  }
  if (typeof parsed !== "object" || parsed === null || parsed.q === undefined) {
    throw invalid("INVALID_CURSOR", "The cursor is not valid.", field);
  }
  if (parsed.q !== fingerprint(query)) {
    throw invalid("INVALID_CURSOR", "The cursor belongs to a different query; start again without a cursor.", field);
  }
  return parsed.p as P;
}

/**
 * One page of an already sorted list, by offset: the cursor holds the offset of the next record.
 * Rules with large tables should page in SQL with keyset positions instead.
 */
export function pageByOffset<T>(
  items: readonly T[],
  query: unknown,
  cursor: unknown,
  limit: number,
): { items: T[]; cursor?: string } {
  const start = decodeCursor<number>(cursor, query) ?? 0;
  if (typeof start !== "number" || start < 0 || !Number.isInteger(start)) {
    throw invalid("INVALID_CURSOR", "The cursor is not valid.", "cursor");
  }
  const page = items.slice(start, start + limit);
  const next = start + limit < items.length ? encodeCursor(query, start + limit) : undefined;
  return next === undefined ? { items: page } : { items: page, cursor: next };
}
