import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_GROUPS } from "../src/service/customers/seed.js";
import type { ServiceEvent } from "../src/service/events.js";
import { createService, type LocalService } from "../src/service/index.js";
import type { Customer } from "../src/spec/generated/types.js";
import { SquareApiError } from "../src/square/errors.js";
import { startService, type TestService } from "./helpers/service.js";

let t: TestService;
const published: ServiceEvent[] = [];
const [VIP, CONTRACTORS, NEWSLETTER] = DEMO_GROUPS.map((g) => g.id) as [string, string, string];

beforeAll(async () => {
  t = await startService({ events: { publish: (events) => published.push(...events) } });
});
afterAll(() => t.close());

async function refusal(p: PromiseLike<unknown>): Promise<SquareApiError> {
  const err = await Promise.resolve(p).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof SquareApiError)) throw new Error(`expected a SquareApiError, got ${String(err)}`);
  return err;
}

const nameKey = (c: Customer) => [(c.given_name ?? "").toLowerCase(), (c.family_name ?? "").toLowerCase()];
const inOrder = <T>(items: readonly T[], cmp: (a: T, b: T) => number) =>
  items.every((x, i) => i === 0 || cmp(items[i - 1] as T, x) <= 0);
const byName = (a: Customer, b: Customer) => {
  const [ag, af] = nameKey(a);
  const [bg, bf] = nameKey(b);
  return ag !== bg ? ((ag ?? "") < (bg ?? "") ? -1 : 1) : af === bf ? 0 : (af ?? "") < (bf ?? "") ? -1 : 1;
};

async function newCustomer(body: Parameters<TestService["client"]["customers"]["createCustomer"]>[0]) {
  const res = await t.client.customers.createCustomer(body);
  if (!res.customer?.id) throw new Error("no customer");
  return res.customer as Customer & { id: string; version: number };
}

describe("listCustomers", () => {
  it("limit is 1–100: below → VALUE_TOO_LOW, above → VALUE_TOO_HIGH", async () => {
    const low = await refusal(t.client.customers.listCustomers({ limit: 0 }));
    expect(low.status).toBe(400);
    expect(low.errors[0]).toMatchObject({ code: "VALUE_TOO_LOW", field: "limit" });
    const high = await refusal(t.client.customers.listCustomers({ limit: 101 }));
    expect(high.errors[0]).toMatchObject({ code: "VALUE_TOO_HIGH", field: "limit" });
  });

  it("defaults to 100 a page, by given then family name, and pages through every profile once", async () => {
    const first = await t.client.customers.listCustomers({ count: true });
    expect(first.customers).toHaveLength(100);
    expect(first.cursor).toBeTruthy();
    expect(first.count).toBeGreaterThanOrEqual(500);
    const all = await t.client.customers.listCustomers({ limit: 100 }).all();
    expect(all.length).toBe(first.count);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    expect(inOrder(all, byName)).toBe(true);
  });

  it("sorts by CREATED_AT, DESC when asked; an unknown sort field is refused", async () => {
    const page = await t.client.customers.listCustomers({ sort_field: "CREATED_AT", sort_order: "DESC", limit: 50 });
    const times = (page.customers ?? []).map((c) => c.created_at ?? "");
    expect(times).toEqual([...times].sort().reverse());
    const bad = await t.raw("GET", "/v2/customers?sort_field=NAME");
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0]).toMatchObject({ code: "INVALID_ENUM_VALUE", field: "sort_field" });
  });

  it("a cursor from one sort is refused for another", async () => {
    const page = await t.client.customers.listCustomers({ limit: 10 });
    const res = await t.raw("GET", `/v2/customers?limit=10&sort_field=CREATED_AT&cursor=${page.cursor}`);
    expect(res.status).toBe(400);
    expect(res.json.errors[0].code).toBe("INVALID_CURSOR");
  });
});

