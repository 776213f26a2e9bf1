import { openSession } from "../auth/command-context.js";
import { type BackroomConfig, type Environment, saveConfig } from "../auth/config.js";
import { maskToken, redact } from "../auth/mask.js";
import { checkPersonalToken, personalTokens, signInWithBrowser } from "../auth/sign-in.js";
import { SquareApiError, SquareError } from "../square/index.js";
import { type CommandSpec, intOption, readArgs } from "./args.js";
import {
  CancelledError,
  type CommandDeps,
  CommandError,
  type CommandIo,
  openInBrowser,
  readHidden,
  say,
} from "./io.js";
import { runCommand } from "./run.js";
import { LOGIN_SCOPES, loginScopes, readScopes, V1_SCOPES } from "./scopes.js";
import { checkTargetFlags, loadTarget, type ServiceTarget, TARGET_OPTIONS } from "./target.js";

/** `backroom login`'s command line. */
export const LOGIN_SPEC = {
  name: "backroom login",
  summary:
    "Signs in with the OAuth code flow (PKCE): opens the authorize page in a browser and waits for the answer on http://127.0.0.1:<port>/callback. With --token, stores a personal access token instead (without a value, it is read from the terminal without being shown). The sign-in is kept in the OS keychain; the environment (not the token) is saved in the config file.",
  options: {
    env: TARGET_OPTIONS.env,
    "base-url": TARGET_OPTIONS["base-url"],
    "client-id": { type: "string", value: "ID", help: "the application id (OAuth client id) to sign in with" },
    token: { type: "optional-string", value: "TOKEN", help: "a personal access token instead of OAuth" },
    scopes: {
      type: "string",
      value: "A,B,...",
      help: "the permissions to ask for (default: what the screens use); `default` and `v1` name sets, e.g. default,v1",
    },
    port: { type: "string", value: "N", help: "the loopback port the browser answers on (default: any free one)" },
    "no-browser": { type: "boolean", help: "print the address instead of opening a browser" },
  },
  details: [
    "Permissions asked for by default, and why:",
    ...LOGIN_SCOPES.map((s) => `  ${s.scope.padEnd(25)} ${s.why}`),
    "Asked for only with --scopes default,v1 (the old transactions screen, which can refund):",
    ...V1_SCOPES.map((s) => `  ${s.scope.padEnd(25)} ${s.why}`),
  ].join("\n"),
} as const satisfies CommandSpec;

