import type { SeedContext } from "./context.js";

/** Seeds the demo store's cash-drawers data. */
export function seedCashDrawers(_s: SeedContext): void {}
