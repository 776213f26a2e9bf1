/** Locations, team members and their wages. */
export const sql = `
-- Each row keeps the object as the wire returns it in data; the other columns are what we filter on.
CREATE TABLE locations (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  name TEXT NOT NULL,
  timezone TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX locations_by_merchant ON locations (merchant_id, created_at);
CREATE TABLE team_members (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  status TEXT NOT NULL,
  is_owner INTEGER NOT NULL DEFAULT 0,
  -- 1 when assigned to every current and future location (then no rows in team_member_locations)
  all_locations INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX team_members_by_merchant ON team_members (merchant_id, created_at, id);
CREATE TABLE team_member_locations (
  team_member_id TEXT NOT NULL REFERENCES team_members(id) ON DELETE CASCADE,
  location_id TEXT NOT NULL REFERENCES locations(id),
  PRIMARY KEY (team_member_id, location_id)
);
CREATE INDEX team_member_locations_by_location ON team_member_locations (location_id);
`;
