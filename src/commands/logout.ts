import { openSession } from "../auth/command-context.js";
import { type CommandSpec, readArgs } from "./args.js";
import { removeCustomerIndexes } from "./customer-index-file.js";
import { type CommandDeps, type CommandIo, say } from "./io.js";
import { runCommand } from "./run.js";
import { checkTargetFlags, loadTarget, TARGET_OPTIONS } from "./target.js";

/** `backroom logout`'s command line. */
export const LOGOUT_SPEC = {
  name: "backroom logout",
  summary:
    "Revokes backroom's access at the service (this needs the application secret: --client-secret or BACKROOM_CLIENT_SECRET), then removes the sign-in from the OS keychain, and the environment's customer index from the data folder. If revoking fails, the sign-in and the index are still removed here, and the command says so and exits with 1.",
  options: {
    env: TARGET_OPTIONS.env,
    "base-url": TARGET_OPTIONS["base-url"],
    "client-id": { type: "string", value: "ID", help: "the application id the sign-in was made with" },
    "client-secret": { type: "string", value: "SECRET", help: "the application secret, to revoke at the service" },
  },
} as const satisfies CommandSpec;

/** `backroom logout`: revoke at the service, then forget locally whatever the service said. */
export async function runLogout(argv: string[], io: CommandIo, deps: CommandDeps = {}): Promise<number> {
  const read = readArgs(io, LOGOUT_SPEC, argv, (a) => {
    checkTargetFlags(a.values);
    return a.values;
  });
  if ("exit" in read) return read.exit;
  const flags = read.value;
  return runCommand(io, LOGOUT_SPEC.name, async () => {
    const resolved = await loadTarget(flags, io.env);
    for (const w of resolved.warnings) say(io.stderr, `backroom: ${w}`);
    const { target } = resolved;
    if (target.kind === "demo") {
      say(io.stdout, "The demo store needs no sign-in; nothing to do.");
      return 0;
    }
    // The customers kept on this machine for that environment go with the sign-in, whatever the service says.
    const removed = removeCustomerIndexes(io.env, `${target.environment}-`);
    if (removed.length > 0) {
      say(io.stdout, `Removed the customer index of ${target.environment} from this machine (${removed.join(", ")}).`);
    }
    const clientSecret = flags["client-secret"] ?? (io.env.BACKROOM_CLIENT_SECRET || undefined);
    const ctx = await openSession(
      io.env,
      { ...target, applicationId: flags["client-id"] ?? target.applicationId },
      deps,
      { clientSecret },
    );
    try {
      if (ctx.session.state().status !== "signed-in") {
        say(io.stdout, `Not signed in to ${target.environment}; nothing to do.`);
        return 0;
      }
      const result = await ctx.session.logout({ clientSecret });
      say(result.ok ? io.stdout : io.stderr, result.message);
      return result.ok ? 0 : 1;
    } finally {
      await ctx.connection?.client.close();
    }
  });
}
