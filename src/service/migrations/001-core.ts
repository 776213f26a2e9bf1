/** Core: the seller, OAuth applications, tokens, authorization codes, idempotency records. */
export const sql = `
CREATE TABLE merchants (
  id TEXT PRIMARY KEY,
  business_name TEXT NOT NULL,
  country TEXT NOT NULL,
  language_code TEXT NOT NULL,
  currency TEXT NOT NULL,
  main_location_id TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE oauth_apps (
  client_id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL,
  name TEXT NOT NULL
);
-- Tokens are stored as SHA-256 hashes; the plain value exists only in the answer that issued it.
CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh', 'personal')),
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  client_id TEXT REFERENCES oauth_apps(client_id),
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  short_lived INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tokens_by_grant ON tokens (merchant_id, client_id);
CREATE TABLE auth_codes (
  hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_apps(client_id),
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  scopes TEXT NOT NULL,
  redirect_uri TEXT,
  code_challenge TEXT,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE TABLE idempotency (
  merchant_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  response TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (merchant_id, operation, key)
);
`;
