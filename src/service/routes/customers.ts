import type { RouteTable } from "../context.js";

/** The customers operations. */
export const customersRoutes: RouteTable = {};
