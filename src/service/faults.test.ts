import { describe, expect, it } from "vitest";
import { Faults } from "./faults.js";

describe("Faults", () => {
  it("a latency-only rule with a count delays that many calls, then no more", () => {
    const f = new Faults(() => 0);
    f.add({ operation: "SearchCustomers", status: 200, latency_ms: 300, count: 1 });
    expect(f.pick("ListCustomers")).toBeUndefined();
    expect(f.pick("SearchCustomers")).toEqual({ latencyMs: 300 });
    expect(f.pick("SearchCustomers")).toBeUndefined();
  });

  it("without a count it delays every matching call", () => {
    const f = new Faults(() => 0);
    f.add({ status: 200, latency_ms: 50 });
    for (let i = 0; i < 3; i++) expect(f.pick("RetrieveCustomer")).toEqual({ latencyMs: 50 });
  });
});
