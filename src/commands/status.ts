import { existsSync } from "node:fs";
import { openSession } from "../auth/command-context.js";
import { adoptTokenStatus, SignedOutError } from "../auth/session.js";
import { SquareApiError } from "../square/index.js";
import { type CommandSpec, readArgs } from "./args.js";
import { type CommandDeps, type CommandIo, relativeTime, say } from "./io.js";
import { runCommand } from "./run.js";
import { checkTargetFlags, type DemoTarget, findLocation, loadTarget, signInHint, TARGET_OPTIONS } from "./target.js";

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
    if (target.kind === "demo") return demoStatus(io, target, resolved.configPath, flags.json === true);

    const ctx = await openSession(io.env, target, deps);
    const { session } = ctx;
    let check: string | undefined;
    let verified = false;
    let failed = false;
    let locationProblem: string | undefined;
    try {
      if (!flags.offline && ctx.connection && session.state().status === "signed-in") {
        const before = session.state();
        try {
          await adoptTokenStatus(session, await ctx.connection.client.oauth.retrieveTokenStatus());
          const current = session.state();
          const renewed =
            before.status === "signed-in" &&
            current.status === "signed-in" &&
            before.tokens.access_token !== current.tokens.access_token;
          check = renewed ? "checked with the service; renewed just now" : "checked with the service";
          verified = true;
          if (target.defaultLocationId) {
            const locations = (await ctx.connection.client.locations.listLocations()).locations ?? [];
            if (!findLocation(locations, target.defaultLocationId)) {
              locationProblem = `${target.defaultLocationId} names no location here (there are: ${locations.map((l) => l.name ?? l.id).join(", ") || "none"}); fix defaultLocationId in ${resolved.configPath}`;
            }
          }
        } catch (err) {
          if (err instanceof SignedOutError) check = undefined;
          else if (err instanceof SquareApiError && (await session.noticeError(err))) check = undefined;
          else if (err instanceof SquareApiError) {
            failed = true;
            const held = session.state();
            const fix =
              held.status === "signed-in" && held.source === "env"
                ? "set a valid BACKROOM_ACCESS_TOKEN"
                : "run `backroom login`";
            check = `the service refused the token (${err.code}); ${fix}`;
          } else {
            failed = true;
            check = `could not be reached at ${target.baseUrl} (${err instanceof Error ? err.message : String(err)})`;
          }
        }
      }
    } finally {
      await ctx.connection?.client.close();
    }

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
            ...(locationProblem ? { defaultLocationProblem: locationProblem } : {}),
          },
          null,
          2,
        ),
      );
    } else {
      const rows: [string, string][] = [
        ["Environment", `${target.environment} (${target.baseUrl})`],
        ["Chosen by", chosenBy(target.from, resolved.configPath)],
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
          s.expiresAt ? `${s.expiresAt} (${relativeTime(s.expiresAt, now)})` : verified ? "does not expire" : "unknown",
        ]);
        if (check) rows.push(["Service", check]);
        if (locationProblem) rows.push(["Location", locationProblem]);
      } else {
        rows.push(["Signed in", "no"]);
        rows.push([
          "Why",
          ctx.store.kind === "memory"
            ? `${s.reason ?? "Not signed in."} ${signInHint(target.environment, false)}`
            : (s.reason ?? "Not signed in."),
        ]);
      }
      rows.push(["Kept in", s.storage]);
      printRows(io, rows);
    }
    if (failed) say(io.stderr, `backroom status: the service ${check}`);
    return ok ? 0 : 1;
  });
}

function chosenBy(from: string, configPath: string): string {
  if (from === "the config file") return `the config file (${configPath})`;
  if (from === "the default") return "the default (nothing chose another store)";
  return from;
}

function demoStatus(io: CommandIo, target: DemoTarget, configPath: string, json: boolean): number {
  const memory = target.dbPath === ":memory:";
  const exists = !memory && existsSync(target.dbPath);
  if (json) {
    say(
      io.stdout,
      JSON.stringify(
        { store: "DEMO", environment: "local", from: target.from, dbPath: target.dbPath, exists, signInNeeded: false },
        null,
        2,
      ),
    );
    return 0;
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
  ]);
  return 0;
}

function printRows(io: CommandIo, rows: readonly (readonly [string, string])[]): void {
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  for (const [k, v] of rows) say(io.stdout, `${`${k}:`.padEnd(width)}${v}`);
}
