import type BetterSqlite3 from "better-sqlite3";
import type { LocalDb } from "./db.js";

/** The prepared statements of one local database, each prepared once and reused. */
export class Statements {
  readonly db: LocalDb;
  readonly #objects = new Map<string, BetterSqlite3.Statement>();
  readonly #arrays = new Map<string, BetterSqlite3.Statement>();

  constructor(db: LocalDb) {
    this.db = db;
  }

  /** A statement whose rows come back as objects. */
  get(sql: string): BetterSqlite3.Statement {
    let s = this.#objects.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.#objects.set(sql, s);
    }
    return s;
  }

  /** A statement whose rows come back as arrays: cheaper than objects when a read returns thousands. */
  raw(sql: string): BetterSqlite3.Statement {
    let s = this.#arrays.get(sql);
    if (!s) {
      s = this.db.prepare(sql).raw(true);
      this.#arrays.set(sql, s);
    }
    return s;
  }

  /** Runs `step` in one transaction: all of it is written, or none. */
  transaction<T>(step: () => T): T {
    return this.db.transaction(step)();
  }
}
