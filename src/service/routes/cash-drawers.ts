import type { RouteTable } from "../context.js";

/** The cash-drawers operations. */
export const cashDrawerRoutes: RouteTable = {};
