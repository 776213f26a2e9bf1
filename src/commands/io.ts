import { spawn } from "node:child_process";
import type { SessionDeps } from "../auth/command-context.js";
import { plural } from "../domain/plural.js";

/** The streams and environment a command runs with; `src/cli.tsx` passes the process's own. */
export interface CommandIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  env: Readonly<Record<string, string | undefined>>;
}

/** What the commands build on; each has a real default, tests pass their own. */
export interface CommandDeps extends SessionDeps {
  /** Opens an address in a browser; resolves false when none could be started. */
  openUrl?: (url: string) => Promise<boolean>;
  /** How long `backroom login` waits for the browser. Default 5 minutes. */
  loginTimeoutMs?: number;
}

/** Writes a line to a stream. */
export function say(stream: NodeJS.WritableStream, line: string): void {
  stream.write(`${line}\n`);
}

/** A failure a command reports in one line, with the exit code it ends with. */
export class CommandError extends Error {
  override name = "CommandError";
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The sign-in prompt was abandoned with Ctrl+C. */
export class CancelledError extends Error {
  override name = "CancelledError";
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
        if (raw && ch === "\u0003") return finish(new CancelledError("cancelled"));
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
  const text = plural(n, unit);
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/**
 * Asks a yes/no question on a terminal and resolves true only for `y` or `yes`. Where nothing can
 * be asked (stdin or stderr is not a terminal: a pipe, a script), it resolves `undefined`: the
 * caller refuses and says to pass `--yes`.
 */
export function askYesNo(io: CommandIo, question: string): Promise<boolean | undefined> {
  const { stdin } = io;
  if (!stdin.isTTY || !(io.stderr as { isTTY?: boolean }).isTTY) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let buffer = "";
    const finish = (answer: boolean) => {
      stdin.removeListener("data", onData);
      stdin.removeListener("end", onEnd);
      stdin.pause();
      resolve(answer);
    };
    const onData = (chunk: Buffer | string) => {
      buffer += chunk.toString();
      const end = buffer.search(/[\r\n]/);
      if (end >= 0) finish(/^\s*y(es)?\s*$/i.test(buffer.slice(0, end)));
    };
    const onEnd = () => finish(false);
    io.stderr.write(`${question} [y/N] `);
    stdin.on("data", onData);
    stdin.on("end", onEnd);
    stdin.resume();
  });
}

/** Resolves on ctrl+c or SIGTERM (from `signals`, the process by default), or when `abort` fires. */
export function untilStopped(signals: NodeJS.EventEmitter = process, abort?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      signals.off("SIGINT", stop);
      signals.off("SIGTERM", stop);
      abort?.removeEventListener("abort", stop);
      resolve();
    };
    if (abort?.aborted) return resolve();
    signals.on("SIGINT", stop);
    signals.on("SIGTERM", stop);
    abort?.addEventListener("abort", stop, { once: true });
  });
}
