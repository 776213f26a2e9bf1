import type { SeedContext } from "./context.js";

/** Seeds the demo store's webhooks data. */
export function seedWebhooks(_s: SeedContext): void {}
