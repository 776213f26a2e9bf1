import Database from "better-sqlite3";
import { migrations } from "./migrations/index.js";
import { openPrivateStore } from "./private-store.js";

/** The service's database handle. */
export type Db = Database.Database;

/**
 * Opens (or creates) the database and brings its schema up to date. A file: WAL keeps readers
 * off the writer's back; synchronous=NORMAL in WAL mode loses nothing on a killed process (only
 * on power loss), and every acknowledged write has been committed before the answer is sent.
 *
 * `:memory:` opens a private store instead of a pure in-memory one (private-store.ts): the same
 * lifetime, but its pages live in a file the OS caches, so a benchmark store of 500 MB does not
 * keep 500 MB in the process. `from` starts a `:memory:` store as a copy of that database file.
 */
export function openDb(path = ":memory:", from?: string): Db {
  const temporary = path === ":memory:";
  const db = cachePrepared(temporary ? openPrivateStore(from) : new Database(path));
  if (!temporary) {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
  }
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

/** Statements kept per database, by their SQL text. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Makes `db.prepare` answer a statement compiled once per SQL text. Compiling costs more than
 * running a small statement (a token look-up, a row by id), and every rule prepares its
 * statements where it uses them; caching here serves every caller without each keeping its own.
 * Sharing is safe because no caller sets a mode on a statement (pluck, raw, expand) but through
 * {@link plucked}, whose texts are marked as such, and none runs one statement inside its own
 * iteration; `pragma()` compiles on its own and is not cached.
 */
function cachePrepared(db: Db): Db {
  const compile = db.prepare.bind(db) as (source: string) => Database.Statement;
  const byText = new Map<string, Database.Statement>();
  const prepare = (source: string): Database.Statement => {
    let s = byText.get(source);
    if (!s) {
      // Filters build IN lists of any length: keep the cache from growing without bound.
      if (byText.size >= STATEMENT_CACHE_SIZE) byText.clear();
      s = compile(source);
      byText.set(source, s);
    }
    return s;
  };
  db.prepare = prepare as Db["prepare"];
  return db;
}

/**
 * A prepared statement, compiled once per database: preparing costs more than running a small
 * statement, and hot paths (a 100-change inventory batch, a seed) run the same few thousands of
 * times. (`db.prepare` of an opened database caches the same way; this names the intent.)
 */
export function stmt(db: Db, sql: string): Database.Statement {
  return db.prepare(sql);
}

/** `?, ?, ?` for an IN list of n values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

/**
 * A row count written into SQL text (`LIMIT ${limitSql(n)}`), for statements run often. SQLite
 * plans with a bound LIMIT's value, so `LIMIT ?` expires the statement at every bind and each run
 * parses and plans it again (measured: 10 µs on a 21-row page); written into the text, the
 * statement is planned once, and the cache keeps one per count in use.
 */
export function limitSql(rows: number): string {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`Not a row count: ${rows}.`);
  return String(rows);
}

/** The mark that keeps a plucked statement's text apart from the same SQL prepared plainly. */
const PLUCKED = "/* plucked */ ";

/**
 * A statement that answers its first column's values, not row objects (better-sqlite3's pluck
 * mode), compiled once per database like any. Building an object a row costs more than reading
 * the row: 21 profiles with three columns, 35 µs; their stored JSON alone, plucked, 17 µs.
 */
export function plucked(db: Db, sql: string): Database.Statement {
  return db.prepare(PLUCKED + sql).pluck(true);
}
