import { describe, expect, it } from "vitest";
import {
  decodeCursor,
  encodeCursor,
  isOffset,
  MAX_CURSOR_CHARS,
  MAX_CURSORS,
  pageByOffset,
  positionOf,
  readCursor,
} from "./cursor.js";
import { refusalCode } from "./refusal.js";
import { sortedJson } from "./sorted-json.js";

describe("cursors", () => {
  const query = { location_id: "L1", limit: 10 };

  it("give back the position for the same operation and query, whatever the limit or key order", () => {
    const c = encodeCursor("ListBreakTypes", query, { t: "2024-01-01", s: 4 });
    expect(decodeCursor("ListBreakTypes", c, { limit: 50, location_id: "L1" })).toEqual({ t: "2024-01-01", s: 4 });
  });

  it("are refused when minted by another operation, for another query, or altered", () => {
    const c = encodeCursor("ListBreakTypes", query, 20);
    expect(refusalCode(() => decodeCursor("ListTeamMemberWages", c, query))).toBe("INVALID_CURSOR");
    expect(refusalCode(() => decodeCursor("ListBreakTypes", c, { location_id: "L2" }))).toBe("INVALID_CURSOR");
    const last = c.at(-1) === "A" ? "B" : "A";
    const altered = [`${c.slice(0, -1)}${last}`, c.toLowerCase(), `${c} `, c.slice(1)];
    for (const forged of altered) {
      expect(refusalCode(() => decodeCursor("ListBreakTypes", forged, query))).toBe("INVALID_CURSOR");
    }
    expect(decodeCursor("ListBreakTypes", c, query)).toBe(20);
    for (const junk of ["x", "%%%", "e30", "a".repeat(5000), 7]) {
      expect(refusalCode(() => decodeCursor("ListBreakTypes", junk, query))).toBe("INVALID_CURSOR");
    }
  });

  it("can be used again, and expire once MAX_CURSORS newer ones were given out", () => {
    const first = encodeCursor("Op", { a: 1 }, 7);
    expect(decodeCursor("Op", first, { a: 1 })).toBe(7);
    expect(decodeCursor("Op", first, { a: 1 })).toBe(7);
    const made = Array.from({ length: MAX_CURSORS - 1 }, (_, i) => encodeCursor("Op", { a: 1 }, i));
    expect(decodeCursor("Op", first, { a: 1 })).toBe(7);
    encodeCursor("Op", { a: 1 }, -1);
    expect(refusalCode(() => decodeCursor("Op", first, { a: 1 }))).toBe("INVALID_CURSOR");
    expect(decodeCursor("Op", made[0], { a: 1 })).toBe(0);
    expect(new Set(made).size).toBe(made.length);
  });

  it("expire sooner when their queries are long: MAX_CURSOR_CHARS of them are kept at most", () => {
    const long = { q: "x".repeat(MAX_CURSOR_CHARS / 4) };
    const [a, b, c] = [1, 2, 3].map((p) => encodeCursor("Op", long, p));
    expect(decodeCursor("Op", a, long)).toBe(1);
    const d = encodeCursor("Op", long, 4);
    expect(refusalCode(() => decodeCursor("Op", a, long))).toBe("INVALID_CURSOR");
    expect([b, c, d].map((x) => decodeCursor("Op", x, long))).toEqual([2, 3, 4]);
    // One longer than all that is kept still pages, until the next cursor is given out.
    const huge = { q: "y".repeat(MAX_CURSOR_CHARS + 1) };
    const e = encodeCursor("Op", huge, 5);
    expect(decodeCursor("Op", e, huge)).toBe(5);
    expect(refusalCode(() => decodeCursor("Op", d, long))).toBe("INVALID_CURSOR");
    const f = encodeCursor("Op", { a: 1 }, 6);
    expect(refusalCode(() => decodeCursor("Op", e, huge))).toBe("INVALID_CURSOR");
    expect(decodeCursor("Op", f, { a: 1 })).toBe(6);
  });

  it("leave paging out of the query they page, at its top only", () => {
    const c = encodeCursor("Op", { a: 1, limit: 5, cursor: "x", batch_token: "y" }, 3);
    expect(decodeCursor("Op", c, { a: 1 })).toBe(3);
    expect(decodeCursor("Op", c, { limit: 9, a: 1 })).toBe(3);
    expect(refusalCode(() => decodeCursor("Op", c, { a: 2, limit: 5 }))).toBe("INVALID_CURSOR");
    const nested = encodeCursor("Op", { q: { limit: 1, cursor: "a" } }, 3);
    expect(refusalCode(() => decodeCursor("Op", nested, { q: { limit: 2, cursor: "a" } }))).toBe("INVALID_CURSOR");
    expect(refusalCode(() => decodeCursor("Op", nested, { q: { limit: 1 } }))).toBe("INVALID_CURSOR");
    expect(decodeCursor("Op", nested, { q: { cursor: "a", limit: 1 } })).toBe(3);
  });

  it("check the position's shape with the listing's guard", () => {
    const isPos = positionOf({ t: "string", s: "number" });
    const bad = encodeCursor("Op", {}, { t: 1, s: "x" });
    expect(refusalCode(() => readCursor("Op", bad, {}, isPos))).toBe("INVALID_CURSOR");
    expect(readCursor("Op", encodeCursor("Op", {}, { t: "a", s: 1 }), {}, isPos)).toEqual({ t: "a", s: 1 });
    expect(isOffset(-1)).toBe(false);
    expect(isOffset(1.5)).toBe(false);
    expect(isOffset(3)).toBe(true);
  });

  it("page a list by offset to its end", () => {
    const items = [1, 2, 3, 4, 5];
    const first = pageByOffset("Op", items, {}, undefined, 2);
    const second = pageByOffset("Op", items, {}, first.cursor, 2);
    const third = pageByOffset("Op", items, {}, second.cursor, 2);
    expect([first.items, second.items, third.items]).toEqual([[1, 2], [3, 4], [5]]);
    expect(third.cursor).toBeUndefined();
  });
});

describe("sortedJson", () => {
  it("writes equal values as equal text, whatever the key order", () => {
    expect(sortedJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(sortedJson({ a: 1, b: 2 })).toBe(sortedJson({ b: 2, a: 1 }));
  });
});
