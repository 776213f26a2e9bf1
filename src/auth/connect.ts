import type { Dispatcher } from "undici";
import { createClient, type SquareClient } from "../square/index.js";
import type { Environment } from "./config.js";
import { type Clock, createSession, type Session, type SessionOptions } from "./session.js";
import { createTokenStore, type TokenStore } from "./token-store.js";

/** A client whose every call asks the session for a valid token, and that session. */
export interface Connection {
  client: SquareClient;
  session: Session;
}

/** Options of {@link connect}: where to send calls, and the session's dependencies. */
export interface ConnectOptions extends Omit<SessionOptions, "oauth"> {
  baseUrl: string;
  squareVersion?: string;
  dispatcher?: Dispatcher;
  /** Retries after the first attempt; tests pass 0. */
  maxRetries?: number;
}

/**
 * Builds the client and its session together. The session is the client's token provider, and
 * it refreshes through the same client's OAuth area (ObtainToken sends no bearer token, so a
 * refresh never waits on itself).
 */
export function connect(opts: ConnectOptions): Connection {
  const { baseUrl, squareVersion, dispatcher, maxRetries, ...sessionOpts } = opts;
  // `onRevoked` is for a transport that reports ACCESS_TOKEN_REVOKED; until it does, callers
  // hand such errors to `session.noticeError`.
  const tokenProvider = {
    accessToken: () => session.accessToken(),
    onExpired: () => session.onExpired(),
    onRevoked: () => session.onRevoked(),
  };
  const client = createClient({
    baseUrl,
    ...(squareVersion ? { squareVersion } : {}),
    ...(dispatcher ? { dispatcher } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    tokenProvider,
  });
  const session = createSession({ ...sessionOpts, oauth: client.oauth });
  return { client, session };
}

/** The credentials of a running local service that {@link sessionForLocal} needs. */
export interface LocalCredentials {
  accessToken: string;
  clientId: string;
  clientSecret?: string;
  merchantId?: string;
}

/**
 * Signs in to the local service with its demo token, without asking: what `npm start` does so a
 * new user sees the app at once. The demo token is never written to the keychain.
 */
export async function sessionForLocal(
  service: LocalCredentials,
  opts: { baseUrl: string; squareVersion?: string; dispatcher?: Dispatcher; clock?: Clock; store?: TokenStore },
): Promise<Connection> {
  const store = opts.store ?? createTokenStore({ keytar: null, reason: "the local service's demo token is not kept" });
  const conn = connect({
    baseUrl: opts.baseUrl,
    store,
    environment: "local" satisfies Environment,
    clientId: service.clientId,
    ...(opts.squareVersion ? { squareVersion: opts.squareVersion } : {}),
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const demo = { environment: "local" as const, kind: "personal" as const, access_token: service.accessToken };
  await conn.session.signIn({ ...demo, merchant_id: service.merchantId ?? "" }, "local-demo");
  // Ask the service what the token is, so the status bar shows the merchant, scopes and expiry.
  const info = await conn.client.oauth.retrieveTokenStatus();
  await conn.session.signIn(
    {
      ...demo,
      merchant_id: info.merchant_id ?? service.merchantId ?? "",
      client_id: service.clientId,
      base_url: opts.baseUrl,
      ...(info.scopes ? { scopes: info.scopes } : {}),
      ...(info.expires_at ? { expires_at: info.expires_at } : {}),
    },
    "local-demo",
  );
  return conn;
}
