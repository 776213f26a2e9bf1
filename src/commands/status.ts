import { existsSync } from "node:fs";
import { openSession } from "../auth/command-context.js";
import { adoptTokenStatus, SignedOutError } from "../auth/session.js";
import type { KeptEntry } from "../domain/kept-writes.js";
import type { Location } from "../spec/generated/types.js";
import { SquareApiError } from "../square/index.js";
import { type CommandSpec, readArgs } from "./args.js";
import { type CommandDeps, type CommandIo, relativeTime, say } from "./io.js";
import { keptFor, keptLine } from "./outbox.js";
import { runCommand } from "./run.js";
import {
  checkTargetFlags,
  type DemoTarget,
  findLocation,
  loadTarget,
  openDemo,
  type ServiceTarget,
  signInHint,
  TARGET_OPTIONS,
} from "./target.js";

/** `backroom status`'s command line. */
export const STATUS_SPEC = {
  name: "backroom status",
  summary:
    "Shows where backroom works (and what chose it), the merchant signed in, the token's scopes and expiry, and where the token is kept. Unless --offline, asks the service about the token first (renewing it when it expires within a week).",
  options: {
    ...TARGET_OPTIONS,
    offline: { type: "boolean", help: "do not ask the service; show what is stored" },
    json: { type: "boolean", help: "print one JSON object, and nothing else, on stdout" },
  },
  details:
    "Exits with 1 when not signed in, when the service refuses the token or cannot be reached, or when the config's defaultLocationId names no location.",
} as const satisfies CommandSpec;

/** `backroom status`: who is signed in where, until when, and where the token is kept. */
export async function runStatus(argv: string[], io: CommandIo, deps: CommandDeps = {}): Promise<number> {
  const read = readArgs(io, STATUS_SPEC, argv, (a) => {
    checkTargetFlags(a.values);
    return a.values;
  });
  if ("exit" in read) return read.exit;
  const flags = read.value;
  return runCommand(io, STATUS_SPEC.name, async () => {
    const resolved = await loadTarget(flags, io.env);
    for (const w of resolved.warnings) say(io.stderr, `backroom: ${w}`);
    const { target } = resolved;
    const kept = await keptFor(io, target);
    if (target.kind === "demo") return demoStatus(io, target, resolved.configPath, flags.json === true, kept);

    const ctx = await openSession(io.env, target, deps);
    const { session } = ctx;
    const { check, verified, failed, locationProblem } = await checkWithService(ctx, target, {
      offline: flags.offline === true,
      configPath: resolved.configPath,
    });
    const s = session.status();
    const ok = s.signedIn && !failed && !locationProblem;
    const now = (deps.clock ?? Date).now();
    if (flags.json) {
      say(
        io.stdout,
        JSON.stringify(
          {
            store: target.label,
            ...s,
            baseUrl: target.baseUrl,
            from: target.from,
            ...(check ? { check } : {}),
            ...(target.defaultLocationId ? { defaultLocationId: target.defaultLocationId } : {}),
            ...(locationProblem ? { defaultLocationProblem: locationProblem.words } : {}),
            kept: keptJson(kept),
          },
          null,
          2,
        ),
      );
    } else {
      const rows = serviceRows(target, s, {
        configPath: resolved.configPath,
        check,
        verified,
        locationProblem,
        now,
        memoryStore: ctx.store.kind === "memory",
      });
      rows.push(["Kept in", s.storage]);
      rows.push(keptRow(kept));
      printRows(io, rows);
      printKept(io, kept);
    }
    // The check reads as the status line's "Service:" value; alone on stderr it names the service once.
    if (failed) say(io.stderr, `backroom status: ${check?.startsWith("the service") ? "" : "the service "}${check}`);
    return ok ? 0 : 1;
  });
}

/** A default location the config names that is none of the store's: in words, and the id apart. */
interface LocationProblem {
  words: string;
  details: string;
}

