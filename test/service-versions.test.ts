import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_GROUPS } from "../src/service/customers/seed.js";
import type { EventSink } from "../src/service/events.js";
import { countsOfPairs } from "../src/service/inventory/reads.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { VERSION_CHANGES } from "../src/service/versions/table.js";
import { createWebhookSink } from "../src/service/webhooks/sink.js";
import { startService, type TestService } from "./helpers/service.js";

// Every change of the version table (src/service/versions/table.ts), in both shapes: a caller on
// a version before the change gets the old shape, a caller on the change's version or later the
// new one. (ObtainToken's migration_token is in service-oauth.test.ts; the SDK of 2020-12-16
// reading cash drawers through `serve` is in serve-cli.test.ts.)
let t: TestService;
const LOC = DEMO.mainLocationId;

beforeAll(async () => {
  let sink: EventSink | undefined;
  t = await startService({
    events: { publish: (e) => sink?.publish(e), close: () => sink?.close?.() ?? Promise.resolve() },
  });
  sink = createWebhookSink({ db: t.service.db, clock: t.service.clock, baseDelayMs: 20, maxAttempts: 2 });
});
afterAll(() => t.close());

/** A call in one Square-Version; fails the test on anything but the expected status. */
async function at(version: string, method: string, path: string, body?: object, status = 200) {
  const r = await t.raw(method, path, { headers: { "square-version": version }, ...(body ? { body } : {}) });
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  // Successful answers echo the version they are shaped in.
  if (status === 200) expect(r.headers.get("square-version")).toBe(version);
  return r.json;
}

