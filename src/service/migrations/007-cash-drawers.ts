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
-- seq is the order the events happened in (they are stored in that order).
CREATE TABLE cash_drawer_shift_events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  shift_id TEXT NOT NULL REFERENCES cash_drawer_shifts(id),
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX cash_drawer_shift_events_by_shift ON cash_drawer_shift_events (shift_id, seq);
`;
