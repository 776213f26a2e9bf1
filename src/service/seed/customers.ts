import type { SeedContext } from "./context.js";

/** Seeds the demo store's customers data. */
export function seedCustomers(_s: SeedContext): void {}
