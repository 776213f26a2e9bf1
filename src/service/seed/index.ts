import { seedCatalog } from "../catalog/seed.js";
import { seedCustomers } from "../customers/seed.js";
import type { Db } from "../db.js";
import { seedDirectory } from "../directory/seed.js";
import { seedGiftCards } from "../gift-cards/seed.js";
import { seededIds } from "../ids.js";
import { seedInventory } from "../inventory/seed.js";
import { seedLabor } from "../labor/seed.js";
import { ALL_SCOPES, hashSecret, storeToken } from "../tokens.js";
import { seedWebhooks } from "../webhooks/seed.js";
import type { SeedContext } from "./context.js";
import { seedArea } from "./deferred.js";
import { DEMO } from "./demo-ids.js";
import { rng } from "./random.js";
import { SANDBOX, seedSandbox } from "./sandbox.js";

/**
 * Which store to lay out: the demo shop; only the seller with its locations; or a store as a new
 * sandbox account has it (one location, the owner, a small catalog).
 */
export type SeedKind = "demo" | "empty" | "sandbox";

/** Every seed, for flags and help. */
export const SEED_KINDS: readonly SeedKind[] = ["demo", "empty", "sandbox"];

/** The credentials the store is opened with; they are stored hashed. */
export interface SeedCredentials {
  accessToken: string;
  clientId: string;
  clientSecret: string;
}

/** How a store is laid out. */
export interface SeedOptions {
  /**
   * Leave the histories that can wait (cash drawers, payouts, V1) to their first use
   * (seed/deferred.ts): for a store that is not kept as an image, so that it starts sooner.
   */
  defer?: boolean;
}

/**
 * Lays out a store in an empty database: the seller, the OAuth application, then each area in
 * dependency order (directory first: locations and team members are what the others point at).
 */
export function seedStore(db: Db, kind: SeedKind, scale: number, now: Date, opts: SeedOptions = {}): void {
  const random = rng(20_261_122);
  const s: SeedContext = { db, rng: random, ids: seededIds(random), now, scale, merchantId: DEMO.merchantId };
  db.transaction(() => {
    const sandbox = kind === "sandbox";
    db.prepare(
      "INSERT INTO merchants (id, business_name, country, language_code, currency, main_location_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(
      DEMO.merchantId,
      sandbox ? SANDBOX.businessName : DEMO.businessName,
      DEMO.country,
      "en-US",
      DEMO.currency,
      sandbox ? SANDBOX.locationId : DEMO.mainLocationId,
      sandbox ? SANDBOX.created : "2019-04-02T14:00:00.000Z",
    );
    if (sandbox) {
      seedSandbox(s);
      return;
    }
    seedDirectory(s);
    if (kind === "empty") return;
    seedLabor(s);
    seedCustomers(s);
    seedInventory(s, seedCatalog(s));
    // These histories are fixed spans of time (30 days of drawers, a year of payouts and V1
    // payments): `scale` grows the benchmarked volumes (customers, catalog and stock, shifts),
    // not the length of history.
    const fixed = { ...s, scale: 1 };
    // Histories a session may never read: laid out now, or on their first use (seed/deferred.ts).
    const defer = opts.defer === true;
    seedArea(fixed, "drawers", defer);
    seedArea(fixed, "payouts", defer);
    seedGiftCards(fixed);
    seedWebhooks(fixed);
    seedArea(fixed, "v1", defer);
  })();
}

/**
 * Makes the given credentials valid: the application (its secret replaced by this one) and the
 * seller's personal token with every scope, which never expires, like the sandbox's own.
 */
export function installCredentials(db: Db, c: SeedCredentials, now: Date): void {
  db.transaction(() => {
    db.prepare(
      "INSERT INTO oauth_apps (client_id, secret_hash, name) VALUES (?, ?, ?) ON CONFLICT(client_id) DO UPDATE SET secret_hash = excluded.secret_hash",
    ).run(c.clientId, hashSecret(c.clientSecret), DEMO.appName);
    const known = db.prepare("SELECT 1 FROM tokens WHERE hash = ?").get(hashSecret(c.accessToken));
    if (!known) {
      storeToken(db, {
        token: c.accessToken,
        kind: "personal",
        merchantId: DEMO.merchantId,
        clientId: null,
        scopes: ALL_SCOPES,
        now,
        expiresAt: null,
      });
    }
  })();
}

/** Whether the database already holds a store. */
export function isSeeded(db: Db): boolean {
  return db.prepare("SELECT 1 FROM merchants LIMIT 1").get() !== undefined;
}
