/** Labor: break types, shifts, team member wages, workweek configs. */
export const sql = `
CREATE TABLE break_types (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX break_types_by_location ON break_types (merchant_id, location_id, created_at, id);
-- Times are kept as epoch milliseconds beside the wire object: shifts are written with their
-- location's offset, so text order would not be time order.
CREATE TABLE shifts (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  location_id TEXT NOT NULL,
  team_member_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('OPEN', 'CLOSED')),
  start_ms INTEGER NOT NULL,
  end_ms INTEGER,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX shifts_by_member ON shifts (merchant_id, team_member_id, start_ms);
CREATE INDEX shifts_by_start ON shifts (merchant_id, start_ms, id);
CREATE INDEX shifts_by_location ON shifts (merchant_id, location_id, start_ms);
CREATE INDEX shifts_by_end ON shifts (merchant_id, end_ms, id);
CREATE INDEX shifts_open ON shifts (merchant_id, team_member_id) WHERE status = 'OPEN';
CREATE TABLE team_member_wages (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  team_member_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX team_member_wages_by_member ON team_member_wages (merchant_id, team_member_id, seq);
CREATE TABLE workweek_configs (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL UNIQUE REFERENCES merchants(id),
  version INTEGER NOT NULL,
  data TEXT NOT NULL
);
`;
