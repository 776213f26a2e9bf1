/**
 * Substring search over customers: an index of every three-character piece (trigram) of the
 * text that the fuzzy filters look in, so that a fragment found in the middle of an email, a
 * phone number or a reference id is looked up, not scanned for across every profile.
 */
export const sql = `
-- A profile's place in the default order (merchant, name key, id) as a number with room between
-- neighbours (2^20 apart when laid out; a new profile takes the middle of its gap). The trigram
-- index is keyed by it, so the index yields its matches already in the default order and a page
-- is the first twenty matches it finds, however many profiles match in all.
ALTER TABLE customers ADD COLUMN name_rank INTEGER;
UPDATE customers SET name_rank = o.n * 1048576
  FROM (SELECT id, row_number() OVER (ORDER BY merchant_id, name_key, id) AS n FROM customers) AS o
  WHERE o.id = customers.id;
CREATE UNIQUE INDEX customers_by_name_rank ON customers (name_rank);

-- The columns hold exactly what the fuzzy filters compare: the lower-cased email, the digits of
-- the phone number, and the reference id lower-cased as LIKE compares it (ASCII letters only).
-- Contentless: the text stays in customers; the index holds only the trigrams and the ranks.
-- case_sensitive 1 because both sides arrive lower-cased, so a match is a plain substring match.
CREATE VIRTUAL TABLE customer_text USING fts5(
  email, phone, reference,
  content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);
INSERT INTO customer_text (rowid, email, phone, reference)
  SELECT name_rank, email_key, phone_key, lower(reference_id) FROM customers ORDER BY name_rank;
INSERT INTO customer_text (customer_text) VALUES ('optimize');

-- Kept in step by the database itself, whatever writes the profile.
CREATE TRIGGER customer_text_insert AFTER INSERT ON customers WHEN new.name_rank IS NOT NULL BEGIN
  INSERT INTO customer_text (rowid, email, phone, reference)
    VALUES (new.name_rank, new.email_key, new.phone_key, lower(new.reference_id));
END;
CREATE TRIGGER customer_text_update AFTER UPDATE OF name_rank, email_key, phone_key, reference_id ON customers BEGIN
  DELETE FROM customer_text WHERE rowid = old.name_rank;
  INSERT INTO customer_text (rowid, email, phone, reference)
    SELECT new.name_rank, new.email_key, new.phone_key, lower(new.reference_id) WHERE new.name_rank IS NOT NULL;
END;
CREATE TRIGGER customer_text_delete AFTER DELETE ON customers BEGIN
  DELETE FROM customer_text WHERE rowid = old.name_rank;
END;
`;
