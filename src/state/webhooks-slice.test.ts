import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import { verifyWebhook } from "../domain/webhook-signature.js";
import { deferredClient } from "./deferred-client.js";
import type { LoadedStore } from "./store.js";

let t: TestService;
let store: LoadedStore;
let receiver: Server;
let hookUrl: string;
/** The key the test receiver verifies with; it answers 200 when the signature holds, 401 otherwise. */
let receiverKey = "";
const s = () => store.getState();
const keys: string[] = [];

beforeAll(async () => {
  t = await startService();
  let n = 0;
  store = await createFullStore({
    client: t.client,
    newIdempotencyKey: () => {
      keys.push(`k-${++n}`);
      return `k-${n}`;
    },
  });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const sig = req.headers["x-square-hmacsha256-signature"] as string | undefined;
      res.writeHead(verifyWebhook(receiverKey, hookUrl, Buffer.concat(chunks), sig) ? 200 : 401).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise<void>((r) => receiver.close(() => r()));
  await t.close();
});

async function create(name: string, types: string[]) {
  s().webhooksDispatch({ type: "open-create" });
  s().webhooksDispatch({ type: "edit-field", field: "name", value: name });
  s().webhooksDispatch({ type: "edit-field", field: "url", value: hookUrl });
  await s().webhooksFormNext();
  for (const eventType of types) s().webhooksDispatch({ type: "toggle-type", eventType });
  return s().saveWebhookSubscription();
}

