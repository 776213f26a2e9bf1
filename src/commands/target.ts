// "Where am I working": one resolution for every command (the app, `shifts export`, `status`,
// `login`, `logout`, and whatever comes next). Flags first, then environment variables, then the
// config file, then the local demo store. Only light modules are imported at the top: the app's
// first frame waits for this file, not for the local service or the sign-in code.
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { SessionDeps } from "../auth/command-context.js";
import {
  type BackroomConfig,
  ENVIRONMENT_NAMES,
  ENVIRONMENT_URLS,
  type Environment,
  type EnvVars,
  isHttpUrl,
  loadConfig,
} from "../auth/config.js";
import type { Session } from "../auth/session.js";
import type { TokenStore } from "../auth/token-store.js";
import type { LocalService } from "../service/index.js";
import type { Location } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";
import { type OptionSpec, UsageError } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";

/** Which store a command works on, as the header names it. */
export type StoreLabel = "DEMO" | "SANDBOX" | "PRODUCTION" | "LOCAL";

/** The words `--env` and `BACKROOM_ENV` take: the three environments, and the demo store. */
export const TARGET_NAMES = ["demo", ...ENVIRONMENT_NAMES] as const;
type TargetName = (typeof TARGET_NAMES)[number];

/** The options every command that works on a store takes. */
export const TARGET_OPTIONS = {
  env: {
    type: "string",
    short: "e",
    value: TARGET_NAMES.join("|"),
    help: "where to work: the demo store in this process, a local service, the sandbox or production",
  },
  "base-url": { type: "string", value: "URL", help: "the service's address (a `backroom serve` elsewhere, a proxy)" },
  db: {
    type: "string",
    value: "FILE|:memory:",
    help: "the demo store's SQLite file (default: demo.db in the data folder); :memory: for a throwaway one",
  },
} as const satisfies Record<string, OptionSpec>;

/** The flags of {@link TARGET_OPTIONS} as a command line gave them. */
export interface TargetFlagValues {
  env?: string | undefined;
  "base-url"?: string | undefined;
  db?: string | undefined;
}

/** The local demo store, run in this process over a SQLite file (or memory). */
export interface DemoTarget {
  kind: "demo";
  label: "DEMO";
  environment: "local";
  /** An absolute file path, or `:memory:`. */
  dbPath: string;
  /** Where the choice came from, for `status` ("the default", "--env", "BACKROOM_ENV", the config file). */
  from: string;
  defaultLocationId: string | undefined;
}

/** A service reached over HTTP with a sign-in: production, the sandbox, or a local service elsewhere. */
export interface ServiceTarget {
  kind: "service";
  label: StoreLabel;
  environment: Environment;
  baseUrl: string;
  applicationId: string | undefined;
  squareVersion: string | undefined;
  from: string;
  defaultLocationId: string | undefined;
}

/** Where a command works. */
export type Target = DemoTarget | ServiceTarget;

/** A resolved target with the config file it was read with. */
export interface ResolvedTarget {
  target: Target;
  config: BackroomConfig;
  configPath: string;
  /** Unknown fields of the config file, to show as warnings. */
  warnings: string[];
}

/** `$XDG_DATA_HOME/backroom`, or `~/.local/share/backroom`: where the demo store's file lives. */
export function dataDir(env: EnvVars): string {
  const base = env.XDG_DATA_HOME || join(home(env), ".local", "share");
  return join(base, "backroom");
}

/** The demo store's default file. */
export const defaultDemoDb = (env: EnvVars): string => join(dataDir(env), "demo.db");

const home = (env: EnvVars) => env.HOME || homedir();

