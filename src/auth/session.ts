// A session: the sign-in of one environment, and the token provider of the client. Its parts:
// session-core.ts (the sign-in held and signing out), session-refresh.ts (keeping the token
// current), session-sign.ts (signing in and out, the status); the shapes in session-types.ts.
import type * as T from "../spec/generated/types.js";
import { SquareError } from "../square/index.js";
import type { Environment } from "./config.js";
import { SessionCore } from "./session-core.js";
import { tokenRefresh } from "./session-refresh.js";
import { signInOut } from "./session-sign.js";
import type { Session, SessionOptions } from "./session-types.js";
import type { StoredTokens } from "./token-store.js";

export {
  type Clock,
  type OAuthApi,
  RenewableExpiryError,
  RenewWindowError,
  type Session,
  type SessionOptions,
  type SessionState,
  type SessionStatus,
  SignedOutError,
  type TokenSource,
} from "./session-types.js";

/** Builds a session over an injected OAuth API, token store and clock. */
export function createSession(opts: SessionOptions): Session {
  const core = new SessionCore(opts);
  const { isRevocation, ...sign } = signInOut(core);
  const session: Session = {
    ...sign,
    ...tokenRefresh(core),
    state: () => core.state,
    /** Signs out when an error says the token was revoked; true when it did. */
    async noticeError(err) {
      if (!isRevocation(err)) return false;
      await session.onRevoked();
      return true;
    },
    subscribe: (listener) => core.subscribe(listener),
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