/** Why the config's default location is none of these, or undefined when it is one of them. */
function defaultLocationProblem(
  locations: readonly Pick<Location, "id" | "name">[],
  wanted: string,
  configPath: string,
): LocationProblem | undefined {
  if (findLocation(locations, wanted)) return undefined;
  const there = locations.map((l) => l.name ?? l.id).join(", ") || "none";
  return {
    words: `the default location in the config is none of this store's (it has: ${there}); fix defaultLocationId in ${configPath}`,
    details: `defaultLocationId ${JSON.stringify(wanted)}`,
  };
}

/** The status rows of a location problem: the words, then the id on a details line. */
const locationRows = (p: LocationProblem): [string, string][] => [
  ["Location", p.words],
  ["Details", p.details],
];

/** What asking the service about the sign-in found. */
interface ServiceCheck {
  check: string | undefined;
  verified: boolean;
  failed: boolean;
  locationProblem: LocationProblem | undefined;
}

/**
 * Asks the service about the token (unless offline or not signed in): what it says wins over what
 * was stored at sign-in; a default location that names none is reported.
 */
async function checkWithService(
  ctx: Awaited<ReturnType<typeof openSession>>,
  target: ServiceTarget,
  opts: { offline: boolean; configPath: string },
): Promise<ServiceCheck> {
  const out: ServiceCheck = { check: undefined, verified: false, failed: false, locationProblem: undefined };
  const { session } = ctx;
  try {
    if (opts.offline || !ctx.connection || session.state().status !== "signed-in") return out;
    const before = session.state();
    try {
      await adoptTokenStatus(session, await ctx.connection.client.oauth.retrieveTokenStatus());
      const current = session.state();
      const renewed =
        before.status === "signed-in" &&
        current.status === "signed-in" &&
        before.tokens.access_token !== current.tokens.access_token;
      out.check = renewed ? "checked with the service; renewed just now" : "checked with the service";
      out.verified = true;
      if (target.defaultLocationId) {
        const locations = (await ctx.connection.client.locations.listLocations()).locations ?? [];
        out.locationProblem = defaultLocationProblem(locations, target.defaultLocationId, opts.configPath);
      }
    } catch (err) {
      if (err instanceof SignedOutError) out.check = undefined;
      else if (err instanceof SquareApiError && (await session.noticeError(err))) out.check = undefined;
      else if (err instanceof SquareApiError) {
        out.failed = true;
        const held = session.state();
        const fix =
          held.status === "signed-in" && held.source === "env"
            ? "set a valid BACKROOM_ACCESS_TOKEN"
            : "run `backroom login`";
        out.check = `the service refused the token (${err.code}); ${fix}`;
      } else {
        out.failed = true;
        out.check = `could not be reached at ${target.baseUrl} (${err instanceof Error ? err.message : String(err)})`;
      }
    }
    return out;
  } finally {
    await ctx.connection?.client.close();
  }
}

/** The status lines of a service target (before where the token is kept). */
function serviceRows(
  target: ServiceTarget,
  s: ReturnType<Awaited<ReturnType<typeof openSession>>["session"]["status"]>,
  o: {
    configPath: string;
    check: string | undefined;
    verified: boolean;
    locationProblem: LocationProblem | undefined;
    now: number;
    memoryStore: boolean;
  },
): [string, string][] {
  const rows: [string, string][] = [
    ["Environment", `${target.environment} (${target.baseUrl})`],
    ["Chosen by", chosenBy(target.from, o.configPath)],
  ];
  if (s.signedIn) {
    rows.push(["Merchant", s.merchantId || "unknown"]);
    rows.push([
      "Token",
      `${s.tokenHint} (${s.kind === "oauth" ? "OAuth; renews itself before it expires" : "personal access token"})`,
    ]);
    rows.push(["Scopes", s.scopes?.length ? s.scopes.join(", ") : "unknown"]);
    rows.push([
      "Expires",
      s.expiresAt ? `${s.expiresAt} (${relativeTime(s.expiresAt, o.now)})` : o.verified ? "does not expire" : "unknown",
    ]);
    if (o.check) rows.push(["Service", o.check]);
    if (o.locationProblem) rows.push(...locationRows(o.locationProblem));
  } else {
    rows.push(["Signed in", "no"]);
    rows.push([
      "Why",
      o.memoryStore
        ? `${s.reason ?? "Not signed in."} ${signInHint(target.environment, false)}`
        : (s.reason ?? "Not signed in."),
    ]);
  }
  return rows;
}

