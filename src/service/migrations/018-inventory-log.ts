/**
 * Inventory as a log: the changes of each batch in one row, the counts they add up to kept in
 * memory (inventory/book.ts). A change row with its three indexes, and a count row moved in its
 * calculated-at index, cost SQLite 45–55 µs a physical count; a batch of 100 as one row costs
 * about what one of those rows did.
 *
 * Each entry is `[id, type, catalog_object_id, location_id, to_location_id, state, to_state, units,
 * occurred_at, created_at, extras]`, the two times in epoch milliseconds; `extras` holds the fields a client set that the service only
 * echoes (reference_id, source, total_price_money, …), or null. `token` is random: a row rolled
 * back and its seq taken again by another is told apart by it. The changes stored so far move into
 * the log in their arrival order, 2,000 a row; the counts are added up again from them.
 */
export const sql = `
CREATE TABLE inventory_log (
  seq INTEGER PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  token TEXT NOT NULL,
  entries TEXT NOT NULL
);

INSERT INTO inventory_log (merchant_id, token, entries)
SELECT merchant_id, lower(hex(randomblob(8))),
       json_group_array(json_array(id, type, catalog_object_id, location_id, to_location_id, state, to_state, units,
                                   CAST(round(unixepoch(occurred_at, 'subsec') * 1000) AS INTEGER),
                                   CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER),
                                   json(extras)) ORDER BY seq)
FROM (
  SELECT c.*,
         (row_number() OVER (PARTITION BY merchant_id ORDER BY seq) - 1) / 2000 AS chunk,
         (SELECT json_group_object(j.key, CASE j.type
                   WHEN 'object' THEN json(j.value) WHEN 'array' THEN json(j.value)
                   WHEN 'true' THEN json('true') WHEN 'false' THEN json('false') WHEN 'null' THEN json('null')
                   ELSE j.value END)
          FROM json_each(c.data, CASE c.type WHEN 'PHYSICAL_COUNT' THEN '$.physical_count'
                                             WHEN 'ADJUSTMENT' THEN '$.adjustment' ELSE '$.transfer' END) j
          WHERE j.key NOT IN ('id', 'catalog_object_id', 'catalog_object_type', 'quantity', 'state', 'from_state',
                              'to_state', 'location_id', 'from_location_id', 'to_location_id', 'occurred_at',
                              'created_at')
          HAVING count(*) > 0) AS extras
  FROM inventory_changes c
)
GROUP BY merchant_id, chunk
ORDER BY min(seq);

DROP TABLE inventory_changes;
DROP TABLE inventory_counts;
`;
