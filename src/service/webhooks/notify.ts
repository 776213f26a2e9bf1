import { randomUUID } from "node:crypto";
import type { Agent, Dispatcher } from "undici";
import { signWebhook } from "../../domain/webhook-signature.js";
import type { ServiceEvent } from "../events.js";

/** The notification body every subscription of an event receives. */
export interface Envelope {
  merchant_id: string;
  location_id?: string;
  type: string;
  event_id: string;
  created_at: string;
  data: { type: string; id: string; deleted?: boolean; object?: Record<string, unknown> };
}

/**
 * The notification of an event. The real service nests the object under a key named after the
 * data type (`data.object.shift`); an emitter that already wrapped it that way is taken as is.
 */
export function envelopeOf(e: ServiceEvent, at: Date, eventId: string = randomUUID()): Envelope {
  const wrapped =
    e.object === undefined
      ? undefined
      : Object.keys(e.object).length === 1 && e.dataType in e.object
        ? e.object
        : { [e.dataType]: e.object };
  return {
    merchant_id: e.merchantId,
    ...(e.locationId === undefined ? {} : { location_id: e.locationId }),
    type: e.type,
    event_id: eventId,
    created_at: at.toISOString(),
    data: {
      type: e.dataType,
      id: e.dataId,
      ...(e.deleted ? { deleted: true } : {}),
      ...(wrapped === undefined ? {} : { object: wrapped }),
    },
  };
}

/** What one POST to a notification URL came to. */
export interface PostResult {
  /** The receiver's status, when it answered at all. */
  statusCode?: number;
  /** Why there was no answer (refused, timed out, ...). */
  error?: string;
  durationMs: number;
}

/** Whether the receiver accepted the notification. */
export const delivered = (r: PostResult): boolean =>
  r.statusCode !== undefined && r.statusCode >= 200 && r.statusCode < 300;

/**
 * An HTTP agent for deliveries. undici is loaded on the first one: a service that delivers no
 * webhook does not pay for loading it at start-up.
 */
export async function newAgent(options: ConstructorParameters<typeof Agent>[0]): Promise<Agent> {
  const { Agent: LoadedAgent } = await import("./undici-parts.js");
  return new LoadedAgent(options);
}

/**
 * POSTs a signed notification. Never throws: a refused connection or a timeout is a result, the
 * same as a 500, because either way the delivery is retried.
 */
export async function postNotification(opts: {
  url: string;
  signatureKey: string;
  body: string;
  timeoutMs: number;
  dispatcher: Dispatcher;
}): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { request } = await import("./undici-parts.js");
    const res = await request(opts.url, {
      method: "POST",
      dispatcher: opts.dispatcher,
      headers: {
        "content-type": "application/json",
        "user-agent": "backroom-local-webhooks/1.0",
        "x-square-hmacsha256-signature": signWebhook(opts.signatureKey, opts.url, opts.body),
      },
      body: opts.body,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    // The receiver's answer is not used, but it must be read so the connection can be reused.
    await res.body.dump();
    return { statusCode: res.statusCode, durationMs: elapsed() };
  } catch (err) {
    const e = err as { code?: string; name?: string; message?: string };
    return { error: e.code ?? e.name ?? e.message ?? "request failed", durationMs: elapsed() };
  }
}