/** `~` and `~/x` expanded to the home folder; a relative path made absolute against the working folder. */
export function expandPath(path: string, env: EnvVars, cwd: string = process.cwd()): string {
  const expanded = path === "~" ? home(env) : path.startsWith("~/") ? join(home(env), path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

const labelOf = (e: Environment): StoreLabel =>
  e === "production" ? "PRODUCTION" : e === "sandbox" ? "SANDBOX" : "LOCAL";

/** One layer of the resolution: what it names, and how to name it in a message. */
interface Layer {
  env?: TargetName | undefined;
  envFrom: string;
  baseUrl?: string | undefined;
  urlFrom: string;
  db?: string | undefined;
}

function checkName(value: string | undefined, what: string): TargetName | undefined {
  if (value === undefined) return undefined;
  if (!(TARGET_NAMES as readonly string[]).includes(value)) {
    throw new UsageError(`${what} must be one of ${TARGET_NAMES.join(", ")}, not ${JSON.stringify(value)}`);
  }
  return value as TargetName;
}

function checkUrl(value: string | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isHttpUrl(value)) {
    throw new UsageError(
      `${what} must be an http(s) address such as http://127.0.0.1:8080, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * Checks the target flags on their own (a bad word, a bad address, flags that contradict each
 * other): a {@link UsageError}, so the command shows its usage with it.
 */
export function checkTargetFlags(flags: TargetFlagValues): void {
  const env = checkName(flags.env, "--env");
  const url = checkUrl(flags["base-url"], "--base-url");
  if (flags.db !== undefined && flags.db === "") throw new UsageError("--db needs a file name, or :memory:");
  if (env === "demo" && url) {
    throw new UsageError("--env demo is the demo store in this process; it has no --base-url");
  }
  if (flags.db !== undefined && (url || (env && env !== "demo" && env !== "local"))) {
    throw new UsageError(`--db is the demo store's file; it does not go with ${url ? "--base-url" : `--env ${env}`}`);
  }
}

/** The target flags of a command line, picked out of its values and checked ({@link checkTargetFlags}). */
export function targetFlags(values: TargetFlagValues): TargetFlagValues {
  const target = { env: values.env, "base-url": values["base-url"], db: values.db };
  checkTargetFlags(target);
  return target;
}

/**
 * The one resolution of where a command works. Each of the environment, the address and the
 * demo store's file is taken from the first layer that names it — the flags, then
 * `BACKROOM_ENV`/`BACKROOM_BASE_URL`, then the config file — with one rule across layers: an
 * address belongs to the environment of its own layer, so `--env sandbox` never sends calls to
 * the local address the config file names. `local` without an address, or nothing at all, is
 * the demo store. Throws a {@link UsageError} for a bad flag or variable.
 */
export function resolveTarget(flags: TargetFlagValues, env: EnvVars, config: BackroomConfig): Target {
  checkTargetFlags(flags);
  const layers: Layer[] = [
    {
      env: checkName(flags.env, "--env"),
      envFrom: "--env",
      baseUrl: flags["base-url"],
      urlFrom: "--base-url",
      // `--db` names the demo store: on the command line it chooses it over the layers below.
      db: flags.db,
    },
    {
      env: checkName(env.BACKROOM_ENV || undefined, "BACKROOM_ENV"),
      envFrom: "BACKROOM_ENV",
      baseUrl: checkUrl(env.BACKROOM_BASE_URL || undefined, "BACKROOM_BASE_URL"),
      urlFrom: "BACKROOM_BASE_URL",
    },
    { env: config.environment, envFrom: "the config file", baseUrl: config.baseUrl, urlFrom: "the config file" },
  ];
  const envAt = layers.findIndex((l) => l.env !== undefined || l.db !== undefined);
  // `--db` is the demo store's file, so it chooses the demo store (`--env local --db x` too).
  const chosen: TargetName | undefined =
    flags.db !== undefined ? "demo" : envAt < 0 ? undefined : (layers[envAt]?.env ?? "demo");
  const urlAt = layers.findIndex((l, i) => l.baseUrl !== undefined && (envAt < 0 || i <= envAt || l.env === chosen));
  const urlLayer = urlAt < 0 ? undefined : layers[urlAt];
  const envLayer = envAt < 0 ? undefined : layers[envAt];
  const from =
    flags.db !== undefined ? "--db" : envLayer ? envLayer.envFrom : urlLayer ? urlLayer.urlFrom : "the default";
  const defaultLocationId = config.defaultLocationId;

  if (chosen === "demo" || ((chosen === undefined || chosen === "local") && !urlLayer)) {
    if (urlLayer && chosen === "demo") {
      throw new UsageError(
        `${from === "--db" ? "--db" : `${from}=demo`} names the demo store in this process, but ${urlLayer.urlFrom} names a service at ${urlLayer.baseUrl}; give one`,
      );
    }
    const db = flags.db;
    return {
      kind: "demo",
      label: "DEMO",
      environment: "local",
      dbPath: db === undefined ? defaultDemoDb(env) : db === ":memory:" ? db : expandPath(db, env),
      from,
      defaultLocationId,
    };
  }
  const environment: Environment = chosen ?? "local";
  const baseUrl = urlLayer?.baseUrl ?? (environment === "local" ? undefined : ENVIRONMENT_URLS[environment]);
  if (!baseUrl) throw new UsageError("a local service needs its address: --base-url URL");
  return {
    kind: "service",
    label: labelOf(environment),
    environment,
    baseUrl,
    applicationId: config.applicationId,
    squareVersion: config.squareVersion,
    from,
    defaultLocationId,
  };
}

/**
 * Reads the config file and resolves the target. A malformed config file is a ConfigError (the
 * same message for every command); a bad flag or variable a {@link UsageError}.
 */
export async function loadTarget(flags: TargetFlagValues, env: EnvVars): Promise<ResolvedTarget> {
  const loaded = await loadConfig(env);
  return {
    target: resolveTarget(flags, env, loaded.config),
    config: loaded.config,
    configPath: loaded.path,
    warnings: loaded.warnings,
  };
}

/**
 * How a script command works where it should: resolves the target (config warnings go to stderr),
 * opens a client there with `open` (default {@link openTarget}), runs `body`, and closes the client
 * whatever happens.
 */
export async function withTargetClient<C extends { close(): Promise<void> }, T>(
  io: Pick<CommandIo, "env" | "stderr">,
  flags: TargetFlagValues,
  open: ((target: Target) => Promise<C>) | undefined,
  body: (opened: C | OpenedClient, resolved: ResolvedTarget) => Promise<T>,
): Promise<T> {
  const resolved = await loadTarget(flags, io.env);
  for (const w of resolved.warnings) say(io.stderr, `backroom: ${w}`);
  const opened = await (open ?? ((t: Target) => openTarget(t, io.env)))(resolved.target);
  try {
    return await body(opened, resolved);
  } finally {
    await opened.close();
  }
}

/** A description of the target for people: "the demo store (~/.local/share/backroom/demo.db)". */
export function describeTarget(t: Target): string {
  if (t.kind === "demo")
    return `the demo store (${t.dbPath === ":memory:" ? "in memory, gone when backroom quits" : t.dbPath})`;
  return `${t.environment} (${t.baseUrl})`;
}

/**
 * The name the outbox files a target's kept writes under: the same service the next time backroom
 * starts gets them (a demo store by its file, a service by its environment and address).
 */
export function outboxServiceOf(t: Target): string {
  return t.kind === "demo" ? `demo ${t.dbPath}` : `${t.environment} ${t.baseUrl}`;
}

/** A client ready for calls, what it is connected to, and how to let go of it. */
export interface OpenedClient {
  client: SquareClient;
  target: Target;
  /** A standing warning for the status bar (no keychain: the sign-in lasts this run only). */
  notice?: string;
  /** The sign-in the client's calls carry (the account screen shows and manages it). */
  session?: Session;
  /** Where sign-ins are kept (absent for the demo store, whose token is its own). */
  tokenStore?: TokenStore;
  close(): Promise<void>;
}

/** Says how to sign in to an environment, and, without a keychain, how to give a token instead. */
export function signInHint(environment: Environment, keychain: boolean): string {
  const env = `BACKROOM_ACCESS_TOKEN (a personal access token for ${environment})`;
  return keychain
    ? `Run \`backroom login --env ${environment}\` first, or set ${env}.`
    : `There is no working OS keychain here, so \`backroom login\` cannot keep a sign-in; set ${env} instead.`;
}

/**
 * Opens a client on the target: the demo store (built in this process; the file is made and
 * seeded on first use), or the stored sign-in of an environment. Not signed in is a
 * {@link CommandError} that says what to do.
 */
export async function openTarget(
  target: Target,
  env: EnvVars,
  deps: SessionDeps = {},
  options: { signedOut?: "refuse" | "allow" } = {},
): Promise<OpenedClient> {
  if (target.kind === "demo") return openDemo(target);
  const { openSession } = await import("../auth/command-context.js");
  const opened = await openSession(env, target, deps);
  const allow = options.signedOut === "allow" && opened.connection !== undefined;
  if (!opened.connection || (opened.session.state().status !== "signed-in" && !allow)) {
    await opened.connection?.client.close();
    throw new CommandError(
      `not signed in to ${target.environment}. ${signInHint(target.environment, opened.store.kind === "keychain")}`,
    );
  }
  const { client } = opened.connection;
  // Without a keychain the sign-in lasts this run only — unless the token comes from the
  // environment, where it was never meant to be kept: then the notice would only be noise.
  const notice =
    opened.store.kind === "memory" && !env.BACKROOM_ACCESS_TOKEN ? opened.store.describeStorage() : undefined;
  return {
    client,
    target,
    ...(notice ? { notice } : {}),
    session: opened.session,
    tokenStore: opened.store,
    close: () => client.close(),
  };
}

/** Starts the demo store in this process over its file and signs in with its own token. */
export async function openDemo(target: DemoTarget): Promise<OpenedClient> {
  const [{ openDemoService }, { sessionForLocal }] = await Promise.all([
    import("./demo-store.js"),
    import("../auth/connect.js"),
  ]);
  const service: LocalService = await openDemoService(target.dbPath);
  try {
    const baseUrl = await service.listen(0, "127.0.0.1");
    const { client, session } = await sessionForLocal(service, { baseUrl });
    return {
      client,
      target,
      session,
      async close() {
        await client.close();
        await service.close();
      },
    };
  } catch (err) {
    await service.close();
    throw err;
  }
}

/**
 * Finds a location by id or by name, ignoring case; `undefined` when nothing matches. Every
 * `--location` goes through here, so `main street` and `Main Street` are the same everywhere.
 */
export function findLocation<L extends Pick<Location, "id" | "name">>(
  locations: readonly L[],
  wanted: string,
): L | undefined {
  const byId = locations.find((l) => l.id === wanted);
  if (byId) return byId;
  const folded = wanted.trim().toLocaleLowerCase();
  return locations.find((l) => l.name?.trim().toLocaleLowerCase() === folded);
}

/**
 * The location a command works on: `--location` (id or name), else the config's
 * `defaultLocationId`, else the first. A name or id that matches nothing is a
 * {@link CommandError} listing the locations there are — for the config's id too, which is
 * reported rather than silently passed over.
 */
export function pickLocation<L extends Pick<Location, "id" | "name">>(
  locations: readonly L[],
  wanted: string | undefined,
  defaultLocationId: string | undefined,
): L {
  const names = () => locations.map((l) => l.name ?? l.id).join(", ") || "none";
  if (wanted !== undefined) {
    const found = findLocation(locations, wanted);
    if (!found) throw new CommandError(`no location ${JSON.stringify(wanted)}; there are: ${names()}`, 2);
    return found;
  }
  if (defaultLocationId !== undefined) {
    const found = locations.find((l) => l.id === defaultLocationId);
    if (!found) {
      throw new CommandError(
        `the config file's defaultLocationId ${JSON.stringify(defaultLocationId)} names no location here; there are: ${names()}. Fix it, or pass --location.`,
      );
    }
    return found;
  }
  const first = locations[0];
  if (!first) throw new CommandError("the merchant has no locations");
  return first;
}
