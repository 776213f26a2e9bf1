import type { CommandDeps, CommandIo } from "./cli-support.js";
import { say } from "./cli-support.js";
import {
  type BackroomConfig,
  ConfigError,
  type Environment,
  type EnvVars,
  loadConfig,
  resolveTarget,
  type Target,
} from "./config.js";
import { type Connection, connect } from "./connect.js";
import { createSession, type Session } from "./session.js";
import { openTokenStore, type TokenStore } from "./token-store.js";

/** Where the signed-in session of one run stands: config, target, store, session and client. */
export interface OpenedSession {
  config: BackroomConfig;
  configPath: string;
  /** Unknown fields of the config file, to show as warnings. */
  warnings: string[];
  target: Target;
  store: TokenStore;
  /** Absent for `local` without a base URL: then only the stored sign-in can be shown or removed. */
  connection: Connection | undefined;
  /** The session of this run (the connection's, or an offline one without a base URL). */
  session: Session;
}

/** Flags that choose where to connect; each overrides the config file. */
export interface TargetFlags {
  environment?: Environment | undefined;
  baseUrl?: string | undefined;
  applicationId?: string | undefined;
}

/**
 * For the app and the commands: reads the config (a malformed file throws a {@link ConfigError}),
 * resolves the environment, opens the token store (keychain, or memory when the probe fails),
 * builds the client with the session as its token provider and loads the current sign-in —
 * `BACKROOM_ACCESS_TOKEN` first, then the store.
 */
export async function openSession(
  env: EnvVars,
  flags: TargetFlags,
  deps: CommandDeps = {},
  extra: { clientSecret?: string | undefined } = {},
): Promise<OpenedSession> {
  const loaded = await loadConfig(env);
  const target = resolveTarget(loaded.config, flags);
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
        ...(loaded.config.squareVersion ? { squareVersion: loaded.config.squareVersion } : {}),
        ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
        ...(deps.maxRetries !== undefined ? { maxRetries: deps.maxRetries } : {}),
      })
    : undefined;
  // Without a base URL there is nothing to call; a session over an OAuth API that refuses every
  // call still lets status and logout read and remove what is stored.
  const session = connection?.session ?? createSession({ ...sessionOpts, oauth: offlineOAuth(target.environment) });
  await session.load();
  return {
    config: loaded.config,
    configPath: loaded.path,
    warnings: loaded.warnings,
    target,
    store,
    connection,
    session,
  };
}

/** {@link openSession} for a command: prints config warnings, and a malformed config as an error (null). */
export async function openCommandContext(
  io: CommandIo,
  deps: CommandDeps,
  flags: TargetFlags,
  extra: { clientSecret?: string | undefined } = {},
): Promise<OpenedSession | null> {
  let opened: OpenedSession;
  try {
    opened = await openSession(io.env, flags, deps, extra);
  } catch (err) {
    if (err instanceof ConfigError) {
      say(io.stderr, `backroom: ${err.message}`);
      return null;
    }
    throw err;
  }
  for (const w of opened.warnings) say(io.stderr, `backroom: ${w}`);
  return opened;
}

function offlineOAuth(environment: Environment) {
  const fail = async (): Promise<never> => {
    throw new Error(
      `no base URL for the ${environment} environment: pass --base-url or set baseUrl in the config file`,
    );
  };
  return { obtainToken: fail, renewToken: fail, revokeToken: fail, retrieveTokenStatus: fail };
}
