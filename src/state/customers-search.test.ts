import { describe, expect, it } from "vitest";
import { filtersOf } from "./customers-search.js";

const groups = { groups: [{ id: "G1", name: "VIP" }] };
const blank = { group: "", sources: "", rule: "", from: "", to: "" };
const fieldOf = (input: Partial<typeof blank>) => {
  const r = filtersOf({ ...blank, ...input }, groups, "America/New_York");
  return r.ok ? "ok" : r.field;
};

describe("the filter panel's problems", () => {
  it("name the field each is about", () => {
    expect(fieldOf({ group: "Nobody" })).toBe("group");
    expect(fieldOf({ sources: "carrier pigeon" })).toBe("sources");
    expect(fieldOf({ sources: "import", rule: "maybe" })).toBe("rule");
    expect(fieldOf({ from: "2025-02-30" })).toBe("from");
    expect(fieldOf({ from: "2025-02-01", to: "2025-13-01" })).toBe("to");
  });

  it("name none for a range that ends before it starts, and none when all is well", () => {
    expect(fieldOf({ from: "2025-03-01", to: "2025-02-01" })).toBeUndefined();
    expect(fieldOf({ group: "vip", from: "2025-02-01" })).toBe("ok");
  });
});
