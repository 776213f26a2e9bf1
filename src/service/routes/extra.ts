import type { ExtraDeps, ExtraRoute } from "../context.js";
import { oauthExtraRoutes } from "./oauth.js";
import { webhookExtraRoutes } from "./webhooks.js";

/** Routes outside the contract: the OAuth consent page and the webhook delivery log. */
export function extraRoutes(deps: ExtraDeps): Record<string, ExtraRoute> {
  return { ...oauthExtraRoutes(deps), ...webhookExtraRoutes(deps) };
}
