import type { RouteTable } from "../context.js";

/** The payouts operations. */
export const payoutsRoutes: RouteTable = {};
