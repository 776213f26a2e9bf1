/**
 * The moves of an object (adjustments and transfers, never physical counts) by time, with what a
 * count needs of each: a physical count adds the moves after it from this index alone, without
 * reading the change rows (a stocktake of a large store commits thousands of counts at once).
 * And the newest counts with what a count's answer shows: a page of counts (a stocktake's
 * refresh, batchRetrieveInventoryCounts) is read off the index, without a visit to each row.
 */
export const sql = `
CREATE INDEX inventory_moves_by_object ON inventory_changes
  (merchant_id, catalog_object_id, occurred_at, type, location_id, to_location_id, state, to_state, units)
  WHERE type != 'PHYSICAL_COUNT';

-- The newest counts first, with every column a count's answer shows.
DROP INDEX inventory_counts_by_calculated;
CREATE INDEX inventory_counts_by_calculated ON inventory_counts
  (merchant_id, calculated_at, id, location_id, state, catalog_object_id, catalog_object_type, units);
`;
