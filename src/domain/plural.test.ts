import { describe, expect, it } from "vitest";
import { partOf, plural } from "./plural.js";

describe("plural", () => {
  it("is singular for one only, with thousands grouped", () => {
    expect(plural(1, "shift")).toBe("1 shift");
    expect(plural(0, "shift")).toBe("0 shifts");
    expect(plural(2, "line")).toBe("2 lines");
    expect(plural(1204, "shift")).toBe("1,204 shifts");
  });

  it("a part agrees with its whole: 0 of 1 line, 1 of 2 lines", () => {
    expect(partOf(0, 1, "line")).toBe("0 of 1 line");
    expect(partOf(1, 2, "line")).toBe("1 of 2 lines");
    expect(partOf(3, 1204, "entry", "entries")).toBe("3 of 1,204 entries");
  });

  it("takes an irregular plural", () => {
    expect(plural(1, "entry", "entries")).toBe("1 entry");
    expect(plural(3, "entry", "entries")).toBe("3 entries");
  });
});
