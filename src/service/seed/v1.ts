import type { SeedContext } from "./context.js";

/** Seeds the demo store's v1 data. */
export function seedV1(_s: SeedContext): void {}
