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

  it("a rule with only latency_ms slows calls and fails none", () => {
    const f = new Faults(() => 0);
    const rule = f.add({ operation: "CreateShift", latency_ms: 120 });
    expect(rule.status).toBeNull();
    for (let i = 0; i < 3; i++) expect(f.pick("CreateShift")).toEqual({ latencyMs: 120 });
    expect(f.pick("GetShift")).toBeUndefined();
  });

  it("a rule with a code but no status fails with 500, as before", () => {
    const f = new Faults(() => 0);
    f.add({ code: "SERVICE_UNAVAILABLE", latency_ms: 10 });
    const picked = f.pick("GetShift");
    expect(picked?.latencyMs).toBe(10);
    expect(picked?.error?.status).toBe(500);
    expect(picked?.error?.errors[0]?.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("refuses a field it does not know, and an operation the interface does not have, adding nothing", () => {
    const f = new Faults(() => 0);
    expect(() => f.add({ rules: [{ operation: "*", latency_ms: 2500 }] })).toThrow(/no field "rules"/);
    expect(() => f.add({ operation: "CreateShift", latency: 200 })).toThrow(
      /no field "latency"; it takes .*latency_ms/,
    );
    expect(() => f.add({ operation: "CreateShifts", status: 503 })).toThrow(/No operation is named "CreateShifts"/);
    expect(f.list()).toEqual([]);
    expect(f.pick("CreateShift")).toBeUndefined();
  });
});
