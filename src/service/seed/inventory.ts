import type { SeedContext } from "./context.js";

/** Seeds the demo store's inventory data. */
export function seedInventory(_s: SeedContext): void {}
