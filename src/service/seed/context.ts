import type { Db } from "../db.js";
import type { IdSource } from "../ids.js";
import type { Rng } from "./random.js";

/** What every area's seed receives. Seeds are deterministic: same scale, same store. */
export interface SeedContext {
  db: Db;
  rng: Rng;
  ids: IdSource;
  /** The moment the store is seeded; history is laid out backwards from it. */
  now: Date;
  /** Multiplies volumes (customers, shifts, counts) for benchmarks; 1 for the normal demo. */
  scale: number;
  merchantId: string;
}

/**
 * Loads rows into empty tables with their secondary indexes and triggers out of the way: each
 * index is built once, sorted, after the load (instead of 100,000 random inserts into each),
 * then `afterIndexes` runs (e.g. to fill a search index in one pass), then the triggers come back.
 * Unique indexes are checked when rebuilt, so a duplicate still fails the seed.
 */
export function bulkLoad(db: Db, tables: readonly string[], load: () => void, afterIndexes?: () => void): void {
  const derived = db
    .prepare(
      `SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
       AND tbl_name IN (${tables.map(() => "?").join(", ")})`,
    )
    .all(...tables) as { type: "index" | "trigger"; name: string; sql: string }[];
  for (const d of derived) db.exec(`DROP ${d.type === "index" ? "INDEX" : "TRIGGER"} "${d.name}"`);
  load();
  for (const d of derived) if (d.type === "index") db.exec(d.sql);
  afterIndexes?.();
  for (const d of derived) if (d.type === "trigger") db.exec(d.sql);
}