describe("createCustomer", () => {
  it("needs a name, a company, an email or a phone number", async () => {
    const err = await refusal(t.client.customers.createCustomer({ note: "who am I?", nickname: "X" }));
    expect(err.status).toBe(400);
    expect(err.code).toBe("MISSING_REQUIRED_PARAMETER");
    const blank = await refusal(t.client.customers.createCustomer({ given_name: "  " }));
    expect(blank.status).toBe(400);
  });

  it("creates with any one of them, at version 0, from THIRD_PARTY, and emits customer.created", async () => {
    const c = await newCustomer({ company_name: "Acme Fasteners" });
    expect(c).toMatchObject({ company_name: "Acme Fasteners", version: 0, creation_source: "THIRD_PARTY" });
    expect(c.created_at).toBe(c.updated_at);
    expect(published).toContainEqual(
      expect.objectContaining({ type: "customer.created", dataType: "customer", dataId: c.id }),
    );
    const phoneOnly = await newCustomer({ phone_number: "+1 (212) 555-0188" });
    expect(phoneOnly.phone_number).toBe("+1 (212) 555-0188");
  });

  it("refuses a malformed email, phone number or birthday; a birthday without year gets 0000", async () => {
    expect((await refusal(t.client.customers.createCustomer({ email_address: "not-an-email" }))).code).toBe(
      "INVALID_EMAIL_ADDRESS",
    );
    expect((await refusal(t.client.customers.createCustomer({ phone_number: "call me" }))).code).toBe(
      "INVALID_PHONE_NUMBER",
    );
    expect((await refusal(t.client.customers.createCustomer({ given_name: "Bo", birthday: "1990-02-30" }))).code).toBe(
      "INVALID_DATE",
    );
    const c = await newCustomer({ given_name: "Bo", birthday: "07-04" });
    expect(c.birthday).toBe("0000-07-04");
  });

  it("the same idempotency key and body gives the same customer once", async () => {
    const body = { idempotency_key: "cust-idem-1", given_name: "Idem", family_name: "Potent" };
    const a = await newCustomer(body);
    const b = await newCustomer(body);
    expect(b.id).toBe(a.id);
    const found = await t.client.customers.searchCustomers({
      query: { filter: { email_address: { fuzzy: "zzz" } } },
    });
    expect(found.customers).toBeUndefined();
  });
});

describe("retrieve, update, delete", () => {
  it("retrieves a profile in the wire shape; an unknown id is 404", async () => {
    const c = await newCustomer({
      given_name: "Grace",
      family_name: "Hopper",
      email_address: "grace@navy.example",
      address: { address_line_1: "1 Pier", locality: "Arlington", country: "US" },
    });
    const got = await t.client.customers.retrieveCustomer(c.id);
    expect(got.customer).toEqual(c);
    expect(Object.keys(got.customer ?? {})).toEqual([
      "id",
      "created_at",
      "updated_at",
      "given_name",
      "family_name",
      "email_address",
      "address",
      "preferences",
      "creation_source",
      "version",
    ]);
    const missing = await refusal(t.client.customers.retrieveCustomer("NOPE"));
    expect(missing.status).toBe(404);
    expect(missing.code).toBe("NOT_FOUND");
  });

  it("a new value changes a field, an empty string or empty object removes it; version and updated_at move", async () => {
    const c = await newCustomer({
      given_name: "Alan",
      family_name: "Turing",
      nickname: "Prof",
      address: { address_line_1: "2 Bletchley Rd", locality: "Milton Keynes", postal_code: "MK3" },
    });
    t.advance(60);
    const res = await t.client.customers.updateCustomer(c.id, {
      family_name: "Mathison-Turing",
      nickname: "",
      address: { postal_code: "MK3 6EB", locality: "" },
      version: c.version,
    });
    const u = res.customer ?? {};
    expect(u.family_name).toBe("Mathison-Turing");
    expect(u.nickname).toBeUndefined();
    expect(u.address).toEqual({ address_line_1: "2 Bletchley Rd", postal_code: "MK3 6EB" });
    expect(u.version).toBe(c.version + 1);
    expect(Date.parse(u.updated_at ?? "")).toBeGreaterThan(Date.parse(c.updated_at ?? ""));
    expect(u.created_at).toBe(c.created_at);

    const cleared = await t.client.customers.updateCustomer(c.id, { address: {} });
    expect(cleared.customer?.address).toBeUndefined();
    expect(published).toContainEqual(expect.objectContaining({ type: "customer.updated", dataId: c.id }));
  });

  it("a stale version is a 409 CONFLICT and changes nothing", async () => {
    const c = await newCustomer({ given_name: "Stale" });
    await t.client.customers.updateCustomer(c.id, { note: "first" });
    const err = await refusal(t.client.customers.updateCustomer(c.id, { note: "second", version: c.version }));
    expect(err.status).toBe(409);
    expect(err.errors[0]).toMatchObject({ code: "CONFLICT", field: "version" });
    expect((await t.client.customers.retrieveCustomer(c.id)).customer?.note).toBe("first");
  });

  it("delete: a wrong version is refused, the right one deletes, cards go too, customer.deleted is emitted", async () => {
    const c = await newCustomer({ given_name: "Short", family_name: "Lived" });
    await t.client.customers.createCustomerCard(c.id, { card_nonce: "cnon:delete-me" });
    const cur = (await t.client.customers.retrieveCustomer(c.id)).customer;
    const wrong = await refusal(t.client.customers.deleteCustomer(c.id, { version: (cur?.version ?? 0) + 5 }));
    expect(wrong.status).toBe(409);
    await t.client.customers.deleteCustomer(c.id, { version: cur?.version ?? 0 });
    expect((await refusal(t.client.customers.retrieveCustomer(c.id))).status).toBe(404);
    expect(published).toContainEqual(
      expect.objectContaining({ type: "customer.deleted", dataId: c.id, deleted: true }),
    );
    const cards = t.service.db.prepare("SELECT COUNT(*) AS n FROM customer_cards WHERE customer_id = ?").get(c.id);
    expect(cards).toEqual({ n: 0 });
  });
});

