import type { Payout, PayoutEntry } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { limitSql, stmt } from "../db.js";

/** A keyset position: the time and id of the last record of a page. */
export interface Position {
  t: string;
  i: string;
}

/** Stores payouts (insert or replace). */
export function savePayouts(
  db: Db,
  merchantId: string,
  payouts: readonly (Payout & { created_at: string; status: string })[],
): void {
  const put = stmt(
    db,
    "INSERT OR REPLACE INTO payouts (id, merchant_id, location_id, status, created_at, data) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const p of payouts) put.run(p.id, merchantId, p.location_id, p.status, p.created_at, JSON.stringify(p));
}

/** Stores a payout's entries. */
export function savePayoutEntries(db: Db, entries: readonly (PayoutEntry & { effective_at: string })[]): void {
  const put = stmt(db, "INSERT INTO payout_entries (id, payout_id, effective_at, data) VALUES (?, ?, ?, ?)");
  for (const e of entries) put.run(e.id, e.payout_id, e.effective_at, JSON.stringify(e));
}

/** One payout of the seller, or undefined. */
export function findPayout(db: Db, merchantId: string, id: string): Payout | undefined {
  const row = stmt(db, "SELECT data FROM payouts WHERE merchant_id = ? AND id = ?").get(merchantId, id) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as Payout) : undefined;
}

/** Where clause and arguments that continue a keyset page after `after` in `order`. */
function keyset(
  timeColumn: string,
  order: "ASC" | "DESC",
  after: Position | undefined,
): { sql: string; args: unknown[] } {
  if (!after) return { sql: "", args: [] };
  const cmp = order === "ASC" ? ">" : "<";
  return {
    sql: ` AND (${timeColumn} ${cmp} ? OR (${timeColumn} = ? AND id ${cmp} ?))`,
    args: [after.t, after.t, after.i],
  };
}

/** A page of a location's payouts created in [begin, end), by created_at then id. */
export function listPayouts(
  db: Db,
  q: {
    merchantId: string;
    locationId: string;
    status?: string;
    begin: string;
    end: string;
    order: "ASC" | "DESC";
    after?: Position;
    limit: number;
  },
): { payouts: Payout[]; last?: Position; more: boolean } {
  const k = keyset("created_at", q.order, q.after);
  const status = q.status === undefined ? "" : " AND status = ?";
  const rows = stmt(
    db,
    `SELECT id, created_at, data FROM payouts
       WHERE merchant_id = ? AND location_id = ? AND created_at >= ? AND created_at < ?${status}${k.sql}
       ORDER BY created_at ${q.order}, id ${q.order} LIMIT ${limitSql(q.limit + 1)}`,
  ).all(q.merchantId, q.locationId, q.begin, q.end, ...(q.status === undefined ? [] : [q.status]), ...k.args) as {
    id: string;
    created_at: string;
    data: string;
  }[];
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    payouts: page.map((r) => JSON.parse(r.data) as Payout),
    more: rows.length > q.limit,
    ...(last ? { last: { t: last.created_at, i: last.id } } : {}),
  };
}

/** A page of one payout's entries, by effective_at then id. */
export function listPayoutEntries(
  db: Db,
  q: { payoutId: string; order: "ASC" | "DESC"; after?: Position; limit: number },
): { entries: PayoutEntry[]; last?: Position; more: boolean } {
  const k = keyset("effective_at", q.order, q.after);
  const rows = stmt(
    db,
    `SELECT id, effective_at, data FROM payout_entries WHERE payout_id = ?${k.sql}
       ORDER BY effective_at ${q.order}, id ${q.order} LIMIT ${limitSql(q.limit + 1)}`,
  ).all(q.payoutId, ...k.args) as { id: string; effective_at: string; data: string }[];
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    entries: page.map((r) => JSON.parse(r.data) as PayoutEntry),
    more: rows.length > q.limit,
    ...(last ? { last: { t: last.effective_at, i: last.id } } : {}),
  };
}
