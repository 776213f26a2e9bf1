import type { Statement } from "better-sqlite3";
import type { Db } from "../db.js";

const cache = new WeakMap<Db, Map<string, Statement>>();

/**
 * A prepared statement, compiled once per database: the hot paths (a 100-change inventory batch,
 * a SKU scan) run the same few statements thousands of times.
 */
export function stmt(db: Db, sql: string): Statement {
  let byText = cache.get(db);
  if (!byText) {
    byText = new Map();
    cache.set(db, byText);
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