describe("searchCustomers", () => {
  it("with no filter lists every profile by given name then family name, with the count", async () => {
    const res = await t.client.customers.searchCustomers({ limit: 100, count: true });
    expect(res.customers).toHaveLength(100);
    expect(inOrder(res.customers ?? [], byName)).toBe(true);
    const listed = await t.client.customers.listCustomers({ count: true });
    expect(res.count).toBe(listed.count);
  });

  it("limit is 1–100", async () => {
    expect((await refusal(t.client.customers.searchCustomers({ limit: 0 }))).code).toBe("VALUE_TOO_LOW");
    expect((await refusal(t.client.customers.searchCustomers({ limit: 101 }))).code).toBe("VALUE_TOO_HIGH");
  });

  it("creation_source INCLUDE and EXCLUDE split the profiles", async () => {
    const filter = (rule: "INCLUDE" | "EXCLUDE") => ({
      query: { filter: { creation_source: { values: ["DIRECTORY" as const, "IMPORT" as const], rule } } },
      count: true,
    });
    const inc = await t.client.customers.searchCustomers(filter("INCLUDE"));
    const exc = await t.client.customers.searchCustomers(filter("EXCLUDE"));
    const all = await t.client.customers.searchCustomers({ count: true });
    expect(inc.count).toBeGreaterThan(0);
    expect((inc.count ?? 0) + (exc.count ?? 0)).toBe(all.count);
    for (const c of inc.customers ?? []) expect(["DIRECTORY", "IMPORT"]).toContain(c.creation_source);
    for (const c of exc.customers ?? []) expect(["DIRECTORY", "IMPORT"]).not.toContain(c.creation_source);
  });

  it("created_at and updated_at ranges, sorted by CREATED_AT", async () => {
    const now = t.service.clock.now().getTime();
    const start = new Date(now - 365 * 86_400_000).toISOString();
    const end = new Date(now - 180 * 86_400_000).toISOString();
    const found = await t.client.customers
      .searchCustomers({
        limit: 20,
        query: { filter: { created_at: { start_at: start, end_at: end } }, sort: { field: "CREATED_AT" } },
      })
      .all();
    expect(found.length).toBeGreaterThan(10);
    const times = found.map((c) => c.created_at ?? "");
    expect(times).toEqual([...times].sort());
    for (const x of times) expect(x >= start && x <= end).toBe(true);

    const recent = new Date(now - 30 * 86_400_000).toISOString();
    const updated = await t.client.customers.searchCustomers({
      query: { filter: { updated_at: { start_at: recent } } },
    });
    for (const c of updated.customers ?? []) expect((c.updated_at ?? "") >= recent).toBe(true);

    const backwards = await refusal(
      t.client.customers.searchCustomers({ query: { filter: { created_at: { start_at: end, end_at: start } } } }),
    );
    expect(backwards.code).toBe("INVALID_TIME_RANGE");
  });

  it("email and phone: exact (email without regard to case) and fuzzy", async () => {
    const c = await newCustomer({
      given_name: "Edsger",
      family_name: "Dijkstra",
      email_address: "Edsger.Dijkstra@Shortest.example",
      phone_number: "+1-415-555-0134",
      reference_id: "EWD-1968",
    });
    const ids = async (filter: object) =>
      ((await t.client.customers.searchCustomers({ query: { filter } })).customers ?? []).map((x) => x.id);
    expect(await ids({ email_address: { exact: "edsger.dijkstra@shortest.example" } })).toEqual([c.id]);
    expect(await ids({ email_address: { exact: "edsger@shortest.example" } })).toEqual([]);
    expect(await ids({ email_address: { fuzzy: "shortest dijkstra" } })).toEqual([c.id]);
    expect(await ids({ phone_number: { exact: "+14155550134" } })).toEqual([c.id]);
    expect(await ids({ phone_number: { fuzzy: "555-0134" } })).toContain(c.id);
    expect(await ids({ reference_id: { exact: "EWD-1968" } })).toEqual([c.id]);
    expect(await ids({ reference_id: { fuzzy: "ewd" } })).toEqual([c.id]);
    const both = await refusal(
      t.client.customers.searchCustomers({ query: { filter: { email_address: { exact: "a@b.co", fuzzy: "b" } } } }),
    );
    expect(both.code).toBe("CONFLICTING_PARAMETERS");
  });

  it("group_ids: all, any and none", async () => {
    const count = async (group_ids: object) =>
      (await t.client.customers.searchCustomers({ query: { filter: { group_ids } }, count: true })).count ?? 0;
    const vip = await count({ any: [VIP] });
    const news = await count({ any: [NEWSLETTER] });
    const both = await count({ all: [VIP, NEWSLETTER] });
    const either = await count({ any: [VIP, NEWSLETTER] });
    const total = (await t.client.customers.searchCustomers({ count: true })).count ?? 0;
    expect(vip).toBeGreaterThan(0);
    expect(both).toBeLessThan(vip);
    expect(either).toBe(vip + news - both);
    expect(await count({ none: [VIP] })).toBe(total - vip);
    const page = await t.client.customers.searchCustomers({
      query: { filter: { group_ids: { all: [VIP, NEWSLETTER] } } },
    });
    for (const c of page.customers ?? []) expect(c.group_ids).toEqual(expect.arrayContaining([VIP, NEWSLETTER]));
  });

  it("pages with a cursor tied to the query; a changed query with an old cursor is INVALID_CURSOR", async () => {
    const body = { limit: 7, query: { filter: { group_ids: { any: [CONTRACTORS] } } } };
    const first = await t.client.customers.searchCustomers({ ...body, count: true });
    const all = await t.client.customers.searchCustomers(body).all();
    expect(all).toHaveLength(first.count ?? -1);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    expect(inOrder(all, byName)).toBe(true);

    const changed = await refusal(
      t.client.customers.searchCustomers({
        limit: 7,
        cursor: first.cursor ?? "",
        query: { filter: { group_ids: { any: [VIP] } } },
      }),
    );
    expect(changed.errors[0]).toMatchObject({ code: "INVALID_CURSOR", field: "cursor" });
    const junk = await refusal(t.client.customers.searchCustomers({ cursor: "not-a-cursor" }));
    expect(junk.code).toBe("INVALID_CURSOR");
  });

  it("sorts DESC by the default key", async () => {
    const res = await t.client.customers.searchCustomers({ limit: 50, query: { sort: { order: "DESC" } } });
    expect(inOrder([...(res.customers ?? [])].reverse(), byName)).toBe(true);
  });
});

