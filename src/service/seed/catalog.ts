import type { SeedContext } from "./context.js";

/** Seeds the demo store's catalog data. */
export function seedCatalog(_s: SeedContext): void {}
