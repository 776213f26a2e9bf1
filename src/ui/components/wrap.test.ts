import { describe, expect, it } from "vitest";
import { wrapParts } from "./wrap.js";

describe("wrapParts", () => {
  it("fills each line with whole parts", () => {
    expect(wrapParts(["aaaa", "bbbb", "cc"], 11)).toEqual(["aaaa · bbbb", "cc"]);
    expect(wrapParts(["aaaa", "bbbb", "cc"], 20, "   ")).toEqual(["aaaa   bbbb   cc"]);
    expect(wrapParts(["a very long part", "b"], 5)).toEqual(["a very long part", "b"]);
    expect(wrapParts([], 5)).toEqual([]);
  });
});