describe("searchCustomers: fuzzy fragments, looked up in the search index", () => {
  const search = async (filter: object, limit = 100) =>
    t.client.customers.searchCustomers({ limit, query: { filter } }).all();
  const ids = async (filter: object) => (await search(filter)).map((c) => c.id);

  it("finds a fragment from the middle of an email, and follows the email when it changes", async () => {
    const c = await newCustomer({ given_name: "Maximilian", email_address: "maximilian.oberhauser@werkstatt.example" });
    expect(await ids({ email_address: { fuzzy: "erhause" } })).toEqual([c.id]);
    expect(await ids({ email_address: { fuzzy: "ilian.oberh" } })).toEqual([c.id]);
    expect(await ids({ email_address: { fuzzy: "KSTATT.EXAM" } })).toEqual([c.id]);
    await t.client.customers.updateCustomer(c.id, { email_address: "max@kiosk.example" });
    expect(await ids({ email_address: { fuzzy: "erhause" } })).toEqual([]);
    expect(await ids({ email_address: { fuzzy: "kiosk" } })).toEqual([c.id]);
  });

  it("finds a phone number from digits written in another format than the stored one", async () => {
    const c = await newCustomer({ given_name: "Pia", phone_number: "+1 (646) 555-0199" });
    for (const fuzzy of ["646-555-01", "6465550199", "646.555.0199", "+1 646 555 0199", "(555) 01 99"]) {
      const found = await search({ phone_number: { fuzzy } });
      expect(found.map((x) => x.id)).toContain(c.id);
      const digits = fuzzy.replace(/\D/g, "");
      for (const x of found) expect((x.phone_number ?? "").replace(/\D/g, "")).toContain(digits);
    }
  });

  it("finds names with accents, upper or lower case, and keeps accents significant", async () => {
    const c = await newCustomer({
      given_name: "Renée",
      family_name: "Lefèvre-Núñez",
      email_address: "renée.lefèvre-núñez@exemple.fr",
    });
    expect(await ids({ email_address: { fuzzy: "lefèvre" } })).toEqual([c.id]);
    expect(await ids({ email_address: { fuzzy: "NÚÑEZ" } })).toEqual([c.id]);
    expect(await ids({ email_address: { fuzzy: "enée lefè" } })).toEqual([c.id]);
    expect(await ids({ email_address: { fuzzy: "lefevre" } })).toEqual([]);
  });

  it("answers a fragment shorter than three characters without the index, in the same order", async () => {
    const c = await newCustomer({ given_name: "Iñigo", email_address: "iñigo@ñ.example" });
    const found = await search({ email_address: { fuzzy: "ñ" } }, 7);
    expect(found.map((x) => x.id)).toContain(c.id);
    for (const x of found) expect(x.email_address).toContain("ñ");
    const two = await search({ email_address: { fuzzy: "ay" } }, 7);
    const count = await t.client.customers.searchCustomers({
      count: true,
      query: { filter: { email_address: { fuzzy: "ay" } } },
    });
    expect(two.length).toBe(count.count);
    expect(two.length).toBeGreaterThan(7);
    for (const x of two) expect(x.email_address?.toLowerCase()).toContain("ay");
    expect(inOrder(two, byName)).toBe(true);
  });

  it("refuses 100 KB of fuzzy text with a 400 in the error envelope, not a 500", async () => {
    const res = await t.raw("POST", "/v2/customers/search", {
      body: { query: { filter: { email_address: { fuzzy: "ab ".repeat(34_000) } } } },
    });
    expect(res.status).toBe(400);
    expect(res.json.errors[0]).toMatchObject({
      category: "INVALID_REQUEST_ERROR",
      code: "VALUE_TOO_LONG",
      field: "query.filter.email_address.fuzzy",
    });
    const word = await t.raw("POST", "/v2/customers/search", {
      body: { query: { filter: { phone_number: { fuzzy: "5".repeat(100_000) } } } },
    });
    expect(word.status).toBe(400);
    expect(word.json.errors[0].code).toBe("VALUE_TOO_LONG");
  });
});

