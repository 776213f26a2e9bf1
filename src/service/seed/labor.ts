import type { SeedContext } from "./context.js";

/** Seeds the demo store's labor data. */
export function seedLabor(_s: SeedContext): void {}
