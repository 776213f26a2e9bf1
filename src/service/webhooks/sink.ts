import { randomUUID } from "node:crypto";
import { Agent } from "undici";
import type { ServiceClock } from "../clock.js";
import type { Db } from "../db.js";
import type { EventSink, ServiceEvent } from "../events.js";
import { versionShape } from "../versions/stage.js";
import { delivered, type Envelope, envelopeOf, postNotification } from "./notify.js";
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

/**
 * Real webhook delivery. `publish` only queues: the fan-out and the POSTs run after the response
 * has gone, so a slow or failing receiver never delays or fails a write. Each notification is
 * retried with exponential backoff up to `maxAttempts`; every attempt is logged in
 * `webhook_deliveries`. Each attempt reads the subscription again, so a replaced signature key,
 * a disabled or deleted subscription, or a revoked grant takes effect on the next attempt.
 */
export function createWebhookSink(opts: WebhookSinkOptions): EventSink {
  const { db, clock } = opts;
  const baseDelayMs = opts.baseDelayMs ?? 1000;
  const maxAttempts = opts.maxAttempts ?? 6;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const agent = new Agent({ keepAliveTimeout: 2000, connect: { timeout: timeoutMs } });
  const queue: { event: ServiceEvent; at: Date }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let draining: NodeJS.Immediate | undefined;
  let closed = false;

  const drain = () => {
    draining = undefined;
    for (let item = queue.shift(); item && !closed; item = queue.shift()) fanOut(item.event, item.at);
  };

  const fanOut = (event: ServiceEvent, at: Date) => {
    const subs = listeningSubscriptions(db, event.type).filter((s) => mayHear(db, s, event, at));
    if (subs.length === 0) return;
    const envelope = envelopeOf(event, at);
    // One body per api_version among the listeners: each subscription reads its own version's shape.
    const bodies = new Map<string, string>();
    for (const s of subs) {
      let body = bodies.get(s.apiVersion);
      if (body === undefined) {
        body = JSON.stringify(inVersion(db, envelope, s.apiVersion));
        bodies.set(s.apiVersion, body);
      }
      attempt(s.id, event, envelope.event_id, body, 1);
    }
  };

  const attempt = (subscriptionId: string, event: ServiceEvent, eventId: string, body: string, n: number) => {
    if (closed) return;
    const sub = getSubscription(db, subscriptionId);
    const base = {
      subscriptionId,
      eventId,
      eventType: event.type,
      merchantId: event.merchantId,
      attempt: n,
      payload: body,
    };
    if (!sub?.enabled || !mayHear(db, sub, event, clock.now())) {
      // Only a retry can get here; the subscription changed since the first attempt.
      recordDelivery(db, {
        ...base,
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
    const p = postNotification({ url, signatureKey: sub.signatureKey, body, timeoutMs, dispatcher: agent })
      .then((r) => {
        // The store stays open until close() has waited for this, so the attempt is still logged.
        const ok = delivered(r);
        const retry = !ok && n < maxAttempts && !closed;
        const delay = baseDelayMs * 2 ** (n - 1);
        recordDelivery(db, {
          ...base,
          id: randomUUID(),
          notificationUrl: url,
          statusCode: r.statusCode ?? null,
          error: r.error ?? null,
          outcome: ok ? "delivered" : retry ? "retrying" : "failed",
          nextAttemptAt: retry ? new Date(clock.now().getTime() + delay).toISOString() : null,
          retryDelayMs: retry ? delay : null,
          durationMs: r.durationMs,
          createdAt: startedAt.toISOString(),
        });
        if (retry) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            attempt(subscriptionId, event, eventId, body, n + 1);
          }, delay);
          timers.add(timer);
        }
      })
      .catch((err: unknown) => {
        // Logging the attempt failed (the store is going away): nothing more to do for it.
        if (!closed) console.error("backroom service: webhook delivery log failed", err);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  return {
    publish(events) {
      if (closed) return;
      for (const event of events) queue.push({ event, at: clock.now() });
      draining ??= setImmediate(drain);
    },
    async close() {
      closed = true;
      if (draining) clearImmediate(draining);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      queue.length = 0;
      await Promise.allSettled([...inFlight]);
      await agent.close();
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
