// The numbers live with the account's rules in domain/; the session applies them.
import { REFRESH_WITHIN_MS, RENEW_WINDOW_MS } from "../domain/account.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, TokenProvider } from "../square/index.js";
import { SquareApiError, SquareError } from "../square/index.js";
import type { Environment } from "./config.js";
import { maskToken, redact } from "./mask.js";
import type { StoredTokens, TokenStore } from "./token-store.js";

/** The OAuth operations a session needs; `client.oauth` of the client module fits. */
export interface OAuthApi {
  obtainToken(body: T.ObtainTokenRequest, o?: RequestOptions): Promise<T.ObtainTokenResponse>;
  renewToken(clientId: string, body: T.RenewTokenRequest, o?: RequestOptions): Promise<T.RenewTokenResponse>;
  revokeToken(body: T.RevokeTokenRequest, o?: RequestOptions): Promise<T.RevokeTokenResponse>;
  retrieveTokenStatus(o?: RequestOptions): Promise<T.RetrieveTokenStatusResponse>;
}

/** Reads the time in milliseconds; the global `Date` fits. */
export interface Clock {
  now(): number;
}

/** Where the token of a signed-in session came from. */
export type TokenSource = "keychain" | "memory" | "env" | "local-demo";

/** Signed in (with which tokens, from where) or signed out (with why, and what to do). */
export type SessionState =
  | { status: "signed-in"; tokens: StoredTokens; source: TokenSource }
  | { status: "signed-out"; reason: string };

/** The caller is not signed in; `message` says why and what to do. Safe to show as is. */
export class SignedOutError extends SquareError {
  override name = "SignedOutError";
}

/** Renewing with RenewToken is refused: too late, no secret, or no application id. */
export class RenewWindowError extends SquareError {
  override name = "RenewWindowError";
}

/**
 * An OAuth token without a refresh token has expired, but less than 15 days ago: the sign-in is
 * kept (the deprecated RenewToken can still renew it), and every call fails with this until then.
 */
export class RenewableExpiryError extends SignedOutError {
  override name = "RenewableExpiryError";
}

const SIGN_IN_AGAIN = "Run `backroom login` to sign in again.";

/** Options of {@link createSession}. */
export interface SessionOptions {
  oauth: OAuthApi;
  store: TokenStore;
  environment: Environment;
  /** Application id for refreshes; defaults to the one stored with the tokens. */
  clientId?: string;
  /** Only for sign-ins made without PKCE: the refresh then needs the application secret. */
  clientSecret?: string;
  clock?: Clock;
  refreshWithinMs?: number;
  /** `BACKROOM_ACCESS_TOKEN`: used as is, never stored, never refreshed. */
  envToken?: string;
}

/** What `backroom status` and the status bar show. No token, only its last four characters. */
export interface SessionStatus {
  signedIn: boolean;
  environment: Environment;
  merchantId?: string;
  scopes?: string[];
  expiresAt?: string;
  kind?: string;
  tokenHint?: string;
  storage: string;
  reason?: string;
}

/** The signed-in state of one environment, and the token provider of the client. */
export interface Session extends TokenProvider {
  /** Reads the sign-in (environment variable first, then the store). */
  load(): Promise<SessionState>;
  state(): SessionState;
  /** A valid access token, refreshed first when it expires within a week; throws {@link SignedOutError}. */
  accessToken(): Promise<string>;
  /** Called by the transport on `ACCESS_TOKEN_EXPIRED`: refresh once, or sign out. */
  onExpired(): Promise<string | undefined>;
  /** Refreshes now with `grant_type=refresh_token`; concurrent callers share one request. */
  refresh(): Promise<string>;
  /** Renews with the deprecated RenewToken (needs the application secret), within its 15-day window. */
  renew(clientSecret: string): Promise<void>;
  /** Stores a new sign-in and makes it current. */
  signIn(tokens: StoredTokens, source?: TokenSource): Promise<void>;
  /** Forgets the sign-in locally; `reason` is what the user is told. */
  signOut(reason: string): Promise<void>;
  /** Revokes at the service (when a secret is given), then forgets locally whatever happened. */
  logout(opts: { clientSecret?: string | undefined }): Promise<{ revoked: boolean; ok: boolean; message: string }>;
  /** Signs out when an error says the token was revoked; true when it did. */
  noticeError(err: unknown): Promise<boolean>;
  /** For the transport: the service answered `ACCESS_TOKEN_REVOKED`, so the sign-in is over. */
  onRevoked(): Promise<void>;
  status(): SessionStatus;
  describeStorage(): string;
  subscribe(listener: (state: SessionState) => void): () => void;
}

