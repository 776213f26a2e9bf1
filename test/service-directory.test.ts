import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { failure, startService, type TestService } from "./helpers/service.js";

let t: TestService;

beforeAll(async () => {
  t = await startService();
});
afterAll(async () => {
  await t.close();
});

describe("locations", () => {
  it("lists both demo locations with their time zones and the seller's details", async () => {
    const { locations } = await t.client.locations.listLocations();
    expect(locations?.map((l) => [l.id, l.name, l.timezone, l.status])).toEqual([
      [DEMO.mainLocationId, "Main Street", "America/New_York", "ACTIVE"],
      [DEMO.secondLocationId, "Harbour Dock", "America/Los_Angeles", "ACTIVE"],
    ]);
    for (const l of locations ?? []) {
      expect(l).toMatchObject({
        merchant_id: DEMO.merchantId,
        country: "US",
        currency: "USD",
        language_code: "en-US",
        type: "PHYSICAL",
        business_name: DEMO.businessName,
      });
      expect(l.address?.address_line_1).toBeTruthy();
      expect(l.capabilities).toContain("CREDIT_CARD_PROCESSING");
      expect(l.business_hours?.periods?.length).toBeGreaterThan(0);
      expect(Date.parse(l.created_at as string)).not.toBeNaN();
    }
  });

  it("retrieves a location by id or as main, and answers 404 for an unknown one", async () => {
    const dock = await t.client.locations.retrieveLocation(DEMO.secondLocationId);
    expect(dock.location?.name).toBe("Harbour Dock");
    const main = await t.client.locations.retrieveLocation("main");
    expect(main.location?.id).toBe(DEMO.mainLocationId);
    const err = await failure(t.client.locations.retrieveLocation("NOWHERE"));
    expect(err.status).toBe(404);
    expect(err.code).toBe("NOT_FOUND");
  });

  it("exists in the empty store too, without a team", async () => {
    const empty = await startService({ seed: "empty" });
    try {
      const { locations } = await empty.client.locations.listLocations();
      expect(locations?.map((l) => l.id)).toEqual([DEMO.mainLocationId, DEMO.secondLocationId]);
      const team = await empty.client.team.searchTeamMembers();
      expect(team.team_members ?? []).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});

describe("team members", () => {
  const search = async (filter: object, limit?: number) =>
    (await t.client.team.searchTeamMembers({ query: { filter }, ...(limit ? { limit } : {}) })).team_members ?? [];

  it("has a dozen members: one owner, most active, most at the main location", async () => {
    const all = await search({});
    expect(all).toHaveLength(12);
    expect(all.filter((m) => m.is_owner)).toHaveLength(1);
    const active = all.filter((m) => m.status === "ACTIVE");
    expect(active.length).toBeGreaterThanOrEqual(9);
    for (const m of all) {
      expect(m.id && m.given_name && m.family_name && m.email_address && m.created_at).toBeTruthy();
      expect(m.assigned_locations?.assignment_type).toBeTruthy();
    }
  });

  it("filters by location (an all-locations member is at each), status and owner", async () => {
    const dock = await search({ location_ids: [DEMO.secondLocationId] });
    const main = await search({ location_ids: [DEMO.mainLocationId] });
    expect(main.length).toBeGreaterThan(dock.length);
    const owner = (await search({ is_owner: true }))[0];
    expect(owner?.assigned_locations?.assignment_type).toBe("ALL_CURRENT_AND_FUTURE_LOCATIONS");
    expect(dock.map((m) => m.id)).toContain(owner?.id);
    expect(main.map((m) => m.id)).toContain(owner?.id);
    for (const m of dock) {
      if (m.is_owner) continue;
      expect(m.assigned_locations?.location_ids).toContain(DEMO.secondLocationId);
    }
    const both = await search({ location_ids: [DEMO.mainLocationId, DEMO.secondLocationId] });
    expect(both).toHaveLength(12);

    const inactive = await search({ status: "INACTIVE" });
    expect(inactive.length).toBeGreaterThan(0);
    for (const m of inactive) expect(m.status).toBe("INACTIVE");
    const activeAtDock = await search({ location_ids: [DEMO.secondLocationId], status: "ACTIVE" });
    expect(activeAtDock.length).toBe(dock.filter((m) => m.status === "ACTIVE").length);
    expect((await search({ is_owner: false })).length).toBe(11);
  });

  it("pages with limit and cursor, refuses a cursor from another query, and checks the limit", async () => {
    const ids: string[] = [];
    for await (const page of t.client.team.searchTeamMembers({ limit: 5 }).pages()) {
      expect(page.team_members?.length ?? 0).toBeLessThanOrEqual(5);
      ids.push(...(page.team_members ?? []).map((m) => m.id as string));
    }
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);

    const first = await t.client.team.searchTeamMembers({ limit: 5 });
    const err = await failure(
      t.client.team.searchTeamMembers({
        query: { filter: { status: "ACTIVE" } },
        limit: 5,
        cursor: first.cursor as string,
      }),
    );
    expect(err.code).toBe("INVALID_CURSOR");
    expect((await failure(t.client.team.searchTeamMembers({ limit: 0 }))).code).toBe("VALUE_TOO_LOW");
    expect((await failure(t.client.team.searchTeamMembers({ limit: 201 }))).code).toBe("VALUE_TOO_HIGH");
  });

  it("retrieves one member, and answers 404 for an unknown one", async () => {
    const [any] = await search({ is_owner: true });
    const got = await t.client.team.retrieveTeamMember(any?.id as string);
    expect(got.team_member).toEqual(any);
    expect((await failure(t.client.team.retrieveTeamMember("NOBODY"))).status).toBe(404);
  });

  it("gives every member at least one wage", async () => {
    const members = await search({});
    const wages = (await t.client.labor.listTeamMemberWages()).team_member_wages ?? [];
    for (const m of members) expect(wages.some((w) => w.team_member_id === m.id)).toBe(true);
  });
});
