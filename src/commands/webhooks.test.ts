import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signWebhook } from "../domain/webhook-signature.js";
import { createService, type LocalService } from "../service/index.js";
import { createClient, type SquareClient } from "../square/index.js";
import type { CommandIo } from "./io.js";
import {
  runWebhooksEventTypes,
  runWebhooksList,
  runWebhooksListen,
  runWebhooksTest,
  type WebhooksDeps,
} from "./webhooks.js";

let svc: LocalService;
let client: SquareClient;
beforeAll(async () => {
  svc = createService({ seed: "demo" });
  const url = await svc.listen(0, "127.0.0.1");
  client = createClient({ baseUrl: url, accessToken: svc.accessToken, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await svc.close();
});

/** A command's streams, with what it wrote so far. */
function capture(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) => {
    const s = new PassThrough();
    s.on("data", (c: Buffer) => into.push(c.toString()));
    return s;
  };
  const io: CommandIo = { stdout: sink(out), stderr: sink(err), stdin: new PassThrough(), env };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

const deps = (extra: Partial<WebhooksDeps> = {}): WebhooksDeps => ({
  open: async () => ({ client, close: async () => {} }),
  ...extra,
});

/** Runs `listen` in the background until `stop`, with its address once it listens. */
async function listen(argv: string[], env: Record<string, string> = {}) {
  const cap = capture(env);
  const ctl = new AbortController();
  let url = "";
  const done = runWebhooksListen(argv, cap.io, deps({ signal: ctl.signal, onListening: (u) => (url = u) }));
  await vi.waitFor(() => {
    if (!url) throw new Error(`not listening yet: ${cap.err()}`);
  });
  return {
    url,
    ...cap,
    /** Waits for a line of stdout that matches. */
    async line(match: RegExp): Promise<string> {
      let found = "";
      await vi.waitFor(
        () => {
          found =
            cap
              .out()
              .split("\n")
              .find((l) => match.test(l)) ?? "";
          if (!found) throw new Error(`no line matched ${match}; stdout:\n${cap.out()}`);
        },
        { timeout: 5000 },
      );
      return found;
    },
    async stop() {
      ctl.abort();
      return done;
    },
  };
}

const post = async (url: string, body: string | Buffer, headers: Record<string, string> = {}) => {
  const res = await request(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { status: res.statusCode, text: await res.body.text() };
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

const NOTE = JSON.stringify({
  merchant_id: "M1",
  type: "customer.created",
  event_id: "e-1",
  created_at: "2026-01-01T09:00:00Z",
  data: { type: "customer", id: "CUST-1", object: { customer: { id: "CUST-1" } } },
});

describe("backroom webhooks listen", () => {
  it("verifies a real delivery from the local service, with the key read from the subscription", async () => {
    const port = await freePort();
    const created = await client.webhooks.createWebhookSubscription({
      subscription: {
        name: "listen test",
        event_types: ["customer.created"],
        notification_url: `http://127.0.0.1:${port}/events`,
      },
    });
    const id = created.subscription?.id ?? "";
    const l = await listen(["--subscription", id]);
    expect(l.url).toBe(`http://127.0.0.1:${port}/events`);
    expect(l.out()).toContain(`listening on http://127.0.0.1:${port}/events\n`);

    const test = await client.webhooks.testWebhookSubscription(id, { event_type: "customer.created" });
    expect(test.subscription_test_result?.status_code).toBe(200);
    await l.line(/^\d\d:\d\d:\d\d {2}customer\.created {2}\S+ {2}verified$/);

    const customer = await client.customers.createCustomer({ given_name: "Webhook", family_name: "Listener" });
    const cid = customer.customer?.id ?? "";
    await l.line(new RegExp(`customer\\.created {2}${cid} {2}verified$`));
    expect(await l.stop()).toBe(0);
    expect(l.err()).toContain("stopped: 2 verified, 0 not verified, 0 refused");
  });

  it("prints NOT verified for a wrong signature, an altered body and a wrong URL, and answers 401", async () => {
    const l = await listen(["--signature-key", "the-key", "--path", "/hook"]);
    expect(await post(l.url, NOTE, { "x-square-hmacsha256-signature": signWebhook("the-key", l.url, NOTE) })).toEqual({
      status: 200,
      text: "verified\n",
    });
    const wrongKey = await post(l.url, NOTE, { "x-square-hmacsha256-signature": signWebhook("other", l.url, NOTE) });
    const altered = NOTE.replace("CUST-1", "CUST-2");
    const alteredBody = await post(l.url, altered, {
      "x-square-hmacsha256-signature": signWebhook("the-key", l.url, NOTE),
    });
    const wrongUrl = await post(l.url, NOTE, {
      "x-square-hmacsha256-signature": signWebhook("the-key", "https://tunnel.example.com/hook", NOTE),
    });
    const unsigned = await post(l.url, NOTE);
    expect([wrongKey.status, alteredBody.status, wrongUrl.status, unsigned.status]).toEqual([401, 401, 401, 401]);
    await l.stop();
    const lines = l.out().trim().split("\n").slice(1);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/ {2}customer\.created {2}CUST-1 {2}verified$/);
    for (const line of lines.slice(1, 4)) expect(line).toMatch(/NOT verified \(signature does not match\)$/);
    expect(l.err()).toContain(`another URL than ${l.url} (--url names the one the service signs)`);
    expect(lines[2]).toContain("CUST-2");
    expect(lines[4]).toMatch(/NOT verified \(no x-square-hmacsha256-signature header\)/);
    expect(l.err()).toContain("stopped: 1 verified, 4 not verified, 0 refused");
  });

  it("checks against --url when the service signed another address (a tunnel)", async () => {
    const signed = "https://tunnel.example.com/hook";
    const l = await listen(["--signature-key", "the-key", "--url", signed, "--json"]);
    expect(l.out()).toBe(""); // with --json, stdout has only records
    expect(l.err()).toContain(`checking signatures made for ${signed}`);
    await post(l.url, NOTE, { "x-square-hmacsha256-signature": signWebhook("the-key", signed, NOTE) });
    await post(l.url, NOTE, { "x-square-hmacsha256-signature": signWebhook("the-key", l.url, NOTE) });
    await l.stop();
    const records = l
      .out()
      .trim()
      .split("\n")
      .map((x) => JSON.parse(x));
    expect(records.map((r) => r.verified)).toEqual([true, false]);
    expect(records[0].event).toEqual(JSON.parse(NOTE));
    expect(records[0].status).toBe(200);
  });

  it("answers 400 to a body that is not JSON or is over 1 MB, and prints it as refused", async () => {
    const l = await listen(["--signature-key", "k"]);
    expect((await post(l.url, "hello there")).status).toBe(400);
    expect((await post(l.url, "[1]")).status).toBe(400);
    const big = `{"pad":"${"x".repeat(1024 * 1024)}"}`;
    expect((await post(l.url, big, { "x-square-hmacsha256-signature": signWebhook("k", l.url, big) })).status).toBe(
      400,
    );
    const get = await request(l.url);
    await get.body.dump();
    expect(get.statusCode).toBe(405);
    expect((await post(l.url.replace("/hook", "/other"), NOTE)).status).toBe(404);
    await l.stop();
    const lines = l.out().trim().split("\n").slice(1);
    expect(lines[0]).toMatch(/ {2}refused 400 {2}POST \/hook: the body is not JSON$/);
    expect(lines[1]).toMatch(/refused 400 {2}POST \/hook: the body is JSON but not an object$/);
    expect(lines[2]).toMatch(/refused 400 {2}POST \/hook: the body is over 1 MB$/);
    expect(lines[3]).toMatch(/refused 405 {2}GET \/hook: only POST is taken/);
    expect(lines[4]).toMatch(/refused 404 {2}POST \/other: nothing listens on \/other/);
  });

  it("--forward passes verified bodies on with their signature, and the target's answer back", async () => {
    const got: { body: string; sig: string | undefined }[] = [];
    const target = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        got.push({ body, sig: req.headers["x-square-hmacsha256-signature"] as string | undefined });
        res.writeHead(got.length === 1 ? 204 : 500).end();
      });
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", () => r()));
    const to = `http://127.0.0.1:${(target.address() as AddressInfo).port}/app`;
    const l = await listen(["--signature-key", "k", "--forward", to]);
    const sig = signWebhook("k", l.url, NOTE);
    expect((await post(l.url, NOTE, { "x-square-hmacsha256-signature": sig })).status).toBe(204);
    expect((await post(l.url, NOTE, { "x-square-hmacsha256-signature": "forged" })).status).toBe(401);
    expect((await post(l.url, NOTE, { "x-square-hmacsha256-signature": sig })).status).toBe(500);
    await l.stop();
    await new Promise<void>((r) => target.close(() => r()));
    expect(got).toEqual([
      { body: NOTE, sig },
      { body: NOTE, sig },
    ]);
    expect(l.out()).toMatch(/verified {2}→ forwarded, answered 204\n/);
    expect(l.out()).toMatch(/verified {2}→ forwarded, answered 500\n/);
  });

  it("needs one way to the key, and takes it from BACKROOM_WEBHOOK_SIGNATURE_KEY", async () => {
    const none = capture();
    expect(await runWebhooksListen([], none.io, deps())).toBe(2);
    expect(none.err()).toContain("give the subscription's signature key");
    const both = capture();
    expect(await runWebhooksListen(["--signature-key", "k", "--subscription", "s"], both.io, deps())).toBe(2);
    expect(both.err()).toContain("not both");
    const badPath = capture();
    expect(await runWebhooksListen(["--signature-key", "k", "--path", "hook"], badPath.io, deps())).toBe(2);

    const l = await listen([], { BACKROOM_WEBHOOK_SIGNATURE_KEY: "from-env" });
    expect(
      (await post(l.url, NOTE, { "x-square-hmacsha256-signature": signWebhook("from-env", l.url, NOTE) })).status,
    ).toBe(200);
    await l.stop();
  });

  it("says plainly when the subscription does not exist", async () => {
    const cap = capture();
    expect(await runWebhooksListen(["--subscription", "wbhk_nope"], cap.io, deps())).toBe(1);
    expect(cap.err()).toMatch(/reading subscription wbhk_nope failed: .*\(NOT_FOUND\)/);
  });
});

describe("backroom webhooks list, event-types, test", () => {
  it("lists enabled subscriptions, and disabled ones with --include-disabled", async () => {
    const on = await client.webhooks.createWebhookSubscription({
      subscription: { name: "On", event_types: ["customer.updated"], notification_url: "https://example.com/on" },
    });
    const off = await client.webhooks.createWebhookSubscription({
      subscription: {
        name: "Off",
        event_types: ["customer.updated"],
        notification_url: "https://example.com/off",
        enabled: false,
      },
    });
    const ids = async (...argv: string[]) => {
      const cap = capture();
      expect(await runWebhooksList([...argv, "--json"], cap.io, deps())).toBe(0);
      return (JSON.parse(cap.out()) as { id: string }[]).map((s) => s.id);
    };
    expect(await ids()).toContain(on.subscription?.id);
    expect(await ids()).not.toContain(off.subscription?.id);
    expect(await ids("--include-disabled")).toContain(off.subscription?.id);
    const text = capture();
    expect(await runWebhooksList(["-a"], text.io, deps())).toBe(0);
    expect(text.out()).toMatch(
      new RegExp(`^${off.subscription?.id} +Off +no +2024-01-18 +https://example\\.com/off +customer\\.updated$`, "m"),
    );
  });

  it("lists the event types of a version, and refuses a version that is not a date", async () => {
    const cap = capture();
    expect(await runWebhooksEventTypes(["--api-version", "2019-06-12", "--json"], cap.io, deps())).toBe(0);
    const types = (JSON.parse(cap.out()) as { event_type: string }[]).map((t) => t.event_type);
    expect(types).toContain("inventory.count.updated");
    expect(types).not.toContain("labor.shift.created");
    const bad = capture();
    expect(await runWebhooksEventTypes(["--api-version", "latest"], bad.io, deps())).toBe(2);
    expect(bad.err()).toContain("--api-version: An API version is a date");
  });

  it("sends a test and says what the receiver answered; exit 1 when it refused", async () => {
    const l = await listen(["--signature-key", "not-the-key"]);
    const sub = await client.webhooks.createWebhookSubscription({
      subscription: { event_types: ["customer.deleted"], notification_url: l.url },
    });
    const id = sub.subscription?.id ?? "";
    const refused = capture();
    expect(await runWebhooksTest([id, "--event", "customer.deleted"], refused.io, deps())).toBe(1);
    expect(refused.out()).toMatch(/^Sent customer\.deleted: the receiver answered 401 in \d+ ms\.$/m);
    await l.stop();
    const gone = capture();
    expect(await runWebhooksTest([id], gone.io, deps())).toBe(1);
    expect(gone.out()).toMatch(/the receiver did not answer/);
  });
});
