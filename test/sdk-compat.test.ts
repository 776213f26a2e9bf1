import { SquareClient, SquareError } from "square";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "./helpers/service.js";

// The service's official SDK, pointed at the local service, must not be able to tell the
// difference: requests it builds are accepted, answers it gets parse, errors arrive as its own
// error type with the envelope's codes, and its pagers follow our cursors.
let t: TestService;
let sdk: SquareClient;

beforeAll(async () => {
  t = await startService();
  // The SDK sends the newest version of its release on every call, later than the 2024-01-18
  // this service speaks (and its typings allow no other): its requests are pinned to that
  // version here, as an application's default version pins them at the real service.
  const pinned: typeof fetch = (url, init) => {
    const headers = new Headers(init?.headers);
    headers.set("square-version", "2024-01-18");
    return fetch(url, { ...init, headers });
  };
  sdk = new SquareClient({ token: t.service.accessToken, baseUrl: t.url, maxRetries: 0, fetch: pinned });
});
afterAll(() => t.close());

describe("the official SDK against the local service", () => {
  it("creates, reads, updates and deletes a customer", async () => {
    const created = await sdk.customers.create({
      givenName: "Ada",
      familyName: "Lovelace",
      emailAddress: "ada@example.com",
    });
    const id = created.customer?.id;
    expect(id).toBeTruthy();
    const got = await sdk.customers.get({ customerId: id ?? "" });
    expect(got.customer?.givenName).toBe("Ada");
    const version = got.customer?.version;
    const updated = await sdk.customers.update({
      customerId: id ?? "",
      nickname: "Countess",
      ...(version === undefined ? {} : { version }),
    });
    expect(updated.customer?.nickname).toBe("Countess");
    await sdk.customers.delete({ customerId: id ?? "" });
    await expect(sdk.customers.get({ customerId: id ?? "" })).rejects.toBeInstanceOf(SquareError);
  });

  it("pages through customers with its own pager", async () => {
    const page = await sdk.customers.list({ limit: 100 });
    let seen = 0;
    for await (const c of page) {
      expect(c.id).toBeTruthy();
      seen++;
    }
    expect(seen).toBeGreaterThanOrEqual(500);
  });

  it("receives the error envelope as SquareError with status and codes", async () => {
    try {
      await sdk.customers.list({ limit: 500 });
      expect.unreachable("a limit above 100 is refused");
    } catch (err) {
      expect(err).toBeInstanceOf(SquareError);
      const e = err as SquareError;
      expect(e.statusCode).toBe(400);
      expect(e.errors[0]?.code).toBe("VALUE_TOO_HIGH");
    }
  });

  it("is refused, with the version code, when it asks for a version later than the service knows", async () => {
    const unpinned = new SquareClient({ token: t.service.accessToken, baseUrl: t.url, maxRetries: 0 });
    const err = await unpinned.locations.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SquareError);
    expect((err as SquareError).statusCode).toBe(400);
    expect((err as SquareError).errors[0]?.code).toBe("INVALID_SQUARE_VERSION_FORMAT");
  });

  it("clocks a team member in and finds the shift", async () => {
    const members = await sdk.teamMembers.search({ query: { filter: { status: "ACTIVE" } } });
    const locations = await sdk.locations.list();
    const location = locations.locations?.[0]?.id ?? "";
    const open = await sdk.labor.shifts.search({
      query: { filter: { status: "OPEN", locationIds: [], teamMemberIds: [] } },
    });
    const busy = new Set((open.shifts ?? []).map((s) => s.teamMemberId));
    const member = (members.teamMembers ?? []).find(
      (m) => m.id && !busy.has(m.id) && m.assignedLocations?.locationIds?.includes(location),
    );
    expect(member?.id).toBeTruthy();
    const start = new Date(Date.now() - 60_000).toISOString();
    const created = await sdk.labor.shifts.create({
      idempotencyKey: `sdk-${Date.now()}`,
      shift: { locationId: location, teamMemberId: member?.id ?? "", startAt: start },
    });
    expect(created.shift?.status).toBe("OPEN");
    const found = await sdk.labor.shifts.search({
      query: { filter: { teamMemberIds: [member?.id ?? ""], status: "OPEN" } },
    });
    expect(found.shifts?.map((s) => s.id)).toContain(created.shift?.id);
  });

  it("changes and reads inventory counts", async () => {
    const catalog = await sdk.catalog.list({ types: "ITEM_VARIATION" });
    const variation = catalog.data[0]?.id ?? "";
    const locations = await sdk.locations.list();
    const location = locations.locations?.[0]?.id ?? "";
    const changed = await sdk.inventory.batchCreateChanges({
      idempotencyKey: `sdk-inv-${Date.now()}`,
      changes: [
        {
          type: "PHYSICAL_COUNT",
          physicalCount: {
            catalogObjectId: variation,
            locationId: location,
            state: "IN_STOCK",
            quantity: "41.5",
            occurredAt: new Date(Date.now() - 1000).toISOString(),
          },
        },
      ],
    });
    expect(changed.counts?.find((c) => c.state === "IN_STOCK")?.quantity).toBe("41.5");
    const counts = await sdk.inventory.batchGetCounts({ catalogObjectIds: [variation], locationIds: [location] });
    const all = [];
    for await (const c of counts) all.push(c);
    expect(all.find((c) => c.state === "IN_STOCK")?.quantity).toBe("41.5");
  });
});