describe("the version table", () => {
  it("names a released version, an area, the change and its source for every row", () => {
    for (const c of VERSION_CHANGES) {
      expect(c.version >= "2019-03-13" && c.version <= "2024-01-18").toBe(true);
      expect(c.change.length).toBeGreaterThan(20);
      expect(c.source).toMatch(/^https:\/\/(developer\.squareup\.com|github\.com\/square)\//);
    }
  });
});

describe("cash drawers, 2023-05-17", () => {
  it("lists shifts under `items` before, `cash_drawer_shifts` from it", async () => {
    const old = await at("2023-04-19", "GET", `/v2/cash-drawers/shifts?location_id=${LOC}&limit=5`);
    const now = await at("2023-05-17", "GET", `/v2/cash-drawers/shifts?location_id=${LOC}&limit=5`);
    expect(Object.keys(old)).toContain("items");
    expect(old.cash_drawer_shifts).toBeUndefined();
    expect(now.items).toBeUndefined();
    expect(now.cash_drawer_shifts.map((s: { id: string }) => s.id)).toEqual(old.items.map((s: { id: string }) => s.id));
  });

  it("names who opened, ended and closed a shift as employees before, team members from it", async () => {
    const list = await at("2024-01-18", "GET", `/v2/cash-drawers/shifts?location_id=${LOC}&limit=50`);
    const id = list.cash_drawer_shifts.find((s: { state: string }) => s.state === "CLOSED").id;
    const path = `/v2/cash-drawers/shifts/${id}?location_id=${LOC}`;
    const old = (await at("2020-12-16", "GET", path)).cash_drawer_shift;
    const now = (await at("2024-01-18", "GET", path)).cash_drawer_shift;
    expect(old.opening_employee_id).toBe(now.opening_team_member_id);
    expect(old.ending_employee_id).toBe(now.ending_team_member_id);
    expect(old.closing_employee_id).toBe(now.closing_team_member_id);
    expect(old.employee_ids).toEqual(now.team_member_ids);
    expect(old.opening_team_member_id).toBeUndefined();
    expect(now.opening_employee_id).toBeUndefined();
    expect(old.opened_cash_money).toEqual(now.opened_cash_money);
  });

  it("lists events under `events` with employee_id before, `cash_drawer_shift_events` with team_member_id from it", async () => {
    const list = await at("2024-01-18", "GET", `/v2/cash-drawers/shifts?location_id=${LOC}&limit=50`);
    const id = list.cash_drawer_shifts.find((s: { state: string }) => s.state === "CLOSED").id;
    const path = `/v2/cash-drawers/shifts/${id}/events?location_id=${LOC}`;
    const old = await at("2023-04-19", "GET", path);
    const now = await at("2023-05-17", "GET", path);
    expect(old.events.length).toBe(now.cash_drawer_shift_events.length);
    expect(old.events[0].employee_id).toBe(now.cash_drawer_shift_events[0].team_member_id);
    expect(old.events[0].team_member_id).toBeUndefined();
  });
});

describe("labor, 2019-11-20", () => {
  it("filters shifts by location_id and employee_id before, by location_ids and employee_ids from it", async () => {
    const all = await at("2024-01-18", "POST", "/v2/labor/shifts/search", { limit: 200 });
    const member = all.shifts[0].team_member_id as string;
    const location = all.shifts[0].location_id as string;
    const mine = (s: { employee_id: string; location_id: string }) =>
      s.employee_id === member && s.location_id === location;
    const old = await at("2019-09-25", "POST", "/v2/labor/shifts/search", {
      limit: 200,
      query: { filter: { location_id: [location], employee_id: [member] } },
    });
    expect(old.shifts.length).toBeGreaterThan(0);
    expect(old.shifts.every(mine)).toBe(true);
    const now = await at("2019-11-20", "POST", "/v2/labor/shifts/search", {
      limit: 200,
      query: { filter: { location_ids: [location], employee_ids: [member] } },
    });
    expect(now.shifts.map((s: { id: string }) => s.id)).toEqual(old.shifts.map((s: { id: string }) => s.id));
    // The old names mean nothing from 2019-11-20: unknown fields, ignored, so nothing is filtered.
    const ignored = await at("2019-11-20", "POST", "/v2/labor/shifts/search", {
      limit: 200,
      query: { filter: { location_id: [location], employee_id: [member] } },
    });
    expect(ignored.shifts.some((s: { employee_id: string }) => s.employee_id !== member)).toBe(true);
  });
});

describe("customers", () => {
  const member = () => {
    const row = t.service.db
      .prepare("SELECT customer_id FROM customer_group_members WHERE group_id = ? LIMIT 1")
      .get(DEMO_GROUPS[0].id) as { customer_id: string };
    return row.customer_id;
  };

  it("2021-04-21: a customer carries groups (id and name) before, only group_ids from it", async () => {
    const id = member();
    const old = (await at("2021-03-17", "GET", `/v2/customers/${id}`)).customer;
    const now = (await at("2021-04-21", "GET", `/v2/customers/${id}`)).customer;
    expect(now.groups).toBeUndefined();
    expect(old.group_ids).toEqual(now.group_ids);
    expect(old.groups).toContainEqual({ id: DEMO_GROUPS[0].id, name: DEMO_GROUPS[0].name });
    expect(old.groups.map((g: { id: string }) => g.id)).toEqual(now.group_ids);
    const searched = await at("2021-03-17", "POST", "/v2/customers/search", {
      query: { filter: { group_ids: { all: [DEMO_GROUPS[0].id] } } },
      limit: 5,
    });
    expect(searched.customers.every((c: { groups: unknown[] }) => c.groups.length > 0)).toBe(true);
  });

  it("2022-03-16: CreateCustomer and SearchCustomers ignore an unknown field before, refuse it from then", async () => {
    const body = { given_name: "Unknown", favourite_colour: "teal" };
    const old = await at("2022-02-16", "POST", "/v2/customers", body);
    expect(old.customer.given_name).toBe("Unknown");
    expect(old.customer.favourite_colour).toBeUndefined();
    const refused = await at("2022-03-16", "POST", "/v2/customers", body, 400);
    expect(refused.errors[0]).toMatchObject({ code: "BAD_REQUEST", field: "favourite_colour" });
    const search = { query: { filter: { nickname: { exact: "x" } } } };
    expect((await at("2021-06-16", "POST", "/v2/customers/search", search)).errors).toBeUndefined();
    const nested = await at("2024-01-18", "POST", "/v2/customers/search", search, 400);
    expect(nested.errors[0].field).toBe("query.filter.nickname");
  });

  it("2022-10-19: a birthday is RFC 3339 at midnight before, YYYY-MM-DD from it, both ways", async () => {
    const old = await at("2022-09-21", "POST", "/v2/customers", {
      given_name: "Birthday",
      birthday: "1998-09-21T00:00:00-00:00",
    });
    expect(old.customer.birthday).toBe("1998-09-21T00:00:00-00:00");
    const id = old.customer.id;
    expect((await at("2022-10-19", "GET", `/v2/customers/${id}`)).customer.birthday).toBe("1998-09-21");
    const updated = await at("2024-01-18", "PUT", `/v2/customers/${id}`, { birthday: "09-21" });
    expect(updated.customer.birthday).toBe("0000-09-21");
    const listed = await at("2021-08-18", "POST", "/v2/customers/search", {
      query: { filter: { created_at: { start_at: old.customer.created_at } } },
    });
    const found = listed.customers.find((c: { id: string }) => c.id === id);
    expect(found.birthday).toBe("0000-09-21T00:00:00-00:00");
  });
});

describe("inventory, 2023-05-17", () => {
  it("reads and writes quantities in transit as IN_TRANSIT_TO before, IN_TRANSIT from it", async () => {
    const variation = t.service.db
      .prepare("SELECT id FROM catalog_objects WHERE type = 'ITEM_VARIATION' AND is_deleted = 0 LIMIT 1")
      .get() as { id: string };
    const stamp = new Date(t.service.clock.now().getTime() - 60_000).toISOString();
    const wrote = await at("2023-04-19", "POST", "/v2/inventory/changes/batch-create", {
      idempotency_key: "in-transit-old",
      changes: [
        {
          type: "PHYSICAL_COUNT",
          physical_count: {
            catalog_object_id: variation.id,
            location_id: LOC,
            state: "IN_TRANSIT_TO",
            quantity: "4",
            occurred_at: stamp,
          },
        },
      ],
    });
    expect(wrote.changes[0].physical_count.state).toBe("IN_TRANSIT_TO");
    expect(wrote.counts.map((c: { state: string }) => c.state)).toContain("IN_TRANSIT_TO");
    const stored = countsOfPairs(t.service.db, DEMO.merchantId, [{ objectId: variation.id, locationId: LOC }]);
    expect(stored.find((c) => c.units === 400_000)?.state).toBe("IN_TRANSIT");

    const query = (state: string) => ({ catalog_object_ids: [variation.id], states: [state] });
    const old = await at("2023-04-19", "POST", "/v2/inventory/counts/batch-retrieve", query("IN_TRANSIT_TO"));
    expect(old.counts).toEqual([expect.objectContaining({ state: "IN_TRANSIT_TO", quantity: "4" })]);
    const now = await at("2023-05-17", "POST", "/v2/inventory/counts/batch-retrieve", query("IN_TRANSIT"));
    expect(now.counts).toEqual([expect.objectContaining({ state: "IN_TRANSIT", quantity: "4" })]);
    const id = wrote.changes[0].physical_count.id;
    expect((await at("2024-01-18", "GET", `/v2/inventory/physical-counts/${id}`)).count.state).toBe("IN_TRANSIT");
    expect((await at("2022-12-14", "GET", `/v2/inventory/physical-counts/${id}`)).count.state).toBe("IN_TRANSIT_TO");
  });
});

describe("webhooks: a subscription's notifications take the shape of its own api_version", () => {
  let server: Server;
  const got: { path: string; json: any }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = "";
      req.on("data", (c: Buffer) => {
        text += c.toString();
      });
      req.on("end", () => {
        got.push({ path: req.url ?? "", json: JSON.parse(text) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("sends customer.updated with groups and an RFC 3339 birthday to a 2021-03-17 subscription", async () => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const [version, path] of [
      ["2021-03-17", "/old"],
      ["2024-01-18", "/new"],
    ] as const) {
      await at(version, "POST", "/v2/webhooks/subscriptions", {
        subscription: { event_types: ["customer.updated"], notification_url: `${base}${path}` },
      });
    }
    const id = (
      t.service.db
        .prepare("SELECT customer_id FROM customer_group_members WHERE group_id = ? LIMIT 1")
        .get(DEMO_GROUPS[1].id) as { customer_id: string }
    ).customer_id;
    await at("2024-01-18", "PUT", `/v2/customers/${id}`, { birthday: "1980-02-03" });
    const deadline = Date.now() + 5000;
    while (got.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const old = got.find((g) => g.path === "/old")?.json.data.object.customer;
    const now = got.find((g) => g.path === "/new")?.json.data.object.customer;
    expect(old.birthday).toBe("1980-02-03T00:00:00-00:00");
    expect(old.groups).toContainEqual({ id: DEMO_GROUPS[1].id, name: DEMO_GROUPS[1].name });
    expect(now.birthday).toBe("1980-02-03");
    expect(now.groups).toBeUndefined();
  });

  it("lists the event types of each api_version: labor.shift.* from 2019-11-20", async () => {
    const types = async (v: string) =>
      (await at("2024-01-18", "GET", `/v2/webhooks/event-types?api_version=${v}`)).event_types as string[];
    expect(await types("2019-09-25")).not.toContain("labor.shift.created");
    expect(await types("2019-11-20")).toContain("labor.shift.created");
    expect(await types("2021-02-26")).toContain("customer.updated");
    expect(await types("2021-01-21")).not.toContain("customer.updated");
    const refused = await at("2024-01-18", "GET", "/v2/webhooks/event-types?api_version=2021-01-22", undefined, 400);
    expect(refused.errors[0].field).toBe("api_version");
  });
});
