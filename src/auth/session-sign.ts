// Signing a session in and out: the sign-in read at start (the environment's token first, then
// the store), a new sign-in kept, the logout that revokes at the service when it can, a revoked
// token noticed, and what the status line says of it all.
import { SquareApiError } from "../square/index.js";
import { maskToken } from "./mask.js";
import type { SessionCore } from "./session-core.js";
import { type Session, type SessionStatus, SIGN_IN_AGAIN } from "./session-types.js";
import type { StoredTokens } from "./token-store.js";

/** What a logout says. */
type LogoutResult = Awaited<ReturnType<Session["logout"]>>;

/** Revokes an OAuth token at the service; why not, in words, when it was not revoked. */
async function revoke(
  core: SessionCore,
  t: StoredTokens,
  clientSecret: string | undefined,
): Promise<{ revoked: boolean; why: string }> {
  const clientId = core.opts.clientId ?? t.client_id;
  if (!clientSecret)
    return { revoked: false, why: "no application secret was given (--client-secret or BACKROOM_CLIENT_SECRET)" };
  if (!clientId) return { revoked: false, why: "no application id is known (--client-id or applicationId in config)" };
  try {
    const res = await core.opts.oauth.revokeToken(
      { client_id: clientId, access_token: t.access_token },
      { clientSecret },
    );
    const revoked = res.success !== false;
    return { revoked, why: revoked ? "" : "the service did not confirm it" };
  } catch (err) {
    return { revoked: false, why: core.describe(err) };
  }
}

/** Revokes at the service (when a secret is given), then forgets locally whatever happened. */
async function logout(core: SessionCore, clientSecret: string | undefined): Promise<LogoutResult> {
  const t = core.tokens();
  if (!t) return { revoked: false, ok: true, message: "Not signed in; nothing to sign out of." };
  const source = core.source();
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
    await core.signOut(`Signed out. ${SIGN_IN_AGAIN.replace(" again", "")}`);
    return {
      revoked: false,
      ok: true,
      message: `Signed out: the personal access token was ${where}. It stays valid until you replace it in the Developer Dashboard.`,
    };
  }
  const { revoked, why } = await revoke(core, t, clientSecret);
  await core.signOut(`Signed out. ${SIGN_IN_AGAIN.replace(" again", "")}`);
  return {
    revoked,
    ok: revoked,
    message: revoked
      ? `Signed out of ${t.merchant_id || "the merchant"}: access revoked at the service and ${where}.`
      : `Signed out locally (${where}), but the access was NOT revoked at the service: ${why.replace(/\.+$/, "")}. It stays valid until it expires; the sign-in is gone from here, so revoke it in the Developer Dashboard.`,
  };
}

/** Where the sign-in is kept, in words. */
function describeStorage(core: SessionCore): string {
  const { state } = core;
  if (state.status === "signed-in" && state.source === "env") {
    return "from BACKROOM_ACCESS_TOKEN in the environment (not stored)";
  }
  if (state.status === "signed-in" && state.source === "local-demo") {
    return "the local service's demo token (not stored)";
  }
  return core.opts.store.describeStorage();
}

/** What `backroom status` and the status bar show: no token, only its last four characters. */
function statusOf(core: SessionCore): SessionStatus {
  const t = core.tokens();
  const { state } = core;
  const base = { environment: core.opts.environment, storage: describeStorage(core) };
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
}

/** The session's part that signs in and out, and says how it stands. */
export function signInOut(core: SessionCore): Pick<
  Session,
  "load" | "signIn" | "signOut" | "logout" | "onRevoked" | "status" | "describeStorage"
> & {
  /** Whether an error says the token was revoked (never for an environment token). */
  isRevocation(err: unknown): boolean;
} {
  const { opts } = core;
  return {
    async load() {
      if (opts.envToken) {
        core.set({
          status: "signed-in",
          source: "env",
          tokens: { environment: opts.environment, kind: "personal", access_token: opts.envToken, merchant_id: "" },
        });
        return core.state;
      }
      const stored = await opts.store.load(opts.environment);
      if (stored) core.set({ status: "signed-in", tokens: stored, source: opts.store.kind });
      return core.state;
    },
    async signIn(t, source) {
      if (source !== "local-demo" && source !== "env") await opts.store.save(t);
      core.set({ status: "signed-in", tokens: t, source: source ?? opts.store.kind });
    },
    signOut: (reason) => core.signOut(reason),
    logout: ({ clientSecret }) => logout(core, clientSecret),
    isRevocation: (err) =>
      err instanceof SquareApiError &&
      core.state.status === "signed-in" &&
      err.hasCode("ACCESS_TOKEN_REVOKED") &&
      core.source() !== "env",
    async onRevoked() {
      if (core.state.status !== "signed-in" || core.source() === "env") return;
      await core.signOut(`You were signed out: access for backroom was revoked for this seller. ${SIGN_IN_AGAIN}`);
    },
    status: () => statusOf(core),
    describeStorage: () => describeStorage(core),
  };
}
