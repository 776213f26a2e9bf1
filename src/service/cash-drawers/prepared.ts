import type { Statement } from "better-sqlite3";
import type { Db } from "../db.js";

const cache = new WeakMap<Db, Map<string, Statement>>();

/**
 * A prepared statement, compiled once per database: preparing costs more than running a small
 * statement, and the seeds run the same few statements thousands of times.
 */
export function prepared(db: Db, sql: string): Statement {
  let byText = cache.get(db);
  if (!byText) {
    byText = new Map();
    cache.set(db, byText);
  }
  let st = byText.get(sql);
  if (!st) {
    st = db.prepare(sql);
    byText.set(sql, st);
  }
  return st;
}
