#!/usr/bin/env node
// `npm run bench`: every benchmark of the project in one run, each printing its own figures and
// the ratios against its baseline. Builds the bundle first: start-up is measured on what ships.
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptArgs } from "./script-args.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sections = [
  ["client", async () => (await import("./bench-client.mjs")).runClientBench()],
  ["service", async () => (await import("./bench-service.mjs")).runServiceBench()],
  ["ui", async () => (await import("./bench-ui.mjs")).benchUi()],
  ["stocktake", async () => (await import("./bench-stocktake.mjs")).benchStocktake()],
  ["customers", async () => (await import("./bench-customers.mjs")).runCustomersBench()],
];
const names = sections.map(([name]) => name);
const { positionals, fail } = scriptArgs("bench", `npm run bench [-- ${names.join("|")}]`, { allowPositionals: true });
if (positionals.length > 1) fail(`one section at most, got ${positionals.join(" ")}`);
const only = positionals[0];
if (only !== undefined && !names.includes(only)) fail(`no section named ${only}; the sections are ${names.join(", ")}`);
execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
for (const [name, run] of sections) {
  if (only && only !== name) continue;
  console.log(`\n== ${name} ==`);
  await run();
}
// Keep-alive sockets and child pipes would hold the process open; every figure is printed.
process.exit(0);
