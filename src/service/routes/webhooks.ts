import type { RouteTable } from "../context.js";
import type { ExtraRoute } from "../server.js";
import type { ExtraDeps } from "./extra.js";

/** The webhooks operations. */
export const webhooksRoutes: RouteTable = {};

/** `GET /_emulator/webhook-deliveries`: every delivery attempt, for inspection. */
export function webhookExtraRoutes(_deps: ExtraDeps): Record<string, ExtraRoute> {
  return {};
}
