#!/usr/bin/env node
// `npm run bench`: every benchmark of the project in one run, each printing its own figures and
// the ratios against its baseline. Builds the bundle first: start-up is measured on what ships.
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });

const only = process.argv[2];
const sections = [
  ["client", async () => (await import("./bench-client.mjs")).runClientBench()],
  ["service", async () => (await import("./bench-service.mjs")).runServiceBench()],
  ["ui", async () => (await import("./bench-ui.mjs")).benchUi()],
  ["stocktake", async () => (await import("./bench-stocktake.mjs")).benchStocktake()],
];
for (const [name, run] of sections) {
  if (only && only !== name) continue;
  console.log(`\n== ${name} ==`);
  await run();
}
// Keep-alive sockets and child pipes would hold the process open; every figure is printed.
process.exit(0);
