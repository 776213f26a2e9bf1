import type { SeedContext } from "./context.js";

/** Seeds the demo store's gift-cards data. */
export function seedGiftCards(_s: SeedContext): void {}
