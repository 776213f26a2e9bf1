import type { RouteTable } from "../context.js";
import type { ExtraRoute } from "../server.js";
import type { ExtraDeps } from "./extra.js";

/** The OAuth token operations. */
export const oauthRoutes: RouteTable = {};

/** `GET /oauth2/authorize`: the consent step, approved at once for the demo seller. */
export function oauthExtraRoutes(_deps: ExtraDeps): Record<string, ExtraRoute> {
  return {};
}
