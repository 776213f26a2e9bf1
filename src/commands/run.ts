import { ConfigError } from "../auth/config.js";
import { SquareApiError, SquareError } from "../square/errors.js";
import { UsageError } from "./args.js";
import { fileProblem } from "./file-problem.js";
import { CommandError, type CommandIo, say } from "./io.js";

/**
 * Runs a command's body and turns the failures every command shares into one line on stderr and
 * an exit code: a usage problem found after parsing (exit 2, with a pointer to `--help`), a
 * malformed config file (exit 1, the same message for every command), a {@link CommandError}, or a
 * file or folder the machine refuses ({@link fileProblem}, exit 1). Anything else is a bug and goes
 * on up.
 */
export async function runCommand(io: CommandIo, name: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UsageError) {
      say(io.stderr, `${name}: ${err.message}\n(\`${name} --help\` shows the options)`);
      return 2;
    }
    if (err instanceof ConfigError) {
      say(io.stderr, `backroom: ${err.message}`);
      return 1;
    }
    if (err instanceof CommandError) {
      say(io.stderr, `${name}: ${err.message}`);
      return err.exitCode;
    }
    const file = fileProblem(err);
    if (file) {
      say(io.stderr, `${name}: ${file}`);
      return 1;
    }
    throw err;
  }
}

/**
 * A failed call as a one-line {@link CommandError}: what failed, the service's words, and its
 * code last. Anything that is not the service's answer or the client's own error goes on up.
 */
export function serviceFailure(err: unknown, what: string): never {
  if (err instanceof SquareApiError) {
    const first = err.errors[0];
    throw new CommandError(`${what}: ${first?.detail ?? `the service answered ${err.status}`} (${err.code})`);
  }
  if (err instanceof SquareError) throw new CommandError(`${what}: ${err.message}`);
  throw err;
}
