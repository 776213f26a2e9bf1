import { spawn } from "node:child_process";
import type { Dispatcher } from "undici";
import { operations } from "../spec/generated/operations.js";
import { ENVIRONMENT_NAMES, type Environment } from "./config.js";
import type { Clock } from "./session.js";
import type { KeytarLike } from "./token-store.js";

/** The streams and environment a command runs with; `src/cli.tsx` passes the process's own. */
export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  env: Readonly<Record<string, string | undefined>>;
}

/** What the sign-in commands build on; each has a real default, tests pass their own. */
export interface CommandDeps {
  /** `undefined` loads the installed keytar; `null` means no keychain. */
  keytar?: KeytarLike | null;
  /** Opens an address in a browser; resolves false when none could be started. */
  openUrl?: (url: string) => Promise<boolean>;
  clock?: Clock;
  dispatcher?: Dispatcher;
  /** How long `backroom login` waits for the browser. Default 5 minutes. */
  loginTimeoutMs?: number;
  /** Retries of each call; tests pass 0. */
  maxRetries?: number;
}

/** A command line the user got wrong; the message is printed with the usage. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Parsed `--name value`, `--name=value` and bare `--name` flags; no positional arguments. */
export function parseFlags(
  argv: readonly string[],
  spec: Readonly<Record<string, "string" | "boolean" | "optional-string">>,
): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const m = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(arg);
    if (!m?.[1]) throw new UsageError(`unexpected argument ${JSON.stringify(arg.startsWith("-") ? arg : "…")}`);
    const name = m[1];
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (kind === "boolean") {
      if (m[2] !== undefined) throw new UsageError(`--${name} takes no value`);
      out[name] = true;
      continue;
    }
    if (m[2] !== undefined) {
      out[name] = m[2];
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith("--")) {
      out[name] = next;
      i++;
    } else if (kind === "optional-string") {
      out[name] = true;
    } else {
      throw new UsageError(`--${name} needs a value`);
    }
  }
  return out;
}

/** Reads `--env`, refusing names other than the three environments. */
export function environmentFlag(value: string | true | undefined): Environment | undefined {
  if (value === undefined) return undefined;
  if (value === true || !(ENVIRONMENT_NAMES as readonly string[]).includes(value)) {
    throw new UsageError(`--env must be one of ${ENVIRONMENT_NAMES.join(", ")}`);
  }
  return value as Environment;
}

/** A string flag's value, or undefined. */
export function stringFlag(value: string | true | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Reads one line without showing it. On a terminal the keys are read in raw mode and nothing is
 * echoed; from a pipe the first line is taken (`echo "$TOKEN" | backroom login --token`).
 */
export function readHidden(io: CommandIo, prompt: string): Promise<string> {
  const { stdin } = io;
  return new Promise((resolve, reject) => {
    let buffer = "";
    const raw = stdin.isTTY === true && typeof stdin.setRawMode === "function";
    const finish = (err?: Error) => {
      stdin.removeListener("data", onData);
      stdin.removeListener("end", onEnd);
      if (raw) stdin.setRawMode?.(false);
      stdin.pause();
      if (raw) io.stderr.write("\n");
      if (err) reject(err);
      else resolve(buffer.trim());
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === "\r" || ch === "\n") return finish();
        if (raw && ch === "\u0003") return finish(new UsageError("cancelled"));
        if (raw && (ch === "\u007f" || ch === "\b")) buffer = buffer.slice(0, -1);
        else buffer += ch;
      }
    };
    const onEnd = () => finish();
    if (raw) {
      io.stderr.write(prompt);
      stdin.setRawMode?.(true);
    } else if (stdin.isTTY) {
      io.stderr.write(prompt);
    }
    stdin.on("data", onData);
    stdin.on("end", onEnd);
    stdin.resume();
  });
}

/**
 * Opens an address with the desktop's opener: `open` on macOS, `xdg-open` where a display
 * exists. Without a display there is nothing to open a browser on, so nothing is started.
 */
export function openInBrowser(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  const command = platform === "darwin" ? "open" : env.DISPLAY || env.WAYLAND_DISPLAY ? "xdg-open" : undefined;
  if (!command) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}

/** Every scope the operations backroom calls require, sorted: what sign-in asks for. */
export function requiredScopes(): string[] {
  const all = new Set<string>();
  for (const op of Object.values(operations)) for (const s of op.scopes) all.add(s);
  return [...all].sort();
}

/** Writes a line to a stream. */
export function say(stream: NodeJS.WritableStream, line: string): void {
  stream.write(`${line}\n`);
}

/** "in 3 days", "2 hours ago": how far an instant is from now, for people. */
export function relativeTime(at: string, now: number): string {
  const ms = Date.parse(at) - now;
  if (Number.isNaN(ms)) return "unknown";
  const abs = Math.abs(ms);
  const [n, unit] =
    abs >= 86_400_000
      ? [Math.floor(abs / 86_400_000), "day"]
      : abs >= 3_600_000
        ? [Math.floor(abs / 3_600_000), "hour"]
        : [Math.max(1, Math.floor(abs / 60_000)), "minute"];
  const text = `${n} ${unit}${n === 1 ? "" : "s"}`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/** A command line read: its value, or the exit code the command ends with (usage shown). */
export type ReadCommand<T> = { value: T } | { exit: number };

/**
 * Reads a command line with `parse`: a UsageError is printed with the usage (exit 2), `"help"`
 * prints the usage (exit 0). Every command starts this way, so it is written once.
 */
export function readCommand<T>(io: CommandIo, name: string, usage: string, parse: () => T | "help"): ReadCommand<T> {
  try {
    const value = parse();
    if (value === "help") {
      say(io.stdout, usage);
      return { exit: 0 };
    }
    return { value };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    say(io.stderr, `${name}: ${err.message}\n${usage}`);
    return { exit: 2 };
  }
}

/** The common reading of a command's flags: `--help` → "help", and a checked `--env`. */
export function flagsWithEnv(
  argv: readonly string[],
  spec: Readonly<Record<string, "string" | "boolean" | "optional-string">>,
): { flags: Record<string, string | true>; environment: Environment | undefined } | "help" {
  const flags = parseFlags(argv, spec);
  if (flags.help) return "help";
  return { flags, environment: environmentFlag(flags.env) };
}
