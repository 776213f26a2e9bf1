/** Payouts to the seller's bank and the entries that make them up. */
export const sql = `
-- data is the full Payout as the wire returns it.
CREATE TABLE payouts (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX payouts_by_created ON payouts (merchant_id, location_id, created_at, id);
-- Entries are only ever read through their payout, so no index of their own ids: the seed writes
-- thousands of them and each index is paid for on every insert.
CREATE TABLE payout_entries (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  payout_id TEXT NOT NULL,
  effective_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX payout_entries_by_payout ON payout_entries (payout_id, effective_at, id);
`;
