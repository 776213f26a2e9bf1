// What SQLite alone costs a physical count on this machine: the statements batchChangeInventory
// runs for each count (its change row, the read of its count, the count's update), timed on a copy
// of the day's seed image with the settings `serve` runs its store with (src/service/private-store.ts),
// 100 counts a savepoint as one request is, with a commit every few requests. Nothing of HTTP, JSON
// or the checks: the most requests/s the storage alone leaves room for, beside the service's own.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";

const COUNTS_PER_REQUEST = 100;
/** Requests between two commits: what the service's 20 ms commit timer gathers at ~150 requests/s. */
const REQUESTS_PER_COMMIT = 3;

/** The day's image of a scale in a data folder's seed-images, if `serve` made one. */
export function seedImageOf(dataDir, scale) {
  const dir = join(dataDir, "backroom", "seed-images");
  const day = new Date().toISOString().slice(0, 10);
  try {
    const name = readdirSync(dir).find((f) => f.startsWith(`demo-x${scale}-`) && f.endsWith(`-${day}.db`));
    return name ? join(dir, name) : undefined;
  } catch {
    return undefined;
  }
}

/** Opens a private copy of the image as `serve` opens its store. */
function openCopy(image) {
  const dir = mkdtempSync(join(tmpdir(), "backroom-floor-"));
  const file = join(dir, "store.db");
  copyFileSync(image, file);
  const db = new Database(file);
  db.pragma("locking_mode = EXCLUSIVE");
  db.pragma("journal_mode = MEMORY");
  db.pragma("synchronous = OFF");
  db.pragma(`mmap_size = ${2 ** 30}`);
  db.pragma("cache_size = -32768");
  const dispose = () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { db, dispose };
}

/** µs a count of `step(request, k)`, run 100 a savepoint for `requests` requests. */
function perCount(db, requests, step) {
  db.exec("BEGIN");
  const t0 = performance.now();
  for (let i = 0; i < requests; i++) {
    db.exec("SAVEPOINT request");
    step(i);
    db.exec("RELEASE request");
    if (i % REQUESTS_PER_COMMIT === REQUESTS_PER_COMMIT - 1) db.exec("COMMIT; BEGIN");
  }
  const us = ((performance.now() - t0) * 1000) / (requests * COUNTS_PER_REQUEST);
  db.exec("COMMIT");
  return us;
}

/**
 * Times the three statements of a count on a copy of `image`; answers µs a count of each, the
 * same change row in a table with no index (what the indexes add), and the ceiling they leave.
 */
export function inventoryFloor(image, { requests = 300 } = {}) {
  const { db, dispose } = openCopy(image);
  try {
    const merchant = db.prepare("SELECT id FROM merchants ORDER BY id LIMIT 1").get().id;
    const location = db.prepare("SELECT id FROM locations WHERE merchant_id = ? ORDER BY id LIMIT 1").get(merchant).id;
    const counts = db
      .prepare(
        "SELECT id, catalog_object_id FROM inventory_counts WHERE merchant_id = ? AND location_id = ? LIMIT 5000",
      )
      .all(merchant, location);
    const data = db.prepare("SELECT data FROM inventory_changes WHERE type = 'PHYSICAL_COUNT' LIMIT 1").get().data;
    const at = (i) => new Date(Date.now() - 2 * 86_400_000 + i * 1000).toISOString();
    const nth = (i, k) => counts[(i * COUNTS_PER_REQUEST + k) % counts.length];
    const columns =
      "id, merchant_id, type, catalog_object_id, location_id, to_location_id, state, to_state, units, occurred_at, created_at, data";
    db.exec("CREATE TABLE floor_plain AS SELECT * FROM inventory_changes WHERE 0");
    const row = (table) => {
      const insert = db.prepare(
        `INSERT INTO ${table} (${columns}) VALUES (?, ?, 'PHYSICAL_COUNT', ?, ?, NULL, 'IN_STOCK', NULL, ?, ?, ?, ?)`,
      );
      let n = 0;
      return (i) => {
        for (let k = 0; k < COUNTS_PER_REQUEST; k++) {
          insert.run(
            `FLOOR${table}${String(n++).padStart(12, "0")}`,
            merchant,
            nth(i, k).catalog_object_id,
            location,
            k,
            at(i),
            at(i),
            data,
          );
        }
      };
    };
    const read = db.prepare(
      `SELECT c.* FROM json_each(?) j CROSS JOIN inventory_counts c
         ON c.merchant_id = ? AND c.catalog_object_id = j.value ->> 0 AND c.location_id = j.value ->> 1`,
    );
    const update = db.prepare(
      "UPDATE inventory_counts SET units = ?, anchor_at = ?, anchor_seq = ?, calculated_at = ? WHERE id = ?",
    );
    const figures = {
      changeRow: perCount(db, requests, row("inventory_changes")),
      plainRow: perCount(db, requests, row("floor_plain")),
      countRead: perCount(db, requests, (i) => {
        const pairs = Array.from({ length: COUNTS_PER_REQUEST }, (_, k) => [nth(i, k).catalog_object_id, location]);
        read.all(JSON.stringify(pairs), merchant);
      }),
      countUpdate: perCount(db, requests, (i) => {
        for (let k = 0; k < COUNTS_PER_REQUEST; k++) update.run(k, at(i), i, at(i), nth(i, k).id);
      }),
    };
    const perCountUs = figures.changeRow + figures.countRead + figures.countUpdate;
    return { ...figures, perCountUs, requestsPerSecond: 1e6 / (perCountUs * COUNTS_PER_REQUEST) };
  } finally {
    dispose();
  }
}
