import type { RouteTable } from "../context.js";

/** The gift-cards operations. */
export const giftCardRoutes: RouteTable = {};
