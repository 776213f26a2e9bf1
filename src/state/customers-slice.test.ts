import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { profileValues } from "../domain/customers-profile.js";
import type { Customer } from "../spec/generated/types.js";
import { CUSTOMERS_PAGE_SIZE, withLocalChanges } from "./customers-slice.js";
import { type AppStore, createStore } from "./store.js";

let t: TestService;
let store: AppStore;
const s = () => store.getState();
const until = (test: () => boolean) =>
  vi.waitFor(
    () => {
      if (!test()) throw new Error("not yet");
    },
    { timeout: 8000, interval: 5 },
  );

async function make(body: Record<string, string>): Promise<Customer> {
  return (await t.client.customers.createCustomer(body)).customer as Customer;
}

beforeAll(async () => {
  t = await startService();
  let n = 0;
  store = createStore({ client: t.client, newIdempotencyKey: () => `test-key-${++n}` });
});
afterAll(async () => {
  await t.close();
});

describe("customers slice", () => {
  it("first visit: groups and the first page by name; the count follows", async () => {
    await s().customersShow();
    expect(s().customers.groups.map((g) => g.name)).toContain("VIP");
    expect(s().customers.results.rows).toHaveLength(CUSTOMERS_PAGE_SIZE);
    expect(s().customers.cursorTo.id).toBe(s().customers.results.rows[0]?.id);
    await until(() => s().customers.results.count === 500);
  });

  it("a late answer of an older search is dropped", async () => {
    const zed = await make({ given_name: "Zed", family_name: "Yarrowby", email_address: "zed.yarrowby@example.org" });
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "SearchCustomers", status: 200, latency_ms: 400, count: 1 },
    });
    const stale = s().customers.staleAnswers;
    s().customersSetLine("smith");
    s().customersSetLine("yarrowby");
    await until(() => s().customers.results.rows[0]?.id === zed.id);
    await until(() => s().customers.staleAnswers === stale + 1);
    expect(s().customers.results.rows.map((c) => c.id)).toEqual([zed.id]);
    expect(s().customers.line).toBe("yarrowby");
  });

  it("creating reuses its idempotency key only for the same body, and shows the profile at once", async () => {
    expect(await s().customersCreate({ note: "who?" })).toMatch(/Needs at least a name, company, email or phone/);
    expect(await s().customersCreate({ given_name: "Quentin", family_name: "Ashgrove" })).toBeUndefined();
    const id = s().customers.cursorTo.id ?? "";
    expect(s().customers.results.rows[0]).toMatchObject({ id, given_name: "Quentin" });
    expect(s().customers.local[id]).toBeDefined();
  });

  it("an edit that clears a field removes it on the service", async () => {
    const c = await make({ given_name: "Nora", family_name: "Pellingham", nickname: "Nor", note: "x" });
    await s().customersStartEdit(c.id ?? "");
    expect(s().customers.view).toMatchObject({ kind: "edit", base: { id: c.id } });
    const values = { ...profileValues(c), nickname: "", note: "Calls on Fridays." };
    expect(await s().customersSave(values)).toBeUndefined();
    const now = (await t.client.customers.retrieveCustomer(c.id ?? "")).customer;
    expect(now?.nickname).toBeUndefined();
    expect(now?.note).toBe("Calls on Fridays.");
    expect(now?.version).toBe(1);
    expect(s().customers.local[c.id ?? ""]?.version).toBe(1);
  });

  it("this terminal's changes lie over search answers until the service has caught up", () => {
    const mine = { id: "A", given_name: "Ann", version: 3 };
    const rows = [
      { id: "A", given_name: "Anne", version: 2 },
      { id: "B", version: 1 },
      { id: "C", version: 5 },
    ];
    // A lagging answer (version 2) gives way to ours (3); a deleted profile stays gone.
    expect(withLocalChanges(rows, { A: mine, B: null })).toEqual([mine, { id: "C", version: 5 }]);
    // A newer version from elsewhere (4) wins over ours.
    const newer = { id: "A", given_name: "Annie", version: 4 };
    expect(withLocalChanges([newer], { A: mine })).toEqual([newer]);
  });
});