/** `backroom login`: OAuth with PKCE, or a personal access token checked before it is stored. */
export async function runLogin(argv: string[], io: CommandIo, deps: CommandDeps = {}): Promise<number> {
  const read = readArgs(io, LOGIN_SPEC, argv, (a) => {
    checkTargetFlags(a.values);
    return { ...a.values, port: intOption("port", a.values.port, 0, 65_535) ?? 0 };
  });
  if ("exit" in read) return read.exit;
  const flags = read.value;
  return runCommand(io, LOGIN_SPEC.name, async () => {
    const resolved = await loadTarget(flags, io.env);
    for (const w of resolved.warnings) say(io.stderr, `backroom: ${w}`);
    const { target, config } = resolved;
    if (target.kind === "demo") {
      throw new CommandError(
        "the demo store signs backroom in by itself; there is nothing to log in to. To sign in to the service, pass --env sandbox or --env production; to a local service running elsewhere (`backroom serve`), --env local --base-url URL.",
      );
    }
    const clientIdFlag = flags["client-id"];
    const applicationId = clientIdFlag ?? target.applicationId;
    const ctx = await openSession(io.env, { ...target, applicationId }, deps);
    const { session, store } = ctx;
    const baseUrl = target.baseUrl;
    const kept = store.kind === "keychain";
    const oauth = flags.token === undefined;
    if (!kept && oauth) {
      await ctx.connection?.client.close();
      throw new CommandError(
        `there is no working OS keychain here (${store.describeStorage()}), so an OAuth sign-in could not be kept past this command. Nothing was started. Use a personal access token instead: set BACKROOM_ACCESS_TOKEN in the environment of each backroom command.`,
      );
    }

    const secrets: string[] = [];
    try {
      if (!oauth) {
        await signInWithToken(io, deps, {
          target,
          session,
          kept,
          storage: store.describeStorage(),
          secrets,
          given: typeof flags.token === "string" ? flags.token : undefined,
          where: `--env ${target.environment}${flags["base-url"] ? ` --base-url ${flags["base-url"]}` : ""}`,
        });
      } else {
        if (!applicationId) {
          throw new CommandError(
            `signing in with OAuth needs the application id: pass --client-id or set applicationId in ${resolved.configPath}. To use a personal access token instead, pass --token.`,
          );
        }
        const connection = ctx.connection;
        if (!connection) throw new SquareError("no connection to the service");
        await signInWithBrowser({
          client: connection.client,
          session,
          environment: target.environment,
          baseUrl,
          applicationId,
          scopes: flags.scopes ? readScopes(flags.scopes) : loginScopes(),
          port: flags.port,
          timeoutMs: deps.loginTimeoutMs ?? 5 * 60_000,
          onAddress: async (url) => {
            say(io.stdout, `To sign in, open this address in a browser:\n\n  ${url}\n\nWaiting for the browser…`);
            if (flags["no-browser"]) return;
            const open = deps.openUrl ?? ((u: string) => openInBrowser(u, io.env));
            const opened = await open(url).catch(() => false);
            if (opened) say(io.stdout, "(opened in your browser)");
          },
        });
      }
    } catch (err) {
      if (err instanceof CommandError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      throw new CommandError(redact(message, secrets));
    } finally {
      await ctx.connection?.client.close();
    }

    const status = session.status();
    say(
      io.stdout,
      `Signed in to ${target.environment}${status.merchantId ? ` as merchant ${status.merchantId}` : ""} (token ${status.tokenHint ?? maskToken(undefined)}), kept in ${status.storage}.`,
    );
    await remember(io, config, target.environment, flags["base-url"], clientIdFlag, flags.env !== undefined);
    return 0;
  });
}

/** What a personal-token sign-in works with. */
interface TokenSignIn {
  target: ServiceTarget;
  session: Awaited<ReturnType<typeof openSession>>["session"];
  /** Whether a keychain can keep the sign-in. */
  kept: boolean;
  /** Where sign-ins are kept, or why they cannot be, in words. */
  storage: string;
  /** Secrets to keep out of any message. */
  secrets: string[];
  /** The token given with --token; asked for (hidden) otherwise. */
  given: string | undefined;
  /** The flags that name where the sign-in was made, for a command to repeat them. */
  where: string;
}

/**
 * A personal access token: checked with the service before anything is stored, then kept; with no
 * keychain to keep it in, says that it works and how to use it anyway.
 */
async function signInWithToken(io: CommandIo, deps: CommandDeps, t: TokenSignIn): Promise<void> {
  const { target } = t;
  const token = t.given ?? (await readToken(io));
  if (!token) throw new CommandError("no token was given; nothing was stored.");
  t.secrets.push(token);
  const info = await checkPersonalToken({
    baseUrl: target.baseUrl,
    token,
    squareVersion: target.squareVersion,
    dispatcher: deps.dispatcher,
    maxRetries: deps.maxRetries,
  }).catch((err: unknown) => {
    if (!(err instanceof SquareApiError)) throw err;
    throw new CommandError(
      `the ${target.environment} service refused the token (${err.code}); nothing was stored. Check that it is an access token for ${target.environment}.`,
    );
  });
  const merchant = info.merchant_id;
  if (!t.kept) {
    // Checked, but there is nowhere to keep it: say so plainly, and how to use it anyway. The
    // config is left as it was: a sign-in that was not kept does not move where backroom works.
    throw new CommandError(
      `the token works${merchant ? ` (merchant ${merchant})` : ""}, but the sign-in was NOT kept: ${t.storage}. The config file was left as it was, since nothing was signed in. To use this token, set BACKROOM_ACCESS_TOKEN to it in the environment of each backroom command (for example in your shell profile or your secrets manager), and pass ${t.where} to each.`,
    );
  }
  await t.session.signIn(personalTokens(token, info, { environment: target.environment, baseUrl: target.baseUrl }));
}

/** Saves where the sign-in was made, so later commands work there without flags. Never a secret. */
async function remember(
  io: CommandIo,
  config: BackroomConfig,
  environment: Environment,
  baseUrlFlag: string | undefined,
  clientIdFlag: string | undefined,
  envFlag: boolean,
): Promise<void> {
  const remembered = {
    ...config,
    environment,
    ...(baseUrlFlag ? { baseUrl: baseUrlFlag } : {}),
    ...(clientIdFlag ? { applicationId: clientIdFlag } : {}),
  };
  // A base URL in the file belongs to the environment in the file.
  if (envFlag && !baseUrlFlag && environment !== config.environment) delete remembered.baseUrl;
  if (
    remembered.environment === config.environment &&
    remembered.baseUrl === config.baseUrl &&
    remembered.applicationId === config.applicationId
  ) {
    return;
  }
  const path = await saveConfig(io.env, remembered);
  say(io.stdout, `Saved the environment to ${path} (no secrets are written there).`);
}

/**
 * The token from a prompt: on a terminal a masked ink-text-input field (cursor, paste, editing);
 * from a pipe the first line (`echo "$TOKEN" | backroom login --token`).
 */
async function readToken(io: CommandIo): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  const stderr = io.stderr as NodeJS.WriteStream;
  if (!stdin.isTTY || !stderr.isTTY) return readHidden(io, "Personal access token (not shown): ");
  const { askSecret, PromptCancelled } = await import("../ui/secret-prompt.js");
  try {
    return await askSecret("Personal access token (shown as •): ", { stdin, stdout: stderr });
  } catch (err) {
    if (err instanceof PromptCancelled) throw new CancelledError("cancelled");
    throw err;
  }
}
