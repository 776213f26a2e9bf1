import { describe, expect, it } from "vitest";
import { RecentMap } from "./recent-map.js";

describe("RecentMap", () => {
  it("keeps what is used and forgets what is not, holding at most two generations", () => {
    const m = new RecentMap<string, number>(3);
    for (const [i, k] of ["a", "b", "c"].entries()) m.set(k, i);
    // Full: the next entry starts a new generation; a, b and c are the previous one.
    m.set("d", 3);
    expect(m.size).toBe(4);
    // A hit in the previous generation brings it back into the current one.
    expect(m.get("a")).toBe(0);
    m.set("e", 4);
    // The current generation (d, a, e) is full: the next one drops b and c, never used since.
    m.set("f", 5);
    expect(m.has("b")).toBe(false);
    expect(m.get("c")).toBeUndefined();
    expect([m.get("a"), m.get("d"), m.get("e"), m.get("f")]).toEqual([0, 3, 4, 5]);
    expect(m.size).toBeLessThanOrEqual(6);
  });

  it("stays bounded through many keys, as a list scrolled through thousands of rows", () => {
    const m = new RecentMap<number, number>(100);
    let most = 0;
    for (let i = 0; i < 10_000; i++) {
      // Each "frame" uses the 30 rows on screen; one new row scrolls in.
      for (let r = i; r < i + 30; r++) if (m.get(r) === undefined) m.set(r, r);
      most = Math.max(most, m.size);
    }
    expect(most).toBeLessThanOrEqual(200);
    // What the last frame showed is all still there.
    for (let r = 9_999; r < 10_029; r++) expect(m.get(r)).toBe(r);
  });

  it("replaces a value in place and empties on clear", () => {
    const m = new RecentMap<string, string>(1);
    m.set("k", "one").set("k", "two");
    expect([m.get("k"), m.size]).toEqual(["two", 1]);
    m.clear();
    expect(m.size).toBe(0);
    expect(() => new RecentMap(0)).toThrow(RangeError);
  });
});
