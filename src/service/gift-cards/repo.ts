import type {
  Currency,
  GiftCard,
  GiftCardActivity,
  GiftCardGANSource,
  GiftCardStatus,
  GiftCardType,
} from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { limitSql, stmt } from "../db.js";

/** A stored gift card, as its columns hold it. */
export interface CardRow {
  id: string;
  merchant_id: string;
  type: GiftCardType;
  gan_source: GiftCardGANSource;
  gan: string;
  state: GiftCardStatus;
  balance: number;
  currency: Currency;
  location_id: string;
  customer_ids: string;
  created_at: string;
}

/** A keyset position: the time and insertion number of the last record of a page. */
export interface Position {
  t: string;
  s: number;
}

/** The card as the wire shows it. */
export function cardOf(r: CardRow): GiftCard {
  const customers = JSON.parse(r.customer_ids) as string[];
  return {
    id: r.id,
    type: r.type,
    gan_source: r.gan_source,
    state: r.state,
    balance_money: { amount: r.balance, currency: r.currency },
    gan: r.gan,
    created_at: r.created_at,
    ...(customers.length > 0 ? { customer_ids: customers } : {}),
  };
}

/** Stores a new card. */
export function insertCard(db: Db, r: CardRow): void {
  stmt(
    db,
    `INSERT INTO gift_cards (id, merchant_id, type, gan_source, gan, state, balance, currency, location_id, customer_ids, created_at)
     VALUES (@id, @merchant_id, @type, @gan_source, @gan, @state, @balance, @currency, @location_id, @customer_ids, @created_at)`,
  ).run(r);
}

/** Writes a card's state and balance after an activity. */
export function updateCardBalance(db: Db, id: string, state: GiftCardStatus, balance: number): void {
  stmt(db, "UPDATE gift_cards SET state = ?, balance = ? WHERE id = ?").run(state, balance, id);
}

const CARD_COLUMNS =
  "id, merchant_id, type, gan_source, gan, state, balance, currency, location_id, customer_ids, created_at";

/** One card of the seller by id, or undefined. */
export function findCard(db: Db, merchantId: string, id: string): CardRow | undefined {
  return stmt(db, `SELECT ${CARD_COLUMNS} FROM gift_cards WHERE merchant_id = ? AND id = ?`).get(merchantId, id) as
    | CardRow
    | undefined;
}

/** One card of the seller by its account number, or undefined. */
export function findCardByGan(db: Db, merchantId: string, gan: string): CardRow | undefined {
  return stmt(db, `SELECT ${CARD_COLUMNS} FROM gift_cards WHERE merchant_id = ? AND gan = ?`).get(merchantId, gan) as
    | CardRow
    | undefined;
}

/** A page of the seller's cards, oldest first. */
export function listCards(
  db: Db,
  q: {
    merchantId: string;
    type?: string;
    state?: string;
    customerId?: string;
    after?: Position;
    limit: number;
  },
): { cards: GiftCard[]; last?: Position; more: boolean } {
  const where = ["merchant_id = ?"];
  const args: unknown[] = [q.merchantId];
  if (q.type !== undefined) {
    where.push("type = ?");
    args.push(q.type);
  }
  if (q.state !== undefined) {
    where.push("state = ?");
    args.push(q.state);
  }
  if (q.customerId !== undefined) {
    where.push("EXISTS (SELECT 1 FROM json_each(customer_ids) WHERE value = ?)");
    args.push(q.customerId);
  }
  if (q.after) {
    where.push("(created_at > ? OR (created_at = ? AND seq > ?))");
    args.push(q.after.t, q.after.t, q.after.s);
  }
  const rows = stmt(
    db,
    `SELECT seq, ${CARD_COLUMNS} FROM gift_cards WHERE ${where.join(" AND ")} ORDER BY created_at, seq LIMIT ${limitSql(q.limit + 1)}`,
  ).all(...args) as (CardRow & { seq: number })[];
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    cards: page.map(cardOf),
    more: rows.length > q.limit,
    ...(last ? { last: { t: last.created_at, s: last.seq } } : {}),
  };
}

/** Records an activity. */
export function insertActivity(
  db: Db,
  merchantId: string,
  a: GiftCardActivity & { id: string; created_at: string; gift_card_id: string },
): void {
  stmt(
    db,
    "INSERT INTO gift_card_activities (id, merchant_id, gift_card_id, type, location_id, created_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(a.id, merchantId, a.gift_card_id, a.type, a.location_id, a.created_at, JSON.stringify(a));
}

/** One activity of a card, or undefined. */
export function findActivity(db: Db, giftCardId: string, id: string): GiftCardActivity | undefined {
  const row = stmt(db, "SELECT data FROM gift_card_activities WHERE gift_card_id = ? AND id = ?").get(giftCardId, id) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as GiftCardActivity) : undefined;
}

/** What REFUND activities of a card have already given back against one REDEEM. */
export function refundedAgainst(db: Db, giftCardId: string, redeemId: string): number {
  const row = stmt(
    db,
    `SELECT COALESCE(SUM(json_extract(data, '$.refund_activity_details.amount_money.amount')), 0) AS total
       FROM gift_card_activities
       WHERE gift_card_id = ? AND type = 'REFUND' AND json_extract(data, '$.refund_activity_details.redeem_activity_id') = ?`,
  ).get(giftCardId, redeemId) as { total: number };
  return row.total;
}

/** A page of the seller's activities in [begin, end] (both inclusive), by created_at. */
export function listActivities(
  db: Db,
  q: {
    merchantId: string;
    giftCardId?: string;
    type?: string;
    locationId?: string;
    begin: string;
    end: string;
    order: "ASC" | "DESC";
    after?: Position;
    limit: number;
  },
): { activities: GiftCardActivity[]; last?: Position; more: boolean } {
  const where = ["merchant_id = ?", "created_at >= ?", "created_at <= ?"];
  const args: unknown[] = [q.merchantId, q.begin, q.end];
  if (q.giftCardId !== undefined) {
    where.push("gift_card_id = ?");
    args.push(q.giftCardId);
  }
  if (q.type !== undefined) {
    where.push("type = ?");
    args.push(q.type);
  }
  if (q.locationId !== undefined) {
    where.push("location_id = ?");
    args.push(q.locationId);
  }
  if (q.after) {
    const cmp = q.order === "ASC" ? ">" : "<";
    where.push(`(created_at ${cmp} ? OR (created_at = ? AND seq ${cmp} ?))`);
    args.push(q.after.t, q.after.t, q.after.s);
  }
  const rows = stmt(
    db,
    `SELECT seq, created_at, data FROM gift_card_activities WHERE ${where.join(" AND ")}
       ORDER BY created_at ${q.order}, seq ${q.order} LIMIT ${limitSql(q.limit + 1)}`,
  ).all(...args) as { seq: number; created_at: string; data: string }[];
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    activities: page.map((r) => JSON.parse(r.data) as GiftCardActivity),
    more: rows.length > q.limit,
    ...(last ? { last: { t: last.created_at, s: last.seq } } : {}),
  };
}