describe("customer groups", () => {
  it("lists the groups with limit 1–50 and a cursor, and retrieves one", async () => {
    const all = await t.client.customers.listCustomerGroups({ limit: 1 }).all();
    expect(all.map((g) => g.name)).toEqual(DEMO_GROUPS.map((g) => g.name));
    const first = await t.client.customers.listCustomerGroups({ limit: 2 });
    expect(first.groups).toHaveLength(2);
    expect(first.cursor).toBeTruthy();
    expect((await refusal(t.client.customers.listCustomerGroups({ limit: 51 }))).code).toBe("VALUE_TOO_HIGH");
    expect((await refusal(t.client.customers.listCustomerGroups({ limit: 0 }))).code).toBe("VALUE_TOO_LOW");
    const vip = await t.client.customers.retrieveCustomerGroup(VIP);
    expect(vip.group).toMatchObject({ id: VIP, name: "VIP" });
    expect((await refusal(t.client.customers.retrieveCustomerGroup("NOPE"))).status).toBe(404);
  });

  it("adds and removes a customer to a group; search by group follows", async () => {
    const c = await newCustomer({ given_name: "Group", family_name: "Joiner" });
    await t.client.customers.addGroupToCustomer(c.id, VIP);
    const joined = (await t.client.customers.retrieveCustomer(c.id)).customer;
    expect(joined?.group_ids).toEqual([VIP]);
    expect(joined?.version).toBe(c.version + 1);
    const ids = async () =>
      (await t.client.customers.searchCustomers({ query: { filter: { group_ids: { any: [VIP] } } } }).all()).map(
        (x) => x.id,
      );
    expect(await ids()).toContain(c.id);
    await t.client.customers.removeGroupFromCustomer(c.id, VIP);
    expect((await t.client.customers.retrieveCustomer(c.id)).customer?.group_ids).toBeUndefined();
    expect(await ids()).not.toContain(c.id);
    expect((await refusal(t.client.customers.addGroupToCustomer(c.id, "NOPE"))).status).toBe(404);
    expect((await refusal(t.client.customers.addGroupToCustomer("NOPE", VIP))).status).toBe(404);
  });
});

