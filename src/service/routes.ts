import { cashDrawerRoutes } from "./cash-drawers/routes.js";
import { catalogRoutes } from "./catalog/routes.js";
import type { ExtraDeps, ExtraRoute, RouteTable } from "./context.js";
import { customersRoutes } from "./customers/routes.js";
import { directoryRoutes } from "./directory/routes.js";
import { giftCardRoutes } from "./gift-cards/routes.js";
import { inventoryRoutes } from "./inventory/routes.js";
import { laborRoutes } from "./labor/routes.js";
import { oauthExtraRoutes, oauthRoutes } from "./oauth/routes.js";
import { payoutsRoutes } from "./payouts/routes.js";
import { laidOutFirst } from "./seed/deferred.js";
import { v1Routes } from "./v1/routes.js";
import { webhookExtraRoutes, webhooksRoutes } from "./webhooks/routes.js";

/** Every rule of the interface, by operation name. */
export const allRoutes: RouteTable = {
  ...oauthRoutes,
  ...directoryRoutes,
  ...laborRoutes,
  ...customersRoutes,
  ...catalogRoutes,
  ...inventoryRoutes,
  // The drawers', payouts' and V1 histories may be left to their first use (seed/deferred.ts).
  ...laidOutFirst("drawers", cashDrawerRoutes),
  ...laidOutFirst("payouts", payoutsRoutes),
  ...giftCardRoutes,
  ...webhooksRoutes,
  ...laidOutFirst("v1", v1Routes),
};

/** Routes outside the contract: the OAuth consent page and the webhook delivery log. */
export function extraRoutes(deps: ExtraDeps): Record<string, ExtraRoute> {
  return { ...oauthExtraRoutes(deps), ...webhookExtraRoutes(deps) };
}
