import pkg from "../package.json" with { type: "json" };
import type { CommandIo } from "./auth/cli-support.js";
import { runAppCommand } from "./commands/app.js";
import { runLogin } from "./commands/login.js";
import { runLogout } from "./commands/logout.js";
import { runServe } from "./commands/serve.js";
import { runStatus } from "./commands/status.js";

const HELP = `backroom ${pkg.version} — a terminal back office for stores that run on Square

usage: backroom [command] [options]

commands:
  (none)            open the app (on the local demo store unless --env/--base-url say otherwise)
  serve             run the local service alone, as an emulator of the service's interface
  login             sign in (OAuth with PKCE, or --token for a personal access token)
  logout            revoke the token and remove it from the keychain
  status            who is signed in where, until when, and where the token is kept
  help              this text; \`backroom <command> --help\` for a command's options

app options: --env local|sandbox|production, --base-url URL, --read-only, --no-color, --db FILE
other: --version, --help`;

type Command = (argv: string[], io: CommandIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve: (argv, io) => runServe(argv, io),
  login: (argv, io) => runLogin(argv, io),
  logout: (argv, io) => runLogout(argv, io),
  status: (argv, io) => runStatus(argv, io),
};

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
  if (first === undefined || first.startsWith("--")) return runAppCommand(argv, io);
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
