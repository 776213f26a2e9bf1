import {
  type CommandDeps,
  type CommandIo,
  flagsWithEnv,
  openInBrowser,
  readCommand,
  readHidden,
  requiredScopes,
  say,
  stringFlag,
} from "../auth/cli-support.js";
import { openCommandContext } from "../auth/command-context.js";
import { saveConfig } from "../auth/config.js";
import { maskToken, redact } from "../auth/mask.js";
import { buildAuthorizeUrl, createPkcePair, newState, startLoopbackListener } from "../auth/oauth-flow.js";
import { tokensFromObtain } from "../auth/session.js";
import { createClient, SquareApiError, SquareError } from "../square/index.js";

const USAGE = `usage: backroom login [--env local|sandbox|production] [--base-url URL] [--client-id ID]
                     [--token [TOKEN]] [--scopes A,B,...] [--port N] [--no-browser]

Signs in with the OAuth code flow (PKCE): opens the authorize page in a browser and waits for
the answer on http://127.0.0.1:<port>/callback. With --token, stores a personal access token
instead (without a value, it is read from the terminal without being shown).`;

const FLAGS = {
  env: "string",
  "base-url": "string",
  "client-id": "string",
  token: "optional-string",
  scopes: "string",
  port: "string",
  "no-browser": "boolean",
  help: "boolean",
} as const;

/** `backroom login`: OAuth with PKCE, or a personal access token checked before it is stored. */
export async function runLogin(argv: string[], io: CommandIo, deps: CommandDeps = {}): Promise<number> {
  const read = readCommand(io, "backroom login", USAGE, () => flagsWithEnv(argv, FLAGS));
  if ("exit" in read) return read.exit;
  const { flags, environment } = read.value;
  const baseUrlFlag = stringFlag(flags["base-url"]);
  const clientIdFlag = stringFlag(flags["client-id"]);
  const ctx = await openCommandContext(io, deps, {
    environment,
    baseUrl: baseUrlFlag,
    applicationId: clientIdFlag,
  });
  if (!ctx) return 1;
  const { target, session, store } = ctx;
  const baseUrl = target.baseUrl;
  if (!baseUrl) {
    say(
      io.stderr,
      "backroom login: the local environment has no address here. `npm start` signs in to its own local service by itself; to sign in to a local service running elsewhere, pass --base-url.",
    );
    return 1;
  }
  if (store.kind === "memory") {
    say(io.stderr, `backroom: the sign-in is ${store.describeStorage()}.`);
  }

  const secrets: string[] = [];
  try {
    if (flags.token !== undefined) {
      const token =
        typeof flags.token === "string" ? flags.token : await readHidden(io, "Personal access token (not shown): ");
      if (!token) {
        say(io.stderr, "backroom login: no token was given; nothing was stored.");
        return 1;
      }
      secrets.push(token);
      // A throwaway client that carries the candidate token: the session keeps the old sign-in
      // until this one has been checked.
      const probe = createClient({
        baseUrl,
        accessToken: token,
        ...(ctx.config.squareVersion ? { squareVersion: ctx.config.squareVersion } : {}),
        ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
        ...(deps.maxRetries !== undefined ? { maxRetries: deps.maxRetries } : {}),
      });
      let info: Awaited<ReturnType<typeof probe.oauth.retrieveTokenStatus>>;
      try {
        info = await probe.oauth.retrieveTokenStatus();
      } catch (err) {
        if (err instanceof SquareApiError) {
          say(
            io.stderr,
            `backroom login: the ${target.environment} service refused the token (${err.code}); nothing was stored. Check that it is an access token for ${target.environment}.`,
          );
          return 1;
        }
        throw err;
      } finally {
        await probe.close();
      }
      await session.signIn({
        environment: target.environment,
        kind: "personal",
        access_token: token,
        merchant_id: info.merchant_id ?? "",
        base_url: baseUrl,
        ...(info.client_id ? { client_id: info.client_id } : {}),
        ...(info.scopes ? { scopes: info.scopes } : {}),
        ...(info.expires_at ? { expires_at: info.expires_at } : {}),
      });
    } else {
      const clientId = target.applicationId;
      if (!clientId) {
        say(
          io.stderr,
          `backroom login: signing in with OAuth needs the application id: pass --client-id or set applicationId in ${ctx.configPath}. To use a personal access token instead, pass --token.`,
        );
        return 1;
      }
      const connection = ctx.connection;
      if (!connection) throw new SquareError("no connection to the service");
      const scopes = typeof flags.scopes === "string" ? flags.scopes.split(/[\s,]+/).filter(Boolean) : requiredScopes();
      const port = typeof flags.port === "string" ? Number(flags.port) : 0;
      if (!Number.isInteger(port) || port < 0 || port > 65_535) {
        say(io.stderr, `backroom login: --port must be a port number\n${USAGE}`);
        return 2;
      }
      const pkce = createPkcePair();
      const state = newState();
      const listener = await startLoopbackListener({
        state,
        port,
        timeoutMs: deps.loginTimeoutMs ?? 5 * 60_000,
      });
      try {
        const url = buildAuthorizeUrl({
          baseUrl,
          clientId,
          scopes,
          state,
          redirectUri: listener.redirectUri,
          codeChallenge: pkce.challenge,
        });
        say(io.stdout, `To sign in, open this address in a browser:\n\n  ${url}\n\nWaiting for the browser…`);
        if (!flags["no-browser"]) {
          const open = deps.openUrl ?? ((u: string) => openInBrowser(u, io.env));
          const opened = await open(url).catch(() => false);
          if (opened) say(io.stdout, "(opened in your browser)");
        }
        const code = await listener.code;
        secrets.push(code);
        const res = await connection.client.oauth.obtainToken({
          client_id: clientId,
          grant_type: "authorization_code",
          code,
          code_verifier: pkce.verifier,
          redirect_uri: listener.redirectUri,
        });
        if (res.access_token) secrets.push(res.access_token);
        if (res.refresh_token) secrets.push(res.refresh_token);
        const tokens = tokensFromObtain(res, { environment: target.environment, clientId, baseUrl, scopes });
        await session.signIn(tokens);
        // The granted scopes may be fewer than asked for; ask the service which they are.
        const info = await connection.client.oauth.retrieveTokenStatus().catch(() => undefined);
        if (info?.scopes) await session.signIn({ ...tokens, scopes: info.scopes });
      } finally {
        await listener.close();
      }
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    say(io.stderr, `backroom login: ${redact(message, secrets)}`);
    return 1;
  } finally {
    await ctx.connection?.client.close();
  }

  const status = session.status();
  say(
    io.stdout,
    `Signed in to ${target.environment}${status.merchantId ? ` as merchant ${status.merchantId}` : ""} (token ${status.tokenHint ?? maskToken(undefined)}), kept in ${status.storage}.`,
  );
  const remembered = {
    ...ctx.config,
    environment: target.environment,
    ...(baseUrlFlag ? { baseUrl: baseUrlFlag } : {}),
    ...(clientIdFlag ? { applicationId: clientIdFlag } : {}),
  };
  if (
    remembered.environment !== ctx.config.environment ||
    remembered.baseUrl !== ctx.config.baseUrl ||
    remembered.applicationId !== ctx.config.applicationId
  ) {
    if (environment && !baseUrlFlag && remembered.environment !== ctx.config.environment) delete remembered.baseUrl;
    const path = await saveConfig(io.env, remembered);
    say(io.stdout, `Saved the environment to ${path} (no secrets are written there).`);
  }
  return 0;
}
