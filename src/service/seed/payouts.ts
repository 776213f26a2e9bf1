import type { SeedContext } from "./context.js";

/** Seeds the demo store's payouts data. */
export function seedPayouts(_s: SeedContext): void {}
