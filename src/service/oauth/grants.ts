import { createHash } from "node:crypto";
import { ACCESS_TOKEN_LIFETIME_MS, RENEW_WINDOW_MS } from "../../domain/account.js";
import type { Db } from "../db.js";
import { invalid, unauthorized } from "../errors.js";
import { hashSecret, newSecret, storeToken, type TokenRow } from "../tokens.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How long things of the OAuth flow live, as the interface documents them. */
export const LIFETIMES = {
  /** An authorization code must be exchanged within five minutes. */
  codeMs: 5 * 60_000,
  // The app explains the same numbers on the account screen: one copy, in domain/account.ts.
  accessMs: ACCESS_TOKEN_LIFETIME_MS,
  shortLivedMs: DAY_MS,
  /**
   * A refresh token of a PKCE grant (no client secret) lasts 90 days and is single use; one of a
   * grant made with the client secret never expires and is handed back unchanged on refresh.
   */
  pkceRefreshMs: 90 * DAY_MS,
  /** renewToken still renews a token this long after it expired. */
  renewGraceMs: RENEW_WINDOW_MS,
} as const;

/** RFC 3339 without milliseconds, as the service writes token expiries. */
export const tokenTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The PKCE S256 transform: base64url(SHA-256(verifier)), unpadded. */
export const s256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url");

/** An application the service knows. */
export interface OAuthApp {
  client_id: string;
  secret_hash: string;
  name: string;
}

/** Looks an application up by its client id. */
function findApp(db: Db, clientId: string): OAuthApp | undefined {
  return db.prepare("SELECT client_id, secret_hash, name FROM oauth_apps WHERE client_id = ?").get(clientId) as
    | OAuthApp
    | undefined;
}

/** The application, or UNAUTHORIZED: an unknown client id is a failed authentication, not a 404. */
export function requireApp(db: Db, clientId: string): OAuthApp {
  const app = findApp(db, clientId);
  if (!app) throw unauthorized("UNAUTHORIZED", "The client_id is not a known application.");
  return app;
}

/** Whether `secret` is the application's secret (compared as hashes, never stored plain). */
export const secretMatches = (app: OAuthApp, secret: string): boolean => hashSecret(secret) === app.secret_hash;

/**
 * Authenticates `Authorization: Client <secret>` (renewToken, revokeToken) against the
 * application: a missing header or a wrong secret → 401 UNAUTHORIZED.
 */
export function authenticateClient(db: Db, header: string | undefined, clientId: string): OAuthApp {
  const secret = clientSecretOf(header);
  const app = requireApp(db, clientId);
  if (!secretMatches(app, secret)) throw unauthorized("UNAUTHORIZED", "The application secret is not valid.");
  return app;
}

/** The secret of `Authorization: Client <secret>`, or 401 UNAUTHORIZED when the header is not that. */
export function clientSecretOf(header: string | undefined): string {
  const m = /^Client\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) {
    throw unauthorized("UNAUTHORIZED", "Send the application secret as Authorization: Client <secret>.");
  }
  return m[1];
}

/** Scope names as stored on a token or code row. */
export const parseScopes = (json: string): string[] => JSON.parse(json) as string[];

/**
 * The scopes a new access token gets: the grant's, or the asked-for subset of them. Asking for a
 * scope the seller never granted is refused rather than silently dropped.
 */
export function narrowScopes(granted: readonly string[], asked: readonly string[] | undefined): string[] {
  if (asked === undefined || asked.length === 0) return [...granted];
  const extra = asked.filter((s) => !granted.includes(s));
  if (extra.length > 0) {
    throw invalid("INVALID_VALUE", `The grant does not include these scopes: ${extra.join(", ")}.`, "scopes");
  }
  return [...new Set(asked)];
}

/** What obtainToken answers; absent fields are omitted from the wire. */
export interface IssuedTokens {
  access_token: string;
  token_type: "bearer";
  expires_at: string;
  merchant_id: string;
  short_lived: boolean;
  refresh_token?: string;
  refresh_token_expires_at?: string;
}

/**
 * Mints an access token (30 days, or 24 hours when short-lived) and, unless short-lived, a
 * refresh token for the same grant. A refresh token that is still good may be handed back
 * instead of a new one (`keepRefresh`).
 */
export function issueTokens(
  db: Db,
  g: {
    merchantId: string;
    clientId: string;
    /** Scopes of the new access token. */
    scopes: readonly string[];
    /** Scopes of the grant, which a refresh token keeps whatever the access token was narrowed to. */
    grantScopes: readonly string[];
    now: Date;
    shortLived: boolean;
    /** True for a grant made with the client secret: its refresh token never expires. */
    confidential: boolean;
    keepRefresh?: { token: string; expiresAt: string | null };
  },
): IssuedTokens {
  const accessToken = newSecret("EAAA");
  const expiresAt = new Date(g.now.getTime() + (g.shortLived ? LIFETIMES.shortLivedMs : LIFETIMES.accessMs));
  storeToken(db, {
    token: accessToken,
    kind: "access",
    merchantId: g.merchantId,
    clientId: g.clientId,
    scopes: g.scopes,
    now: g.now,
    expiresAt,
    shortLived: g.shortLived,
  });
  const out: IssuedTokens = {
    access_token: accessToken,
    token_type: "bearer",
    expires_at: tokenTime(expiresAt),
    merchant_id: g.merchantId,
    short_lived: g.shortLived,
  };
  if (g.shortLived) return out;
  if (g.keepRefresh) {
    out.refresh_token = g.keepRefresh.token;
    if (g.keepRefresh.expiresAt) out.refresh_token_expires_at = tokenTime(new Date(g.keepRefresh.expiresAt));
    return out;
  }
  const refreshToken = newSecret("EQAA");
  const refreshExpires = g.confidential ? null : new Date(g.now.getTime() + LIFETIMES.pkceRefreshMs);
  storeToken(db, {
    token: refreshToken,
    kind: "refresh",
    merchantId: g.merchantId,
    clientId: g.clientId,
    scopes: g.grantScopes,
    now: g.now,
    expiresAt: refreshExpires,
  });
  out.refresh_token = refreshToken;
  if (refreshExpires) out.refresh_token_expires_at = tokenTime(refreshExpires);
  return out;
}

/** Marks one token revoked (by hash). */
export function revokeOne(db: Db, hash: string, now: Date): void {
  db.prepare("UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL").run(now.toISOString(), hash);
}

/**
 * Ends the whole authorization of a seller for an application: every access and refresh token,
 * and any code not yet exchanged. Returns how many tokens were still live.
 */
export function revokeGrant(db: Db, merchantId: string, clientId: string, now: Date): number {
  const at = now.toISOString();
  const r = db
    .prepare("UPDATE tokens SET revoked_at = ? WHERE merchant_id = ? AND client_id = ? AND revoked_at IS NULL")
    .run(at, merchantId, clientId);
  db.prepare("UPDATE auth_codes SET used_at = ? WHERE merchant_id = ? AND client_id = ? AND used_at IS NULL").run(
    at,
    merchantId,
    clientId,
  );
  return r.changes;
}

/** Whether a token row has expired at `now`. */
export const isExpired = (row: Pick<TokenRow, "expires_at">, now: Date): boolean =>
  row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime();
