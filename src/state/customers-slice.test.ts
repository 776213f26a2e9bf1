import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { profileValues } from "../domain/customers-profile.js";
import { CustomerIndexHandle } from "../local/customer-index.js";
import { OutboxHandle } from "../local/outbox.js";
import type { Customer } from "../spec/generated/types.js";
import {
  CUSTOMER_LIST,
  CUSTOMERS_PAGE_SIZE,
  customerIds,
  SEARCH_DEBOUNCE_MS,
  withLocalChanges,
} from "./customers-slice.js";
import type { LoadedStore } from "./store.js";
import type { Timers } from "./types.js";
import { selectedId } from "./view-slice.js";

let t: TestService;
let store: LoadedStore;
const s = () => store.getState();
/** The result rows' ids, and the profile the list's cursor is on (the store's selection, by id). */
const ids = () => customerIds(s().customers.results.rows);
const selected = () => selectedId(s(), CUSTOMER_LIST, ids());
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

/**
 * A customer index that cannot be opened (its folder is a file): these tests are of the service's
 * search, what the screen uses when this machine cannot keep an index. The index's own path is
 * tested in customers-index.test.ts.
 */
const noIndex = () => new CustomerIndexHandle("/dev/null/customers.db");

beforeAll(async () => {
  t = await startService();
  let n = 0;
  store = await createFullStore({
    outbox: new OutboxHandle(":memory:"),
    client: t.client,
    newIdempotencyKey: () => `test-key-${++n}`,
    customerIndex: noIndex(),
  });
});
afterAll(async () => {
  await t.close();
});

describe("customers slice", () => {
  it("first visit: groups and the first page by name; the count follows", async () => {
    await s().customersShow();
    expect(s().customers.index.phase).toBe("unavailable");
    expect(s().customers.results.from).toBe("service");
    expect(s().status).toMatchObject({
      kind: "info",
      text: "The customer index cannot be kept on this machine: names are not searchable, emails, phones and reference ids are.",
    });
    expect(s().customers.groups.map((g) => g.name)).toContain("VIP");
    expect(s().customers.results.rows).toHaveLength(CUSTOMERS_PAGE_SIZE);
    expect(selected()).toBe(s().customers.results.rows[0]?.id);
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
    const id = selected() ?? "";
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

  it("the selection stays on its profile, by id, when a refresh finds the rows reordered", async () => {
    const made = [];
    for (const given of ["Arno", "Bettina", "Caspar"])
      made.push(
        await make({
          given_name: given,
          family_name: "Quillfeather",
          email_address: `${given}.quillfeather@example.org`,
        }),
      );
    s().customersSetLine("quillfeather");
    await until(() => s().customers.results.rows.length === 3 && s().customers.results.phase === "ready");
    const bettina = made[1]?.id ?? "";
    s().selectRow(CUSTOMER_LIST, ids(), ids().indexOf(bettina));
    // Renamed on another terminal: Bettina now sorts last by name.
    await t.client.customers.updateCustomer(bettina, { given_name: "Zuleika", version: 0 });
    await s().customersSearch();
    const rows = s().customers.results.rows.map((c) => c.id);
    expect(rows.indexOf(bettina)).toBe(2);
    expect(selected()).toBe(bettina);
    // The order by creation date moves the rows again; the selection goes with its profile.
    await s().customersToggleSort();
    expect(s().customers.results.rows.map((c) => c.id)).not.toEqual(rows);
    expect(selected()).toBe(bettina);
    await s().customersToggleSort();
    // Deleted: the cursor stays in its place, on the profile that took its row.
    const at = ids().indexOf(bettina);
    await s().customersDelete(bettina);
    expect(ids().indexOf(bettina)).toBe(-1);
    expect(selected()).toBe(ids()[Math.min(at, ids().length - 1)]);
    // A new search starts at the top.
    s().selectRow(CUSTOMER_LIST, ids(), 1);
    const before = s().customers.searchSeq;
    s().customersSetLine("quillfeather@");
    await until(() => s().customers.searchSeq > before && s().customers.results.phase === "ready");
    expect(ids()).toHaveLength(2);
    expect(selected()).toBe(ids()[0]);
  });

  it("a burst of keys sends one search at its start and one at its end, on the injected timers", async () => {
    let now = 10_000;
    const waiting: { at: number; run: () => void }[] = [];
    const timers: Timers = { after: (ms, run) => void waiting.push({ at: now + ms, run }), elapsed: () => now };
    const own = await createFullStore({
      outbox: new OutboxHandle(":memory:"),
      client: t.client,
      timers,
      customerIndex: noIndex(),
    });
    // The index is found missing first: then every search goes to the service.
    await own.getState().customersRefreshIndex();
    expect(own.getState().customers.index.phase).toBe("unavailable");
    const sent: string[] = [];
    const search = t.client.customers.searchCustomers.bind(t.client.customers);
    const spy = vi.spyOn(t.client.customers, "searchCustomers").mockImplementation((req) => {
      if (!req?.count) sent.push(JSON.stringify(req?.query?.filter ?? {}));
      return search(req);
    });
    try {
      for (const line of ["q", "qu", "qui", "quil"]) {
        own.getState().customersSetLine(line);
        now += 30;
      }
      // The first key went at once; the rest wait for the burst to end.
      expect(sent).toHaveLength(1);
      now += SEARCH_DEBOUNCE_MS;
      for (const w of waiting.splice(0)) if (w.at <= now) w.run();
      expect(sent).toHaveLength(2);
      expect(sent[1]).toContain("quil");
      await until(() => own.getState().customers.line === "quil" && own.getState().customers.results.phase === "ready");
    } finally {
      spy.mockRestore();
    }
  });
});
