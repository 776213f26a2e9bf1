// What a crash test of the real CLI sets up: a folder of its own, the CLI bundled from source,
// `backroom serve` on a file in that folder, a client on it, and the CLI processes it starts —
// all taken down by `close`.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type SquareClient } from "../../src/square/client.js";
import { buildCli, type ServeProcess, startServe } from "../reliability/serve-process.js";
import { type CliProcess, cliEnv, spawnCli } from "./cli-process.js";

/** A served store and the CLI to run against it. */
export interface CrashRig {
  dir: string;
  url: string;
  client: SquareClient;
  /** Starts `backroom ARGS` from the bundle, signed in to the served store. */
  run(args: readonly string[]): CliProcess;
  close(): Promise<void>;
}

/** Bundles the CLI and serves a store signed in with `token`; `name` names the folders. */
export async function startCrashRig(name: string, token: string): Promise<CrashRig> {
  const dir = mkdtempSync(join(tmpdir(), `backroom-${name}-`));
  const bundleDir = join(process.cwd(), "node_modules", ".cache", `backroom-${name}-${process.pid}`);
  const bundle = buildCli(bundleDir);
  const running: ChildProcess[] = [];
  const serve: ServeProcess = await startServe(bundle, ["--db", join(dir, "store.db"), "--access-token", token]);
  const client = createClient({ baseUrl: serve.url, accessToken: token, maxRetries: 0 });
  const env = cliEnv(dir, token);
  return {
    dir,
    url: serve.url,
    client,
    run: (args) => spawnCli(bundle, args, env, running),
    async close() {
      await client.close();
      await serve.kill("SIGKILL");
      for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      rmSync(bundleDir, { recursive: true, force: true });
    },
  };
}
