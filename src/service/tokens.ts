import { createHash, randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import type { AuthInfo } from "./context.js";
import { type Db, plucked } from "./db.js";
import { insufficientScopes, unauthorized } from "./errors.js";

/** Every OAuth permission the demo seller's personal token carries. */
export const ALL_SCOPES = [
  "BANK_ACCOUNTS_READ",
  "CASH_DRAWER_READ",
  "CUSTOMERS_READ",
  "CUSTOMERS_WRITE",
  "EMPLOYEES_READ",
  "EMPLOYEES_WRITE",
  "GIFTCARDS_READ",
  "GIFTCARDS_WRITE",
  "INVENTORY_READ",
  "INVENTORY_WRITE",
  "ITEMS_READ",
  "ITEMS_WRITE",
  "MERCHANT_PROFILE_READ",
  "ORDERS_READ",
  "ORDERS_WRITE",
  "PAYMENTS_READ",
  "PAYMENTS_WRITE",
  "PAYOUTS_READ",
  "SETTLEMENTS_READ",
  "TIMECARDS_READ",
  "TIMECARDS_WRITE",
  "TIMECARDS_SETTINGS_READ",
  "TIMECARDS_SETTINGS_WRITE",
] as const;

/** Tokens and secrets are kept only as this hash. */
export const hashSecret = (value: string): string => createHash("sha256").update(value).digest("hex");

/** A new random secret with the service's kind of prefix (`EAAA` access, `EQAA` refresh). */
export const newSecret = (prefix: string): string => `${prefix}${randomBytes(36).toString("base64url")}`;

/** What a stored token row holds. */
export interface TokenRow {
  hash: string;
  kind: "access" | "refresh" | "personal";
  merchant_id: string;
  client_id: string | null;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  short_lived: number;
}

/** Stores a token (hashed) and returns nothing of it but what the caller already has. */
export function storeToken(
  db: Db,
  t: {
    token: string;
    kind: TokenRow["kind"];
    merchantId: string;
    clientId: string | null;
    scopes: readonly string[];
    now: Date;
    expiresAt: Date | null;
    shortLived?: boolean;
  },
): void {
  db.prepare(
    `INSERT INTO tokens (hash, kind, merchant_id, client_id, scopes, created_at, expires_at, revoked_at, short_lived)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
  ).run(
    hashSecret(t.token),
    t.kind,
    t.merchantId,
    t.clientId,
    JSON.stringify([...t.scopes]),
    t.now.toISOString(),
    t.expiresAt ? t.expiresAt.toISOString() : null,
    t.shortLived ? 1 : 0,
  );
}

/** Looks up a token by its plain value. */
export function findToken(db: Db, token: string): TokenRow | undefined {
  return db.prepare("SELECT * FROM tokens WHERE hash = ?").get(hashSecret(token)) as TokenRow | undefined;
}

/**
 * The tokens each request presents, remembered while no token has changed: every call presents
 * its token, and few calls change one. A write to the tokens table on this connection (however it
 * is made: a grant, a revocation, a reset's delete) is counted by a temporary trigger, and a commit
 * of another connection on the same file changes data_version; either forgets them all, so a
 * revoked or replaced token is never answered from here.
 */
interface Presented {
  /** Writes to the tokens table on this connection, counted by its trigger. */
  writes: { n: number };
  /** `PRAGMA data_version`, its one value plucked. */
  dataVersion: Database.Statement;
  /** The count of writes and the data version the remembered rows were read at. */
  seenWrites: number;
  seenVersion: unknown;
  rows: Map<string, TokenRow | undefined>;
}

const presented = new WeakMap<Db, Presented>();
const MAX_REMEMBERED = 100;

function presentedOf(db: Db): Presented {
  let seen = presented.get(db);
  if (!seen) {
    const writes = { n: 0 };
    // Not deterministic, and called from triggers: neither option may be set.
    db.function("backroom_token_written", () => {
      writes.n++;
      return null;
    });
    for (const event of ["INSERT", "UPDATE", "DELETE"]) {
      db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS backroom_token_${event.toLowerCase()} AFTER ${event} ON main.tokens
         BEGIN SELECT backroom_token_written(); END`,
      );
    }
    const dataVersion = plucked(db, "PRAGMA data_version");
    seen = { writes, dataVersion, seenWrites: -1, seenVersion: undefined, rows: new Map() };
    presented.set(db, seen);
  }
  return seen;
}

function presentedToken(db: Db, token: string): TokenRow | undefined {
  const seen = presentedOf(db);
  const version: unknown = seen.dataVersion.get();
  if (seen.seenVersion !== version || seen.seenWrites !== seen.writes.n || seen.rows.size >= MAX_REMEMBERED) {
    seen.rows.clear();
    seen.seenVersion = version;
    seen.seenWrites = seen.writes.n;
  }
  if (seen.rows.has(token)) return seen.rows.get(token);
  const row = findToken(db, token);
  seen.rows.set(token, row);
  return row;
}

/**
 * Resolves `Authorization: Bearer <token>` to the caller, or refuses: missing or unknown →
 * UNAUTHORIZED, revoked → ACCESS_TOKEN_REVOKED, expired → ACCESS_TOKEN_EXPIRED.
 */
export function authenticate(db: Db, header: string | undefined, now: Date): AuthInfo {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) {
    throw unauthorized(
      "UNAUTHORIZED",
      "This request could not be authorized: send Authorization: Bearer <access token>.",
    );
  }
  const row = presentedToken(db, m[1]);
  if (!row || row.kind === "refresh") throw unauthorized("UNAUTHORIZED", "The access token is not recognised.");
  if (row.revoked_at) throw unauthorized("ACCESS_TOKEN_REVOKED", "The access token has been revoked.");
  if (row.expires_at && new Date(row.expires_at).getTime() <= now.getTime()) {
    throw unauthorized("ACCESS_TOKEN_EXPIRED", "The access token has expired.");
  }
  return { merchantId: row.merchant_id, clientId: row.client_id, scopes: scopeSet(row.scopes), tokenHash: row.hash };
}

/** Scope sets by their stored text: a service sees a handful of distinct ones, on every request. */
const scopeSets = new Map<string, ReadonlySet<string>>();

function scopeSet(stored: string): ReadonlySet<string> {
  let set = scopeSets.get(stored);
  if (!set) {
    if (scopeSets.size >= 100) scopeSets.clear();
    set = new Set(JSON.parse(stored) as string[]);
    scopeSets.set(stored, set);
  }
  return set;
}

/** Refuses a caller that lacks any of the operation's scopes. */
export function requireScopes(auth: AuthInfo, needed: readonly string[]): void {
  const missing = needed.filter((s) => !auth.scopes.has(s));
  if (missing.length > 0) {
    throw insufficientScopes(`The access token lacks the scopes this operation needs: ${missing.join(", ")}.`);
  }
}
