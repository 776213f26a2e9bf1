/** V1 payments, refunds, settlements and orders. */
export const sql = `
-- The V1 objects as the wire returns them in data; the other columns are what lists filter on.
-- arrived_at is when the service first saw the payment: an offline payment keeps its created_at
-- (when it was taken) but only appears once it has arrived.
CREATE TABLE v1_payments (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  arrived_at TEXT NOT NULL,
  is_partial INTEGER NOT NULL DEFAULT 0,
  data TEXT NOT NULL
);
-- One index serves 'me' and one location alike: a store's year is a few thousand rows.
CREATE INDEX v1_payments_by_time ON v1_payments (merchant_id, created_at, id);
-- Which payment a tender belongs to: a partial refund of a split-tender payment names the tender.
CREATE TABLE v1_tenders (
  id TEXT PRIMARY KEY,
  payment_id TEXT NOT NULL REFERENCES v1_payments(id)
);
CREATE INDEX v1_tenders_by_payment ON v1_tenders (payment_id);
CREATE TABLE v1_refunds (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT NOT NULL,
  payment_id TEXT NOT NULL REFERENCES v1_payments(id),
  tender_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  amount INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX v1_refunds_by_location ON v1_refunds (location_id, created_at, id);
CREATE INDEX v1_refunds_by_payment ON v1_refunds (payment_id);
CREATE TABLE v1_settlements (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT NOT NULL,
  status TEXT NOT NULL,
  initiated_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX v1_settlements_by_location ON v1_settlements (location_id, initiated_at, id);
CREATE INDEX v1_settlements_by_time ON v1_settlements (merchant_id, initiated_at, id);
CREATE TABLE v1_orders (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT NOT NULL,
  state TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX v1_orders_by_location ON v1_orders (location_id, created_at, id);
`;
