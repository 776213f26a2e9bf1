import type * as T from "../../spec/generated/types.js";
import type { ExtraDeps, ExtraRoute, Handler, RequestContext, RouteTable } from "../context.js";
import { badRequest, invalid, notFound, unauthorized } from "../errors.js";
import { DEMO } from "../seed/demo-ids.js";
import { ALL_SCOPES, findToken, hashSecret, newSecret, storeToken } from "../tokens.js";
import {
  authenticateClient,
  isExpired,
  issueTokens,
  LIFETIMES,
  narrowScopes,
  type OAuthApp,
  parseScopes,
  requireApp,
  revokeGrant,
  revokeOne,
  s256,
  secretMatches,
  tokenTime,
} from "./grants.js";

const header = (ctx: RequestContext, name: string): string | undefined => {
  const v = ctx.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const required = (value: string | undefined, field: string): string => {
  if (value === undefined || value === "") {
    throw invalid("MISSING_REQUIRED_PARAMETER", `Field must be set: ${field}.`, field);
  }
  return value;
};

/** Checks an optional client_secret in the body; a wrong one is refused, never ignored. */
function checkBodySecret(app: OAuthApp, secret: string | undefined): boolean {
  if (secret === undefined || secret === "") return false;
  if (!secretMatches(app, secret)) throw unauthorized("UNAUTHORIZED", "The client_secret is not valid.");
  return true;
}

interface CodeRow {
  hash: string;
  client_id: string;
  merchant_id: string;
  scopes: string;
  redirect_uri: string | null;
  code_challenge: string | null;
  expires_at: string;
  used_at: string | null;
}

/**
 * authorization_code: the code must be ours, for this application, unused and under five
 * minutes old; the caller proves itself with the client secret or the PKCE verifier.
 */
function exchangeCode(ctx: RequestContext, app: OAuthApp, b: T.ObtainTokenRequest) {
  const code = required(b.code, "code");
  const hasSecret = checkBodySecret(app, b.client_secret);
  const verifier = b.code_verifier;
  if (!hasSecret && (verifier === undefined || verifier === "")) {
    throw invalid(
      "MISSING_REQUIRED_PARAMETER",
      "Send client_secret, or code_verifier for a PKCE authorization.",
      "client_secret",
    );
  }
  const row = ctx.db.prepare("SELECT * FROM auth_codes WHERE hash = ?").get(hashSecret(code)) as CodeRow | undefined;
  if (!row || row.client_id !== app.client_id) {
    throw unauthorized("UNAUTHORIZED", "The authorization code is not recognised.");
  }
  if (row.used_at) throw unauthorized("UNAUTHORIZED", "The authorization code was already redeemed.");
  if (new Date(row.expires_at).getTime() <= ctx.now.getTime()) {
    throw unauthorized("UNAUTHORIZED", "The authorization code has expired; authorize again.");
  }
  if (b.redirect_uri && row.redirect_uri && b.redirect_uri !== row.redirect_uri) {
    throw invalid("INVALID_VALUE", "redirect_uri does not match the one the code was issued for.", "redirect_uri");
  }
  if (verifier !== undefined && verifier !== "") {
    if (!row.code_challenge) {
      throw unauthorized("UNAUTHORIZED", "The authorization code was not issued with a code_challenge.");
    }
    if (s256(verifier) !== row.code_challenge) {
      throw unauthorized("UNAUTHORIZED", "The code_verifier does not match the code_challenge.");
    }
  }
  ctx.db.prepare("UPDATE auth_codes SET used_at = ? WHERE hash = ?").run(ctx.now.toISOString(), row.hash);
  const grant = parseScopes(row.scopes);
  return issueTokens(ctx.db, {
    merchantId: row.merchant_id,
    clientId: app.client_id,
    scopes: narrowScopes(grant, b.scopes),
    grantScopes: grant,
    now: ctx.now,
    shortLived: b.short_lived === true,
    confidential: hasSecret,
  });
}

/**
 * refresh_token: a live refresh token of this application gives a new access token with the
 * grant's scopes (or fewer). A PKCE refresh token is single use and is replaced; a confidential
 * one is handed back as it is.
 */
function exchangeRefresh(ctx: RequestContext, app: OAuthApp, b: T.ObtainTokenRequest) {
  const token = required(b.refresh_token, "refresh_token");
  const hasSecret = checkBodySecret(app, b.client_secret);
  const row = findToken(ctx.db, token);
  if (row?.kind !== "refresh" || row.client_id !== app.client_id) {
    throw unauthorized("UNAUTHORIZED", "The refresh token is not recognised.");
  }
  if (row.revoked_at) throw unauthorized("ACCESS_TOKEN_REVOKED", "The refresh token has been revoked.");
  if (isExpired(row, ctx.now)) throw unauthorized("ACCESS_TOKEN_EXPIRED", "The refresh token has expired.");
  const confidential = row.expires_at === null;
  if (confidential && !hasSecret) {
    throw invalid(
      "MISSING_REQUIRED_PARAMETER",
      "This grant was made with the client secret; send it.",
      "client_secret",
    );
  }
  const grant = parseScopes(row.scopes);
  const scopes = narrowScopes(grant, b.scopes);
  if (!confidential) revokeOne(ctx.db, row.hash, ctx.now);
  return issueTokens(ctx.db, {
    merchantId: row.merchant_id,
    clientId: app.client_id,
    scopes,
    grantScopes: grant,
    now: ctx.now,
    shortLived: b.short_lived === true,
    confidential,
    ...(confidential ? { keepRefresh: { token, expiresAt: null } } : {}),
  });
}

/**
 * migration_token: trades a legacy (long-lived) access token of this application for a 30-day
 * token and a refresh token. Only callers on a Square-Version before 2019-03-13 get here (the
 * version table, versions/table.ts, refuses the others).
 */
function exchangeMigration(ctx: RequestContext, app: OAuthApp, b: T.ObtainTokenRequest) {
  const token = required(b.migration_token, "migration_token");
  if (!checkBodySecret(app, b.client_secret)) {
    throw invalid("MISSING_REQUIRED_PARAMETER", "Send the client_secret to migrate a token.", "client_secret");
  }
  const row = findToken(ctx.db, token);
  if (row?.kind !== "access" || row.client_id !== app.client_id) {
    throw unauthorized("UNAUTHORIZED", "The migration token is not recognised.");
  }
  if (row.revoked_at) throw unauthorized("ACCESS_TOKEN_REVOKED", "The migration token has been revoked.");
  if (isExpired(row, ctx.now)) throw unauthorized("ACCESS_TOKEN_EXPIRED", "The migration token has expired.");
  revokeOne(ctx.db, row.hash, ctx.now);
  const grant = parseScopes(row.scopes);
  return issueTokens(ctx.db, {
    merchantId: row.merchant_id,
    clientId: app.client_id,
    scopes: narrowScopes(grant, b.scopes),
    grantScopes: grant,
    now: ctx.now,
    shortLived: false,
    confidential: true,
  });
}

const obtainToken: Handler<"ObtainToken"> = (ctx) => {
  const b = ctx.body;
  const app = requireApp(ctx.db, b.client_id);
  switch (b.grant_type) {
    case "authorization_code":
      return { body: exchangeCode(ctx, app, b) };
    case "refresh_token":
      return { body: exchangeRefresh(ctx, app, b) };
    case "migration_token":
      return { body: exchangeMigration(ctx, app, b) };
    default:
      throw invalid(
        "INVALID_VALUE",
        "grant_type must be authorization_code, refresh_token or migration_token.",
        "grant_type",
      );
  }
};

/**
 * renewToken (deprecated): an access token of this application that is still valid or expired
 * less than 15 days ago is replaced by a new 30-day token; the old one stops working.
 */
const renewToken: Handler<"RenewToken"> = (ctx) => {
  const clientId = ctx.path.client_id ?? "";
  const app = authenticateClient(ctx.db, header(ctx, "authorization"), clientId);
  const b = ctx.body;
  const token = required(b.access_token, "access_token");
  const row = findToken(ctx.db, token);
  if (row?.kind !== "access" || row.client_id !== app.client_id) {
    throw unauthorized("UNAUTHORIZED", "The access token is not recognised for this application.");
  }
  if (row.revoked_at) throw unauthorized("ACCESS_TOKEN_REVOKED", "The access token has been revoked.");
  if (row.expires_at && new Date(row.expires_at).getTime() + LIFETIMES.renewGraceMs < ctx.now.getTime()) {
    throw unauthorized(
      "ACCESS_TOKEN_EXPIRED",
      "The access token expired more than 15 days ago and can no longer be renewed; authorize again.",
    );
  }
  revokeOne(ctx.db, row.hash, ctx.now);
  const next = newSecret("EAAA");
  const expiresAt = new Date(ctx.now.getTime() + LIFETIMES.accessMs);
  storeToken(ctx.db, {
    token: next,
    kind: "access",
    merchantId: row.merchant_id,
    clientId: app.client_id,
    scopes: parseScopes(row.scopes),
    now: ctx.now,
    expiresAt,
  });
  const body: T.RenewTokenResponse = {
    access_token: next,
    token_type: "bearer",
    expires_at: tokenTime(expiresAt),
    merchant_id: row.merchant_id,
  };
  return { body };
};

/**
 * revokeToken: ends the seller's authorization of the application — every access and refresh
 * token, whichever one identifies it — and tells the application by webhook. With
 * `revoke_only_access_token`, only the given access token ends.
 */
const revokeToken: Handler<"RevokeToken"> = (ctx) => {
  const b = ctx.body;
  const clientId = required(b.client_id, "client_id");
  const app = authenticateClient(ctx.db, header(ctx, "authorization"), clientId);
  const hasToken = b.access_token !== undefined && b.access_token !== "";
  const hasMerchant = b.merchant_id !== undefined && b.merchant_id !== "";
  if (hasToken && hasMerchant) {
    throw invalid("CONFLICTING_PARAMETERS", "Send access_token or merchant_id, not both.", "merchant_id");
  }
  if (!hasToken && !hasMerchant) {
    throw invalid("MISSING_REQUIRED_PARAMETER", "Send access_token or merchant_id.", "access_token");
  }
  let merchantId: string;
  if (hasToken) {
    const row = findToken(ctx.db, b.access_token ?? "");
    if (!row || row.kind === "personal" || row.client_id !== app.client_id) {
      throw notFound("The access token is not one this application holds.");
    }
    merchantId = row.merchant_id;
    if (b.revoke_only_access_token === true) {
      if (row.kind !== "access") throw badRequest("revoke_only_access_token needs an access token.", "access_token");
      revokeOne(ctx.db, row.hash, ctx.now);
      return { body: { success: true } satisfies T.RevokeTokenResponse };
    }
  } else {
    if (b.revoke_only_access_token === true) {
      throw invalid(
        "CONFLICTING_PARAMETERS",
        "revoke_only_access_token needs access_token, not merchant_id.",
        "revoke_only_access_token",
      );
    }
    merchantId = b.merchant_id ?? "";
    const known = ctx.db
      .prepare("SELECT 1 FROM tokens WHERE merchant_id = ? AND client_id = ? LIMIT 1")
      .get(merchantId, app.client_id);
    if (!known) throw notFound("This application holds no authorization of that merchant.");
  }
  revokeGrant(ctx.db, merchantId, app.client_id, ctx.now);
  ctx.emit({
    type: "oauth.authorization.revoked",
    merchantId,
    dataType: "revocation",
    dataId: ctx.ids.next(),
    clientId: app.client_id,
    object: { revocation: { revoked_at: ctx.now.toISOString(), revoker_type: "APPLICATION" } },
  });
  return { body: { success: true } satisfies T.RevokeTokenResponse };
};

/** retrieveTokenStatus: what the bearer token may do, until when, for whom. */
const retrieveTokenStatus: Handler = (ctx) => {
  const auth = ctx.auth;
  if (!auth) throw unauthorized("UNAUTHORIZED", "Send Authorization: Bearer <access token>.");
  const row = ctx.db.prepare("SELECT expires_at FROM tokens WHERE hash = ?").get(auth.tokenHash) as
    | { expires_at: string | null }
    | undefined;
  // A personal token belongs to the seller's own application, as the sandbox's does.
  const clientId =
    auth.clientId ??
    (
      ctx.db.prepare("SELECT client_id FROM oauth_apps ORDER BY rowid LIMIT 1").get() as
        | { client_id: string }
        | undefined
    )?.client_id;
  const body: T.RetrieveTokenStatusResponse = {
    scopes: [...auth.scopes],
    ...(row?.expires_at ? { expires_at: tokenTime(new Date(row.expires_at)) } : {}),
    ...(clientId ? { client_id: clientId } : {}),
    merchant_id: auth.merchantId,
  };
  return { body };
};

/** The OAuth token operations. */
export const oauthRoutes: RouteTable = {
  ObtainToken: obtainToken,
  RenewToken: renewToken,
  RevokeToken: revokeToken,
  RetrieveTokenStatus: retrieveTokenStatus,
};

const KNOWN_SCOPES: ReadonlySet<string> = new Set(ALL_SCOPES);

/**
 * `GET /oauth2/authorize`: the consent step, approved at once for the demo seller. Redirects to
 * `redirect_uri` with a single-use `code` (stored hashed, valid five minutes) and the `state`.
 * `session=false` (always a fresh sign-in on the real service) changes nothing here.
 */
export function oauthExtraRoutes(deps: ExtraDeps): Record<string, ExtraRoute> {
  const authorize: ExtraRoute = (_req, url) => {
    const q = url.searchParams;
    const param = (name: string) => {
      const v = q.get(name);
      if (v === null || v === "")
        throw invalid("MISSING_REQUIRED_PARAMETER", `Query parameter must be set: ${name}.`, name);
      return v;
    };
    const clientId = param("client_id");
    const app = deps.db.prepare("SELECT client_id FROM oauth_apps WHERE client_id = ?").get(clientId);
    if (!app) throw invalid("INVALID_VALUE", "client_id is not a known application.", "client_id");
    const redirectUri = param("redirect_uri");
    let target: URL;
    try {
      target = new URL(redirectUri);
    } catch {
      throw invalid("INVALID_VALUE", "redirect_uri must be an absolute URL.", "redirect_uri");
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      throw invalid("INVALID_VALUE", "redirect_uri must be an http or https URL.", "redirect_uri");
    }
    // URLSearchParams already turns '+' into a space; both separators are accepted.
    const scopes = [
      ...new Set(
        param("scope")
          .split(/[\s+]+/)
          .filter((s) => s !== ""),
      ),
    ];
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (unknown.length > 0) throw invalid("INVALID_VALUE", `Unknown scopes: ${unknown.join(", ")}.`, "scope");
    const challenge = q.get("code_challenge");
    const method = q.get("code_challenge_method");
    if (challenge) {
      if (method !== "S256") {
        throw invalid("INVALID_VALUE", "code_challenge_method must be S256.", "code_challenge_method");
      }
      if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
        throw invalid("INVALID_VALUE", "code_challenge must be an unpadded base64url SHA-256.", "code_challenge");
      }
    }
    const now = deps.clock.now();
    const code = newSecret("sq0cgp-");
    deps.db
      .prepare(
        `INSERT INTO auth_codes (hash, client_id, merchant_id, scopes, redirect_uri, code_challenge, expires_at, used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
      )
      .run(
        hashSecret(code),
        clientId,
        DEMO.merchantId,
        JSON.stringify(scopes),
        redirectUri,
        challenge || null,
        new Date(now.getTime() + LIFETIMES.codeMs).toISOString(),
      );
    target.searchParams.set("code", code);
    target.searchParams.set("response_type", "code");
    const state = q.get("state");
    if (state !== null) target.searchParams.set("state", state);
    return { status: 302, body: undefined, headers: { location: target.toString(), "cache-control": "no-store" } };
  };
  return { "GET /oauth2/authorize": authorize };
}
