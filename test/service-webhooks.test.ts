import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../src/domain/webhook-signature.js";
import type { EventSink } from "../src/service/events.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { ALL_SCOPES, hashSecret, storeToken } from "../src/service/tokens.js";
import { createWebhookSink } from "../src/service/webhooks/sink.js";
import { createClient, type SquareClient } from "../src/square/client.js";
import { failure, startService, type TestService } from "./helpers/service.js";

/** One notification as a receiver got it. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** Whether the signature matched the key the receiver held when it arrived. */
  signatureOk: boolean;
}

/**
 * A real HTTP receiver on loopback. It checks every notification's signature against the key it
 * currently holds; `answer` decides the status of the n-th request (1-based).
 */
interface Receiver {
  url: string;
  received: Received[];
  key: string;
  answer: (n: number) => number;
  /** Requests held open (answered only when released). */
  held: ServerResponse[];
  hold: boolean;
  close(): Promise<void>;
}

const receivers: Receiver[] = [];

async function startReceiver(path = "/hooks/square"): Promise<Receiver> {
  let count = 0;
  const r: Receiver = {
    url: "",
    received: [],
    key: "",
    answer: () => 200,
    held: [],
    hold: false,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const sig = req.headers["x-square-hmacsha256-signature"];
      r.received.push({
        headers: req.headers,
        body,
        json: JSON.parse(body),
        signatureOk: verifyWebhook(r.key, r.url, body, typeof sig === "string" ? sig : undefined),
      });
      count += 1;
      if (r.hold) {
        r.held.push(res);
        return;
      }
      res.writeHead(r.answer(count)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${port}${path}`;
  r.close = () =>
    new Promise<void>((resolve) => {
      for (const res of r.held) res.writeHead(200).end();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  receivers.push(r);
  return r;
}

/** Polls until `cond` holds; fails with `what` after the deadline. Never a fixed sleep. */
async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let t: TestService;
let client: SquareClient;
/** A client of an OAuth application holding an access token of the demo seller. */
let appClient: SquareClient;
/** A client of another application, which must never see the demo application's subscriptions. */
let otherClient: SquareClient;
const OTHER_APP = "sq0idp-other-app";
let teamMemberId: string;
let shiftDay = 0;

beforeAll(async () => {
  // The sink is built once the service exists (it needs its store); short delays keep retries quick.
  let sink: EventSink | undefined;
  const events: EventSink = {
    publish: (e) => sink?.publish(e),
    close: () => sink?.close?.() ?? Promise.resolve(),
  };
  t = await startService({ events });
  sink = createWebhookSink({
    db: t.service.db,
    clock: t.service.clock,
    baseDelayMs: 20,
    maxAttempts: 3,
    timeoutMs: 2000,
  });
  client = t.client;
  const now = t.service.clock.now();
  storeToken(t.service.db, {
    token: "app-access-token",
    kind: "access",
    merchantId: DEMO.merchantId,
    clientId: DEMO.clientId,
    scopes: ALL_SCOPES,
    now,
    expiresAt: new Date(now.getTime() + 30 * 86_400_000),
  });
  t.service.db
    .prepare("INSERT INTO oauth_apps (client_id, secret_hash, name) VALUES (?, ?, ?)")
    .run(OTHER_APP, hashSecret("other-secret"), "Other app");
  storeToken(t.service.db, {
    token: "other-access-token",
    kind: "access",
    merchantId: DEMO.merchantId,
    clientId: OTHER_APP,
    scopes: ALL_SCOPES,
    now,
    expiresAt: new Date(now.getTime() + 30 * 86_400_000),
  });
  appClient = createClient({ baseUrl: t.url, accessToken: "app-access-token", maxRetries: 0 });
  otherClient = createClient({ baseUrl: t.url, accessToken: "other-access-token", maxRetries: 0 });
  const member = t.service.db.prepare("SELECT id FROM team_members WHERE status = 'ACTIVE' LIMIT 1").get() as {
    id: string;
  };
  teamMemberId = member.id;
});

afterAll(async () => {
  await appClient.close();
  await otherClient.close();
  await t.close();
  for (const r of receivers) await r.close();
});

/** A closed shift on a day of its own, so shifts never overlap: emits labor.shift.created. */
async function createShift(): Promise<string> {
  shiftDay += 1;
  // Three years back, one day each: clear of the demo team's own shifts.
  const start = new Date(t.service.clock.now().getTime() - (3 * 365 + shiftDay) * 86_400_000);
  const end = new Date(start.getTime() + 3_600_000);
  const res = await client.labor.createShift({
    shift: {
      team_member_id: teamMemberId,
      location_id: DEMO.mainLocationId,
      start_at: start.toISOString(),
      end_at: end.toISOString(),
    },
  });
  return res.shift?.id ?? "";
}

async function deliveries(query: string): Promise<any[]> {
  const res = await t.raw("GET", `/_emulator/webhook-deliveries?${query}`);
  expect(res.status).toBe(200);
  return res.json.deliveries;
}

async function subscribe(
  r: Receiver,
  eventTypes: string[],
  via: SquareClient = client,
  extra: { enabled?: boolean; name?: string } = {},
) {
  const res = await via.webhooks.createWebhookSubscription({
    subscription: { name: "test", event_types: eventTypes, notification_url: r.url, ...extra },
  });
  const sub = res.subscription;
  if (!sub?.id || !sub.signature_key) throw new Error("no subscription");
  r.key = sub.signature_key;
  return { id: sub.id, key: sub.signature_key };
}

describe("listWebhookEventTypes", () => {
  it("lists every event type the service emits, each with the version that introduced it", async () => {
    const res = await client.webhooks.listWebhookEventTypes();
    for (const type of [
      "customer.created",
      "customer.updated",
      "customer.deleted",
      "labor.shift.created",
      "labor.shift.updated",
      "labor.shift.deleted",
      "inventory.count.updated",
      "gift_card.activity.created",
      "gift_card.updated",
      "oauth.authorization.revoked",
    ]) {
      expect(res.event_types).toContain(type);
    }
    const meta = res.metadata?.find((m) => m.event_type === "labor.shift.created");
    expect(meta?.api_version_introduced).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(meta?.release_status).toBe("PUBLIC");
    expect(res.metadata).toHaveLength(res.event_types?.length ?? -1);
  });

  it("offers only the types introduced by the requested api_version", async () => {
    const all = await client.webhooks.listWebhookEventTypes({ api_version: "2024-01-18" });
    const old = await client.webhooks.listWebhookEventTypes({ api_version: "2019-06-12" });
    expect(old.event_types).toContain("inventory.count.updated");
    expect(old.event_types).not.toContain("labor.shift.created");
    expect(old.event_types?.length).toBeLessThan(all.event_types?.length ?? 0);
    for (const m of old.metadata ?? []) expect((m.api_version_introduced ?? "") <= "2019-06-12").toBe(true);
  });

  it("refuses an api_version that is not a date", async () => {
    const err = await failure(client.webhooks.listWebhookEventTypes({ api_version: "latest" }));
    expect(err.status).toBe(400);
    expect(err.errors[0]?.field).toBe("api_version");
  });
});

describe("webhook subscriptions", () => {
  it("creates with defaults; the key comes with the created and the retrieved subscription, never in a list", async () => {
    const created = await client.webhooks.createWebhookSubscription({
      subscription: { name: "Defaults", event_types: ["customer.created"], notification_url: "https://example.com/h" },
    });
    const sub = created.subscription;
    expect(sub?.enabled).toBe(true);
    expect(sub?.api_version).toBe("2024-01-18");
    expect(sub?.signature_key).toMatch(/.{16,}/);
    expect(sub?.id).toMatch(/^wbhk_/);
    const got = await client.webhooks.retrieveWebhookSubscription(sub?.id ?? "");
    expect(got.subscription?.notification_url).toBe("https://example.com/h");
    expect(got.subscription?.signature_key).toBe(sub?.signature_key);
    const listed = await client.webhooks.listWebhookSubscriptions();
    expect(listed.subscriptions?.every((s) => s.signature_key === undefined)).toBe(true);
  });

  it("takes the api_version from the request's Square-Version, and checks event types against it", async () => {
    const ok = await t.raw("POST", "/v2/webhooks/subscriptions", {
      headers: { "square-version": "2021-03-17" },
      body: { subscription: { event_types: ["labor.shift.created"], notification_url: "https://example.com/v" } },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.subscription.api_version).toBe("2021-03-17");
    const tooNew = await t.raw("POST", "/v2/webhooks/subscriptions", {
      headers: { "square-version": "2019-09-25" },
      body: { subscription: { event_types: ["labor.shift.created"], notification_url: "https://example.com/v" } },
    });
    expect(tooNew.status).toBe(400);
    expect(tooNew.json.errors[0].field).toBe("subscription.event_types");
  });

  it("refuses unknown event types and URLs that are not absolute http(s)", async () => {
    const bad = await failure(
      client.webhooks.createWebhookSubscription({
        subscription: { event_types: ["shift.teleported"], notification_url: "https://example.com/h" },
      }),
    );
    expect(bad.code).toBe("INVALID_VALUE");
    expect(bad.errors[0]?.field).toBe("subscription.event_types");
    for (const url of ["/relative/path", "ftp://example.com/h", "not a url"]) {
      const e = await failure(
        client.webhooks.createWebhookSubscription({
          subscription: { event_types: ["customer.created"], notification_url: url },
        }),
      );
      expect(e.errors[0]?.field).toBe("subscription.notification_url");
    }
  });

  it("replays a create with the same idempotency key", async () => {
    const body = {
      idempotency_key: "wh-create-1",
      subscription: { event_types: ["customer.updated"], notification_url: "https://example.com/i" },
    };
    const a = await client.webhooks.createWebhookSubscription(body);
    const b = await client.webhooks.createWebhookSubscription(body);
    expect(b.subscription?.id).toBe(a.subscription?.id);
  });

  it("belong to the calling application: another app neither lists nor reads them", async () => {
    const mine = await subscribe(await startReceiver(), ["customer.created"]);
    const theirs = await otherClient.webhooks.createWebhookSubscription({
      subscription: { event_types: ["customer.created"], notification_url: "https://other.example.com/h" },
    });
    const myList = await client.webhooks.listWebhookSubscriptions({ include_disabled: true });
    expect(myList.subscriptions?.map((s) => s.id)).toContain(mine.id);
    expect(myList.subscriptions?.map((s) => s.id)).not.toContain(theirs.subscription?.id);
    const theirList = await otherClient.webhooks.listWebhookSubscriptions({ include_disabled: true });
    expect(theirList.subscriptions?.map((s) => s.id)).toEqual([theirs.subscription?.id]);
    const e = await failure(otherClient.webhooks.retrieveWebhookSubscription(mine.id));
    expect(e.status).toBe(404);
    // The personal token and the demo application's OAuth token are the same application.
    const viaApp = await appClient.webhooks.retrieveWebhookSubscription(mine.id);
    expect(viaApp.subscription?.id).toBe(mine.id);
  });

  it("lists enabled ones by creation time, disabled ones only on request, in pages", async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.advance(1);
      const r = await otherClient.webhooks.createWebhookSubscription({
        subscription: { name: `s${i}`, event_types: ["gift_card.updated"], notification_url: "https://o.example.com/" },
      });
      made.push(r.subscription?.id ?? "");
    }
    await otherClient.webhooks.updateWebhookSubscription(made[1] ?? "", { subscription: { enabled: false } });
    const enabled = await otherClient.webhooks.listWebhookSubscriptions().all();
    expect(enabled.map((s) => s.id)).not.toContain(made[1]);
    expect(enabled.map((s) => s.id)).toEqual(expect.arrayContaining([made[0], made[2]]));
    const all = await otherClient.webhooks.listWebhookSubscriptions({ include_disabled: true }).all();
    const ids = all.map((s) => s.id);
    expect(ids).toContain(made[1]);
    expect(ids.indexOf(made[0])).toBeLessThan(ids.indexOf(made[1]));
    expect(ids.indexOf(made[1])).toBeLessThan(ids.indexOf(made[2]));
    const desc = await otherClient.webhooks
      .listWebhookSubscriptions({ include_disabled: true, sort_order: "DESC" })
      .all();
    expect(desc.map((s) => s.id)).toEqual([...ids].reverse());
    const first = await otherClient.webhooks.listWebhookSubscriptions({ include_disabled: true, limit: 1 });
    expect(first.subscriptions).toHaveLength(1);
    expect(first.cursor).toBeTruthy();
    const paged = await otherClient.webhooks.listWebhookSubscriptions({ include_disabled: true, limit: 1 }).all();
    expect(paged.map((s) => s.id)).toEqual(ids);
    const tooMany = await failure(otherClient.webhooks.listWebhookSubscriptions({ limit: 101 }));
    expect(tooMany.code).toBe("VALUE_TOO_HIGH");
  });

  it("updates name, URL and event types, and deletes", async () => {
    const { id } = await subscribe(await startReceiver(), ["customer.created"]);
    const up = await client.webhooks.updateWebhookSubscription(id, {
      subscription: {
        name: "Renamed",
        event_types: ["customer.updated", "customer.deleted"],
        notification_url: "https://example.com/new",
      },
    });
    expect(up.subscription).toMatchObject({
      name: "Renamed",
      event_types: ["customer.updated", "customer.deleted"],
      notification_url: "https://example.com/new",
      enabled: true,
    });
    expect(up.subscription?.signature_key).toBeUndefined();
    const bad = await failure(
      client.webhooks.updateWebhookSubscription(id, { subscription: { event_types: ["nope.nope"] } }),
    );
    expect(bad.errors[0]?.field).toBe("subscription.event_types");
    await client.webhooks.deleteWebhookSubscription(id);
    const gone = await failure(client.webhooks.retrieveWebhookSubscription(id));
    expect(gone.status).toBe(404);
  });
});

describe("webhook delivery", () => {
  it("POSTs each committed write, signed, in the service's envelope", async () => {
    const r = await startReceiver("/hooks/labor?source=square");
    const sub = await subscribe(r, ["labor.shift.created", "labor.shift.deleted"]);
    const shiftId = await createShift();
    await waitFor(() => r.received.length >= 1, "the shift.created notification");
    const n = r.received[0];
    expect(n?.signatureOk).toBe(true);
    expect(n?.headers["content-type"]).toBe("application/json");
    expect(n?.json).toMatchObject({
      merchant_id: DEMO.merchantId,
      location_id: DEMO.mainLocationId,
      type: "labor.shift.created",
      data: { type: "shift", id: shiftId, object: { shift: { id: shiftId, team_member_id: teamMemberId } } },
    });
    expect(n?.json.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Number.isNaN(Date.parse(n?.json.created_at))).toBe(false);

    await client.labor.deleteShift(shiftId);
    await waitFor(() => r.received.length >= 2, "the shift.deleted notification");
    expect(r.received[1]?.json.data).toMatchObject({ type: "shift", id: shiftId, deleted: true });
    expect(r.received.every((x) => x.signatureOk)).toBe(true);

    const log = await deliveries(`subscription_id=${sub.id}`);
    expect(log.map((d) => d.event_type)).toEqual(["labor.shift.deleted", "labor.shift.created"]);
    expect(log.every((d) => d.outcome === "delivered" && d.status_code === 200)).toBe(true);
  });

  it("signs with the new key only once the key is replaced", async () => {
    const r = await startReceiver();
    const sub = await subscribe(r, ["labor.shift.created"]);
    await createShift();
    await waitFor(() => r.received.length >= 1, "a notification under the first key");
    expect(r.received[0]?.signatureOk).toBe(true);

    const replaced = await client.webhooks.updateWebhookSubscriptionSignatureKey(sub.id, {});
    const newKey = replaced.signature_key ?? "";
    expect(newKey).not.toBe(sub.key);
    r.key = newKey;
    await createShift();
    await waitFor(() => r.received.length >= 2, "a notification under the new key");
    const second = r.received[1];
    expect(second?.signatureOk).toBe(true);
    const sig = second?.headers["x-square-hmacsha256-signature"] as string;
    expect(verifyWebhook(sub.key, r.url, second?.body ?? "", sig)).toBe(false);
    expect(verifyWebhook(newKey, r.url, second?.body ?? "", sig)).toBe(true);
  });

  it("retries a failing receiver with backoff, the same event each time, until it accepts", async () => {
    const r = await startReceiver();
    r.answer = (n) => (n <= 2 ? 500 : 200);
    const sub = await subscribe(r, ["labor.shift.created"]);
    await createShift();
    await waitFor(() => r.received.length >= 3, "two retries");
    const ids = new Set(r.received.map((x) => x.json.event_id));
    expect(ids.size).toBe(1);
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    expect(r.received.every((x) => x.signatureOk)).toBe(true);
    await waitFor(async () => (await deliveries(`subscription_id=${sub.id}`)).length >= 3, "three logged attempts");
    const log = await deliveries(`subscription_id=${sub.id}`);
    expect(log.map((d) => [d.attempt, d.outcome, d.status_code])).toEqual([
      [3, "delivered", 200],
      [2, "retrying", 500],
      [1, "retrying", 500],
    ]);
    // Exponential backoff: the second wait is twice the first.
    expect([log[2]?.retry_delay_ms, log[1]?.retry_delay_ms]).toEqual([20, 40]);
    expect(log[0]?.retry_delay_ms).toBeNull();
    // The second attempt came no sooner than the first backoff allowed.
    expect(Date.parse(log[1]?.created_at) - Date.parse(log[2]?.created_at)).toBeGreaterThanOrEqual(20);
  });

  it("gives up after the bounded number of attempts, and logs refused connections", async () => {
    const r = await startReceiver();
    r.answer = () => 503;
    const sub = await subscribe(r, ["labor.shift.created"]);
    const dead = await startReceiver();
    const deadUrl = dead.url;
    await dead.close();
    const unreachable = await client.webhooks.createWebhookSubscription({
      subscription: { event_types: ["labor.shift.created"], notification_url: deadUrl },
    });
    await createShift();
    await waitFor(
      async () => (await deliveries(`subscription_id=${sub.id}`)).some((d) => d.outcome === "failed"),
      "the last attempt",
    );
    const log = await deliveries(`subscription_id=${sub.id}`);
    expect(log.map((d) => d.outcome)).toEqual(["failed", "retrying", "retrying"]);
    expect(r.received).toHaveLength(3);
    const uid = unreachable.subscription?.id ?? "";
    await waitFor(
      async () => (await deliveries(`subscription_id=${uid}`)).some((d) => d.outcome === "failed"),
      "the unreachable receiver's last attempt",
    );
    const ulog = await deliveries(`subscription_id=${uid}`);
    expect(ulog).toHaveLength(3);
    expect(ulog.every((d) => d.status_code === null && typeof d.error === "string")).toBe(true);
    await client.webhooks.deleteWebhookSubscription(uid);
  });

  it("never holds up the write: the response returns while the receiver is still busy", async () => {
    const r = await startReceiver();
    r.hold = true;
    await subscribe(r, ["labor.shift.created"]);
    const id = await createShift();
    expect(id).not.toBe("");
    await waitFor(() => r.received.length >= 1, "the held notification");
    expect(r.held).toHaveLength(1);
    r.hold = false;
    for (const res of r.held.splice(0)) res.writeHead(200).end();
  });

  it("sends nothing to a disabled subscription, nor to one that does not list the type", async () => {
    const on = await startReceiver();
    const off = await startReceiver();
    const other = await startReceiver();
    const onSub = await subscribe(on, ["labor.shift.created"]);
    const offSub = await subscribe(off, ["labor.shift.created"], client, { enabled: false });
    const laterOff = await startReceiver();
    const laterOffSub = await subscribe(laterOff, ["labor.shift.created"]);
    await client.webhooks.updateWebhookSubscription(laterOffSub.id, { subscription: { enabled: false } });
    const otherSub = await subscribe(other, ["customer.created"]);
    await createShift();
    await waitFor(async () => (await deliveries(`subscription_id=${onSub.id}`)).length >= 1, "the enabled delivery");
    expect(off.received).toHaveLength(0);
    expect(laterOff.received).toHaveLength(0);
    expect(other.received).toHaveLength(0);
    for (const s of [offSub, laterOffSub, otherSub]) expect(await deliveries(`subscription_id=${s.id}`)).toEqual([]);
  });

  it("stops a seller's events to an application once the seller revokes it", async () => {
    const viaApp = await startReceiver();
    const viaPersonal = await startReceiver();
    const appSub = await subscribe(viaApp, ["labor.shift.created", "oauth.authorization.revoked"], appClient);
    const personalSub = await subscribe(viaPersonal, ["labor.shift.created", "oauth.authorization.revoked"]);
    await createShift();
    await waitFor(() => viaApp.received.length >= 1 && viaPersonal.received.length >= 1, "deliveries before revoking");

    await client.oauth.revokeToken({ client_id: DEMO.clientId, merchant_id: DEMO.merchantId });
    // The application hears of the revocation itself, on both of its subscriptions.
    await waitFor(
      () => viaApp.received.some((x) => x.json.type === "oauth.authorization.revoked"),
      "the revocation notice",
    );
    await waitFor(
      () => viaPersonal.received.some((x) => x.json.type === "oauth.authorization.revoked"),
      "the revocation notice (personal)",
    );
    const appBefore = viaApp.received.length;
    const shiftId = await createShift();
    await waitFor(
      () => viaPersonal.received.some((x) => x.json.data.id === shiftId),
      "the personal-token subscription still hearing the seller",
    );
    await waitFor(
      async () => (await deliveries(`subscription_id=${personalSub.id}&event_type=labor.shift.created`)).length >= 2,
      "the personal delivery logged",
    );
    expect(viaApp.received).toHaveLength(appBefore);
    expect(viaApp.received.some((x) => x.json.data.id === shiftId)).toBe(false);
    const appLog = await deliveries(`subscription_id=${appSub.id}&event_type=labor.shift.created`);
    expect(appLog).toHaveLength(1);
    expect(viaApp.received.every((x) => x.signatureOk)).toBe(true);
  });

  it("does not send oauth.authorization.revoked of one application to another", async () => {
    const r = await startReceiver();
    await subscribe(r, ["oauth.authorization.revoked", "labor.shift.created"], otherClient);
    storeToken(t.service.db, {
      token: "app-access-token-2",
      kind: "access",
      merchantId: DEMO.merchantId,
      clientId: DEMO.clientId,
      scopes: ALL_SCOPES,
      now: t.service.clock.now(),
      expiresAt: null,
    });
    await client.oauth.revokeToken({ client_id: DEMO.clientId, merchant_id: DEMO.merchantId });
    const shiftId = await createShift();
    await waitFor(() => r.received.some((x) => x.json.data.id === shiftId), "the other app's shift notice");
    expect(r.received.map((x) => x.json.type)).not.toContain("oauth.authorization.revoked");
  });
});

describe("testWebhookSubscription", () => {
  it("sends one signed event of the type and answers the receiver's status and the payload", async () => {
    const r = await startReceiver();
    const sub = await subscribe(r, ["customer.created", "gift_card.updated"]);
    const res = await client.webhooks.testWebhookSubscription(sub.id, { event_type: "gift_card.updated" });
    const result = res.subscription_test_result;
    expect(result?.status_code).toBe(200);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.body).toBe(result?.payload);
    expect(r.received[0]?.signatureOk).toBe(true);
    expect(JSON.parse(result?.payload ?? "{}")).toMatchObject({
      merchant_id: DEMO.merchantId,
      type: "gift_card.updated",
      data: { type: "gift_card" },
    });
    expect(result?.id).toBeTruthy();
    const log = await deliveries(`subscription_id=${sub.id}`);
    expect(log[0]).toMatchObject({ outcome: "test", status_code: 200, event_type: "gift_card.updated" });
  });

  it("reports the receiver's failure status", async () => {
    const r = await startReceiver();
    r.answer = () => 500;
    const sub = await subscribe(r, ["customer.created"]);
    const res = await client.webhooks.testWebhookSubscription(sub.id, { event_type: "customer.created" });
    expect(res.subscription_test_result?.status_code).toBe(500);
  });

  it("refuses an event type the subscription does not list", async () => {
    const sub = await subscribe(await startReceiver(), ["customer.created"]);
    const e = await failure(client.webhooks.testWebhookSubscription(sub.id, { event_type: "labor.shift.created" }));
    expect(e.status).toBe(400);
    expect(e.errors[0]?.field).toBe("event_type");
  });
});

describe("the delivery log", () => {
  it("filters by event type, newest first", async () => {
    const all = await deliveries("event_type=labor.shift.created");
    expect(all.length).toBeGreaterThan(3);
    expect(all.every((d) => d.event_type === "labor.shift.created")).toBe(true);
    const times = all.map((d) => d.created_at as string);
    expect([...times].sort().reverse()).toEqual(times);
  });
});