describe("webhooks slice against the local service", () => {
  it("creates a subscription with event types read for its version, and lists it", async () => {
    s().webhooksDispatch({ type: "open-create" });
    s().webhooksDispatch({ type: "edit-field", field: "url", value: hookUrl });
    s().webhooksDispatch({ type: "edit-field", field: "apiVersion", value: "2019-06-12" });
    await s().webhooksFormNext();
    const offered = s().webhooks.form?.offered;
    expect(offered?.state === "loaded" && offered.types).toContain("inventory.count.updated");
    expect(offered?.state === "loaded" && offered.types).not.toContain("labor.shift.created");
    s().webhooksDispatch({ type: "close-form" });

    expect(await create("Till events", ["customer.created", "labor.shift.created"])).toBeUndefined();
    const saved = s().webhooks.items.find((i) => i.name === "Till events");
    expect(saved).toMatchObject({
      notification_url: hookUrl,
      event_types: ["customer.created", "labor.shift.created"],
    });
    expect(s().selection.webhooks?.id).toBe(saved?.id);
    expect(s().status).toMatchObject({
      kind: "info",
      text: expect.stringMatching(/^Saved "Till events": 2 event types/),
    });
    await s().loadWebhooks();
    expect(s().webhooks.items.map((i) => i.id)).toContain(saved?.id);
  });

  it("stays on the version, saying so in words, when the service has released no such version", async () => {
    s().webhooksDispatch({ type: "open-create" });
    s().webhooksDispatch({ type: "edit-field", field: "url", value: hookUrl });
    s().webhooksDispatch({ type: "edit-field", field: "apiVersion", value: "2019-01-01" });
    await s().webhooksFormNext();
    const problem = "2019-01-01 is not an API version the service has released; leave it empty for 2024-01-18.";
    expect(s().webhooks.form).toMatchObject({ step: "fields", problem });
    expect(s().status).toMatchObject({ text: problem, details: expect.stringMatching(/^INVALID_VALUE · HTTP 400/) });
    // Enter again on the same version asks again, and is refused again: it does not go on to the types.
    await s().webhooksFormNext();
    expect(s().webhooks.form).toMatchObject({ step: "fields", problem, problemField: "apiVersion" });
    s().webhooksDispatch({ type: "close-form" });
  });

  it("a slow answer for a form closed meanwhile leaves the form opened since as it is", async () => {
    await t.raw("POST", "/_emulator/faults", { body: { operation: "ListWebhookEventTypes", latency_ms: 300 } });
    try {
      s().webhooksDispatch({ type: "open-create" });
      s().webhooksDispatch({ type: "edit-field", field: "url", value: hookUrl });
      s().webhooksDispatch({ type: "edit-field", field: "apiVersion", value: "2020-01-22" });
      const next = s().webhooksFormNext();
      // Closed while the service is slow, and another form opened with fields that would pass.
      s().webhooksDispatch({ type: "close-form" });
      s().webhooksDispatch({ type: "open-create" });
      s().webhooksDispatch({ type: "edit-field", field: "url", value: hookUrl });
      await next;
      expect(s().webhooks.form).toMatchObject({ step: "fields", problem: undefined, offered: undefined });
    } finally {
      await t.raw("DELETE", "/_emulator/faults");
      s().webhooksDispatch({ type: "close-form" });
    }
  });

  it("says one event type in the singular", async () => {
    expect(await create("Shifts only", ["labor.shift.created"])).toBeUndefined();
    expect(s().status).toMatchObject({ text: expect.stringMatching(/^Saved "Shifts only": 1 event type to http/) });
  });

  it("a create the service refuses keeps the form open with the reason, and the retry reuses its key", async () => {
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "CreateWebhookSubscription", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 },
    });
    const before = keys.length;
    expect(await create("Retry me", ["customer.updated"])).toBe("The service had a problem; try again.");
    expect(s().webhooks.form?.problem).toBe("The service had a problem; try again.");
    expect(await s().saveWebhookSubscription()).toBeUndefined();
    expect(keys.length).toBe(before + 1);
    expect(s().webhooks.form).toBeUndefined();
  });

  it("disables (hidden unless asked), lists with and without disabled, and enables again", async () => {
    const id = s().webhooks.items.find((i) => i.name === "Till events")?.id ?? "";
    await s().setWebhookEnabled(id, false);
    expect(s().webhooks.items.map((i) => i.id)).not.toContain(id);
    expect(s().status).toMatchObject({ text: expect.stringContaining("disabled subscriptions are hidden") });
    await s().loadWebhooks();
    expect(s().webhooks.items.map((i) => i.id)).not.toContain(id);
    await s().loadWebhooks({ includeDisabled: true });
    expect(s().webhooks.items.find((i) => i.id === id)?.enabled).toBe(false);
    await s().setWebhookEnabled(id, true);
    expect(s().webhooks.items.find((i) => i.id === id)?.enabled).toBe(true);
  });

  it("sends a test and keeps the receiver's answer; a replaced key is shown once and the old one no longer verifies", async () => {
    const id = s().webhooks.items.find((i) => i.name === "Till events")?.id ?? "";
    receiverKey = (await t.client.webhooks.retrieveWebhookSubscription(id)).subscription?.signature_key ?? "";
    await s().sendWebhookTest(id, "customer.created");
    expect(s().webhooks.tests[id]).toMatchObject({ eventType: "customer.created", statusCode: 200 });
    expect(s().webhooks.tests[id]?.tookMs).toBeGreaterThanOrEqual(0);

    await s().replaceWebhookKey(id);
    const revealed = s().webhooks.revealed;
    expect(revealed?.subscriptionId).toBe(id);
    expect(revealed?.key).not.toBe(receiverKey);
    await s().sendWebhookTest(id, "labor.shift.created");
    expect(s().webhooks.tests[id]?.statusCode).toBe(401); // the receiver still holds the old key
    expect(s().webhooks.revealed).toBeUndefined();
    expect(s().status).toMatchObject({ kind: "rule", text: expect.stringMatching(/answered 401 in \d+ ms/) });
  });

  it("works through the deferred client the demo store starts with (its calls are thenables, not promises)", async () => {
    const deferred = await createFullStore({ client: deferredClient(Promise.resolve(t.client)) });
    deferred.getState().webhooksDispatch({ type: "open-create" });
    deferred.getState().webhooksDispatch({ type: "edit-field", field: "url", value: hookUrl });
    await deferred.getState().webhooksFormNext();
    expect(deferred.getState().webhooks.form?.offered?.state).toBe("loaded");
    await deferred.getState().loadWebhooks();
    expect(deferred.getState().webhooks.loaded).toBe(true);
  });

  it("deletes", async () => {
    const id = s().webhooks.items.find((i) => i.name === "Retry me")?.id ?? "";
    await s().deleteWebhookSubscription(id);
    expect(s().webhooks.items.map((i) => i.id)).not.toContain(id);
    await s().loadWebhooks({ includeDisabled: true });
    expect(s().webhooks.items.map((i) => i.id)).not.toContain(id);
  });
});
