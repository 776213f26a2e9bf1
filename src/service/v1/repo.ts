import type { V1Order, V1Payment, V1Refund, V1Settlement } from "../../spec/generated/types.js";
import { type Db, stmt } from "../db.js";

/** A payment with where it belongs and when it reached the service. */
export interface StoredPayment {
  payment: V1Payment;
  merchantId: string;
  locationId: string;
  arrivedAt: string;
}

/** Stores a payment (and indexes its tenders), or replaces the stored one. */
export function savePayment(db: Db, p: StoredPayment): void {
  const pay = p.payment;
  stmt(
    db,
    `INSERT INTO v1_payments (id, merchant_id, location_id, created_at, arrived_at, is_partial, data)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET is_partial = excluded.is_partial, data = excluded.data`,
  ).run(pay.id, p.merchantId, p.locationId, pay.created_at, p.arrivedAt, pay.is_partial ? 1 : 0, JSON.stringify(pay));
  const tender = stmt(db, "INSERT OR IGNORE INTO v1_tenders (id, payment_id) VALUES (?, ?)");
  for (const t of pay.tender ?? []) if (t.id) tender.run(t.id, pay.id);
}

/** A payment by its id or the id of one of its tenders, with its location. */
export function findPayment(
  db: Db,
  merchantId: string,
  id: string,
): { payment: V1Payment; locationId: string; arrivedAt: string } | undefined {
  const row = db
    .prepare(
      `SELECT data, location_id, arrived_at FROM v1_payments
       WHERE merchant_id = ? AND id = COALESCE((SELECT payment_id FROM v1_tenders WHERE id = ?), ?)`,
    )
    .get(merchantId, id, id) as { data: string; location_id: string; arrived_at: string } | undefined;
  return row ? { payment: JSON.parse(row.data), locationId: row.location_id, arrivedAt: row.arrived_at } : undefined;
}

/** Stores one tender's refund. */
export function saveRefund(
  db: Db,
  r: { id: string; merchantId: string; locationId: string; paymentId: string; tenderId: string; refund: V1Refund },
): void {
  stmt(
    db,
    `INSERT INTO v1_refunds (id, merchant_id, location_id, payment_id, tender_id, created_at, amount, data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    r.id,
    r.merchantId,
    r.locationId,
    r.paymentId,
    r.tenderId,
    r.refund.created_at,
    r.refund.refunded_money?.amount ?? 0,
    JSON.stringify(r.refund),
  );
}

/** Stores a settlement with its entries. */
export function saveSettlement(db: Db, merchantId: string, locationId: string, s: V1Settlement): void {
  stmt(
    db,
    "INSERT INTO v1_settlements (id, merchant_id, location_id, status, initiated_at, data) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(s.id, merchantId, locationId, s.status, s.initiated_at, JSON.stringify(s));
}

/** Stores an order, or replaces the stored one. */
export function saveOrder(db: Db, merchantId: string, locationId: string, o: V1Order): void {
  stmt(
    db,
    `INSERT INTO v1_orders (id, merchant_id, location_id, state, created_at, data) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET state = excluded.state, data = excluded.data`,
  ).run(o.id, merchantId, locationId, o.state, o.created_at, JSON.stringify(o));
}

/** One order of a location. */
export function findOrder(db: Db, merchantId: string, locationId: string, id: string): V1Order | undefined {
  const row = db
    .prepare("SELECT data FROM v1_orders WHERE merchant_id = ? AND location_id = ? AND id = ?")
    .get(merchantId, locationId, id) as { data: string } | undefined;
  return row ? JSON.parse(row.data) : undefined;
}
