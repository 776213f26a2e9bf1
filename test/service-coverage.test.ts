import { describe, expect, it } from "vitest";
import { allRoutes } from "../src/service/routes.js";
import { operations } from "../src/spec/generated/operations.js";

describe("the local service", () => {
  it("has a rule for every operation of the contract (83/83)", () => {
    const names = Object.keys(operations);
    const missing = names.filter((n) => !(n in allRoutes));
    expect(missing).toEqual([]);
    expect(names).toHaveLength(83);
  });

  it("has no rule for an operation the contract does not name", () => {
    const extra = Object.keys(allRoutes).filter((n) => !(n in operations));
    expect(extra).toEqual([]);
  });
});
