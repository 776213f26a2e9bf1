/** Webhook subscriptions, events and delivery attempts. */
export const sql = `
-- A subscription belongs to an application (client_id), not to a seller: it hears the events of
-- every seller that authorised the application. owner_merchant_id is set when it was created with
-- a seller's personal token, whose own events it hears without an OAuth grant.
CREATE TABLE webhook_subscriptions (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  owner_merchant_id TEXT,
  enabled INTEGER NOT NULL,
  event_types TEXT NOT NULL,
  notification_url TEXT NOT NULL,
  api_version TEXT NOT NULL,
  signature_key TEXT NOT NULL,
  name TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhook_subscriptions_by_app ON webhook_subscriptions (client_id, created_at, id);
-- Every attempt to deliver a notification, kept after its subscription is deleted (no foreign key).
CREATE TABLE webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  subscription_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  merchant_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  notification_url TEXT NOT NULL,
  status_code INTEGER,
  error TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed', 'abandoned', 'test')),
  next_attempt_at TEXT,
  -- the backoff before the next attempt, when one is planned
  retry_delay_ms INTEGER,
  duration_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  payload TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id, created_at);
CREATE INDEX webhook_deliveries_by_type ON webhook_deliveries (event_type, created_at);
`;
