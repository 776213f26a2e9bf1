// The app's first reads: a service that fails them says nothing about the sign-in, and a start
// that then succeeds leaves no message of the failed one behind.
import { afterEach, describe, expect, it } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { OutboxHandle } from "../local/outbox.js";
import { createClient, type SquareClient } from "../square/index.js";
import { createStore } from "./store.js";

let svc: TestService | undefined;
let client: SquareClient | undefined;
afterEach(async () => {
  await client?.close();
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
