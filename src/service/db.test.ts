import { describe, expect, it } from "vitest";
import { insertRows, openDb } from "./db.js";

describe("insertRows", () => {
  it("stores every row in order, across full statements and the rows left over", () => {
    const db = openDb(":memory:");
    db.exec("CREATE TABLE t (seq INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER NOT NULL)");
    const rows = Array.from({ length: 70 }, (_, i) => ({ name: `row ${i}`, n: i * 3 }));
    insertRows(db, "INSERT INTO t (name, n)", rows, (r) => [r.name, r.n]);
    const stored = db.prepare("SELECT seq, name, n FROM t ORDER BY seq").all() as {
      seq: number;
      name: string;
      n: number;
    }[];
    expect(stored).toHaveLength(70);
    expect(stored.map((r) => r.name)).toEqual(rows.map((r) => r.name));
    expect(stored.map((r) => r.n)).toEqual(rows.map((r) => r.n));
    expect(stored.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    db.close();
  });

  it("does nothing for no rows, and a row a constraint refuses still fails the call", () => {
    const db = openDb(":memory:");
    db.exec("CREATE TABLE t (id TEXT PRIMARY KEY)");
    insertRows(db, "INSERT INTO t (id)", [] as string[], (r) => [r]);
    expect(db.prepare("SELECT count(*) AS c FROM t").get()).toEqual({ c: 0 });
    const ids = Array.from({ length: 40 }, (_, i) => `id${i % 35}`);
    expect(() => insertRows(db, "INSERT INTO t (id)", ids, (r) => [r])).toThrow(/UNIQUE/);
    db.close();
  });
});
