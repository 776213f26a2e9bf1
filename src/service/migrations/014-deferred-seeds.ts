/**
 * Areas of the demo store laid out on their first use rather than when the store starts (cash
 * drawers, payouts, V1: half of a fresh demo's start, and a session may never read them;
 * seed/deferred.ts). A row says which area of which seller is still to be laid out, as of when,
 * and with what the seed took of the store then (`input`, JSON), so that it comes out as it would
 * have at the start.
 */
export const sql = `
CREATE TABLE deferred_seeds (
  merchant_id TEXT NOT NULL,
  area TEXT NOT NULL,
  as_of TEXT NOT NULL,
  input TEXT NOT NULL,
  PRIMARY KEY (merchant_id, area)
) WITHOUT ROWID;
`;
