import { describe, expect, it } from "vitest";
import { deferredClient } from "./deferred-client.js";
import { createFakeClient, fakeDemoData } from "./fake-client.js";
import type { StoreClient } from "./types.js";

describe("deferredClient", () => {
  it("holds calls until the real client is ready, then answers them all", async () => {
    const now = new Date("2026-05-06T19:00:00Z");
    let resolve: (c: StoreClient) => void = () => undefined;
    const client = deferredClient(new Promise((r) => (resolve = r)));
    const locations = client.locations.listLocations();
    const first = client.labor.listBreakTypes({ location_id: "L-MAIN" });
    const all = client.team.searchTeamMembers().all();
    let settled = false;
    void locations.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    resolve(createFakeClient(fakeDemoData(now), () => now));
    expect((await locations).locations).toHaveLength(2);
    expect((await first).break_types?.map((b) => b.break_name)).toEqual(["Meal", "Rest", "Fresh air"]);
    expect(await all).toHaveLength(4);
    const names: string[] = [];
    for await (const t of client.labor.listBreakTypes({ location_id: "L-MAIN" })) names.push(t.break_name);
    expect(names).toHaveLength(3);
  });

  it("passes a failure of the client on to every waiting call", async () => {
    const client = deferredClient(Promise.reject(new Error("service did not start")));
    await expect(client.locations.listLocations()).rejects.toThrow("service did not start");
    await expect(client.labor.searchShifts().all()).rejects.toThrow("service did not start");
  });
});
