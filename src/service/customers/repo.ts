import type { Card, CustomerGroup } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { emailKey, nameKey, phoneDigits, type StoredCustomer } from "./rules.js";

/** The row values of a profile, in the column order of {@link customerInsertSql}. */
export function customerRow(merchantId: string, c: StoredCustomer): unknown[] {
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
  ];
}

/** Inserts or replaces a profile with its indexed copies (prepare once for bulk loads). */
export const customerInsertSql = `INSERT INTO customers
  (id, merchant_id, name_key, email_key, phone_key, reference_id, creation_source, created_at, updated_at, version, data)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT(id) DO UPDATE SET name_key = excluded.name_key, email_key = excluded.email_key,
    phone_key = excluded.phone_key, reference_id = excluded.reference_id, creation_source = excluded.creation_source,
    updated_at = excluded.updated_at, version = excluded.version, data = excluded.data`;

/** Writes a profile. */
export function saveCustomer(db: Db, merchantId: string, c: StoredCustomer): void {
  db.prepare(customerInsertSql).run(...customerRow(merchantId, c));
}

/** One profile of the merchant, or undefined. */
export function getCustomer(db: Db, merchantId: string, id: string): StoredCustomer | undefined {
  const row = db.prepare("SELECT data FROM customers WHERE id = ? AND merchant_id = ?").get(id, merchantId) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as StoredCustomer) : undefined;
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
       WHERE merchant_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`,
    )
    .all(merchantId, after?.[0] ?? "", after?.[1] ?? "", take) as StoredGroup[];
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
