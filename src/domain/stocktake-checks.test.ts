import { describe, expect, it } from "vitest";
import { parseQuantity } from "./quantity.js";
import { addOrReplace, farFromExpected, farQuestion, leftOutText } from "./stocktake-checks.js";

describe("a count far from the books", () => {
  it("is more than ten times the expected, or more than 500 units over it", () => {
    expect(farFromExpected("5000", "50")).toBe(true);
    expect(farFromExpected("501", "50")).toBe(true);
    expect(farFromExpected("500", "50")).toBe(false);
    // Nothing expected: ten times zero is no limit, 500 over is.
    expect(farFromExpected("12", "0")).toBe(false);
    expect(farFromExpected("500", "0")).toBe(false);
    expect(farFromExpected("501", "0")).toBe(true);
    expect(farFromExpected("1200", "1000")).toBe(false);
    expect(farFromExpected("1501", "1000")).toBe(true);
    // Fewer than expected is a shortage to review, not a typing slip to ask about.
    expect(farFromExpected("0", "800")).toBe(false);
    expect(farFromExpected("2.5", "0.2")).toBe(true);
    expect(farQuestion("Extension Cord 25 ft", "5000", "50")).toBe(
      "Extension Cord 25 ft: 5000 counted, 50 expected — keep?",
    );
  });
});

describe("a bare quantity for an item already counted", () => {
  it("asks whether it adds to the count or replaces it, with both totals", () => {
    expect(addOrReplace("Claw Hammer", "3", parseQuantity("3") ?? 0)).toEqual({
      added: "6",
      replaced: "3",
      question: "Claw Hammer: 3 counted so far. Add 3 (→ 6) or replace (→ 3)?",
    });
    expect(addOrReplace("Rope", "2.5", parseQuantity("0.75") ?? 0).question).toBe(
      "Rope: 2.5 counted so far. Add 0.75 (→ 3.25) or replace (→ 0.75)?",
    );
  });
});

describe("what a commit leaves out", () => {
  it("names unknown codes not resolved and items not counted, with their number", () => {
    expect(leftOutText({ unknownCodes: 3, uncounted: 17, uncountedChoice: "leave" })).toBe(
      "Left out: 3 unknown codes not resolved; 17 items of the count not counted (left as they are).",
    );
    expect(leftOutText({ unknownCodes: 1, uncounted: 0, uncountedChoice: "leave" })).toBe(
      "Left out: 1 unknown code not resolved.",
    );
    // Set to zero, the uncounted items are not left out: they are counted as none.
    expect(leftOutText({ unknownCodes: 0, uncounted: 5, uncountedChoice: "zero" })).toBeUndefined();
  });
});
