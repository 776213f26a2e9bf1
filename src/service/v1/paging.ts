import { V1_EARLIEST_BEGIN, V1_PAGE_LIMIT } from "../../domain/limits.js";
import type { RequestContext } from "../context.js";
import { encodeCursor, type PositionGuard, readCursor } from "../cursor.js";
import { invalid } from "../errors.js";
import { addYears, pageLimit, parseTime, sortOrder } from "../params.js";

/** The earliest begin_time the V1 lists accept. */
const V1_EPOCH = new Date(V1_EARLIEST_BEGIN);

/** Where a V1 batch_token resumes: the query's resolved range and the last row given. */
interface Position {
  b?: string;
  e?: string;
  at: string;
  id: string;
}

const isPosition: PositionGuard<Position> = (p): p is Position => {
  if (typeof p !== "object" || p === null) return false;
  const { b, e, at, id } = p as Record<string, unknown>;
  const optionalText = (v: unknown) => v === undefined || typeof v === "string";
  return typeof at === "string" && typeof id === "string" && optionalText(b) && optionalText(e);
};

const yearAfter = (d: Date): Date => addYears(d, 1);
const yearBefore = (d: Date): Date => addYears(d, -1);

/**
 * A V1 reporting period: begin_time inclusive, end_time exclusive. Without either, the year up
 * to now; with only begin_time, up to now but at most a year; with only end_time, the year
 * before it. A begin before 2013-01-01, an end before the begin, or more than a year → refused.
 */
export function v1Range(query: Readonly<Record<string, unknown>>, now: Date): { begin: Date; end: Date } {
  const b = query.begin_time === undefined ? undefined : parseTime(query.begin_time, "begin_time");
  const e = query.end_time === undefined ? undefined : parseTime(query.end_time, "end_time");
  if (b && b < V1_EPOCH) {
    throw invalid("INVALID_TIME", "begin_time cannot be before 2013-01-01T00:00:00Z.", "begin_time");
  }
  const begin = b ?? (e ? yearBefore(e) : yearBefore(now));
  // A begin more than a year back with no end reads its first year, rather than refusing it.
  const end = e ?? (b && yearAfter(b) < now ? yearAfter(b) : now);
  if (end < begin) throw invalid("INVALID_TIME_RANGE", "end_time is before begin_time.", "end_time");
  if (end > yearAfter(begin)) {
    throw invalid("INVALID_TIME_RANGE", "end_time cannot be more than one year after begin_time.", "end_time");
  }
  return { begin, end };
}

/** A row of a V1 list: its sort time, id, and the object as JSON. */
export interface V1Row {
  t: string;
  id: string;
  data: string;
}

/** What one V1 list declares to {@link v1Page}. */
export interface V1ListSpec {
  /** `FROM ... WHERE` conditions over the columns `t` names; use `@name` parameters. */
  from: string;
  timeCol: string;
  where: string[];
  args: Record<string, unknown>;
  /** Whether the list takes begin_time/end_time. */
  ranged: boolean;
  limitDefault: number;
  /** For "approximate" limits: whether `next` belongs with `last` on the same page. */
  together?: (last: V1Row, next: V1Row) => boolean;
  /** Extra columns selected into each row. */
  select?: string;
}

/**
 * One page of a V1 list, in SQL with a keyset position, and the `Link` header for the next page:
 * `<{base}{path}?batch_token=...&{the query}>;rel='next'`. The batch token's position holds the
 * resolved range, so the default "last year" does not slide while a client pages.
 */
export function v1Page<R extends V1Row>(
  ctx: RequestContext,
  spec: V1ListSpec,
): { rows: R[]; headers: Record<string, string> } {
  const order = sortOrder(ctx.query.order, "ASC", "order");
  const limit = pageLimit(ctx.query.limit, { max: V1_PAGE_LIMIT, def: spec.limitDefault });
  const fingerprint = { path: ctx.path, ...ctx.query };
  const pos = readCursor(ctx.op.name, ctx.query.batch_token, fingerprint, isPosition, "batch_token");
  const where = [...spec.where];
  const args: Record<string, unknown> = { ...spec.args, limit: limit + 1 };
  let range: { b: string; e: string } | undefined;
  if (spec.ranged) {
    const r = pos?.b && pos.e ? { begin: new Date(pos.b), end: new Date(pos.e) } : v1Range(ctx.query, ctx.now);
    range = { b: r.begin.toISOString(), e: r.end.toISOString() };
    where.push(`${spec.timeCol} >= @b AND ${spec.timeCol} < @e`);
    Object.assign(args, range);
  }
  if (pos) {
    const cmp = order === "ASC" ? ">" : "<";
    where.push(`(${spec.timeCol} ${cmp} @at OR (${spec.timeCol} = @at AND id ${cmp} @id))`);
    Object.assign(args, { at: pos.at, id: pos.id });
  }
  const sql = `SELECT ${spec.timeCol} AS t, id, data${spec.select ? `, ${spec.select}` : ""} FROM ${spec.from}
    ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
    ORDER BY ${spec.timeCol} ${order}, id ${order}`;
  const stmt = ctx.db.prepare(`${sql} LIMIT @limit`);
  let rows = stmt.all(args) as R[];
  let more = rows.length > limit;
  rows = rows.slice(0, limit);
  if (more && spec.together) {
    // Keep rows that belong together (one refund over several tenders) on one page.
    const rest = ctx.db.prepare(`${sql} LIMIT -1 OFFSET @offset`).iterate({ ...args, offset: limit }) as Iterable<R>;
    more = false;
    for (const next of rest) {
      const last = rows[rows.length - 1];
      if (last && spec.together(last, next)) rows.push(next);
      else {
        more = true;
        break;
      }
    }
  }
  const last = rows[rows.length - 1];
  if (!more || !last) return { rows, headers: {} };
  const token = encodeCursor(ctx.op.name, fingerprint, { ...range, at: last.t, id: last.id } satisfies Position);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(ctx.query)) if (k !== "batch_token") params.set(k, String(v));
  params.set("batch_token", token);
  const path = ctx.op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ctx.path[name] ?? ""));
  return { rows, headers: { link: `<${ctx.baseUrl}${path}?${params.toString()}>;rel='next'` } };
}
