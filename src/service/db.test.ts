import { describe, expect, it } from "vitest";
import { limitSql, openDb, plucked } from "./db.js";

describe("plucked statements", () => {
  it("answer first-column values, while the same SQL prepared plainly still answers rows", () => {
    const db = openDb(":memory:");
    db.exec("CREATE TABLE t (a TEXT, b INTEGER); INSERT INTO t VALUES ('x', 1), ('y', 2);");
    const sql = "SELECT a, b FROM t ORDER BY b";
    expect(plucked(db, sql).all()).toEqual(["x", "y"]);
    expect(db.prepare(sql).all()).toEqual([
      { a: "x", b: 1 },
      { a: "y", b: 2 },
    ]);
    // And in the other order: a plain statement cached first does not become plucked.
    const other = "SELECT b FROM t ORDER BY b DESC";
    expect(db.prepare(other).get()).toEqual({ b: 2 });
    expect(plucked(db, other).get()).toBe(2);
    expect(db.prepare(other).get()).toEqual({ b: 2 });
    db.close();
  });
});

describe("limitSql", () => {
  it("writes a row count, and refuses anything else", () => {
    expect(limitSql(21)).toBe("21");
    expect(limitSql(0)).toBe("0");
    for (const bad of [1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(() => limitSql(bad)).toThrow(/Not a row count/);
    }
  });
});
