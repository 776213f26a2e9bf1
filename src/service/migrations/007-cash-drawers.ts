/** Cash drawer shifts and their events. */
export const sql = `
-- One row per shift; data is the full CashDrawerShift as the wire returns it.
CREATE TABLE cash_drawer_shifts (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT NOT NULL,
  state TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX cash_drawer_shifts_by_opened ON cash_drawer_shifts (merchant_id, location_id, opened_at, id);
-- seq is the order the events happened in (they are stored in that order). Events are only
-- read through their shift, so their own ids carry no index (thousands are seeded).
CREATE TABLE cash_drawer_shift_events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  shift_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX cash_drawer_shift_events_by_shift ON cash_drawer_shift_events (shift_id, seq);
`;
