import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { deferredClient } from "./deferred-client.js";
import type { StoreClient } from "./types.js";

describe("deferredClient", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it("holds calls until the real client is ready, then answers them all", async () => {
    let resolve: (c: StoreClient) => void = () => undefined;
    const client = deferredClient(new Promise((r) => (resolve = r)));
    const locations = client.locations.listLocations();
    const members = client.team.searchTeamMembers().all();
    let settled = false;
    void locations.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    resolve(svc.client);
    const locs = (await locations).locations ?? [];
    expect(locs.length).toBeGreaterThan(0);
    expect((await members).length).toBeGreaterThan(0);
    const names: string[] = [];
    for await (const t of client.labor.listBreakTypes({ location_id: locs[0]?.id ?? "" })) names.push(t.break_name);
    const direct = await svc.client.labor.listBreakTypes({ location_id: locs[0]?.id ?? "" }).all();
    expect(names).toEqual(direct.map((t) => t.break_name));
  });

  it("passes a failure of the client on to every waiting call", async () => {
    const client = deferredClient(Promise.reject(new Error("service did not start")));
    await expect(client.locations.listLocations()).rejects.toThrow("service did not start");
    await expect(client.labor.searchShifts().all()).rejects.toThrow("service did not start");
  });
});