describe("customer cards (deprecated)", () => {
  it("create is idempotent on the card nonce; delete removes the card", async () => {
    const c = await newCustomer({ given_name: "Card", family_name: "Holder" });
    const first = await t.client.customers.createCustomerCard(c.id, {
      card_nonce: "cnon:card-nonce-ok",
      cardholder_name: "Card Holder",
    });
    expect(first.card?.id).toMatch(/^ccof:/);
    expect(first.card).toMatchObject({ customer_id: c.id, cardholder_name: "Card Holder", enabled: true });
    expect(first.card?.last_4).toMatch(/^\d{4}$/);
    const again = await t.client.customers.createCustomerCard(c.id, { card_nonce: "cnon:card-nonce-ok" });
    expect(again.card).toEqual(first.card);
    const onFile = (await t.client.customers.retrieveCustomer(c.id)).customer?.cards ?? [];
    expect(onFile.map((x) => x.id)).toEqual([first.card?.id]);

    await t.client.customers.deleteCustomerCard(c.id, first.card?.id ?? "");
    expect((await t.client.customers.retrieveCustomer(c.id)).customer?.cards).toBeUndefined();
    expect((await refusal(t.client.customers.deleteCustomerCard(c.id, first.card?.id ?? ""))).status).toBe(404);
    const missing = await t.raw("POST", `/v2/customers/${c.id}/cards`, { body: {} });
    expect(missing.json.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "card_nonce" });
  });
});

describe("the demo customers", () => {
  it("500 profiles, the same on every start, in groups, from several sources, over three years", async () => {
    const seeded = await t.client.customers
      .searchCustomers({ query: { filter: { creation_source: { values: ["THIRD_PARTY"], rule: "EXCLUDE" } } } })
      .all();
    expect(new Set(seeded.map((c) => c.creation_source)).size).toBeGreaterThan(5);
    expect(seeded.filter((c) => c.group_ids?.includes(NEWSLETTER)).length).toBeGreaterThan(100);
    expect(seeded.every((c) => c.given_name || c.email_address || c.phone_number)).toBe(true);
    const oldest = Math.min(...seeded.map((c) => Date.parse(c.created_at ?? "")));
    expect(t.service.clock.now().getTime() - oldest).toBeGreaterThan(2.5 * 365 * 86_400_000);

    // Last: seeding blocks this process, and the client's idle connection would not survive it.
    const a = createService({ seed: "demo" });
    const b = createService({ seed: "demo" });
    try {
      const rows = (s: LocalService) =>
        s.db.prepare("SELECT id, name_key, email_key, phone_key, creation_source FROM customers ORDER BY id").all();
      expect(rows(a)).toHaveLength(500);
      expect(rows(b)).toEqual(rows(a));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
