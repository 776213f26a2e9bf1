import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** `backroom serve` running in a process of its own, as its user runs it. */
export interface ServeProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything it wrote to stdout and to stderr so far. */
  stdout(): string;
  stderr(): string;
  alive(): boolean;
  /** Resident memory in bytes (Linux: /proc), or undefined where it cannot be read. */
  rss(): number | undefined;
  /** Sends a signal and resolves when the process has exited, with its exit code or signal. */
  kill(signal: NodeJS.Signals): Promise<number | string | null>;
}

/** The project's root: npm scripts and vitest both run from it. */
export const projectRoot = resolve(process.cwd());

/**
 * Bundles the CLI exactly as `npm run build` does, into `outDir` (which must sit inside the
 * project so that the bundle's bare imports resolve from node_modules); returns the entry file.
 */
export function buildCli(outDir: string, root = projectRoot): string {
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), "--outdir", outDir], {
    cwd: root,
    stdio: "inherit",
  });
  return join(outDir, "backroom.mjs");
}

/** Reads a process's resident set size from /proc; undefined off Linux or once it is gone. */
export function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m?.[1] ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts `backroom serve ARGS` from the bundle and resolves once it prints where it listens. */
export function startServe(cli: string, args: readonly string[], timeoutMs = 120_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let exited = false;
  const exit = new Promise<number | string | null>((r) =>
    child.on("exit", (code, signal) => {
      exited = true;
      r(code ?? signal);
    }),
  );
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`backroom serve did not start within ${timeoutMs} ms:\n${out}\n${err}`));
    }, timeoutMs);
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m?.[1] || !/application secret: \S+/.test(out)) return;
      clearTimeout(timer);
      const pid = child.pid ?? -1;
      resolvePromise({
        url: m[1],
        pid,
        child,
        stdout: () => out,
        stderr: () => err,
        alive: () => !exited,
        rss: () => rssOf(pid),
        kill: (signal) => {
          if (!exited) child.kill(signal);
          return exit;
        },
      });
    };
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      check();
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`backroom serve exited with ${code} before listening:\n${out}\n${err}`));
    });
  });
}
