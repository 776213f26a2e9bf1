import { join } from "node:path";
import { createService, type LocalService } from "../service/index.js";
import { SEED_KINDS, type SeedKind } from "../service/seed/index.js";
import { isKnownVersion, NEWEST_VERSION } from "../service/versions/known.js";
import { type CommandSpec, intOption, oneOf, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { type CommandIo, say, untilStopped } from "./io.js";
import { dataDir } from "./target.js";

/** `backroom serve`'s command line. */
export const SERVE_SPEC = {
  name: "backroom serve",
  summary:
    "Runs the local service alone: the service's interface with its rules, over SQLite, for the official SDK or any other client. Prints the address, the demo seller's personal access token and the OAuth application's id and secret. Admin endpoints live under /_emulator/. Ctrl+C (or SIGTERM) finishes in-flight requests, closes the database and exits 0.",
  options: {
    host: { type: "string", value: "HOST", help: "the address to listen on (default 127.0.0.1)" },
    port: { type: "string", short: "p", value: "N", help: "the port; 0 (the default) picks a free one" },
    db: {
      type: "string",
      value: "FILE|:memory:",
      help: "the SQLite file (default :memory:); an existing file keeps its store",
    },
    seed: {
      type: "string",
      value: "demo|empty|sandbox",
      help: "what a new store starts with: demo (the default), empty (the seller and its locations), or sandbox (as a new sandbox account: one location, the owner, a small catalog, no break types or customers)",
    },
    scale: { type: "string", value: "N", help: "multiplies the demo volumes, 1 to 1000 (default 1)" },
    "access-token": { type: "string", value: "T", help: "the demo seller's personal access token (default: random)" },
    "client-id": { type: "string", value: "ID", help: "the OAuth application's id" },
    "client-secret": { type: "string", value: "S", help: "the OAuth application's secret (default: random)" },
    "api-version": {
      type: "string",
      value: "YYYY-MM-DD",
      help: `the Square-Version of a request that sends none, as the application's pinned version (default ${NEWEST_VERSION}); each request's Square-Version selects the shape of its answer`,
    },
  },
} as const satisfies CommandSpec;

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
  apiVersion: string;
}

/** Checks the options; a bad value is a UsageError naming the flag. */
export function serveOptions({ values }: ParsedArgs<typeof SERVE_SPEC.options>): ServeOptions {
  const out: ServeOptions = {
    host: values.host ?? "127.0.0.1",
    port: intOption("port", values.port, 0, 65_535) ?? 0,
    dbPath: values.db ?? ":memory:",
    seed: oneOf("seed", values.seed, SEED_KINDS) ?? "demo",
    scale: intOption("scale", values.scale, 1, 1000) ?? 1,
    apiVersion: values["api-version"] ?? NEWEST_VERSION,
  };
  if (!isKnownVersion(out.apiVersion)) {
    throw new UsageError(
      `--api-version ${JSON.stringify(out.apiVersion)} is not a Square-Version this service knows (2018-07-12 to ${NEWEST_VERSION})`,
    );
  }
  if (values.db === "") throw new UsageError("--db needs a file name, or :memory:");
  if (values["access-token"]) out.accessToken = values["access-token"];
  if (values["client-id"]) out.clientId = values["client-id"];
  if (values["client-secret"]) out.clientSecret = values["client-secret"];
  return out;
}

/** `backroom serve`: runs the local service until SIGINT or SIGTERM. */
export async function runServe(argv: string[], io: CommandIo, signals: NodeJS.EventEmitter = process): Promise<number> {
  const read = readArgs(io, SERVE_SPEC, argv, serveOptions);
  if ("exit" in read) return read.exit;
  const opts = read.value;

  let service: LocalService;
  let url: string;
  try {
    service = createService({
      dbPath: opts.dbPath,
      seed: opts.seed,
      scale: opts.scale,
      apiVersion: opts.apiVersion,
      // Benchmark volumes (--scale 2 and more) start from the day's prepared store once there is one.
      seedImageDir: join(dataDir(io.env), "seed-images"),
      ...(opts.accessToken ? { accessToken: opts.accessToken } : {}),
      ...(opts.clientId ? { clientId: opts.clientId } : {}),
      ...(opts.clientSecret ? { clientSecret: opts.clientSecret } : {}),
    });
    url = await service.listen(opts.port, opts.host);
  } catch (err) {
    say(io.stderr, `backroom serve: could not start: ${startProblem(err, opts)}`);
    return 1;
  }

  say(io.stdout, `listening on ${url}`);
  // The emulator's own credentials, printed on purpose: this is how its user learns them, as the
  // sandbox's developer dashboard shows its test token.
  say(io.stdout, `access token (demo seller, all scopes, never expires): ${service.accessToken}`);
  say(io.stdout, `application id: ${service.clientId}`);
  say(io.stdout, `application secret: ${service.clientSecret}`);

  await untilStopped(signals);
  await service.close();
  say(io.stdout, "stopped");
  return 0;
}

/** Why the service could not start, in words: the port, the address or the store's file. */
export function startProblem(err: unknown, where: { host: string; port: number; dbPath: string }): string {
  const code = (err as { code?: string } | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === "EADDRINUSE") {
    return `port ${where.port} is already in use on ${where.host}; pick another with --port (0 picks a free one)`;
  }
  if (code === "EADDRNOTAVAIL") {
    return `${where.host} is not an address of this machine; --host 127.0.0.1 (this machine only) or 0.0.0.0 (every network)`;
  }
  if (code === "EACCES") return `port ${where.port} needs administrator rights; pick one above 1023 with --port`;
  if (/directory does not exist/.test(message)) {
    return `cannot open the store's file ${where.dbPath}: its folder does not exist`;
  }
  if (code === "SQLITE_CANTOPEN") {
    return `cannot open the store's file ${where.dbPath}: its folder must exist and be writable (${message})`;
  }
  return message;
}
