import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../domain/webhook-signature.js";
import { createClock } from "../clock.js";
import { type Db, openDb } from "../db.js";
import { listDeliveries, saveSubscription } from "./repo.js";
import { createWebhookSink } from "./sink.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function receiver(onRequest: (res: ServerResponse, body: string, sig: string) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => onRequest(res, body, String(req.headers["x-square-hmacsha256-signature"])));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

function store(url: string): Db {
  const db = openDb(":memory:");
  cleanups.push(() => {
    db.close();
  });
  db.prepare(
    "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES ('M1', 'x', 'US', 'en-US', 'USD', '2024-01-01T00:00:00Z')",
  ).run();
  saveSubscription(db, {
    id: "wbhk_1",
    clientId: "app",
    ownerMerchantId: "M1",
    enabled: true,
    eventTypes: ["customer.created"],
    notificationUrl: url,
    apiVersion: "2024-01-18",
    signatureKey: "key",
    name: null,
    createdAt: "2024-01-01T00:00:00Z",
    updatedAt: "2024-01-01T00:00:00Z",
  });
  return db;
}

const event = { type: "customer.created", merchantId: "M1", dataType: "customer", dataId: "C1", object: { id: "C1" } };

async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("createWebhookSink", () => {
  it("publish only queues: nothing is sent before the caller's tick ends", async () => {
    let got = 0;
    const url = await receiver((res) => {
      got += 1;
      res.end();
    });
    const sink = createWebhookSink({ db: store(url), clock: createClock() });
    sink.publish([event]);
    expect(got).toBe(0);
    await until(() => got === 1);
    await sink.close?.();
  });

  it("close() waits for the POST in flight and logs it, and cancels a planned retry", async () => {
    const held: ServerResponse[] = [];
    const bodies: string[] = [];
    const url = await receiver((res, body, sig) => {
      expect(verifyWebhook("key", url, body, sig)).toBe(true);
      bodies.push(body);
      held.push(res);
    });
    const db = store(url);
    const sink = createWebhookSink({ db, clock: createClock(), baseDelayMs: 60_000, maxAttempts: 5 });
    sink.publish([event]);
    await until(() => held.length === 1);
    let closed = false;
    const closing = sink.close?.().then(() => {
      closed = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    held[0]?.writeHead(500).end();
    await closing;
    const log = listDeliveries(db, { limit: 10 });
    // Closing, it does not plan a retry a minute away: the attempt is its last.
    expect(log.map((d) => [d.attempt, d.statusCode, d.outcome])).toEqual([[1, 500, "failed"]]);
    expect(bodies).toHaveLength(1);
  });
});
