import type { OvertimeRules } from "../domain/overtime.js";
import type { PayPeriodRule } from "../domain/time.js";
import type { AccountContext, EnvLabel } from "../state/index.js";
import { deferredClient } from "../state/index.js";
import { exitByHangUp, runApp } from "../ui/run-app.js";
import { type CommandSpec, readArgs } from "./args.js";
import { customerIndexFile } from "./customer-index-file.js";
import { type CommandIo, openInBrowser, say } from "./io.js";
import { holdYoungGeneration } from "./memory.js";
import { runCommand } from "./run.js";
import { LOGIN_SCOPES } from "./scopes.js";
import {
  checkTargetFlags,
  type DemoTarget,
  describeTarget,
  loadTarget,
  type OpenedClient,
  outboxServiceOf,
  type ServiceTarget,
  TARGET_OPTIONS,
  type Target,
} from "./target.js";

/** The app's command line (`backroom` with no command). */
export const APP_SPEC = {
  name: "backroom",
  summary:
    "Opens the app where `backroom status` says backroom works: by default the demo store, kept in a file in the data folder between runs; --env sandbox|production uses the sign-in that `backroom login` stored. `backroom --help` lists the other commands.",
  options: {
    ...TARGET_OPTIONS,
    "read-only": { type: "boolean", help: "disable every write" },
    "no-color": { type: "boolean", help: "no colour (NO_COLOR in the environment does the same)" },
  },
} as const satisfies CommandSpec;

const ENV_LABELS: Record<string, EnvLabel> = { local: "LOCAL", sandbox: "SANDBOX", production: "PRODUCTION" };

/** What the app is told when stdin is not a terminal: it needs keys, and scripts have commands. */
export const NOT_A_TERMINAL =
  "backroom: the app needs a terminal to read keys from, and standard input is not one (a pipe, a file or /dev/null). For scripts, use the commands instead: `backroom status`, `backroom shifts export`, `backroom demo reset` (`backroom --help` lists them all).";

/** `backroom` with no command: the full-screen app. */
export async function runAppCommand(argv: string[], io: CommandIo): Promise<number> {
  const read = readArgs(io, APP_SPEC, argv, (a) => {
    checkTargetFlags(a.values);
    return a.values;
  });
  if ("exit" in read) return read.exit;
  // Before anything is drawn: without a terminal Ink cannot read keys and would wait forever.
  if (!io.stdin.isTTY) {
    say(io.stderr, NOT_A_TERMINAL);
    return 1;
  }
  const flags = read.value;
  const view = { readOnly: flags["read-only"] === true, noColor: flags["no-color"] === true };
  return runCommand(io, APP_SPEC.name, async () => {
    const resolved = await loadTarget(flags, io.env);
    for (const w of resolved.warnings) say(io.stderr, `backroom: ${w}`);
    const { target } = resolved;
    // The review's rules from the config file travel with the view options.
    const { overtime, payPeriod } = resolved.config;
    const withRules = { ...view, ...(overtime ? { overtime } : {}), ...(payPeriod ? { payPeriod } : {}) };
    if (target.kind === "demo") return runOnDemo(target, withRules, io, resolved.configPath);
    return runOnService(target, withRules, io, resolved.configPath);
  });
}

interface ViewOptions {
  readOnly: boolean;
  noColor: boolean;
  overtime?: OvertimeRules;
  payPeriod?: PayPeriodRule;
}

// The command's streams are the process's own outside tests; the app needs them as terminals.
const terminal = (io: CommandIo) => ({
  stdin: io.stdin as NodeJS.ReadStream,
  stdout: io.stdout as NodeJS.WriteStream,
});

/** What the account screen is given: where backroom works and why, and the run's sign-in. */
function accountContext(
  opened: OpenedClient,
  where: AccountContext["where"],
  io: CommandIo,
  extra: { applicationId?: string | undefined; squareVersion?: string | undefined } = {},
): AccountContext | undefined {
  if (!opened.session) return undefined;
  const store = opened.tokenStore;
  return {
    where,
    applicationId: extra.applicationId,
    squareVersion: extra.squareVersion,
    keychain: store
      ? { kind: store.kind, describe: store.describeStorage() }
      : { kind: "memory", describe: "the demo store's own token: nothing is kept" },
    scopeNeeds: LOGIN_SCOPES,
    session: opened.session,
    oauth: opened.client.oauth,
    clientSecret: io.env.BACKROOM_CLIENT_SECRET || undefined,
    openUrl: (url) => openInBrowser(url, io.env),
  };
}

