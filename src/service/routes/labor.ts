import type { RouteTable } from "../context.js";

/** The labor operations. */
export const laborRoutes: RouteTable = {};