function chosenBy(from: string, configPath: string): string {
  if (from === "the config file") return `the config file (${configPath})`;
  if (from === "the default") return "the default (nothing chose another store)";
  return from;
}

/** The status line of what this machine keeps for the service. */
function keptRow(kept: readonly KeptEntry[]): [string, string] {
  if (kept.length === 0) return ["Outbox", "nothing kept on this machine"];
  const refused = kept.filter((e) => e.state === "refused").length;
  return [
    "Outbox",
    `${kept.length} change${kept.length > 1 ? "s" : ""} kept on this machine, not sent yet${refused ? ` (${refused} refused, to resolve in the app: !)` : ""}; sent, once, when backroom next starts here (or \`backroom outbox send\`)`,
  ];
}

function printKept(io: CommandIo, kept: readonly KeptEntry[]): void {
  for (const e of kept) say(io.stdout, `  ${keptLine(e)}`);
}

const keptJson = (kept: readonly KeptEntry[]) =>
  kept.map((e) => ({
    seq: e.seq,
    state: e.state,
    label: e.label,
    actedAt: e.actedAt,
    ...(e.problem ? { problem: e.problem } : {}),
  }));

/**
 * Why the config's default location is none of the demo store's: its file's locations, or (before
 * the file is made, or in memory) the seed's, so `status` never makes the file.
 */
async function demoLocationProblem(
  target: DemoTarget,
  exists: boolean,
  configPath: string,
): Promise<LocationProblem | undefined> {
  const wanted = target.defaultLocationId;
  if (!wanted) return undefined;
  if (!exists) {
    const { DEMO_LOCATIONS } = await import("../service/directory/seed.js");
    return defaultLocationProblem(DEMO_LOCATIONS, wanted, configPath);
  }
  const opened = await openDemo(target);
  try {
    const locations = (await opened.client.locations.listLocations()).locations ?? [];
    return defaultLocationProblem(locations, wanted, configPath);
  } finally {
    await opened.close();
  }
}

async function demoStatus(
  io: CommandIo,
  target: DemoTarget,
  configPath: string,
  json: boolean,
  kept: readonly KeptEntry[],
): Promise<number> {
  const memory = target.dbPath === ":memory:";
  const exists = !memory && existsSync(target.dbPath);
  const locationProblem = await demoLocationProblem(target, exists, configPath);
  const exit = locationProblem ? 1 : 0;
  if (json) {
    say(
      io.stdout,
      JSON.stringify(
        {
          store: "DEMO",
          environment: "local",
          from: target.from,
          dbPath: target.dbPath,
          exists,
          signInNeeded: false,
          ...(target.defaultLocationId ? { defaultLocationId: target.defaultLocationId } : {}),
          ...(locationProblem ? { defaultLocationProblem: locationProblem.words } : {}),
          kept: keptJson(kept),
        },
        null,
        2,
      ),
    );
    return exit;
  }
  printRows(io, [
    ["Store", "DEMO: the demo store, run inside backroom (no account, no network)"],
    ["Chosen by", chosenBy(target.from, configPath)],
    [
      "Kept in",
      memory
        ? "memory only; gone when backroom quits"
        : `${target.dbPath} (${exists ? "kept between runs" : "made and seeded on first use"}; \`backroom demo reset\` starts it over)`,
    ],
    ["Signed in", "not needed: the demo store signs backroom in by itself"],
    ["Elsewhere", "`backroom login --env sandbox|production` signs in to the service; --env picks where to work"],
    ...(locationProblem ? locationRows(locationProblem) : []),
    keptRow(kept),
  ]);
  printKept(io, kept);
  return exit;
}

function printRows(io: CommandIo, rows: readonly (readonly [string, string])[]): void {
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  for (const [k, v] of rows) say(io.stdout, `${`${k}:`.padEnd(width)}${v}`);
}
