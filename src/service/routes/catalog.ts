import type { RouteTable } from "../context.js";

/** The catalog operations. */
export const catalogRoutes: RouteTable = {};
