import type { CashDrawerShift, CashDrawerShiftEvent, CashDrawerShiftSummary } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { limitSql, stmt } from "../db.js";

/** A stored shift: the wire object with the columns it is found by. */
export interface StoredShift {
  merchantId: string;
  shift: CashDrawerShift & { id: string; location_id: string; opened_at: string; state: string };
}

/** Stores one shift (insert or replace). */
export function saveShift(db: Db, s: StoredShift): void {
  stmt(
    db,
    "INSERT OR REPLACE INTO cash_drawer_shifts (id, merchant_id, location_id, state, opened_at, data) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(s.shift.id, s.merchantId, s.shift.location_id, s.shift.state, s.shift.opened_at, JSON.stringify(s.shift));
}

/** Appends a shift's events; they must come in the order they happened, which `seq` keeps. */
export function saveShiftEvents(
  db: Db,
  shiftId: string,
  events: readonly (CashDrawerShiftEvent & { id: string; created_at: string })[],
): void {
  const put = stmt(db, "INSERT INTO cash_drawer_shift_events (id, shift_id, created_at, data) VALUES (?, ?, ?, ?)");
  for (const e of events) put.run(e.id, shiftId, e.created_at, JSON.stringify(e));
}

/** One shift of a location, or undefined (a shift of another location is not found either). */
export function findShift(db: Db, merchantId: string, locationId: string, id: string): CashDrawerShift | undefined {
  const row = stmt(db, "SELECT data FROM cash_drawer_shifts WHERE merchant_id = ? AND location_id = ? AND id = ?").get(
    merchantId,
    locationId,
    id,
  ) as { data: string } | undefined;
  return row ? (JSON.parse(row.data) as CashDrawerShift) : undefined;
}

/** Where a page of shifts stops: the last shift returned, by (opened_at, id). */
export interface ShiftPosition {
  o: string;
  i: string;
}

/** A window of a location's shifts by `opened_at`, in order, after `after` (keyset paging). */
export function listShifts(
  db: Db,
  q: {
    merchantId: string;
    locationId: string;
    begin?: string;
    end?: string;
    order: "ASC" | "DESC";
    after?: ShiftPosition;
    limit: number;
  },
): { summaries: CashDrawerShiftSummary[]; last?: ShiftPosition; more: boolean } {
  const where = ["merchant_id = ?", "location_id = ?"];
  const args: unknown[] = [q.merchantId, q.locationId];
  if (q.begin !== undefined) {
    where.push("opened_at >= ?");
    args.push(q.begin);
  }
  if (q.end !== undefined) {
    where.push("opened_at < ?");
    args.push(q.end);
  }
  if (q.after) {
    const cmp = q.order === "ASC" ? ">" : "<";
    where.push(`(opened_at ${cmp} ? OR (opened_at = ? AND id ${cmp} ?))`);
    args.push(q.after.o, q.after.o, q.after.i);
  }
  const rows = stmt(
    db,
    `SELECT id, opened_at, data FROM cash_drawer_shifts WHERE ${where.join(" AND ")} ORDER BY opened_at ${q.order}, id ${q.order} LIMIT ${limitSql(q.limit + 1)}`,
  ).all(...args) as { id: string; opened_at: string; data: string }[];
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const lastRow = page[page.length - 1];
  return {
    summaries: page.map((r) => summaryOf(JSON.parse(r.data) as CashDrawerShift)),
    more,
    ...(lastRow ? { last: { o: lastRow.opened_at, i: lastRow.id } } : {}),
  };
}

/** A page of one shift's events in the order they happened, after the event at `afterSeq`. */
export function listShiftEvents(
  db: Db,
  shiftId: string,
  afterSeq: number | undefined,
  limit: number,
): { events: CashDrawerShiftEvent[]; lastSeq?: number; more: boolean } {
  const rows = stmt(
    db,
    `SELECT seq, data FROM cash_drawer_shift_events WHERE shift_id = ? AND seq > ? ORDER BY seq LIMIT ${limitSql(limit + 1)}`,
  ).all(shiftId, afterSeq ?? -1) as { seq: number; data: string }[];
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const lastRow = page[page.length - 1];
  return {
    events: page.map((r) => JSON.parse(r.data) as CashDrawerShiftEvent),
    more,
    ...(lastRow ? { lastSeq: lastRow.seq } : {}),
  };
}

/** The summary a list returns: the shift without its event totals, device and team. */
function summaryOf(s: CashDrawerShift): CashDrawerShiftSummary {
  const out: CashDrawerShiftSummary = {};
  const keys = [
    "id",
    "state",
    "opened_at",
    "ended_at",
    "closed_at",
    "description",
    "opened_cash_money",
    "expected_cash_money",
    "closed_cash_money",
    "created_at",
    "updated_at",
    "location_id",
  ] as const;
  for (const k of keys) {
    const v = s[k];
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}
