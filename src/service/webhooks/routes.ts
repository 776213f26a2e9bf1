import { randomBytes, randomUUID } from "node:crypto";
import {
  type ExtraDeps,
  type ExtraRoute,
  type HandlerResult,
  merchantOf,
  type RequestContext,
  type RouteTable,
} from "../context.js";
import { pageByOffset } from "../cursor.js";
import { invalid, notFound } from "../errors.js";
import { pageLimit, sortOrder } from "../params.js";
import { DEMO } from "../seed/demo-ids.js";
import { isKnownVersion } from "../versions/known.js";
import { dataTypeOf, eventTypesFor } from "./event-types.js";
import { envelopeOf, newAgent, postNotification } from "./notify.js";
import {
  getSubscription,
  listDeliveries,
  listSubscriptions,
  recordDelivery,
  type Subscription,
  saveSubscription,
  toWire,
} from "./repo.js";

/** How long testWebhookSubscription waits for the receiver. */
const TEST_TIMEOUT_MS = 10_000;

/**
 * The application that owns the caller's subscriptions. A personal access token belongs to no
 * OAuth application; its subscriptions are the demo application's, as the seller's own app.
 */
function appOf(ctx: RequestContext): string {
  return ctx.auth?.clientId ?? DEMO.clientId;
}

/** A new signature key: a secret, so from the OS's generator, never from the seeded ids. */
const newSignatureKey = (): string => randomBytes(16).toString("base64url");

/** A released Square-Version (versions/known.ts): what a subscription's notifications are shaped by. */
function apiVersion(value: unknown, field: string): string {
  if (typeof value !== "string" || !isKnownVersion(value)) {
    throw invalid("INVALID_VALUE", `${field} must be a released API version (YYYY-MM-DD).`, field);
  }
  return value;
}

function notificationUrl(value: unknown, field: string): string {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw invalid("INVALID_VALUE", `${field} must be an absolute http or https URL.`, field);
  }
  // Kept exactly as given: the receiver signs-checks against the URL it registered.
  return value as string;
}

function eventTypes(value: unknown, version: string, field: string): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid("ARRAY_EMPTY", `${field} must name at least one event type.`, field);
  }
  const known = new Set(eventTypesFor(version).map((e) => e.type));
  for (const t of value) {
    if (typeof t !== "string" || !known.has(t)) {
      throw invalid("INVALID_VALUE", `${JSON.stringify(t)} is not an event type of API version ${version}.`, field);
    }
  }
  return [...new Set(value as string[])];
}

/** The caller's subscription, or 404 (another application's is as good as absent). */
function owned(ctx: RequestContext): Subscription {
  const id = ctx.path.subscription_id ?? "";
  const sub = getSubscription(ctx.db, id);
  if (!sub || sub.clientId !== appOf(ctx)) throw notFound(`Subscription ${id} not found.`);
  return sub;
}

/** A plausible object for a test notification of an event type. */
function sampleObject(eventType: string, id: string, at: string): Record<string, unknown> {
  if (eventType === "inventory.count.updated") {
    return {
      catalog_object_id: id,
      catalog_object_type: "ITEM_VARIATION",
      state: "IN_STOCK",
      location_id: DEMO.mainLocationId,
      quantity: "1",
      calculated_at: at,
    };
  }
  return { id, created_at: at, updated_at: at };
}

