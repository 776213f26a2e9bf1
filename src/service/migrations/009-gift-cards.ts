/** Gift cards and their activities. */
export const sql = `
-- A card's mutable fields are columns; the wire object is built from them.
CREATE TABLE gift_cards (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  type TEXT NOT NULL,
  gan_source TEXT NOT NULL,
  gan TEXT NOT NULL,
  state TEXT NOT NULL,
  balance INTEGER NOT NULL,
  currency TEXT NOT NULL,
  location_id TEXT NOT NULL,
  customer_ids TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  UNIQUE (merchant_id, gan)
);
CREATE INDEX gift_cards_by_created ON gift_cards (merchant_id, created_at, seq);
-- seq orders activities recorded in the same instant; data is the GiftCardActivity as returned.
CREATE TABLE gift_card_activities (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  gift_card_id TEXT NOT NULL REFERENCES gift_cards(id),
  type TEXT NOT NULL,
  location_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX gift_card_activities_by_created ON gift_card_activities (merchant_id, created_at, seq);
CREATE INDEX gift_card_activities_by_card ON gift_card_activities (gift_card_id, created_at, seq);
`;
