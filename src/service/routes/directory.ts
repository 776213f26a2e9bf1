import type { RouteTable } from "../context.js";

/** The directory operations. */
export const directoryRoutes: RouteTable = {};
