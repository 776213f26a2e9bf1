import type { SeedContext } from "./context.js";

/** Seeds the demo store's directory data. */
export function seedDirectory(_s: SeedContext): void {}
