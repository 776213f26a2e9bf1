import { type CommandIo, parseFlags, readCommand, say, stringFlag, UsageError } from "../auth/cli-support.js";
import { createService, type LocalService } from "../service/index.js";
import { SEED_KINDS, type SeedKind } from "../service/seed/index.js";

const USAGE = `usage: backroom serve [--host 127.0.0.1] [--port N|0] [--db FILE|:memory:] [--seed demo|empty|sandbox]
                     [--scale N] [--access-token T] [--client-id ID] [--client-secret S]

--seed demo     the demo hardware store: two locations, a team, shifts, customers, stock (default)
--seed empty    only the seller and its two locations
--seed sandbox  as a new sandbox account starts: one location, the owner as its only team
                member, no break types, no customers, a small catalog

Runs the local service alone: the service's interface with its rules, over SQLite, for the
official SDK or any other client. Prints the address, the demo seller's personal access token
and the OAuth application's id and secret. Admin endpoints live under /_emulator/.
Ctrl+C (or SIGTERM) finishes in-flight requests, closes the database and exits 0.`;

const FLAGS = {
  host: "string",
  port: "string",
  db: "string",
  seed: "string",
  scale: "string",
  "access-token": "string",
  "client-id": "string",
  "client-secret": "string",
  help: "boolean",
} as const;

/** The parsed, checked options of `backroom serve`. */
export interface ServeOptions {
  host: string;
  port: number;
  dbPath: string;
  seed: SeedKind;
  scale: number;
  accessToken?: string;
  clientId?: string;
  clientSecret?: string;
}

/** Reads and checks the flags; a bad value is a UsageError naming the flag. */
export function parseServeFlags(argv: readonly string[]): ServeOptions | "help" {
  const flags = parseFlags(argv, FLAGS);
  if (flags.help) return "help";
  const port = stringFlag(flags.port) ?? "0";
  if (!/^\d+$/.test(port) || Number(port) > 65_535)
    throw new UsageError(`--port must be 0–65535, not ${JSON.stringify(port)}`);
  const seed = stringFlag(flags.seed) ?? "demo";
  if (!SEED_KINDS.includes(seed as SeedKind))
    throw new UsageError(`--seed must be ${SEED_KINDS.join(", ")}, not ${JSON.stringify(seed)}`);
  const scale = stringFlag(flags.scale) ?? "1";
  if (!/^\d+$/.test(scale) || Number(scale) < 1 || Number(scale) > 1000) {
    throw new UsageError(`--scale must be a whole number from 1 to 1000, not ${JSON.stringify(scale)}`);
  }
  const out: ServeOptions = {
    host: stringFlag(flags.host) ?? "127.0.0.1",
    port: Number(port),
    dbPath: stringFlag(flags.db) ?? ":memory:",
    seed: seed as SeedKind,
    scale: Number(scale),
  };
  const token = stringFlag(flags["access-token"]);
  const clientId = stringFlag(flags["client-id"]);
  const secret = stringFlag(flags["client-secret"]);
  if (token) out.accessToken = token;
  if (clientId) out.clientId = clientId;
  if (secret) out.clientSecret = secret;
  return out;
}

/** `backroom serve`: runs the local service until SIGINT or SIGTERM. */
export async function runServe(argv: string[], io: CommandIo, signals: NodeJS.EventEmitter = process): Promise<number> {
  const read = readCommand(io, "backroom serve", USAGE, () => parseServeFlags(argv));
  if ("exit" in read) return read.exit;
  const opts = read.value;

  let service: LocalService;
  let url: string;
  try {
    service = createService({
      dbPath: opts.dbPath,
      seed: opts.seed,
      scale: opts.scale,
      ...(opts.accessToken ? { accessToken: opts.accessToken } : {}),
      ...(opts.clientId ? { clientId: opts.clientId } : {}),
      ...(opts.clientSecret ? { clientSecret: opts.clientSecret } : {}),
    });
    url = await service.listen(opts.port, opts.host);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    say(io.stderr, `backroom serve: could not start: ${reason}`);
    return 1;
  }

  say(io.stdout, `listening on ${url}`);
  // The emulator's own credentials, printed on purpose: this is how its user learns them, as the
  // sandbox's developer dashboard shows its test token.
  say(io.stdout, `access token (demo seller, all scopes, never expires): ${service.accessToken}`);
  say(io.stdout, `application id: ${service.clientId}`);
  say(io.stdout, `application secret: ${service.clientSecret}`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      signals.off("SIGINT", stop);
      signals.off("SIGTERM", stop);
      resolve();
    };
    signals.on("SIGINT", stop);
    signals.on("SIGTERM", stop);
  });
  await service.close();
  say(io.stdout, "stopped");
  return 0;
}
