import type { RouteTable } from "../context.js";

/** The v1 operations. */
export const v1Routes: RouteTable = {};
