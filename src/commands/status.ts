import {
  type CommandDeps,
  type CommandIo,
  flagsWithEnv,
  readCommand,
  relativeTime,
  say,
  stringFlag,
} from "../auth/cli-support.js";
import { openCommandContext } from "../auth/command-context.js";
import { SignedOutError } from "../auth/session.js";
import { SquareApiError } from "../square/index.js";

const USAGE = `usage: backroom status [--env local|sandbox|production] [--base-url URL] [--offline] [--json]

Shows the environment, the merchant signed in, the token's scopes and expiry, and where the
token is kept. Unless --offline, asks the service about the token first (renewing it when it
expires within a week). Exits with 1 when not signed in.`;

const FLAGS = { env: "string", "base-url": "string", offline: "boolean", json: "boolean", help: "boolean" } as const;

/** `backroom status`: who is signed in where, until when, and where the token is kept. */
export async function runStatus(argv: string[], io: CommandIo, deps: CommandDeps = {}): Promise<number> {
  const read = readCommand(io, "backroom status", USAGE, () => flagsWithEnv(argv, FLAGS));
  if ("exit" in read) return read.exit;
  const { flags, environment } = read.value;
  const ctx = await openCommandContext(io, deps, { environment, baseUrl: stringFlag(flags["base-url"]) });
  if (!ctx) return 1;
  const { session, target } = ctx;
  let check: string | undefined;
  let verified = false;
  let refused = false;
  try {
    if (!flags.offline && ctx.connection && session.state().status === "signed-in") {
      const before = session.state();
      try {
        const info = await ctx.connection.client.oauth.retrieveTokenStatus();
        const current = session.state();
        if (current.status === "signed-in") {
          // What the service says wins over what was stored at sign-in (scopes can be changed).
          const t = current.tokens;
          const merged = {
            ...t,
            ...(info.merchant_id ? { merchant_id: info.merchant_id } : {}),
            ...(info.scopes ? { scopes: info.scopes } : {}),
            ...(info.expires_at ? { expires_at: info.expires_at } : {}),
          };
          if (JSON.stringify(merged) !== JSON.stringify(t)) await session.signIn(merged, current.source);
        }
        const renewed =
          before.status === "signed-in" &&
          current.status === "signed-in" &&
          before.tokens.access_token !== current.tokens.access_token;
        check = renewed ? "checked with the service; renewed just now" : "checked with the service";
        verified = true;
      } catch (err) {
        if (err instanceof SignedOutError) check = undefined;
        else if (err instanceof SquareApiError && (await session.noticeError(err))) check = undefined;
        else if (err instanceof SquareApiError) {
          refused = true;
          const held = session.state();
          const fix =
            held.status === "signed-in" && held.source === "env"
              ? "set a valid BACKROOM_ACCESS_TOKEN"
              : "run `backroom login`";
          check = `the service refused the token (${err.code}); ${fix}`;
        } else check = `the service could not be reached (${err instanceof Error ? err.message : String(err)})`;
      }
    }
  } finally {
    await ctx.connection?.client.close();
  }

  const s = session.status();
  const now = (deps.clock ?? Date).now();
  if (flags.json) {
    say(io.stdout, JSON.stringify({ ...s, baseUrl: target.baseUrl ?? null, ...(check ? { check } : {}) }, null, 2));
    return s.signedIn && !refused ? 0 : 1;
  }
  const rows: [string, string][] = [
    [
      "Environment",
      `${target.environment}${target.baseUrl ? ` (${target.baseUrl})` : " (the local service `npm start` runs)"}`,
    ],
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
  } else {
    rows.push(["Signed in", "no"]);
    rows.push([
      "Why",
      target.environment === "local" && !target.baseUrl
        ? "`npm start` signs in to its own local service by itself; for one running elsewhere, `backroom login --base-url URL`."
        : (s.reason ?? "Not signed in."),
    ]);
  }
  rows.push(["Kept in", s.storage]);
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  for (const [k, v] of rows) say(io.stdout, `${`${k}:`.padEnd(width)}${v}`);
  return s.signedIn && !refused ? 0 : 1;
}
