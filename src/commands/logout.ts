import { type CommandDeps, type CommandIo, flagsWithEnv, readCommand, say, stringFlag } from "../auth/cli-support.js";
import { openCommandContext } from "../auth/command-context.js";

const USAGE = `usage: backroom logout [--env local|sandbox|production] [--base-url URL] [--client-id ID]
                      [--client-secret SECRET]

Revokes backroom's access at the service (this needs the application secret: --client-secret
or BACKROOM_CLIENT_SECRET), then removes the sign-in from the OS keychain. If revoking fails,
the sign-in is still removed here, and the command says so and exits with 1.`;

const FLAGS = {
  env: "string",
  "base-url": "string",
  "client-id": "string",
  "client-secret": "string",
  help: "boolean",
} as const;

/** `backroom logout`: revoke at the service, then forget locally whatever the service said. */
export async function runLogout(argv: string[], io: CommandIo, deps: CommandDeps = {}): Promise<number> {
  const read = readCommand(io, "backroom logout", USAGE, () => flagsWithEnv(argv, FLAGS));
  if ("exit" in read) return read.exit;
  const { flags, environment } = read.value;
  const ctx = await openCommandContext(io, deps, {
    environment,
    baseUrl: stringFlag(flags["base-url"]),
    applicationId: stringFlag(flags["client-id"]),
  });
  if (!ctx) return 1;
  try {
    if (ctx.session.state().status !== "signed-in") {
      say(io.stdout, `Not signed in to ${ctx.target.environment}; nothing to do.`);
      return 0;
    }
    const clientSecret = stringFlag(flags["client-secret"]) ?? (io.env.BACKROOM_CLIENT_SECRET || undefined);
    const result = await ctx.session.logout({ clientSecret });
    say(result.ok ? io.stdout : io.stderr, result.message);
    return result.ok ? 0 : 1;
  } finally {
    await ctx.connection?.client.close();
  }
}
