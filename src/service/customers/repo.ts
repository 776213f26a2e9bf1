import type { Card, CustomerGroup } from "../../spec/generated/types.js";
import { type Db, limitSql } from "../db.js";
import { emailKey, nameKey, phoneDigits, type StoredCustomer } from "./rules.js";

/** The row values of a profile, in the column order of {@link customerInsertSql}. */
export function customerRow(merchantId: string, c: StoredCustomer, nameRank: number | null): unknown[] {
  return [
    c.id,
    merchantId,
    nameKey(c),
    c.email_address ? emailKey(c.email_address) : null,
    c.phone_number ? phoneDigits(c.phone_number) : null,
    c.reference_id ?? null,
    c.creation_source,
    c.created_at,
    c.updated_at,
    c.version,
    JSON.stringify(c),
    nameRank,
  ];
}

/** Inserts or replaces a profile with its indexed copies (prepare once for bulk loads). */
export const customerInsertSql = `INSERT INTO customers
  (id, merchant_id, name_key, email_key, phone_key, reference_id, creation_source, created_at, updated_at, version, data, name_rank)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT(id) DO UPDATE SET name_key = excluded.name_key, email_key = excluded.email_key,
    phone_key = excluded.phone_key, reference_id = excluded.reference_id, creation_source = excluded.creation_source,
    updated_at = excluded.updated_at, version = excluded.version, data = excluded.data, name_rank = excluded.name_rank`;

/** The room left between neighbours in the default order when profiles are laid out in bulk. */
export const NAME_RANK_SPACING = 1_048_576;

/**
 * Writes a profile. Its `name_rank` (its place in the default order, which keys the search
 * index) is kept while its name is; a new profile, or a renamed one, takes the middle of the gap
 * between its new neighbours.
 */
export function saveCustomer(db: Db, merchantId: string, c: StoredCustomer): void {
  const key = nameKey(c);
  const held = db
    .prepare("SELECT merchant_id AS m, name_key AS k, name_rank AS r FROM customers WHERE id = ?")
    .get(c.id) as { m: string; k: string; r: number | null } | undefined;
  let rank = held && held.m === merchantId && held.k === key ? held.r : null;
  if (rank === null) {
    // Out of the order while its new place is found, so that no rank it holds is in the way.
    if (held) db.prepare("UPDATE customers SET name_rank = NULL WHERE id = ?").run(c.id);
    rank = rankFor(db, merchantId, key, c.id);
  }
  db.prepare(customerInsertSql).run(...customerRow(merchantId, c, rank));
}

/** The profiles just before and just after a place in the default order (not counting `id` itself). */
function neighbours(
  db: Db,
  merchantId: string,
  key: string,
  id: string,
  take: number,
): { below: Ranked[]; above: Ranked[] } {
  const below = db
    .prepare(
      `SELECT id, name_rank AS r FROM customers WHERE (merchant_id, name_key, id) < (?, ?, ?) AND id != ?
       ORDER BY merchant_id DESC, name_key DESC, id DESC LIMIT ${limitSql(take)}`,
    )
    .all(merchantId, key, id, id) as Ranked[];
  const above = db
    .prepare(
      `SELECT id, name_rank AS r FROM customers WHERE (merchant_id, name_key, id) > (?, ?, ?) AND id != ?
       ORDER BY merchant_id, name_key, id LIMIT ${limitSql(take)}`,
    )
    .all(merchantId, key, id, id) as Ranked[];
  return { below, above };
}

interface Ranked {
  id: string;
  r: number;
}

/** A free rank between the neighbours of a place in the default order; makes room when there is none. */
function rankFor(db: Db, merchantId: string, key: string, id: string): number {
  for (;;) {
    const { below, above } = neighbours(db, merchantId, key, id, 1);
    const before = below[0]?.r;
    const after = above[0]?.r;
    if (before === undefined) return after === undefined ? NAME_RANK_SPACING : after - NAME_RANK_SPACING;
    if (after === undefined) return before + NAME_RANK_SPACING;
    if (after - before >= 2) return before + Math.floor((after - before) / 2);
    makeRoom(db, merchantId, key, id);
  }
}

/**
 * Gives every profile its rank in the default order, the room of {@link NAME_RANK_SPACING} apart
 * (in SQLite's own text order): for a bulk load into an empty directory, before the search index
 * is filled.
 */
export function rankAllCustomers(db: Db): void {
  db.prepare(
    `UPDATE customers SET name_rank = o.n * ${NAME_RANK_SPACING}
     FROM (SELECT id, row_number() OVER (ORDER BY merchant_id, name_key, id) AS n FROM customers) AS o
     WHERE o.id = customers.id`,
  ).run();
}

/** Ranks used for a moment while a stretch of the order is renumbered; far below any real rank. */
const PARKED = -(2 ** 52);

/**
 * Spreads the ranks of the profiles nearest a place evenly over a wider stretch, so that the place
 * has a gap again: a stretch of 16 each side, widened fourfold until its span has room (the ends
 * of the order always do). Rare: a gap of 2^20 halves with each profile put into it.
 */
