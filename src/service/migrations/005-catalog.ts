/** Catalog objects (categories, items, variations): indexed columns for look-ups, the wire JSON in `data`. */
export const sql = `
CREATE TABLE catalog_objects (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  type TEXT NOT NULL,
  -- Insertion order: the stable order of listings and the keyset of ListCatalog.
  seq INTEGER NOT NULL UNIQUE,
  name TEXT NOT NULL COLLATE NOCASE,
  item_id TEXT,
  category_id TEXT,
  product_type TEXT,
  -- Stocktakes scan SKUs and UPCs: both have their own index, matched without regard to case.
  sku TEXT COLLATE NOCASE,
  upc TEXT COLLATE NOCASE,
  -- Lower-case text the text filters look in (an item's includes its variations').
  search_text TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  data TEXT NOT NULL
);
CREATE INDEX catalog_by_type ON catalog_objects (merchant_id, type, seq);
CREATE INDEX catalog_by_seq ON catalog_objects (merchant_id, seq);
-- SearchCatalogItems: items in name order with every column it filters on, so a search reads
-- only the index until it has the page.
CREATE INDEX catalog_items_by_name ON catalog_objects (merchant_id, name, id, is_deleted, category_id, product_type, search_text)
  WHERE type = 'ITEM';
-- SearchCatalogObjects answers latest_time: the newest updated_at, read off this index.
CREATE INDEX catalog_by_updated ON catalog_objects (merchant_id, updated_at);
CREATE INDEX catalog_by_sku ON catalog_objects (merchant_id, sku) WHERE sku IS NOT NULL;
CREATE INDEX catalog_by_upc ON catalog_objects (merchant_id, upc) WHERE upc IS NOT NULL;
CREATE INDEX catalog_by_item ON catalog_objects (item_id) WHERE item_id IS NOT NULL;
CREATE INDEX catalog_by_category ON catalog_objects (merchant_id, category_id) WHERE category_id IS NOT NULL;
`;
