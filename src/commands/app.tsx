import { type CommandIo, flagsWithEnv, readCommand, say, stringFlag } from "../auth/cli-support.js";
import { deferredClient, type EnvLabel } from "../state/index.js";
import { runApp } from "../ui/run-app.js";
import type { OpenedClient } from "./target.js";

const USAGE = `usage: backroom [--env local|sandbox|production] [--base-url URL] [--read-only] [--no-color]
                [--db FILE]

Opens the app. With no --env it runs on the local demo store (started in this process, kept in
memory unless --db names a file). --env sandbox|production uses the sign-in that
\`backroom login\` stored. --read-only disables every write.`;

const FLAGS = {
  env: "string",
  "base-url": "string",
  "read-only": "boolean",
  "no-color": "boolean",
  db: "string",
  help: "boolean",
} as const;

const LABELS: Record<string, EnvLabel> = { local: "LOCAL", sandbox: "SANDBOX", production: "PRODUCTION" };

/** `backroom` with no command: the full-screen app. */
export async function runAppCommand(argv: string[], io: CommandIo): Promise<number> {
  const read = readCommand(io, "backroom", USAGE, () => flagsWithEnv(argv, FLAGS));
  if ("exit" in read) return read.exit;
  const { flags, environment } = read.value;
  const baseUrl = stringFlag(flags["base-url"]);
  const readOnly = flags["read-only"] === true;
  const noColor = flags["no-color"] === true;

  if ((environment ?? "local") === "local" && !baseUrl) {
    return runOnLocalService({ dbPath: stringFlag(flags.db) ?? ":memory:", readOnly, noColor }, io);
  }

  let opened: OpenedClient | undefined;
  try {
    const { openTarget } = await import("./target.js");
    opened = await openTarget({ environment, baseUrl }, io.env);
    await runApp({
      client: opened.client,
      envLabel: LABELS[opened.environment] ?? "LOCAL",
      readOnly,
      noColor,
      ...(opened.notice ? { notice: opened.notice } : {}),
    });
    return 0;
  } catch (err) {
    say(io.stderr, `backroom: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await opened?.close();
  }
}

/**
 * The demo store: the first frame is drawn at once, and the local service is built right after
 * it; calls made meanwhile wait for it (a deferred client) rather than fail.
 */
async function runOnLocalService(
  opts: { dbPath: string; readOnly: boolean; noColor: boolean },
  io: CommandIo,
): Promise<number> {
  let local: OpenedClient | undefined;
  let startService!: () => void;
  const ready = new Promise<void>((resolve) => {
    startService = resolve;
  }).then(async () => {
    // Loaded only now, after the first frame: the service and SQLite are the bulk of the code.
    const { startLocal } = await import("./target.js");
    local = await startLocal(opts.dbPath);
    return local.client;
  });
  // A failure to start is shown by the app on its first call; keep it from being unhandled here.
  ready.catch(() => {});
  try {
    await runApp({
      client: deferredClient(ready),
      envLabel: "LOCAL",
      readOnly: opts.readOnly,
      noColor: opts.noColor,
      onFirstFrame: startService,
    });
    return 0;
  } catch (err) {
    say(io.stderr, `backroom: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await local?.close();
  }
}
