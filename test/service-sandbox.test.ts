import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX } from "../src/service/seed/sandbox.js";
import { startService, type TestService } from "./helpers/service.js";

// `--seed sandbox`: the store a new sandbox account starts with, so that an integration test
// written against the real sandbox (which makes its own break types, shifts and customers) runs
// here unchanged. This file is such a test: it assumes nothing but what a fresh account has.
let t: TestService;

beforeAll(async () => {
  t = await startService({ seed: "sandbox" });
});
afterAll(async () => {
  await t.close();
});

describe("a fresh sandbox account", () => {
  it("has one location, the owner as its only team member, and nothing else of its own yet", async () => {
    const { locations } = await t.client.locations.listLocations();
    expect(locations?.map((l) => l.id)).toEqual([SANDBOX.locationId]);
    const team = await t.client.team.searchTeamMembers({});
    expect(team.team_members?.map((m) => [m.id, m.is_owner])).toEqual([[SANDBOX.ownerId, true]]);
    expect((await t.client.labor.listBreakTypes()).break_types ?? []).toEqual([]);
    expect((await t.client.customers.listCustomers()).customers ?? []).toEqual([]);
    expect((await t.client.labor.searchShifts({})).shifts ?? []).toEqual([]);
    const catalog = await t.client.catalog.searchCatalogObjects({ object_types: ["ITEM"] });
    expect(catalog.objects?.length).toBeGreaterThan(0);
    expect(catalog.objects?.length).toBeLessThanOrEqual(10);
  });

  it("runs a sandbox integration test unchanged: a break type, a shift with a break, a customer", async () => {
    const location_id = SANDBOX.locationId;
    const { break_type } = await t.client.labor.createBreakType({
      break_type: { location_id, break_name: "Lunch", expected_duration: "PT30M", is_paid: false },
    });
    const start = new Date(Date.now() - 3 * 3600_000).toISOString();
    const breakStart = new Date(Date.now() - 2 * 3600_000).toISOString();
    const breakEnd = new Date(Date.now() - 90 * 60_000).toISOString();
    const { shift } = await t.client.labor.createShift({
      shift: { location_id, team_member_id: SANDBOX.ownerId, start_at: start },
    });
    const withBreak = await t.client.labor.updateShift(shift?.id ?? "", {
      shift: {
        location_id,
        start_at: shift?.start_at ?? start,
        version: shift?.version ?? 1,
        breaks: [
          {
            start_at: breakStart,
            end_at: breakEnd,
            break_type_id: break_type?.id ?? "",
            name: "Lunch",
            expected_duration: "PT30M",
            is_paid: false,
          },
        ],
      },
    });
    expect(withBreak.shift?.breaks).toHaveLength(1);
    expect(withBreak.shift?.timezone).toBe(SANDBOX.timezone);
    const { customer } = await t.client.customers.createCustomer({
      given_name: "Ada",
      email_address: "ada@example.com",
    });
    const found = await t.client.customers.searchCustomers({
      query: { filter: { email_address: { exact: "ada@example.com" } } },
    });
    expect(found.customers?.map((c) => c.id)).toEqual([customer?.id]);
  });
});
