import { randomUUID } from "node:crypto";
import type { Agent } from "undici";
import type { ServiceClock } from "../clock.js";
import type { Db } from "../db.js";
import type { EventSink, ServiceEvent } from "../events.js";
import { versionShape } from "../versions/stage.js";
import { delivered, type Envelope, envelopeOf, newAgent, postNotification } from "./notify.js";
import { getSubscription, hasLiveGrant, listeningSubscriptions, recordDelivery, type Subscription } from "./repo.js";

/** How the webhook delivery behaves; the defaults suit the app, tests shorten them. */
export interface WebhookSinkOptions {
  db: Db;
  clock: ServiceClock;
  /** The first retry's delay; each later retry waits twice as long. Default 1000 ms. */
  baseDelayMs?: number;
  /** Attempts per notification, the first included. Default 6 (about half a minute of retries). */
  maxAttempts?: number;
  /** How long one POST may take. Default 5000 ms. */
  timeoutMs?: number;
}

/** The event type that is delivered after the grant it reports is gone. */
const REVOKED = "oauth.authorization.revoked";

/**
 * Whether a subscription may hear an event: an application-scoped event only reaches that
 * application; a seller's events reach an application the seller has authorised (a live token),
 * or a subscription the seller made with their own personal token.
 */
function mayHear(db: Db, sub: Subscription, e: ServiceEvent, now: Date): boolean {
  if (e.clientId !== undefined) return e.clientId === sub.clientId;
  if (e.type === REVOKED) return false;
  if (sub.ownerMerchantId === e.merchantId) return true;
  return hasLiveGrant(db, e.merchantId, sub.clientId, now);
}

/** The state of one sink: its settings, its HTTP agent, and what is pending. */
interface Delivery {
  db: Db;
  clock: ServiceClock;
  baseDelayMs: number;
  maxAttempts: number;
  timeoutMs: number;
  /** Made on the first delivery (see newAgent). */
  agent?: Promise<Agent>;
  timers: Set<NodeJS.Timeout>;
  inFlight: Set<Promise<void>>;
  closed: boolean;
}

/** One attempt to deliver one notification to one subscription. */
interface Attempt {
  subscriptionId: string;
  event: ServiceEvent;
  eventId: string;
  body: string;
  n: number;
}

/** What every logged attempt records of its notification. */
const logBase = (job: Attempt) => ({
  subscriptionId: job.subscriptionId,
  eventId: job.eventId,
  eventType: job.event.type,
  merchantId: job.event.merchantId,
  attempt: job.n,
  payload: job.body,
});

/** Queues one attempt per listening subscription of an event, one body per api_version. */
function fanOut(d: Delivery, event: ServiceEvent, at: Date): void {
  const subs = listeningSubscriptions(d.db, event.type).filter((s) => mayHear(d.db, s, event, at));
  if (subs.length === 0) return;
  const envelope = envelopeOf(event, at);
  // One body per api_version among the listeners: each subscription reads its own version's shape.
  const bodies = new Map<string, string>();
  for (const s of subs) {
    let body = bodies.get(s.apiVersion);
    if (body === undefined) {
      body = JSON.stringify(inVersion(d.db, envelope, s.apiVersion));
      bodies.set(s.apiVersion, body);
    }
    attempt(d, { subscriptionId: s.id, event, eventId: envelope.event_id, body, n: 1 });
  }
}

