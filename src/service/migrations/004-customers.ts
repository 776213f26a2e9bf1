/** Customers, groups, memberships and cards. */
export const sql = `
-- The wire object lives in data; the columns beside it are copies of what lists filter and sort
-- on, kept in step by the repository, so that 100,000 profiles page through indexes. No index of
-- its own on creation_source: a filter that keeps a tenth of the rows is read along the sort index.
CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  -- lower(given_name) || x'01' || lower(family_name): the default sort
  name_key TEXT NOT NULL,
  email_key TEXT,
  phone_key TEXT,
  reference_id TEXT,
  creation_source TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL
);
-- The default order; it also carries the columns that filters scan (source, email, phone, times)
-- so that a filter along it reads the index, not the table, until a page is full.
CREATE INDEX customers_by_name ON customers
  (merchant_id, name_key, id, creation_source, email_key, phone_key, reference_id, created_at, updated_at);
CREATE INDEX customers_by_created ON customers (merchant_id, created_at, id);
CREATE INDEX customers_by_updated ON customers (merchant_id, updated_at);
CREATE INDEX customers_by_email ON customers (merchant_id, email_key);
CREATE INDEX customers_by_phone ON customers (merchant_id, phone_key);
CREATE INDEX customers_by_reference ON customers (merchant_id, reference_id);

CREATE TABLE customer_groups (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX customer_groups_by_merchant ON customer_groups (merchant_id, created_at, id);

CREATE TABLE customer_group_members (
  group_id TEXT NOT NULL REFERENCES customer_groups(id) ON DELETE CASCADE,
  customer_id TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, customer_id)
) WITHOUT ROWID;
CREATE INDEX customer_group_members_by_customer ON customer_group_members (customer_id, group_id);

-- Cards on file (the deprecated customer cards). The nonce is kept as a hash: creating a card
-- with a nonce already used answers the first card again.
CREATE TABLE customer_cards (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  customer_id TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  nonce_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL,
  UNIQUE (merchant_id, nonce_hash)
);
CREATE INDEX customer_cards_by_customer ON customer_cards (customer_id);
`;
