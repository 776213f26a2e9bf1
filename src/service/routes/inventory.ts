import type { RouteTable } from "../context.js";

/** The inventory operations. */
export const inventoryRoutes: RouteTable = {};