function makeRoom(db: Db, merchantId: string, key: string, id: string): void {
  for (let reach = 16; ; reach *= 4) {
    const { below, above } = neighbours(db, merchantId, key, id, reach + 1);
    const lower = below.slice(0, reach).reverse();
    const upper = above.slice(0, reach);
    const first = lower[0] ?? upper[0];
    const last = upper[upper.length - 1] ?? lower[lower.length - 1];
    if (!first || !last) return;
    const lo = below[reach]?.r ?? first.r - NAME_RANK_SPACING * (reach + 2);
    const hi = above[reach]?.r ?? last.r + NAME_RANK_SPACING * (reach + 2);
    // One slot more than the stretch holds: the place being made room for.
    const step = Math.floor((hi - lo) / (lower.length + upper.length + 2));
    if (step < 64) continue;
    const stretch = [...lower, ...upper];
    const setRank = db.prepare("UPDATE customers SET name_rank = ? WHERE id = ?");
    for (const [i, row] of stretch.entries()) setRank.run(PARKED - i, row.id);
    // Every slot of the stretch in order, but one left free between the lower and the upper part.
    for (const [i, row] of stretch.entries()) setRank.run(lo + step * (i < lower.length ? i + 1 : i + 2), row.id);
    return;
  }
}

/** One profile of the merchant, or undefined. */
export function getCustomer(db: Db, merchantId: string, id: string): StoredCustomer | undefined {
  const text = getCustomerJson(db, merchantId, id);
  return text === undefined ? undefined : (JSON.parse(text) as StoredCustomer);
}

/** One profile of the merchant as its stored JSON (the wire object), or undefined. */
export function getCustomerJson(db: Db, merchantId: string, id: string): string | undefined {
  const row = db.prepare("SELECT data FROM customers WHERE id = ? AND merchant_id = ?").get(id, merchantId) as
    | { data: string }
    | undefined;
  return row?.data;
}

/** Removes a profile; its group memberships and cards go with it (ON DELETE CASCADE). */
export function deleteCustomer(db: Db, merchantId: string, id: string): void {
  db.prepare("DELETE FROM customers WHERE id = ? AND merchant_id = ?").run(id, merchantId);
}

/** A stored customer group. */
export type StoredGroup = CustomerGroup & { id: string; created_at: string; updated_at: string };

/** One group of the merchant, or undefined. */
export function getGroup(db: Db, merchantId: string, id: string): StoredGroup | undefined {
  return db
    .prepare("SELECT id, name, created_at, updated_at FROM customer_groups WHERE id = ? AND merchant_id = ?")
    .get(id, merchantId) as StoredGroup | undefined;
}

/** The merchant's groups, oldest first, after the keyset position `after` ([created_at, id]). */
export function listGroups(
  db: Db,
  merchantId: string,
  after: [string, string] | undefined,
  take: number,
): StoredGroup[] {
  return db
    .prepare(
      `SELECT id, name, created_at, updated_at FROM customer_groups
       WHERE merchant_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ${limitSql(take)}`,
    )
    .all(merchantId, after?.[0] ?? "", after?.[1] ?? "") as StoredGroup[];
}

/** Adds or removes a membership row; returns whether anything changed. */
export function setMembership(db: Db, groupId: string, customerId: string, member: boolean): boolean {
  const r = member
    ? db
        .prepare("INSERT INTO customer_group_members (group_id, customer_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
        .run(groupId, customerId)
    : db.prepare("DELETE FROM customer_group_members WHERE group_id = ? AND customer_id = ?").run(groupId, customerId);
  return r.changes > 0;
}

/** A stored card on file. */
export type StoredCard = Card & { id: string };

/** The card first created with this nonce hash, if any. */
export function cardByNonce(db: Db, merchantId: string, nonceHash: string): StoredCard | undefined {
  const row = db
    .prepare("SELECT data FROM customer_cards WHERE merchant_id = ? AND nonce_hash = ?")
    .get(merchantId, nonceHash) as { data: string } | undefined;
  return row ? (JSON.parse(row.data) as StoredCard) : undefined;
}

/** Stores a new card. */
export function insertCard(
  db: Db,
  merchantId: string,
  customerId: string,
  nonceHash: string,
  card: StoredCard,
  now: string,
): void {
  db.prepare(
    "INSERT INTO customer_cards (id, merchant_id, customer_id, nonce_hash, created_at, data) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(card.id, merchantId, customerId, nonceHash, now, JSON.stringify(card));
}

/** Removes a card of a customer; returns whether it was there. */
export function deleteCard(db: Db, merchantId: string, customerId: string, cardId: string): boolean {
  return (
    db
      .prepare("DELETE FROM customer_cards WHERE id = ? AND merchant_id = ? AND customer_id = ?")
      .run(cardId, merchantId, customerId).changes > 0
  );
}
