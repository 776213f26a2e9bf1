// The two ways to sign in, shared by `backroom login` and the account screen: the OAuth code flow
// with PKCE in a browser, and a personal access token checked with the service before it is kept.
import type { Dispatcher } from "undici";
import type * as T from "../spec/generated/types.js";
import { createClient, type SquareClient } from "../square/index.js";
import type { Environment } from "./config.js";
import { redact } from "./mask.js";
import { buildAuthorizeUrl, createPkcePair, newState, startLoopbackListener } from "./oauth-flow.js";
import { type Session, tokensFromObtain } from "./session.js";
import type { StoredTokens } from "./token-store.js";

/** Options of {@link signInWithBrowser}. */
export interface BrowserSignIn {
  /** A client on the service (ObtainToken sends no bearer token, so a signed-out one does). */
  client: Pick<SquareClient, "oauth">;
  session: Session;
  environment: Environment;
  baseUrl: string;
  applicationId: string;
  scopes: readonly string[];
  /** The loopback port the browser answers on; 0 or absent for any free one. */
  port?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Shows the authorize page's address (and opens a browser on it). */
  onAddress: (url: string) => unknown;
}

/**
 * The code flow with PKCE: a one-shot listener on 127.0.0.1, the authorize page's address handed
 * to `onAddress`, the code exchanged with the verifier, the tokens kept by the session. The
 * scopes kept are those the service says were granted. Messages never carry a secret.
 */
export async function signInWithBrowser(o: BrowserSignIn): Promise<StoredTokens> {
  const secrets: string[] = [];
  const pkce = createPkcePair();
  const state = newState();
  const listener = await startLoopbackListener({
    state,
    ...(o.port ? { port: o.port } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  try {
    await o.onAddress(
      buildAuthorizeUrl({
        baseUrl: o.baseUrl,
        clientId: o.applicationId,
        scopes: o.scopes,
        state,
        redirectUri: listener.redirectUri,
        codeChallenge: pkce.challenge,
      }),
    );
    const code = await listener.code;
    secrets.push(code);
    const res = await o.client.oauth.obtainToken({
      client_id: o.applicationId,
      grant_type: "authorization_code",
      code,
      code_verifier: pkce.verifier,
      redirect_uri: listener.redirectUri,
    });
    secrets.push(res.access_token ?? "", res.refresh_token ?? "");
    const tokens = tokensFromObtain(res, {
      environment: o.environment,
      clientId: o.applicationId,
      baseUrl: o.baseUrl,
      scopes: [...o.scopes],
    });
    await o.session.signIn(tokens);
    // The granted scopes may be fewer than asked for; ask the service which they are.
    const info = await o.client.oauth.retrieveTokenStatus().catch(() => undefined);
    if (!info?.scopes) return tokens;
    const granted = { ...tokens, scopes: info.scopes };
    await o.session.signIn(granted);
    return granted;
  } catch (err) {
    if (err instanceof Error) err.message = redact(err.message, secrets);
    throw err;
  } finally {
    await listener.close();
  }
}

/** Where {@link checkPersonalToken} asks. */
export interface TokenCheck {
  baseUrl: string;
  token: string;
  squareVersion?: string | undefined;
  dispatcher?: Dispatcher | undefined;
  maxRetries?: number | undefined;
}

/**
 * Asks the service about a personal access token with a throwaway client that carries it, so a
 * session keeps its old sign-in until this one has been checked. Throws the service's refusal.
 */
export async function checkPersonalToken(c: TokenCheck): Promise<T.RetrieveTokenStatusResponse> {
  const probe = createClient({
    baseUrl: c.baseUrl,
    accessToken: c.token,
    ...(c.squareVersion ? { squareVersion: c.squareVersion } : {}),
    ...(c.dispatcher ? { dispatcher: c.dispatcher } : {}),
    ...(c.maxRetries !== undefined ? { maxRetries: c.maxRetries } : {}),
  });
  try {
    return await probe.oauth.retrieveTokenStatus();
  } finally {
    await probe.close();
  }
}

/** The sign-in a checked personal token makes. */
export function personalTokens(
  token: string,
  info: T.RetrieveTokenStatusResponse,
  ctx: { environment: Environment; baseUrl: string },
): StoredTokens {
  return {
    environment: ctx.environment,
    kind: "personal",
    access_token: token,
    merchant_id: info.merchant_id ?? "",
    base_url: ctx.baseUrl,
    ...(info.client_id ? { client_id: info.client_id } : {}),
    ...(info.scopes ? { scopes: info.scopes } : {}),
    ...(info.expires_at ? { expires_at: info.expires_at } : {}),
  };
}
