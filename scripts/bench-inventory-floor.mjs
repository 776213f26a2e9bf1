// What SQLite alone costs a batch of physical counts on this machine: the one statement
// batchChangeInventory runs for it (the batch's row in the inventory log, 100 entries, as the
// service writes them), timed on a copy of the day's seed image with the settings `serve` runs its
// store with (src/service/private-store.ts), one savepoint a request and a commit every few. The
// rows' text is made before the clock starts. Nothing of HTTP, JSON or the checks: the most
// requests/s the storage alone leaves room for.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";

const COUNTS_PER_REQUEST = 100;
/** Requests between two commits: what the service's 100 ms commit timer gathers at ~300 requests/s. */
const REQUESTS_PER_COMMIT = 30;

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

/** Times the log row of a batch of 100 counts on a copy of `image`; answers µs a count and the ceiling it leaves. */
export function inventoryFloor(image, { requests = 300 } = {}) {
  const { db, dispose } = openCopy(image);
  try {
    const merchant = db.prepare("SELECT id FROM merchants ORDER BY id LIMIT 1").get().id;
    const location = db.prepare("SELECT id FROM locations WHERE merchant_id = ? ORDER BY id LIMIT 1").get(merchant).id;
    const variations = db
      .prepare("SELECT id FROM catalog_objects WHERE merchant_id = ? AND type = 'ITEM_VARIATION' LIMIT 5000")
      .all(merchant)
      .map((r) => r.id);
    const at = (i) => Date.now() - 2 * 86_400_000 + i * 1000;
    const insert = db.prepare("INSERT INTO inventory_log (merchant_id, token, entries) VALUES (?, ?, ?)");
    // Made before the clock starts (the service's JSON is in its own CPU figures): until
    // 2026-11-28 the text was made inside the timed loop, with two ISO times an entry, and the
    // figure was ten times SQLite's.
    let n = 0;
    const rows = Array.from({ length: requests }, (_, i) =>
      JSON.stringify(
        Array.from({ length: COUNTS_PER_REQUEST }, (_, k) => [
          `FLOOR${String(n++).padStart(21, "0")}`,
          "PHYSICAL_COUNT",
          variations[(i * COUNTS_PER_REQUEST + k) % variations.length],
          location,
          null,
          "IN_STOCK",
          null,
          ((i * 7 + k) % 500) * 100_000,
          at(i),
          at(i),
          null,
        ]),
      ),
    );
    const logRow = perCount(db, requests, (i) => insert.run(merchant, `floor${i}`, rows[i]));
    return { logRow, perCountUs: logRow, requestsPerSecond: 1e6 / (logRow * COUNTS_PER_REQUEST) };
  } finally {
    dispose();
  }
}
