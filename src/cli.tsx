import pkg from "../package.json" with { type: "json" };
import type { CommandIo } from "./auth/cli-support.js";
import type { OpenedClient } from "./commands/target.js";

const HELP = `backroom ${pkg.version} — a terminal back office for stores that run on Square

usage: backroom [command] [options]

commands:
  (none)            open the app (on the local demo store unless --env/--base-url say otherwise)
  serve             run the local service alone, as an emulator of the service's interface
  login             sign in (OAuth with PKCE, or --token for a personal access token)
  logout            revoke the token and remove it from the keychain
  status            who is signed in where, until when, and where the token is kept
  shifts export     the review of a location's workdays as CSV (--from, --to, --location, --out)
  help              this text; \`backroom <command> --help\` for a command's options

app options: --env local|sandbox|production, --base-url URL, --read-only, --no-color, --db FILE
other: --version, --help`;

type Command = (argv: string[], io: CommandIo) => Promise<number>;

// Each command is imported when it runs: the app's first frame does not wait for the parsing of
// the local service, SQLite or sign-in code it does not need yet.
const COMMANDS: Record<string, Command> = {
  serve: async (argv, io) => (await import("./commands/serve.js")).runServe(argv, io),
  login: async (argv, io) => (await import("./commands/login.js")).runLogin(argv, io),
  logout: async (argv, io) => (await import("./commands/logout.js")).runLogout(argv, io),
  status: async (argv, io) => (await import("./commands/status.js")).runStatus(argv, io),
  shifts: (argv, io) => runShifts(argv, io),
};

/** `backroom shifts export …`: the one subcommand of `shifts` so far. */
async function runShifts(argv: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== "export") {
    io.stderr.write(
      `backroom shifts: unknown subcommand ${JSON.stringify(sub ?? "")}; try \`backroom shifts export --help\`\n`,
    );
    return 2;
  }
  const { runShiftsExport } = await import("./commands/shifts-export.js");
  const { openTarget, TargetError } = await import("./commands/target.js");
  let opened: OpenedClient | undefined;
  try {
    return await runShiftsExport(rest, io, {
      client: async (target) => {
        opened = await openTarget(target, io.env);
        return opened.client;
      },
    });
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    io.stderr.write(`backroom shifts export: ${err.message}\n`);
    return 1;
  } finally {
    await opened?.close();
  }
}

/** Runs one command line and resolves with the process exit code. */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    io.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  if (first === "help" || first === "--help" || first === "-h") {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  // No command, or only options: the app.
  if (first === undefined || first.startsWith("--")) {
    return (await import("./commands/app.js")).runAppCommand(argv, io);
  }
  const command = COMMANDS[first];
  if (!command) {
    io.stderr.write(`backroom: unknown command ${JSON.stringify(first)}\n\n${HELP}\n`);
    return 2;
  }
  return command(rest, io);
}

const io: CommandIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`backroom: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
