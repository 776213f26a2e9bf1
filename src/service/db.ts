import Database from "better-sqlite3";
import { migrations } from "./migrations/index.js";

/** The service's database handle. */
export type Db = Database.Database;

/**
 * Opens (or creates) the database and brings its schema up to date. WAL keeps readers off the
 * writer's back; synchronous=NORMAL in WAL mode loses nothing on a killed process (only on power
 * loss), and every acknowledged write has been committed before the answer is sent.
 */
export function openDb(path = ":memory:"): Db {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db);
  return db;
}

/** Applies every numbered migration not yet applied, each in its own transaction. */
export function migrate(db: Db): number {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const done = new Set((db.prepare("SELECT id FROM schema_migrations").all() as { id: number }[]).map((r) => r.id));
  let applied = 0;
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)").run(
        m.id,
        m.name,
        new Date().toISOString(),
      );
    })();
    applied++;
  }
  return applied;
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement, compiled once per database: preparing costs more than running a small
 * statement, and hot paths (a 100-change inventory batch, a seed) run the same few thousands of
 * times.
 */
export function stmt(db: Db, sql: string): Database.Statement {
  let byText = statements.get(db);
  if (!byText) {
    byText = new Map();
    statements.set(db, byText);
  }
  let s = byText.get(sql);
  if (!s) {
    // Filters build IN lists of any length: keep the cache from growing without bound.
    if (byText.size >= 1000) byText.clear();
    s = db.prepare(sql);
    byText.set(sql, s);
  }
  return s;
}

/** `?, ?, ?` for an IN list of n values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");
