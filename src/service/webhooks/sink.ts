import type { ServiceClock } from "../clock.js";
import type { Db } from "../db.js";
import type { EventSink } from "../events.js";

/** Builds the webhook delivery for committed events. */
export function createWebhookSink(_deps: { db: Db; clock: ServiceClock }): EventSink {
  return { publish() {} };
}
