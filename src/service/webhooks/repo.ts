import type { WebhookSubscription } from "../../spec/generated/types.js";
import { type Db, limitSql } from "../db.js";

/** A subscription row as stored. */
export interface SubscriptionRow {
  id: string;
  client_id: string;
  owner_merchant_id: string | null;
  enabled: number;
  event_types: string;
  notification_url: string;
  api_version: string;
  signature_key: string;
  name: string | null;
  created_at: string;
  updated_at: string;
}

/** A subscription ready to deliver to. */
export interface Subscription {
  id: string;
  clientId: string;
  ownerMerchantId: string | null;
  enabled: boolean;
  eventTypes: string[];
  notificationUrl: string;
  apiVersion: string;
  signatureKey: string;
  name: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Reads a row into a subscription. */
function fromRow(r: SubscriptionRow): Subscription {
  return {
    id: r.id,
    clientId: r.client_id,
    ownerMerchantId: r.owner_merchant_id,
    enabled: r.enabled === 1,
    eventTypes: JSON.parse(r.event_types) as string[],
    notificationUrl: r.notification_url,
    apiVersion: r.api_version,
    signatureKey: r.signature_key,
    name: r.name,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The wire form; the signature key only where the interface hands it out (create, retrieve). */
export function toWire(s: Subscription, withKey = false): WebhookSubscription {
  return {
    id: s.id,
    ...(s.name === null ? {} : { name: s.name }),
    enabled: s.enabled,
    event_types: s.eventTypes,
    notification_url: s.notificationUrl,
    api_version: s.apiVersion,
    ...(withKey ? { signature_key: s.signatureKey } : {}),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

/** One subscription by id, whoever owns it. */
export function getSubscription(db: Db, id: string): Subscription | undefined {
  const r = db.prepare("SELECT * FROM webhook_subscriptions WHERE id = ?").get(id) as SubscriptionRow | undefined;
  return r ? fromRow(r) : undefined;
}

/** Stores a subscription, or replaces the stored one with the same id. */
export function saveSubscription(db: Db, s: Subscription): void {
  db.prepare(
    `INSERT INTO webhook_subscriptions (id, client_id, owner_merchant_id, enabled, event_types, notification_url,
       api_version, signature_key, name, created_at, updated_at)
     VALUES (@id, @client_id, @owner_merchant_id, @enabled, @event_types, @notification_url, @api_version,
       @signature_key, @name, @created_at, @updated_at)
     ON CONFLICT(id) DO UPDATE SET enabled = excluded.enabled, event_types = excluded.event_types,
       notification_url = excluded.notification_url, api_version = excluded.api_version,
       signature_key = excluded.signature_key, name = excluded.name, updated_at = excluded.updated_at`,
  ).run({
    id: s.id,
    client_id: s.clientId,
    owner_merchant_id: s.ownerMerchantId,
    enabled: s.enabled ? 1 : 0,
    event_types: JSON.stringify(s.eventTypes),
    notification_url: s.notificationUrl,
    api_version: s.apiVersion,
    signature_key: s.signatureKey,
    name: s.name,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  });
}

/** An application's subscriptions, by creation time. */
export function listSubscriptions(
  db: Db,
  clientId: string,
  opts: { includeDisabled: boolean; order: "ASC" | "DESC" },
): Subscription[] {
  const rows = db
    .prepare(
      `SELECT * FROM webhook_subscriptions WHERE client_id = ? ${opts.includeDisabled ? "" : "AND enabled = 1"}
       ORDER BY created_at ${opts.order}, id ${opts.order}`,
    )
    .all(clientId) as SubscriptionRow[];
  return rows.map(fromRow);
}

/** The enabled subscriptions that listen for an event type, across applications. */
export function listeningSubscriptions(db: Db, eventType: string): Subscription[] {
  const rows = db
    .prepare(
      `SELECT s.* FROM webhook_subscriptions s
       WHERE s.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(s.event_types) WHERE json_each.value = ?)
       ORDER BY s.created_at, s.id`,
    )
    .all(eventType) as SubscriptionRow[];
  return rows.map(fromRow);
}

/**
 * Whether a seller has an application's live grant: an unrevoked refresh token, or an unrevoked
 * access token that has not expired. Revoking the grant revokes them all.
 */
export function hasLiveGrant(db: Db, merchantId: string, clientId: string, now: Date): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM tokens WHERE merchant_id = ? AND client_id = ? AND revoked_at IS NULL
           AND kind IN ('access', 'refresh') AND (kind = 'refresh' OR expires_at IS NULL OR expires_at > ?) LIMIT 1`,
      )
      .get(merchantId, clientId, now.toISOString()) !== undefined
  );
}

/** One delivery attempt, as logged. */
export interface DeliveryRecord {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  merchantId: string;
  attempt: number;
  notificationUrl: string;
  statusCode: number | null;
  error: string | null;
  outcome: "delivered" | "retrying" | "failed" | "abandoned" | "test";
  nextAttemptAt: string | null;
  retryDelayMs: number | null;
  durationMs: number;
  createdAt: string;
  payload: string;
}

/** Logs one attempt. */
export function recordDelivery(db: Db, d: DeliveryRecord): void {
  db.prepare(
    `INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, merchant_id, attempt, notification_url,
       status_code, error, outcome, next_attempt_at, retry_delay_ms, duration_ms, created_at, payload)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    d.id,
    d.subscriptionId,
    d.eventId,
    d.eventType,
    d.merchantId,
    d.attempt,
    d.notificationUrl,
    d.statusCode,
    d.error,
    d.outcome,
    d.nextAttemptAt,
    d.retryDelayMs,
    d.durationMs,
    d.createdAt,
    d.payload,
  );
}

/** The delivery log, newest first, optionally for one subscription or one event type. */
export function listDeliveries(
  db: Db,
  filter: { subscriptionId?: string; eventType?: string; limit: number },
): DeliveryRecord[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filter.subscriptionId) {
    where.push("subscription_id = ?");
    args.push(filter.subscriptionId);
  }
  if (filter.eventType) {
    where.push("event_type = ?");
    args.push(filter.eventType);
  }
  const rows = db
    .prepare(
      `SELECT * FROM webhook_deliveries ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, seq DESC LIMIT ${limitSql(filter.limit)}`,
    )
    .all(...args) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: r.id as string,
    subscriptionId: r.subscription_id as string,
    eventId: r.event_id as string,
    eventType: r.event_type as string,
    merchantId: r.merchant_id as string,
    attempt: r.attempt as number,
    notificationUrl: r.notification_url as string,
    statusCode: r.status_code as number | null,
    error: r.error as string | null,
    outcome: r.outcome as DeliveryRecord["outcome"],
    nextAttemptAt: r.next_attempt_at as string | null,
    retryDelayMs: r.retry_delay_ms as number | null,
    durationMs: r.duration_ms as number,
    createdAt: r.created_at as string,
    payload: r.payload as string,
  }));
}
