// The customers slice on its customer index, against the in-process local service: filled in the
// background while searches go on, names found, changes elsewhere read, deletions noticed.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { CustomerIndexHandle } from "../local/customer-index.js";
import type { Customer } from "../spec/generated/types.js";
import { CUSTOMER_LIST, customerIds } from "./customers-machine.js";
import type { LoadedStore } from "./store.js";
import { selectedId } from "./view-slice.js";

let t: TestService;
let total: number;
const until = (test: () => boolean, timeout = 8000) =>
  vi.waitFor(
    () => {
      if (!test()) throw new Error("not yet");
    },
    { timeout, interval: 5 },
  );

beforeAll(async () => {
  t = await startService();
  total = (await t.client.customers.listCustomers({ limit: 1, count: true })).count ?? 0;
});
afterAll(() => t.close());

/** A store with an index of its own, in memory, on the customers screen with the index filled. */
async function ready(): Promise<LoadedStore> {
  const store = await createFullStore({ client: t.client, customerIndex: new CustomerIndexHandle(":memory:") });
  await store.getState().init();
  await store.getState().customersShow();
  await until(() => store.getState().customers.index.phase === "ready" && !store.getState().customers.index.refreshing);
  return store;
}

/** The search of the line as it is now has been answered. */
const answered = (store: LoadedStore) => {
  const c = store.getState().customers;
  return c.typing.searchedKeys === c.typing.keys && c.results.phase === "ready";
};

const names = (store: LoadedStore) =>
  store.getState().customers.results.rows.map((c) => c.company_name ?? `${c.given_name} ${c.family_name}`);

describe("customers from the index", () => {
  it("fills in the background, then finds a company, a nickname and part of a name", async () => {
    const store = await ready();
    const s = () => store.getState();
    expect(s().customers.results.from).toBe("index");
    expect(s().customers.index.size).toBe(total);
    expect(s().customers.results.count).toBe(total);
    s().customersSetLine("summit roofing");
    await until(() => names(store).includes("Summit Roofing"));
    expect(s().customers.results.count).toBe(s().customers.results.rows.length);
    const nick = (await t.client.customers.createCustomer({ given_name: "Ottilie", nickname: "Tilly Bramblecote" }))
      .customer as Customer;
    await s().customersRefreshIndex();
    s().customersSetLine("bramblec");
    await until(
      () =>
        s()
          .customers.results.rows.map((c) => c.id)
          .join() === nick.id,
    );
    s().customersSetLine("ottil");
    await until(() => s().customers.results.rows.some((c) => c.id === nick.id));
  });

  it("answers a key from the open index in the same change of state as the key (one frame shows both)", async () => {
    const store = await ready();
    const seen: { line: string; found: boolean }[] = [];
    const stop = store.subscribe((st) =>
      seen.push({
        line: st.customers.line,
        found: st.customers.results.rows.some((c) => c.company_name === "Summit Roofing"),
      }),
    );
    store.getState().customersSetLine("summit r");
    stop();
    // The first change that has the new line already has its results.
    expect(seen.find((x) => x.line === "summit r")).toEqual({ line: "summit r", found: true });
  });

  it("is usable while it fills: searches answer from what is read so far, and say so", async () => {
    await t.raw("POST", "/_emulator/faults", { body: { operation: "ListCustomers", status: 200, latency_ms: 150 } });
    try {
      const store = await createFullStore({ client: t.client, customerIndex: new CustomerIndexHandle(":memory:") });
      await store.getState().init();
      await store.getState().customersShow();
      await until(() => store.getState().customers.index.size > 0);
      expect(store.getState().customers.index.phase).toBe("filling");
      store.getState().customersSetLine("a");
      await until(
        () => store.getState().customers.line === "a" && store.getState().customers.results.phase === "ready",
      );
      const partial = store.getState().customers.results.count ?? 0;
      expect(partial).toBeGreaterThan(0);
      await until(() => store.getState().customers.index.phase === "ready", 20_000);
      // Searched again as the fill went on: the whole directory's matches at the end.
      await until(() => (store.getState().customers.results.count ?? 0) > partial);
    } finally {
      await t.raw("DELETE", "/_emulator/faults");
    }
  });

  it("finds an edit made elsewhere after the next refresh, and a profile made here at once", async () => {
    const store = await ready();
    const s = () => store.getState();
    const other = (await t.client.customers.createCustomer({ company_name: "Quaybridge Chandlery" }))
      .customer as Customer;
    await s().customersRefreshIndex();
    await t.client.customers.updateCustomer(other.id ?? "", { company_name: "Quaybridge Sailmakers", version: 0 });
    s().customersSetLine("sailmakers");
    await until(() => answered(store));
    expect(s().customers.results.rows).toEqual([]);
    await s().customersRefreshIndex();
    await until(
      () =>
        s()
          .customers.results.rows.map((c) => c.id)
          .join() === other.id,
    );

    expect(await s().customersCreate({ given_name: "Hortensia", family_name: "Vallely" })).toBeUndefined();
    s().customersSetLine("vallely");
    await until(() => names(store).join() === "Hortensia Vallely");
  });

  it("drops a profile deleted elsewhere when the service says it is gone", async () => {
    const store = await ready();
    const s = () => store.getState();
    const gone = (await t.client.customers.createCustomer({ given_name: "Evander", family_name: "Tollemache" }))
      .customer as Customer;
    await s().customersRefreshIndex();
    s().customersSetLine("tollemache");
    await until(
      () =>
        s()
          .customers.results.rows.map((c) => c.id)
          .join() === gone.id,
    );
    await t.client.customers.deleteCustomer(gone.id ?? "");
    // Still listed: the service's search never names what it deleted. Opening it asks the service.
    await s().customersOpenProfile(gone.id ?? "");
    expect(s().customers.results.rows).toEqual([]);
    expect(s().status).toMatchObject({
      kind: "info",
      text: "Evander Tollemache was deleted elsewhere; it is gone from the list.",
    });
    // Gone from the index too: searched again, it is not found.
    await s().customersSearch();
    expect(s().customers.results.rows).toEqual([]);
    const now = (await t.client.customers.listCustomers({ limit: 1, count: true })).count;
    expect(s().customers.index.size).toBe(now);
  });

  it("reads the profile the cursor rests on from the service, for the pane", async () => {
    const store = await ready();
    const s = () => store.getState();
    const withNote = (
      await t.client.customers.createCustomer({
        given_name: "Philippa",
        family_name: "Arkwrightson",
        note: "Call after 5.",
      })
    ).customer as Customer;
    await s().customersRefreshIndex();
    s().customersSetLine("arkwrightson");
    const selected = () => selectedId(s(), CUSTOMER_LIST, customerIds(s().customers.results.rows));
    await until(() => selected() === withNote.id);
    // The index keeps what the list shows; the note comes with the service's read of the profile.
    await until(() => s().customers.local[withNote.id ?? ""]?.note === "Call after 5.");
    // Moved to another row, that one is read too once the cursor rests there.
    s().customersSetLine("");
    await until(() => s().customers.line === "" && (s().customers.results.count ?? 0) > 1);
    const ids = customerIds(s().customers.results.rows);
    s().selectRow(CUSTOMER_LIST, ids, 3);
    const third = ids[3] ?? "";
    await until(() => s().customers.local[third] !== undefined);
  });
});
