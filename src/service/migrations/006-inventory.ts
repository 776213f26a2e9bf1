/**
 * Inventory: the change history (the record of what happened) and the materialised counts it
 * adds up to, per (object, location, state). Quantities are stored as exact integers in units of
 * 0.00001 (see domain/quantity.ts).
 */
export const sql = `
CREATE TABLE inventory_changes (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  type TEXT NOT NULL CHECK (type IN ('PHYSICAL_COUNT', 'ADJUSTMENT', 'TRANSFER')),
  catalog_object_id TEXT NOT NULL,
  -- The count's or adjustment's location; a transfer's from_location_id.
  location_id TEXT NOT NULL,
  -- A transfer's to_location_id.
  to_location_id TEXT,
  -- A physical count's or transfer's state; an adjustment's from_state.
  state TEXT NOT NULL,
  -- An adjustment's to_state.
  to_state TEXT,
  -- The quantity, exact, in units of 0.00001.
  units INTEGER NOT NULL,
  occurred_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX inventory_changes_by_time ON inventory_changes (merchant_id, occurred_at, seq);
CREATE INDEX inventory_changes_by_object ON inventory_changes (merchant_id, catalog_object_id, occurred_at, seq);

-- The current count of each key. anchor_* name the latest physical count (by occurred_at, then
-- arrival): changes older than it no longer move the count.
CREATE TABLE inventory_counts (
  id INTEGER PRIMARY KEY,
  merchant_id TEXT NOT NULL,
  catalog_object_id TEXT NOT NULL,
  catalog_object_type TEXT NOT NULL,
  location_id TEXT NOT NULL,
  state TEXT NOT NULL,
  units INTEGER NOT NULL,
  anchor_at TEXT,
  anchor_seq INTEGER,
  calculated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX inventory_counts_by_key ON inventory_counts (merchant_id, catalog_object_id, location_id, state);
-- Newest first, paged by (calculated_at, id); location and state ride along so that filters on
-- them are checked in the index, without a visit to each row.
CREATE INDEX inventory_counts_by_calculated ON inventory_counts (merchant_id, calculated_at, id, location_id, state);
`;
