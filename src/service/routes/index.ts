import type { RouteTable } from "../context.js";
import { cashDrawerRoutes } from "./cash-drawers.js";
import { catalogRoutes } from "./catalog.js";
import { customersRoutes } from "./customers.js";
import { directoryRoutes } from "./directory.js";
import { giftCardRoutes } from "./gift-cards.js";
import { inventoryRoutes } from "./inventory.js";
import { laborRoutes } from "./labor.js";
import { oauthRoutes } from "./oauth.js";
import { payoutsRoutes } from "./payouts.js";
import { v1Routes } from "./v1.js";
import { webhooksRoutes } from "./webhooks.js";

/** Every rule of the interface, by operation name. */
export const allRoutes: RouteTable = {
  ...oauthRoutes,
  ...directoryRoutes,
  ...laborRoutes,
  ...customersRoutes,
  ...catalogRoutes,
  ...inventoryRoutes,
  ...cashDrawerRoutes,
  ...payoutsRoutes,
  ...giftCardRoutes,
  ...webhooksRoutes,
  ...v1Routes,
};
