import type { Dispatcher } from "undici";
import type { Environment, EnvVars } from "./config.js";
import { type Connection, connect } from "./connect.js";
import { type Clock, createSession, type Session } from "./session.js";
import { type KeytarLike, openTokenStore, type TokenStore } from "./token-store.js";

/** What opening a session builds on; each has a real default, tests pass their own. */
export interface SessionDeps {
  /** `undefined` loads the installed keytar; `null` means no keychain. */
  keytar?: KeytarLike | null;
  clock?: Clock;
  dispatcher?: Dispatcher;
  /** Retries of each call; tests pass 0. */
  maxRetries?: number;
}

/** Where a session signs in: an environment of the service, and its address when it has one. */
export interface SessionTarget {
  environment: Environment;
  /** Absent only when the address is unknown (then nothing can be called; status and logout still work). */
  baseUrl: string | undefined;
  applicationId: string | undefined;
  /** The Square-Version header sent on every call. */
  squareVersion?: string | undefined;
}

/** The signed-in session of one run: the target, the token store, the session and its client. */
export interface OpenedSession {
  target: SessionTarget;
  store: TokenStore;
  /** Absent without a base URL: then only the stored sign-in can be shown or removed. */
  connection: Connection | undefined;
  /** The session of this run (the connection's, or an offline one without a base URL). */
  session: Session;
}

/**
 * Opens the token store (keychain, or memory when the probe fails), builds the client with the
 * session as its token provider and loads the current sign-in — `BACKROOM_ACCESS_TOKEN` first,
 * then the store. Where to connect is decided by the caller (the commands' one resolution).
 */
export async function openSession(
  env: EnvVars,
  target: SessionTarget,
  deps: SessionDeps = {},
  extra: { clientSecret?: string | undefined } = {},
): Promise<OpenedSession> {
  const store = await openTokenStore(deps.keytar === undefined ? {} : { keytar: deps.keytar });
  const envToken = env.BACKROOM_ACCESS_TOKEN || undefined;
  const sessionOpts = {
    store,
    environment: target.environment,
    ...(target.applicationId ? { clientId: target.applicationId } : {}),
    ...(extra.clientSecret ? { clientSecret: extra.clientSecret } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(envToken ? { envToken } : {}),
  };
  const connection = target.baseUrl
    ? connect({
        ...sessionOpts,
        baseUrl: target.baseUrl,
        ...(target.squareVersion ? { squareVersion: target.squareVersion } : {}),
        ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
        ...(deps.maxRetries !== undefined ? { maxRetries: deps.maxRetries } : {}),
      })
    : undefined;
  // Without a base URL there is nothing to call; a session over an OAuth API that refuses every
  // call still lets status and logout read and remove what is stored.
  const session = connection?.session ?? createSession({ ...sessionOpts, oauth: offlineOAuth(target.environment) });
  await session.load();
  return { target, store, connection, session };
}

function offlineOAuth(environment: Environment) {
  const fail = async (): Promise<never> => {
    throw new Error(
      `no base URL for the ${environment} environment: pass --base-url or set baseUrl in the config file`,
    );
  };
  return { obtainToken: fail, renewToken: fail, revokeToken: fail, retrieveTokenStatus: fail };
}
