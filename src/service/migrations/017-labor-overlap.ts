/**
 * The overlap check of a shift write, read off an index alone. It asks, of the member's shifts,
 * which one starts last before the new shift and where that one ends, and whether one starts
 * inside it; with only the start in the index, each probe read the row (its 0.5–1 KB of JSON)
 * to learn the end. An open shift has no end: it is indexed as reaching to the end of time, so
 * that among shifts starting together the one that reaches furthest comes first.
 */
export const sql = `
-- Replaces the index on (merchant_id, team_member_id, start_ms): the same order, then the reach.
DROP INDEX shifts_by_member;
CREATE INDEX shifts_by_member ON shifts
  (merchant_id, team_member_id, start_ms, COALESCE(end_ms, 8640000000000000));
`;
