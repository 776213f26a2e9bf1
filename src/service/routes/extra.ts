import type { ServiceClock } from "../clock.js";
import type { Db } from "../db.js";
import type { EventSink } from "../events.js";
import type { ExtraRoute } from "../server.js";
import { oauthExtraRoutes } from "./oauth.js";
import { webhookExtraRoutes } from "./webhooks.js";

/** What the routes outside the contract may use. */
export interface ExtraDeps {
  db: Db;
  clock: ServiceClock;
  events: EventSink;
}

/** Routes outside the contract: the OAuth consent page and the webhook delivery log. */
export function extraRoutes(deps: ExtraDeps): Record<string, ExtraRoute> {
  return { ...oauthExtraRoutes(deps), ...webhookExtraRoutes(deps) };
}
