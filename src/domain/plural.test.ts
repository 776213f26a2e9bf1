import { describe, expect, it } from "vitest";
import { counted } from "./plural.js";

describe("counted", () => {
  it("is singular for one only, with thousands grouped", () => {
    expect(counted(1, "shift")).toBe("1 shift");
    expect(counted(0, "shift")).toBe("0 shifts");
    expect(counted(2, "line")).toBe("2 lines");
    expect(counted(1204, "shift")).toBe("1,204 shifts");
  });

  it("takes an irregular plural", () => {
    expect(counted(1, "entry", "entries")).toBe("1 entry");
    expect(counted(3, "entry", "entries")).toBe("3 entries");
  });
});