async function runOnService(
  target: ServiceTarget,
  view: ViewOptions,
  io: CommandIo,
  configPath: string,
): Promise<number> {
  const { openTarget } = await import("./target.js");
  // Signed out, the app still opens: on the account screen, where signing in is.
  const opened = await openTarget(target, io.env, {}, { signedOut: "allow" });
  const signedOut = opened.session?.state().status !== "signed-in";
  const where = {
    label: target.label,
    environment: target.environment,
    baseUrl: target.baseUrl,
    from: target.from,
    configPath,
    dbPath: undefined,
  };
  const account = accountContext(opened, where, io, {
    applicationId: target.applicationId,
    squareVersion: target.squareVersion,
  });
  let end = { hungUp: false, kept: 0 };
  try {
    end = await runApp({
      ...(account ? { account } : {}),
      ...(signedOut ? { startOn: "account" as const } : {}),
      client: opened.client,
      envLabel: ENV_LABELS[target.environment] ?? "LOCAL",
      storeLabel: target.label,
      baseUrl: target.baseUrl,
      ...(target.defaultLocationId ? { defaultLocationId: target.defaultLocationId } : {}),
      ...view,
      ...terminal(io),
      ...(opened.notice ? { notice: opened.notice } : {}),
      customerIndexPath: customerIndexFile(target, io.env),
      onFirstFrame: holdYoungGeneration,
      service: outboxServiceOf(target),
    });
  } finally {
    await opened.close();
  }
  if (end.hungUp) exitByHangUp();
  sayKept(io, end.kept, target);
  return 0;
}

/** On the way out: how many writes are kept, and that the next start against this service sends them. */
function sayKept(io: CommandIo, kept: number, target: Target): void {
  if (kept === 0) return;
  say(
    io.stderr,
    `backroom: ${kept} change${kept > 1 ? "s are" : " is"} kept on this machine, not sent yet; backroom sends ${kept > 1 ? "them" : "it"}, once, the next time it starts against ${describeTarget(target)}. \`backroom status\` lists ${kept > 1 ? "them" : "it"}.`,
  );
}

/**
 * The demo store: the first frame is drawn at once, and the store's file is opened (made and
 * seeded on first use) right after it; calls made meanwhile wait for it (a deferred client)
 * rather than fail.
 */
async function runOnDemo(target: DemoTarget, view: ViewOptions, io: CommandIo, configPath: string): Promise<number> {
  let local: OpenedClient | undefined;
  let startService!: () => void;
  const ready = new Promise<void>((resolve) => {
    startService = resolve;
  }).then(async () => {
    // Loaded only now, after the first frame: the service and SQLite are the bulk of the code.
    const { openDemo } = await import("./target.js");
    local = await openDemo(target);
    return local.client;
  });
  // A failure to start is shown by the app on its first call, and said again on the way out.
  let failed: unknown;
  ready.catch((err: unknown) => {
    failed = err;
  });
  const where = {
    label: "DEMO" as const,
    environment: "local" as const,
    baseUrl: undefined,
    from: target.from,
    configPath,
    dbPath: target.dbPath,
  };
  const account = ready.then(() => {
    const ctx = local ? accountContext(local, where, io) : undefined;
    if (!ctx) throw new Error("the demo store did not start");
    return ctx;
  });
  account.catch(() => {});
  let end = { hungUp: false, kept: 0 };
  try {
    end = await runApp({
      account,
      client: deferredClient(ready),
      envLabel: "LOCAL",
      storeLabel: "DEMO",
      ...(target.defaultLocationId ? { defaultLocationId: target.defaultLocationId } : {}),
      ...view,
      ...terminal(io),
      customerIndexPath: customerIndexFile(target, io.env),
      onFirstFrame: () => {
        holdYoungGeneration();
        startService();
      },
      service: outboxServiceOf(target),
    });
  } finally {
    await local?.close();
  }
  // The terminal is gone: nobody to tell, and Node's own exit would fail restoring it.
  if (end.hungUp) exitByHangUp();
  sayKept(io, end.kept, target);
  if (failed !== undefined) {
    // The app's screen, which said it, is gone: say it where it stays, and end as a failure.
    say(io.stderr, `backroom: ${failed instanceof Error ? failed.message : String(failed)}`);
    return 1;
  }
  // The app's own screen is gone now; say where the work was kept, once, on the way out.
  if (local && target.dbPath !== ":memory:") {
    say(io.stderr, `backroom: ${describeTarget(target)} keeps your changes; \`backroom demo reset\` starts it over.`);
  }
  return 0;
}
