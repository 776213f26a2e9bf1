import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Db } from "./db.js";

/**
 * The store of `:memory:`: a SQLite file no one else can open, in a private folder of the
 * system's temporary directory, unlinked as soon as it is open, so it is gone with the process
 * however the process ends. The OS keeps its pages (a store of 500 MB does not hold 500 MB in
 * the process); nothing in it has to survive a crash, so it is never synced, its rollback journal
 * stays in memory, and it is locked to this connection for good (exclusive locking: no lock is
 * taken or checked per transaction). Not SQLite's own temporary database: measured, that one's
 * commit grows with its page cache (8 µs at 2 MB, 44 µs at 64 MB, 5 ms at 256 MB), so it could
 * only run on a 2 MB cache; this file commits in about 10 µs at any cache size.
 *
 * Windows does not unlink an open file: there it is SQLite's temporary database, as before.
 *
 * `from` names a database file to start from (a prepared seed image, see seed-image.ts): it is
 * copied into the private folder, and the copy is the store; the image itself is never written.
 */
export function openPrivateStore(from?: string): Db {
  if (process.platform === "win32" && from === undefined) {
    const db = new Database("");
    db.pragma("journal_mode = MEMORY");
    db.pragma("synchronous = OFF");
    return db;
  }
  const dir = mkdtempSync(join(tmpdir(), "backroom-store-"));
  try {
    const file = join(dir, "store.db");
    if (from !== undefined) copyFileSync(from, file);
    const db = new Database(file);
    db.pragma("locking_mode = EXCLUSIVE");
    db.pragma("journal_mode = MEMORY");
    db.pragma("synchronous = OFF");
    // Reading the header opens the file (and takes the lock) before its name goes.
    db.pragma("user_version");
    return db;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How a private store reads and caches once it is laid out. */
const SERVING = {
  /** Reads map the file: a page costs no copy and no system call once the OS has it. */
  mmapBytes: 2 ** 30,
  /** Pages being written between commits (KiB; SQLite's negative cache_size). */
  cacheKiB: 32 * 1024,
  /**
   * The longest a private store's writes wait for their commit. Each commit writes every page
   * changed since the last; a longer wait writes a page changed by many requests once. Measured
   * (CPU of the commits a request, scale 200): 20 ms → 100 ms takes createShift from 15–17 to
   * 3–4 µs and a batch of 100 counts from 570–590 to 250–290 µs; 250 ms gains little more, and
   * each commit holds the event loop longer (about 3 ms at 100 ms under a load of batches).
   */
  commitEveryMs: 100,
};

/** A private store's commit schedule: see {@link serveFromPrivateStore}. */
export interface CommitBatches {
  /** Runs `f` outside any transaction (a reset, which switches foreign keys off), then resumes. */
  outside<T>(f: () => T): T;
  /** Commits what is pending and stops. */
  stop(): void;
}

/**
 * Sets a private store up for serving, once its seed is in: mapped reads, a cache for the pages
 * being written, and commits in batches. Nothing outlives a private store and no one else reads
 * it, so a write gains nothing from reaching the file before its answer is sent: one transaction
 * stays open and every request runs in a savepoint of it (better-sqlite3 nests them so), released
 * at the request's end or rolled back on its refusal; the transaction commits on a timer, writing
 * each page a burst of requests changed once, not once per request. A file store keeps one
 * commit per request: there, an acknowledged write must survive a killed process.
 */
export function serveFromPrivateStore(db: Db): CommitBatches {
  db.pragma(`mmap_size = ${SERVING.mmapBytes}`);
  db.pragma(`cache_size = -${SERVING.cacheKiB}`);
  const begin = db.prepare("BEGIN");
  const commit = db.prepare("COMMIT");
  begin.run();
  const timer = setInterval(() => {
    if (!db.inTransaction) return;
    commit.run();
    begin.run();
  }, SERVING.commitEveryMs);
  timer.unref();
  return {
    outside(f) {
      if (db.inTransaction) commit.run();
      try {
        return f();
      } finally {
        begin.run();
      }
    },
    stop() {
      clearInterval(timer);
      if (db.open && db.inTransaction) commit.run();
    },
  };
}