/** Posts one attempt (unless the subscription may no longer hear it), logs it, and schedules a retry. */
function attempt(d: Delivery, job: Attempt): void {
  if (d.closed) return;
  const { db, clock } = d;
  const sub = getSubscription(db, job.subscriptionId);
  if (!sub?.enabled || !mayHear(db, sub, job.event, clock.now())) {
    // Only a retry can get here; the subscription changed since the first attempt.
    recordDelivery(db, {
      ...logBase(job),
      id: randomUUID(),
      notificationUrl: sub?.notificationUrl ?? "",
      statusCode: null,
      error: sub ? (sub.enabled ? "grant revoked" : "subscription disabled") : "subscription deleted",
      outcome: "abandoned",
      nextAttemptAt: null,
      retryDelayMs: null,
      durationMs: 0,
      createdAt: clock.now().toISOString(),
    });
    return;
  }
  const url = sub.notificationUrl;
  const startedAt = clock.now();
  d.agent ??= newAgent({ keepAliveTimeout: 2000, connect: { timeout: d.timeoutMs } });
  const p = d.agent
    .then((agent) =>
      postNotification({
        url,
        signatureKey: sub.signatureKey,
        body: job.body,
        timeoutMs: d.timeoutMs,
        dispatcher: agent,
      }),
    )
    .then((r) => logAndRetry(d, job, url, startedAt, r))
    .catch((err: unknown) => {
      // Logging the attempt failed (the store is going away): nothing more to do for it.
      if (!d.closed) console.error("backroom service: webhook delivery log failed", err);
    })
    .finally(() => d.inFlight.delete(p));
  d.inFlight.add(p);
}

/** Logs an attempt's outcome and, when it failed with attempts left, schedules the next one. */
function logAndRetry(
  d: Delivery,
  job: Attempt,
  url: string,
  startedAt: Date,
  r: Awaited<ReturnType<typeof postNotification>>,
): void {
  // The store stays open until close() has waited for this, so the attempt is still logged.
  const ok = delivered(r);
  const retry = !ok && job.n < d.maxAttempts && !d.closed;
  const delay = d.baseDelayMs * 2 ** (job.n - 1);
  recordDelivery(d.db, {
    ...logBase(job),
    id: randomUUID(),
    notificationUrl: url,
    statusCode: r.statusCode ?? null,
    error: r.error ?? null,
    outcome: ok ? "delivered" : retry ? "retrying" : "failed",
    nextAttemptAt: retry ? new Date(d.clock.now().getTime() + delay).toISOString() : null,
    retryDelayMs: retry ? delay : null,
    durationMs: r.durationMs,
    createdAt: startedAt.toISOString(),
  });
  if (retry) {
    const timer = setTimeout(() => {
      d.timers.delete(timer);
      attempt(d, { ...job, n: job.n + 1 });
    }, delay);
    d.timers.add(timer);
  }
}

/**
 * Real webhook delivery. `publish` only queues: the fan-out and the POSTs run after the response
 * has gone, so a slow or failing receiver never delays or fails a write. Each notification is
 * retried with exponential backoff up to `maxAttempts`; every attempt is logged in
 * `webhook_deliveries`. Each attempt reads the subscription again, so a replaced signature key,
 * a disabled or deleted subscription, or a revoked grant takes effect on the next attempt.
 */
export function createWebhookSink(opts: WebhookSinkOptions): EventSink {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const d: Delivery = {
    db: opts.db,
    clock: opts.clock,
    baseDelayMs: opts.baseDelayMs ?? 1000,
    maxAttempts: opts.maxAttempts ?? 6,
    timeoutMs,
    timers: new Set(),
    inFlight: new Set(),
    closed: false,
  };
  const queue: { event: ServiceEvent; at: Date }[] = [];
  let draining: NodeJS.Immediate | undefined;
  const drain = () => {
    draining = undefined;
    for (let item = queue.shift(); item && !d.closed; item = queue.shift()) fanOut(d, item.event, item.at);
  };
  return {
    publish(events) {
      if (d.closed) return;
      for (const event of events) queue.push({ event, at: d.clock.now() });
      draining ??= setImmediate(drain);
    },
    async close() {
      d.closed = true;
      if (draining) clearImmediate(draining);
      for (const t of d.timers) clearTimeout(t);
      d.timers.clear();
      queue.length = 0;
      await Promise.allSettled([...d.inFlight]);
      if (d.agent) await (await d.agent).close();
    },
  };
}

/** A notification in the shape of a subscription's api_version (the version table's olderEvent). */
function inVersion(db: Db, envelope: Envelope, apiVersion: string): Envelope {
  const object = envelope.data.object;
  if (object === undefined) return envelope;
  const shaped = structuredClone(object);
  versionShape(apiVersion).event(envelope.type, shaped, { db, merchantId: envelope.merchant_id });
  return { ...envelope, data: { ...envelope.data, object: shaped } };
}
