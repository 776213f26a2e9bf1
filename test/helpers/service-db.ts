import { type Db, openDb } from "../../src/service/db.js";

/** A service store in memory, its schema made, with one seller (US, USD) for repository tests to write under. */
export function storeWithMerchant(merchantId: string): Db {
  const db = openDb(":memory:");
  db.prepare(
    "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES (?, 'x', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
  ).run(merchantId);
  return db;
}