/** Builds a session over an injected OAuth API, token store and clock. */
export function createSession(opts: SessionOptions): Session {
  const clock = opts.clock ?? Date;
  const within = opts.refreshWithinMs ?? REFRESH_WITHIN_MS;
  const listeners = new Set<(state: SessionState) => void>();
  let state: SessionState = { status: "signed-out", reason: `Not signed in. Run \`backroom login\` to sign in.` };
  let inflight: Promise<string> | null = null;

  const set = (next: SessionState) => {
    state = next;
    for (const l of listeners) l(next);
  };
  const tokens = () => (state.status === "signed-in" ? state.tokens : null);
  const sourceOf = () => (state.status === "signed-in" ? state.source : undefined);
  const expiresAt = (t: StoredTokens) => (t.expires_at ? Date.parse(t.expires_at) : Number.POSITIVE_INFINITY);
  // An expired OAuth token without a refresh token that RenewToken still accepts.
  const renewable = (t: StoredTokens) =>
    t.kind === "oauth" && !t.refresh_token && sourceOf() !== "env" && clock.now() - expiresAt(t) <= RENEW_WINDOW_MS;
  // Why an expired OAuth token is not kept for the deprecated renew: its 15 days are over.
  const tooLate = (t: StoredTokens) =>
    t.kind === "oauth" && clock.now() - expiresAt(t) > RENEW_WINDOW_MS
      ? ", more than 15 days ago (too late to renew)"
      : "";
  const secrets = () => {
    const t = tokens();
    return [t?.access_token, t?.refresh_token, opts.envToken, opts.clientSecret];
  };
  const describe = (err: unknown) => {
    const text =
      err instanceof SquareApiError
        ? `${err.code}${err.errors[0]?.detail ? `: ${err.errors[0].detail}` : ""}`
        : err instanceof Error
          ? err.message
          : String(err);
    return redact(text, secrets());
  };

  async function signOut(reason: string): Promise<void> {
    const t = tokens();
    const source = state.status === "signed-in" ? state.source : undefined;
    set({ status: "signed-out", reason });
    if (t && (source === "keychain" || source === "memory")) {
      try {
        await opts.store.remove(t.environment, t.merchant_id);
      } catch {
        // The sign-in is already forgotten in this process; a keychain that fails now will be
        // overwritten by the next sign-in.
      }
    }
  }

  async function doRefresh(): Promise<string> {
    const t = tokens();
    if (!t) throw new SignedOutError(state.status === "signed-out" ? state.reason : "Not signed in.");
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
      // Another backroom (the app and a command, say) may have refreshed first and used up the
      // refresh token; its result is in the store.
      const stored = await opts.store.load(t.environment).catch(() => null);
      if (stored && stored.access_token !== t.access_token && expiresAt(stored) > clock.now()) {
        set({ status: "signed-in", tokens: stored, source: opts.store.kind });
        return stored.access_token;
      }
      const why = describe(err);
      await signOut(`You were signed out: renewing the sign-in failed (${why}). ${SIGN_IN_AGAIN}`);
      throw new SignedOutError(state.status === "signed-out" ? state.reason : why);
    }
    if (!res.access_token) {
      await signOut(`You were signed out: the service renewed the sign-in without a token. ${SIGN_IN_AGAIN}`);
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
    const source = state.status === "signed-in" ? state.source : opts.store.kind;
    await opts.store.save(next);
    set({ status: "signed-in", tokens: next, source });
    return next.access_token;
  }

  function refresh(): Promise<string> {
    if (!inflight) {
      inflight = doRefresh().finally(() => {
        inflight = null;
      });
    }
    return inflight;
  }

  const session: Session = {
    async load() {
      if (opts.envToken) {
        set({
          status: "signed-in",
          source: "env",
          tokens: { environment: opts.environment, kind: "personal", access_token: opts.envToken, merchant_id: "" },
        });
        return state;
      }
      const stored = await opts.store.load(opts.environment);
      if (stored) set({ status: "signed-in", tokens: stored, source: opts.store.kind });
      return state;
    },
    state: () => state,
    async accessToken() {
      if (inflight) return inflight;
      const t = tokens();
      if (!t) throw new SignedOutError(state.status === "signed-out" ? state.reason : "Not signed in.");
      const left = expiresAt(t) - clock.now();
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
      if (left <= 0) {
        const when = t.expires_at ?? "";
        if (renewable(t)) {
          // Signing out would delete the one thing RenewToken can still renew.
          throw new RenewableExpiryError(
            `The sign-in expired on ${when}. It can be renewed until ${new Date(expiresAt(t) + RENEW_WINDOW_MS).toISOString()} on the account screen with the application secret; otherwise run \`backroom login\` to sign in again.`,
          );
        }
        if (sourceOf() === "env") {
          throw new SignedOutError(`BACKROOM_ACCESS_TOKEN expired on ${when}; set a current token.`);
        }
        await signOut(`You were signed out: the access token expired on ${when}${tooLate(t)}. ${SIGN_IN_AGAIN}`);
        throw new SignedOutError(state.status === "signed-out" ? state.reason : "Signed out.");
      }
      return t.access_token;
    },
    async onExpired() {
      const t = tokens();
      if (!t) return undefined;
      if (!t.refresh_token) {
        if (sourceOf() !== "env" && !renewable(t)) {
          await signOut(
            `You were signed out: the service says the access token has expired${tooLate(t)}. ${SIGN_IN_AGAIN}`,
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
    refresh,
    async renew(clientSecret) {
      const t = tokens();
      if (!t) throw new SignedOutError(state.status === "signed-out" ? state.reason : "Not signed in.");
      const clientId = opts.clientId ?? t.client_id;
      if (!clientId)
        throw new RenewWindowError("Renewing needs the application id (--client-id or applicationId in config).");
      if (!clientSecret)
        throw new RenewWindowError("Renewing with RenewToken needs the application secret (--client-secret).");
      const late = clock.now() - expiresAt(t);
      if (late > RENEW_WINDOW_MS) {
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
      set({ status: "signed-in", tokens: next, source: state.status === "signed-in" ? state.source : opts.store.kind });
    },
    async signIn(t, source) {
      if (source !== "local-demo" && source !== "env") await opts.store.save(t);
      set({ status: "signed-in", tokens: t, source: source ?? opts.store.kind });
    },
    signOut,
    async logout({ clientSecret }) {
      const t = tokens();
      if (!t) return { revoked: false, ok: true, message: "Not signed in; nothing to sign out of." };
      const source = state.status === "signed-in" ? state.source : undefined;
      if (source === "env") {
        return {
          revoked: false,
          ok: false,
          message: "The token comes from BACKROOM_ACCESS_TOKEN; unset that variable to sign out.",
        };
      }
      const where = source === "keychain" ? "removed from the OS keychain" : "forgotten";
      if (t.kind === "personal") {
        // RevokeToken only ends OAuth grants; a personal access token is managed in the
        // Developer Dashboard, so there is nothing to revoke from here.
        await signOut(`Signed out. ${SIGN_IN_AGAIN.replace(" again", "")}`);
        return {
          revoked: false,
          ok: true,
          message: `Signed out: the personal access token was ${where}. It stays valid until you replace it in the Developer Dashboard.`,
        };
      }
      let revoked = false;
      let why = "";
      const clientId = opts.clientId ?? t.client_id;
      if (!clientSecret) why = "no application secret was given (--client-secret or BACKROOM_CLIENT_SECRET)";
      else if (!clientId) why = "no application id is known (--client-id or applicationId in config)";
      else {
        try {
          const res = await opts.oauth.revokeToken(
            { client_id: clientId, access_token: t.access_token },
            { clientSecret },
          );
          revoked = res.success !== false;
          if (!revoked) why = "the service did not confirm it";
        } catch (err) {
          why = describe(err);
        }
      }
      await signOut(`Signed out. ${SIGN_IN_AGAIN.replace(" again", "")}`);
      return {
        revoked,
        ok: revoked,
        message: revoked
          ? `Signed out of ${t.merchant_id || "the merchant"}: access revoked at the service and ${where}.`
          : `Signed out locally (${where}), but the access was NOT revoked at the service: ${why}. It stays valid until it expires; revoke it in the Developer Dashboard or run backroom logout again with --client-secret.`,
      };
    },
    async noticeError(err) {
      if (!(err instanceof SquareApiError) || state.status !== "signed-in") return false;
      if (!err.hasCode("ACCESS_TOKEN_REVOKED") || sourceOf() === "env") return false;
      await session.onRevoked();
      return true;
    },
    async onRevoked() {
      if (state.status !== "signed-in" || sourceOf() === "env") return;
      await signOut(`You were signed out: access for backroom was revoked for this seller. ${SIGN_IN_AGAIN}`);
    },
    status() {
      const t = tokens();
      const base = { environment: opts.environment, storage: session.describeStorage() };
      if (!t) return { ...base, signedIn: false, ...(state.status === "signed-out" ? { reason: state.reason } : {}) };
      return {
        ...base,
        signedIn: true,
        kind: t.kind,
        tokenHint: maskToken(t.access_token),
        ...(t.merchant_id ? { merchantId: t.merchant_id } : {}),
        ...(t.scopes ? { scopes: t.scopes } : {}),
        ...(t.expires_at ? { expiresAt: t.expires_at } : {}),
      };
    },
    describeStorage() {
      if (state.status === "signed-in" && state.source === "env") {
        return "from BACKROOM_ACCESS_TOKEN in the environment (not stored)";
      }
      if (state.status === "signed-in" && state.source === "local-demo") {
        return "the local service's demo token (not stored)";
      }
      return opts.store.describeStorage();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return session;
}

/** Turns an ObtainToken answer into a stored sign-in. */
export function tokensFromObtain(
  res: T.ObtainTokenResponse,
  ctx: { environment: Environment; clientId: string; baseUrl?: string; scopes?: string[] },
): StoredTokens {
  if (!res.access_token || !res.merchant_id) {
    throw new SquareError("the service answered the sign-in without an access token or merchant id");
  }
  return {
    environment: ctx.environment,
    kind: "oauth",
    access_token: res.access_token,
    merchant_id: res.merchant_id,
    client_id: ctx.clientId,
    ...(res.refresh_token ? { refresh_token: res.refresh_token } : {}),
    ...(res.expires_at ? { expires_at: res.expires_at } : {}),
    ...(res.refresh_token_expires_at ? { refresh_token_expires_at: res.refresh_token_expires_at } : {}),
    ...(res.token_type ? { token_type: res.token_type } : {}),
    ...(ctx.scopes ? { scopes: ctx.scopes } : {}),
    ...(ctx.baseUrl ? { base_url: ctx.baseUrl } : {}),
  };
}

/**
 * Takes what the service says about the token in use (RetrieveTokenStatus) over what was stored
 * at sign-in: scopes can be changed, and the merchant and expiry are the service's to say.
 */
export async function adoptTokenStatus(session: Session, info: T.RetrieveTokenStatusResponse): Promise<void> {
  const current = session.state();
  if (current.status !== "signed-in") return;
  const t = current.tokens;
  const merged: StoredTokens = {
    ...t,
    ...(info.merchant_id ? { merchant_id: info.merchant_id } : {}),
    ...(info.scopes ? { scopes: info.scopes } : {}),
    ...(info.expires_at ? { expires_at: info.expires_at } : {}),
  };
  if (JSON.stringify(merged) !== JSON.stringify(t)) await session.signIn(merged, current.source);
}
