// The app's first reads: a service that fails them says nothing about the sign-in, and a start
// that then succeeds leaves no message of the failed one behind.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type NetProxy, startProxy } from "../../test/helpers/proxy.js";
import { startService, type TestService } from "../../test/helpers/service.js";
import { VirtualTimers } from "../../test/helpers/virtual-timers.js";
import { OutboxHandle } from "../local/outbox.js";
import { createClient, type SquareClient } from "../square/index.js";
import { OFFLINE_RETRY_SECONDS } from "./shell-lifecycle.js";
import { createStore } from "./store.js";

let svc: TestService | undefined;
let client: SquareClient | undefined;
let proxy: NetProxy | undefined;
afterEach(async () => {
  await client?.close();
  await proxy?.down().catch(() => {});
  proxy = undefined;
  await svc?.close();
});

describe("starting against a service that fails", () => {
  it("is not signed out by a 500, and a start that succeeds clears the failure's message", async () => {
    svc = await startService();
    client = createClient({ baseUrl: svc.url, accessToken: svc.service.accessToken, maxRetries: 0 });
    const store = createStore({ client, outbox: new OutboxHandle(":memory:"), service: "test", readOnly: false });
    await svc.raw("POST", "/_emulator/faults", { body: { operation: "*", status: 500 } });
    expect(await store.getState().init()).toBe(false);
    expect(store.getState().signedIn).not.toBe("signed-out");
    expect(store.getState().status).toMatchObject({ kind: "error", text: "The service had a problem; try again." });

    await svc.raw("DELETE", "/_emulator/faults");
    expect(await store.getState().init()).toBe(true);
    expect(store.getState().signedIn).toBe("signed-in");
    expect(store.getState().status.kind).toBe("idle");
    expect(store.getState().locationId).toBeDefined();
  });

  it("is signed out when the service refuses the token", async () => {
    svc = await startService();
    client = createClient({ baseUrl: svc.url, accessToken: "not-a-token", maxRetries: 0 });
    const store = createStore({ client, outbox: new OutboxHandle(":memory:"), service: "test", readOnly: false });
    expect(await store.getState().init()).toBe(false);
    expect(store.getState().signedIn).toBe("signed-out");
  });
});

describe("starting while the service cannot be reached", () => {
  it("says when it last tried, tries again on its own, and starts once the service answers", async () => {
    svc = await startService();
    proxy = await startProxy(svc.url);
    await proxy.down();
    client = createClient({ baseUrl: proxy.url, accessToken: svc.service.accessToken, maxRetries: 0 });
    const timers = new VirtualTimers();
    let now = new Date("2026-11-27T07:00:00Z");
    const store = createStore({
      client,
      outbox: new OutboxHandle(":memory:"),
      service: "test",
      readOnly: false,
      timers,
      clock: { now: () => now },
    });
    expect(await store.getState().init()).toBe(false);
    const first = store.getState().connection;
    expect(first).toMatchObject({ state: "offline", triedAt: new Date("2026-11-27T07:00:00Z") });

    // Still down at the next try: the time of the last try moves on, the time it went offline stays.
    now = new Date("2026-11-27T07:00:10Z");
    timers.advance(OFFLINE_RETRY_SECONDS * 1000);
    await vi.waitFor(() =>
      expect(store.getState().connection).toMatchObject({
        state: "offline",
        since: new Date("2026-11-27T07:00:00Z"),
        triedAt: new Date("2026-11-27T07:00:10Z"),
        retrying: false,
      }),
    );

    // Back: the next try starts the app (locations read, one chosen), without a key.
    await proxy.up();
    now = new Date("2026-11-27T07:00:20Z");
    timers.advance(OFFLINE_RETRY_SECONDS * 1000);
    await vi.waitFor(() => expect(store.getState().locationId).toBeDefined());
    expect(store.getState().connection.state).toBe("online");
  });
});