/** The webhooks operations. */
export const webhooksRoutes: RouteTable = {
  ListWebhookEventTypes: (ctx) => {
    const version = apiVersion(ctx.query.api_version ?? ctx.squareVersion, "api_version");
    const types = eventTypesFor(version);
    return {
      body: {
        event_types: types.map((e) => e.type),
        metadata: types.map((e) => ({
          event_type: e.type,
          api_version_introduced: e.introduced,
          release_status: e.releaseStatus,
        })),
      },
    };
  },

  ListWebhookSubscriptions: (ctx) => {
    const includeDisabled = ctx.query.include_disabled === true;
    const order = sortOrder(ctx.query.sort_order, "ASC");
    const limit = pageLimit(ctx.query.limit, { max: 100, def: 100 });
    const app = appOf(ctx);
    const all = listSubscriptions(ctx.db, app, { includeDisabled, order });
    const page = pageByOffset(ctx.op.name, all, { app, includeDisabled, order }, ctx.query.cursor, limit);
    return {
      body: {
        subscriptions: page.items.map((s) => toWire(s)),
        ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
      },
    };
  },

  CreateWebhookSubscription: (ctx) => {
    const req = ctx.body;
    const s = req.subscription;
    const version = apiVersion(s.api_version ?? ctx.squareVersion, "subscription.api_version");
    if (s.notification_url === undefined) {
      throw invalid(
        "MISSING_REQUIRED_PARAMETER",
        "subscription.notification_url is required.",
        "subscription.notification_url",
      );
    }
    const now = ctx.now.toISOString();
    const sub: Subscription = {
      id: `wbhk_${ctx.ids.next(32).toLowerCase()}`,
      clientId: appOf(ctx),
      ownerMerchantId: ctx.auth?.clientId === null ? merchantOf(ctx) : null,
      enabled: s.enabled ?? true,
      eventTypes: eventTypes(s.event_types, version, "subscription.event_types"),
      notificationUrl: notificationUrl(s.notification_url, "subscription.notification_url"),
      apiVersion: version,
      signatureKey: newSignatureKey(),
      name: s.name ?? null,
      createdAt: now,
      updatedAt: now,
    };
    saveSubscription(ctx.db, sub);
    return { body: { subscription: toWire(sub, true) } };
  },

  // As the service does: one subscription comes with its signature key (a list never does), so a
  // receiver can be set up from the subscription's id.
  RetrieveWebhookSubscription: (ctx) => ({ body: { subscription: toWire(owned(ctx), true) } }),

  UpdateWebhookSubscription: (ctx) => {
    const sub = owned(ctx);
    const s = ctx.body.subscription ?? {};
    const version =
      s.api_version === undefined ? sub.apiVersion : apiVersion(s.api_version, "subscription.api_version");
    const next: Subscription = {
      ...sub,
      apiVersion: version,
      eventTypes:
        s.event_types === undefined
          ? eventTypes(sub.eventTypes, version, "subscription.api_version")
          : eventTypes(s.event_types, version, "subscription.event_types"),
      ...(s.name === undefined ? {} : { name: s.name }),
      ...(s.enabled === undefined ? {} : { enabled: s.enabled }),
      ...(s.notification_url === undefined
        ? {}
        : { notificationUrl: notificationUrl(s.notification_url, "subscription.notification_url") }),
      updatedAt: ctx.now.toISOString(),
    };
    saveSubscription(ctx.db, next);
    return { body: { subscription: toWire(next) } };
  },

  DeleteWebhookSubscription: (ctx) => {
    const sub = owned(ctx);
    ctx.db.prepare("DELETE FROM webhook_subscriptions WHERE id = ?").run(sub.id);
    return { body: {} };
  },

  UpdateWebhookSubscriptionSignatureKey: (ctx) => {
    const sub = owned(ctx);
    const next = { ...sub, signatureKey: newSignatureKey(), updatedAt: ctx.now.toISOString() };
    saveSubscription(ctx.db, next);
    return { body: { signature_key: next.signatureKey } };
  },

  TestWebhookSubscription: (ctx) => {
    const sub = owned(ctx);
    const req = ctx.body;
    const type = req.event_type ?? sub.eventTypes[0];
    if (type === undefined || !sub.eventTypes.includes(type)) {
      throw invalid("INVALID_VALUE", `The subscription does not listen for ${JSON.stringify(type)}.`, "event_type");
    }
    const at = ctx.now.toISOString();
    const dataId = ctx.ids.next(22);
    const envelope = envelopeOf(
      {
        type,
        merchantId: merchantOf(ctx),
        locationId: DEMO.mainLocationId,
        dataType: dataTypeOf(type),
        dataId,
        object: sampleObject(type, dataId, at),
      },
      ctx.now,
    );
    const payload = JSON.stringify(envelope);
    const { db } = ctx;
    const resultId = randomUUID();
    const after = async (): Promise<HandlerResult> => {
      // One agent per test, closed at once: nothing of it outlives the request.
      const agent = await newAgent({ connect: { timeout: TEST_TIMEOUT_MS } });
      try {
        const r = await postNotification({
          url: sub.notificationUrl,
          signatureKey: sub.signatureKey,
          body: payload,
          timeoutMs: TEST_TIMEOUT_MS,
          dispatcher: agent,
        });
        recordDelivery(db, {
          id: resultId,
          subscriptionId: sub.id,
          eventId: envelope.event_id,
          eventType: type,
          merchantId: envelope.merchant_id,
          attempt: 1,
          notificationUrl: sub.notificationUrl,
          statusCode: r.statusCode ?? null,
          error: r.error ?? null,
          outcome: "test",
          nextAttemptAt: null,
          retryDelayMs: null,
          durationMs: r.durationMs,
          createdAt: at,
          payload,
        });
        return {
          body: {
            subscription_test_result: {
              id: resultId,
              ...(r.statusCode === undefined ? {} : { status_code: r.statusCode }),
              payload,
              created_at: at,
              updated_at: at,
            },
          },
        };
      } finally {
        await agent.close();
      }
    };
    return { body: {}, after };
  },
};

/** `GET /_emulator/webhook-deliveries`: every delivery attempt, newest first, for inspection. */
export function webhookExtraRoutes(deps: ExtraDeps): Record<string, ExtraRoute> {
  return {
    "GET /_emulator/webhook-deliveries": (_req, url) => {
      const q = url.searchParams;
      const rawLimit = q.get("limit");
      const limit = pageLimit(rawLimit === null ? undefined : Number(rawLimit), { max: 1000, def: 100 });
      const rows = listDeliveries(deps.db, {
        limit,
        ...(q.get("subscription_id") ? { subscriptionId: q.get("subscription_id") as string } : {}),
        ...(q.get("event_type") ? { eventType: q.get("event_type") as string } : {}),
      });
      return {
        body: {
          deliveries: rows.map((d) => ({
            id: d.id,
            subscription_id: d.subscriptionId,
            event_id: d.eventId,
            event_type: d.eventType,
            merchant_id: d.merchantId,
            attempt: d.attempt,
            notification_url: d.notificationUrl,
            status_code: d.statusCode,
            error: d.error,
            outcome: d.outcome,
            next_attempt_at: d.nextAttemptAt,
            retry_delay_ms: d.retryDelayMs,
            duration_ms: d.durationMs,
            created_at: d.createdAt,
            payload: d.payload,
          })),
        },
      };
    },
  };
}
