// The session's public shapes: the OAuth calls it makes, its state, its errors, and what it offers.
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, TokenProvider } from "../square/index.js";
import { SquareError } from "../square/index.js";
import type { Environment } from "./config.js";
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

/** The end of every message that signs someone out. */
export const SIGN_IN_AGAIN = "Run `backroom login` to sign in again.";

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
