// Keeping a session's token current: the refresh with `grant_type=refresh_token` (one request for
// concurrent callers), the access token handed to the transport (refreshed first when it expires
// soon), the transport's word that it expired, and the deprecated RenewToken within its 15 days.
import { REFRESH_WITHIN_MS, RENEW_WINDOW_MS } from "../domain/account.js";
import type * as T from "../spec/generated/types.js";
import { SquareApiError } from "../square/index.js";
import { expiresAt, type SessionCore } from "./session-core.js";
import {
  RenewableExpiryError,
  RenewWindowError,
  type Session,
  SIGN_IN_AGAIN,
  SignedOutError,
} from "./session-types.js";
import type { StoredTokens } from "./token-store.js";

/**
 * After ObtainToken refused the refresh: another backroom (the app and a command, say) may have
 * refreshed first and used up the refresh token, and its result is in the store. Returns that
 * token when so; otherwise signs out, saying why, and throws.
 */
async function refusedRefresh(core: SessionCore, t: StoredTokens, err: SquareApiError): Promise<string> {
  const { opts, clock } = core;
  const stored = await opts.store.load(t.environment).catch(() => null);
  if (stored && stored.access_token !== t.access_token && expiresAt(stored) > clock.now()) {
    core.set({ status: "signed-in", tokens: stored, source: opts.store.kind });
    return stored.access_token;
  }
  const why = core.describe(err);
  await core.signOut(`You were signed out: renewing the sign-in failed (${why}). ${SIGN_IN_AGAIN}`);
  throw core.signedOut(why);
}

/** Refreshes with the refresh token and keeps the new tokens; offline failures go to the caller. */
async function doRefresh(core: SessionCore): Promise<string> {
  const { opts } = core;
  const t = core.tokens();
  if (!t) throw core.signedOut();
  const clientId = opts.clientId ?? t.client_id;
  if (!t.refresh_token || !clientId) {
    throw new SignedOutError(
      `This sign-in cannot be renewed (${t.refresh_token ? "no application id is known" : "it has no refresh token"}). ${SIGN_IN_AGAIN}`,
    );
  }
  let res: T.ObtainTokenResponse;
  try {
    res = await opts.oauth.obtainToken({
      client_id: clientId,
      grant_type: "refresh_token",
      refresh_token: t.refresh_token,
      ...(opts.clientSecret ? { client_secret: opts.clientSecret } : {}),
    });
  } catch (err) {
    if (!(err instanceof SquareApiError)) throw err; // offline: the caller decides
    return refusedRefresh(core, t, err);
  }
  if (!res.access_token) {
    await core.signOut(`You were signed out: the service renewed the sign-in without a token. ${SIGN_IN_AGAIN}`);
    throw new SignedOutError(`The service renewed the sign-in without a token. ${SIGN_IN_AGAIN}`);
  }
  const next: StoredTokens = {
    ...t,
    access_token: res.access_token,
    // A refresh may hand out a new refresh token (PKCE ones are single-use); keep the old otherwise.
    ...(res.refresh_token ? { refresh_token: res.refresh_token } : {}),
    ...(res.expires_at ? { expires_at: res.expires_at } : {}),
    ...(res.refresh_token_expires_at ? { refresh_token_expires_at: res.refresh_token_expires_at } : {}),
    ...(res.merchant_id ? { merchant_id: res.merchant_id } : {}),
  };
  const source = core.source() ?? opts.store.kind;
  await opts.store.save(next);
  core.set({ status: "signed-in", tokens: next, source });
  return next.access_token;
}

/**
 * An expired token without a refresh token: kept (and refused with when) while RenewToken can
 * still renew it; an environment token is the environment's to replace; otherwise signed out.
 */
async function expired(core: SessionCore, t: StoredTokens): Promise<never> {
  const when = t.expires_at ?? "";
  if (core.renewable(t)) {
    // Signing out would delete the one thing RenewToken can still renew.
    throw new RenewableExpiryError(
      `The sign-in expired on ${when}. It can be renewed until ${new Date(expiresAt(t) + RENEW_WINDOW_MS).toISOString()} on the account screen with the application secret; otherwise run \`backroom login\` to sign in again.`,
    );
  }
  if (core.source() === "env") {
    throw new SignedOutError(`BACKROOM_ACCESS_TOKEN expired on ${when}; set a current token.`);
  }
  await core.signOut(`You were signed out: the access token expired on ${when}${core.tooLate(t)}. ${SIGN_IN_AGAIN}`);
  throw core.signedOut("Signed out.");
}

/** Renews with the deprecated RenewToken (needs the application secret), within its 15-day window. */
async function renew(core: SessionCore, clientSecret: string): Promise<void> {
  const { opts, clock } = core;
  const t = core.tokens();
  if (!t) throw core.signedOut();
  const clientId = opts.clientId ?? t.client_id;
  if (!clientId)
    throw new RenewWindowError("Renewing needs the application id (--client-id or applicationId in config).");
  if (!clientSecret)
    throw new RenewWindowError("Renewing with RenewToken needs the application secret (--client-secret).");
  if (clock.now() - expiresAt(t) > RENEW_WINDOW_MS) {
    throw new RenewWindowError(
      `The token expired more than 15 days ago (on ${t.expires_at}), too late for RenewToken. ${SIGN_IN_AGAIN}`,
    );
  }
  const res = await opts.oauth.renewToken(clientId, { access_token: t.access_token }, { clientSecret });
  if (!res.access_token) throw new RenewWindowError("The service renewed the token without returning one.");
  const next: StoredTokens = {
    ...t,
    access_token: res.access_token,
    ...(res.expires_at ? { expires_at: res.expires_at } : {}),
  };
  await opts.store.save(next);
  core.set({ status: "signed-in", tokens: next, source: core.source() ?? opts.store.kind });
}

/** The session's part that keeps the token current: refresh, access token, expiry, renew. */
export function tokenRefresh(core: SessionCore): Pick<Session, "accessToken" | "onExpired" | "refresh" | "renew"> {
  const within = core.opts.refreshWithinMs ?? REFRESH_WITHIN_MS;
  let inflight: Promise<string> | null = null;
  const refresh = (): Promise<string> => {
    inflight ??= doRefresh(core).finally(() => {
      inflight = null;
    });
    return inflight;
  };
  return {
    refresh,
    async accessToken() {
      if (inflight) return inflight;
      const t = core.tokens();
      if (!t) throw core.signedOut();
      const left = expiresAt(t) - core.clock.now();
      if (left > within) return t.access_token;
      if (t.refresh_token) {
        try {
          return await refresh();
        } catch (err) {
          // Offline while the old token still works: use it and try again on the next call.
          if (!(err instanceof SignedOutError) && left > 0) return t.access_token;
          throw err;
        }
      }
      return left <= 0 ? expired(core, t) : t.access_token;
    },
    async onExpired() {
      const t = core.tokens();
      if (!t) return undefined;
      if (!t.refresh_token) {
        if (core.source() !== "env" && !core.renewable(t)) {
          await core.signOut(
            `You were signed out: the service says the access token has expired${core.tooLate(t)}. ${SIGN_IN_AGAIN}`,
          );
        }
        return undefined;
      }
      try {
        return await refresh();
      } catch (err) {
        if (err instanceof SignedOutError) return undefined;
        throw err;
      }
    },
    renew: (clientSecret) => renew(core, clientSecret),
  };
}
