#!/usr/bin/env node
// `npm run reliability`: bundles the reliability runner (test/reliability/main.ts: the fuzzer,
// auth on every route, kill -9 of the service, load, faults through a proxy, secrets) and runs
// it. Every figure is printed beside its target; the exit code is 1 when a target is missed.
// Options: --fast (the small run `npm test` makes), --only fuzz,auth,… , --seed N.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleOptions } from "./bundle-options.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".bench", "reliability");
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, "runner.mjs");
await build({ ...bundleOptions, entryPoints: [join(root, "test", "reliability", "main.ts")], outfile });
const run = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
process.exit(run.status ?? 1);
