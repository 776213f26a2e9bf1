// The real CLI in a process of its own, for the crash tests: started from a bundle, its output
// collected, its exit awaited; and a poll that waits for a condition without a fixed sleep.
import { type ChildProcess, spawn } from "node:child_process";

/** Resolves when `check` returns a value, polling every `everyMs`; fails after `ms`. */
export async function until<T>(what: string, check: () => T | undefined, ms = 30_000, everyMs = 10): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A CLI process: the child, its exit, and what it printed. */
export interface CliProcess {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: string | null }>;
  stdout(): string;
  /** stdout then stderr. */
  output(): string;
}

/** Starts `node BUNDLE ARGS` with `env`; every process started is added to `running`. */
export function spawnCli(
  bundle: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  running: ChildProcess[],
): CliProcess {
  const child = spawn(process.execPath, [bundle, ...args], {
    cwd: process.cwd(),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.on("exit", (code, signal) => r({ code, signal })),
  );
  return { child, exit, stdout: () => out, output: () => `${out}${err}` };
}
