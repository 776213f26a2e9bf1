// The stocktake journal's schema, as numbered migrations run by openLocalDb, and the mapping of
// its rows to the journal's types.
import type { CountScope, UncountedChoice } from "../domain/stocktake.js";
import type { Migration } from "./db.js";
import type { BatchState, CountHeader, CountStatus, JournalBatch } from "./stocktake-journal-types.js";

// The order indexes and the people table: a journal of the first builds said version 1 without
// them (its schema was re-run on every open, `IF NOT EXISTS` filling the gaps), so migration 2
// adds whatever of them is missing.
const PEOPLE_AND_ORDER = `
CREATE INDEX IF NOT EXISTS lines_in_order ON lines (count_id, seq);
CREATE INDEX IF NOT EXISTS items_in_scope_order ON items (count_id, scope_seq);
CREATE TABLE IF NOT EXISTS people (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  member_id TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (count_id, member_id)
);`;

// Version 1 is the schema journals were written with before migrations were numbered: a file of
// that time says `user_version = 1` and opens without running anything.
const VERSION_1 = `
CREATE TABLE IF NOT EXISTS counts (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL,
  location_id TEXT NOT NULL,
  location_name TEXT NOT NULL,
  time_zone TEXT NOT NULL,
  scope TEXT NOT NULL,
  counter_id TEXT NOT NULL,
  counter_name TEXT NOT NULL,
  started_at TEXT NOT NULL,
  status TEXT NOT NULL,
  uncounted TEXT NOT NULL DEFAULT 'leave',
  scan_one INTEGER NOT NULL DEFAULT 0,
  planned_at TEXT,
  committed_at TEXT,
  expected_synced_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS one_open_count_per_location
  ON counts (merchant_id, location_id) WHERE status IN ('open', 'committing');
CREATE TABLE IF NOT EXISTS items (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  variation_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  sku TEXT NOT NULL,
  upc TEXT NOT NULL,
  name TEXT NOT NULL,
  category_id TEXT NOT NULL,
  price_amount INTEGER,
  currency TEXT NOT NULL,
  precision INTEGER NOT NULL,
  tracked INTEGER NOT NULL,
  scope_seq INTEGER,
  PRIMARY KEY (count_id, variation_id)
);
CREATE TABLE IF NOT EXISTS expected (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  variation_id TEXT NOT NULL,
  quantity TEXT NOT NULL,
  calculated_at TEXT NOT NULL,
  PRIMARY KEY (count_id, variation_id)
);
CREATE TABLE IF NOT EXISTS lines (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  variation_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  quantity TEXT NOT NULL,
  counted_at TEXT NOT NULL,
  counted_by TEXT NOT NULL,
  expected TEXT,
  refused TEXT,
  PRIMARY KEY (count_id, variation_id)
);
CREATE TABLE IF NOT EXISTS unknown_codes (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  times INTEGER NOT NULL,
  resolved_to TEXT,
  PRIMARY KEY (count_id, code)
);
CREATE TABLE IF NOT EXISTS batches (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  variation_ids TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  sent_at TEXT,
  settled_at TEXT,
  change_ids TEXT,
  problem TEXT,
  PRIMARY KEY (count_id, seq)
);
${PEOPLE_AND_ORDER}`;

/** The journal's migrations, oldest first. */
export const JOURNAL_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "counts, lines, unknown codes and commit requests", up: (db) => db.exec(VERSION_1) },
  { version: 2, name: "people and read-order indexes of the first builds", up: (db) => db.exec(PEOPLE_AND_ORDER) },
  {
    version: 3,
    name: "blind counts (the expected quantity hidden while counting)",
    up: (db) => db.exec("ALTER TABLE counts ADD COLUMN blind INTEGER NOT NULL DEFAULT 0"),
  },
];

/** A row of `counts`. */
export interface CountRow {
  id: string;
  merchant_id: string;
  location_id: string;
  location_name: string;
  time_zone: string;
  scope: string;
  counter_id: string;
  counter_name: string;
  started_at: string;
  status: CountStatus;
  uncounted: UncountedChoice;
  scan_one: number;
  blind: number;
  planned_at: string | null;
  committed_at: string | null;
  expected_synced_at: string | null;
}

/** A row of `batches`. */
export interface BatchRow {
  seq: number;
  idempotency_key: string;
  variation_ids: string;
  body: string;
  state: BatchState;
  attempts: number;
  sent_at: string | null;
  settled_at: string | null;
  change_ids: string | null;
  problem: string | null;
}

/** A count's header from its row. */
export const headerOf = (r: CountRow): CountHeader => ({
  id: r.id,
  merchantId: r.merchant_id,
  locationId: r.location_id,
  locationName: r.location_name,
  timeZone: r.time_zone,
  scope: JSON.parse(r.scope) as CountScope,
  counterId: r.counter_id,
  counterName: r.counter_name,
  startedAt: r.started_at,
  status: r.status,
  uncounted: r.uncounted,
  scanOne: r.scan_one === 1,
  blind: r.blind === 1,
  plannedAt: r.planned_at ?? undefined,
  committedAt: r.committed_at ?? undefined,
  expectedSyncedAt: r.expected_synced_at ?? undefined,
});

/** A commit request from its row. */
export const batchOf = (r: BatchRow): JournalBatch => ({
  seq: r.seq,
  idempotencyKey: r.idempotency_key,
  variationIds: JSON.parse(r.variation_ids) as string[],
  body: JSON.parse(r.body),
  state: r.state,
  attempts: r.attempts,
  sentAt: r.sent_at ?? undefined,
  settledAt: r.settled_at ?? undefined,
  changeIds: r.change_ids ? (JSON.parse(r.change_ids) as string[]) : [],
  problem: r.problem ?? undefined,
});
