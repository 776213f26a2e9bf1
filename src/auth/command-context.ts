import { type CommandDeps, type CommandIo, say } from "./cli-support.js";
import {
  type BackroomConfig,
  ConfigError,
  type Environment,
  loadConfig,
  resolveTarget,
  type Target,
} from "./config.js";
import { type Connection, connect } from "./connect.js";
import { createSession } from "./session.js";
import { openTokenStore, type TokenStore } from "./token-store.js";

/** What a sign-in command works with: config, target, store and (with a base URL) a connection. */
export interface CommandContext {
  config: BackroomConfig;
  configPath: string;
  target: Target;
  store: TokenStore;
  /** Absent for `local` without a base URL: then only the stored sign-in can be shown or removed. */
  connection: Connection | undefined;
  /** The session of this command run (the connection's, or an offline one without a base URL). */
  session: Connection["session"];
}

/**
 * Reads the config (reporting a malformed file and returning null), resolves where to connect,
 * opens the token store and loads the current sign-in of that environment.
 */
export async function openCommandContext(
  io: CommandIo,
  deps: CommandDeps,
  flags: { environment?: Environment | undefined; baseUrl?: string | undefined; applicationId?: string | undefined },
  extra: { clientSecret?: string | undefined } = {},
): Promise<CommandContext | null> {
  let loaded: Awaited<ReturnType<typeof loadConfig>>;
  try {
    loaded = await loadConfig(io.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      say(io.stderr, `backroom: ${err.message}`);
      return null;
    }
    throw err;
  }
  for (const w of loaded.warnings) say(io.stderr, `backroom: ${w}`);
  const target = resolveTarget(loaded.config, flags);
  const store = await openTokenStore(deps.keytar === undefined ? {} : { keytar: deps.keytar });
  const envToken = io.env.BACKROOM_ACCESS_TOKEN || undefined;
  const sessionOpts = {
    store,
    environment: target.environment,
    ...(target.applicationId ? { clientId: target.applicationId } : {}),
    ...(extra.clientSecret ? { clientSecret: extra.clientSecret } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(envToken ? { envToken } : {}),
  };
  // Without a base URL there is nothing to call; a session over an OAuth API that refuses every
  // call still lets status and logout read and remove what is stored.
  const connection = target.baseUrl
    ? connect({
        ...sessionOpts,
        baseUrl: target.baseUrl,
        ...(loaded.config.squareVersion ? { squareVersion: loaded.config.squareVersion } : {}),
        ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
        ...(deps.maxRetries !== undefined ? { maxRetries: deps.maxRetries } : {}),
      })
    : undefined;
  const session = connection?.session ?? createSession({ ...sessionOpts, oauth: offlineOAuth(target.environment) });
  await session.load();
  return { config: loaded.config, configPath: loaded.path, target, store, connection, session };
}

function offlineOAuth(environment: Environment) {
  const fail = async (): Promise<never> => {
    throw new Error(
      `no base URL for the ${environment} environment: pass --base-url or set baseUrl in the config file`,
    );
  };
  return { obtainToken: fail, renewToken: fail, revokeToken: fail, retrieveTokenStatus: fail };
}
