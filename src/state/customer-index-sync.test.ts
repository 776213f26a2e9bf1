// The customer index's fill and refresh against the in-process local service.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { customerSearchOf } from "../domain/customer-search.js";
import { type CustomerIndex, openCustomerIndex } from "../local/customer-index.js";
import type { Customer } from "../spec/generated/types.js";
import {
  describeIndexSync,
  fillIndex,
  INITIAL_INDEX_SYNC,
  type IndexSource,
  indexSourceOf,
  indexSyncReducer,
  refreshIndex,
} from "./customer-index-sync.js";

let svc: TestService;
let total: number;
beforeAll(async () => {
  svc = await startService();
  total = (await svc.client.customers.listCustomers({ limit: 1, count: true })).count ?? 0;
});
afterAll(() => svc.close());

const find = (index: CustomerIndex, line: string, nameOnly = false) =>
  index.search(customerSearchOf(line, "US", nameOnly), {}, "name", { offset: 0, limit: 100 }).rows;

describe("filling the customer index", () => {
  it("pages every profile in, saying how far it got, and finds them by name", async () => {
    const index = await openCustomerIndex(":memory:");
    const seen: [number, number | undefined][] = [];
    const source = indexSourceOf(svc.client.customers);
    expect(await fillIndex(source, index, (size, expected) => seen.push([size, expected]))).toBe("filled");
    expect(total).toBeGreaterThan(300);
    expect(index.size()).toBe(total);
    expect(seen[0]).toEqual([100, total]);
    expect(seen.at(-1)).toEqual([total, total]);
    expect(index.progress()).toMatchObject({ filled: true, expected: total });
    // The seed's company and a person by part of the family name.
    expect(find(index, "summit roofing").map((c) => c.company_name)).toContain("Summit Roofing");
    const people = await svc.client.customers.listCustomers({ limit: 100 });
    const someone = people.customers?.find((c) => (c.family_name ?? "").length >= 5) as Customer;
    expect(find(index, (someone.family_name ?? "").slice(1, 5), true).some((c) => c.id === someone.id)).toBe(true);
    index.close();
  });

  it("goes on where it stopped, and starts the pages over when the cursor is refused", async () => {
    const index = await openCustomerIndex(":memory:");
    const source = indexSourceOf(svc.client.customers);
    let pages = 0;
    expect(
      await fillIndex(
        source,
        index,
        () => pages++,
        () => pages >= 2,
      ),
    ).toBe("stopped");
    expect(index.size()).toBe(200);
    const cursor = index.progress().fillCursor;
    expect(cursor).toBeTruthy();
    // The next run asks from the cursor kept in the file, not from the start.
    const asked: (string | undefined)[] = [];
    const spying: IndexSource = {
      listPage: (q) => {
        asked.push(q.cursor);
        return source.listPage(q);
      },
      searchPages: source.searchPages,
    };
    expect(await fillIndex(spying, index, () => {})).toBe("filled");
    expect(asked[0]).toBe(cursor);
    expect(index.size()).toBe(total);

    // A cursor the service does not take (altered, or from another service): the pages start over.
    const other = await openCustomerIndex(":memory:");
    other.fillReached("not-a-cursor", undefined);
    expect(await fillIndex(source, other, () => {})).toBe("filled");
    expect(other.size()).toBe(total);
    index.close();
    other.close();
  });
});

describe("refreshing the customer index", () => {
  it("reads what changed elsewhere since the newest change seen", async () => {
    const index = await openCustomerIndex(":memory:");
    const source = indexSourceOf(svc.client.customers);
    await fillIndex(source, index, () => {});
    svc.advance(60);
    const made = (await svc.client.customers.createCustomer({ given_name: "Wilhelmina", family_name: "Quarrington" }))
      .customer as Customer;
    const first = (await svc.client.customers.listCustomers({ limit: 1 })).customers?.[0] as Customer;
    await svc.client.customers.updateCustomer(first.id ?? "", { nickname: "Skipper", version: first.version ?? null });
    expect(find(index, "quarrington")).toEqual([]);
    const read = await refreshIndex(source, index, new Date("2026-05-01T12:00:00Z"));
    expect(read).toBeGreaterThanOrEqual(2);
    expect(find(index, "quarrington").map((c) => c.id)).toEqual([made.id]);
    expect(find(index, "skipper").map((c) => c.id)).toEqual([first.id]);
    expect(index.progress().refreshedAt).toBe("2026-05-01T12:00:00.000Z");
    // Nothing changed since: only what was changed in the newest instant is read again.
    expect(await refreshIndex(source, index, new Date())).toBeLessThanOrEqual(2);
    index.close();
  });
});

describe("the index's state for the screen", () => {
  it("says how far the fill is, and when it is ready", () => {
    let s = indexSyncReducer(INITIAL_INDEX_SYNC, { type: "opening" });
    expect(describeIndexSync(s)).toBe("opening the customer index");
    s = indexSyncReducer(s, { type: "opened", size: 0, filled: false, expected: undefined });
    const opened = s;
    s = indexSyncReducer(s, { type: "fill-page", size: 23_400, expected: 100_000 });
    expect(describeIndexSync(s)).toBe("building the customer index: 23,400 of 100,000 profiles read");
    // One profile is one: "1 profile read", "0 of 1 profile read".
    expect(describeIndexSync(indexSyncReducer(opened, { type: "fill-page", size: 1, expected: undefined }))).toBe(
      "building the customer index: 1 profile read",
    );
    expect(describeIndexSync(indexSyncReducer(opened, { type: "fill-page", size: 0, expected: 1 }))).toBe(
      "building the customer index: 0 of 1 profile read",
    );
    s = indexSyncReducer(s, { type: "fill-stopped", problem: "the service did not answer" });
    expect(describeIndexSync(s)).toContain("(paused: the service did not answer)");
    s = indexSyncReducer(s, { type: "filled", size: 100_000 });
    expect(s).toMatchObject({ phase: "ready", problem: undefined });
    expect(indexSyncReducer(s, { type: "unavailable", problem: "read-only disk" }).phase).toBe("unavailable");
  });
});
