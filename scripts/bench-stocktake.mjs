#!/usr/bin/env node
// Stocktake benchmarks: 10,000 counted lines committed end to end against the local service
// (`backroom serve` in its own process, as a store manager's machine runs it beside the app), and
// key press → frame on the Stocktake screen while the count holds 10,000 lines (p50/p95).
// `node scripts/bench-stocktake.mjs` prints them; scripts/bench.mjs imports `benchStocktake()`.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { bundleOptions } from "./bundle-options.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".bench");

// What the bench drives in-process: the client, the journal and the commit, as the app does.
const COMMIT_HARNESS = `
export { createClient } from "./src/square/client.js";
export { openJournal } from "./src/state/stocktake-journal.js";
export { planCommit, runCommit } from "./src/state/stocktake-commit.js";
export { loadScope, readExpected } from "./src/state/stocktake-source.js";
`;

async function bundle(name, contents) {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, name);
  await build({ ...bundleOptions, stdin: { contents, resolveDir: root, loader: "ts", sourcefile: name }, outfile });
  return outfile;
}

/** Starts `backroom serve` (the bundle in dist/) and resolves with its address and a stop function. */
function serve(args) {
  const child = spawn(process.execPath, [join(root, "dist", "backroom.mjs"), "serve", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((ok, fail) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok({ url: m[1], stop: () => stopped(child) });
    });
    child.once("exit", (code) => fail(new Error(`backroom serve exited with ${code}: ${out}`)));
  });
}

/** Stops a child with SIGTERM and waits for it: its last words must find the pipe still open. */
function stopped(child) {
  return new Promise((ok) => {
    if (child.exitCode !== null) return ok();
    child.once("exit", () => ok());
    child.kill("SIGTERM");
  });
}

/**
 * `lines` counted lines at Main Street journaled, then committed: planning (keys fixed and
 * journaled) and every request sent and journaled as accepted, until the count is committed.
 */
export async function benchCommit({ lines = 10_000, concurrency = 4 } = {}) {
  const h = await import(pathToFileURL(await bundle("stocktake-harness.js", COMMIT_HARNESS)).href);
  const dir = mkdtempSync(join(tmpdir(), "backroom-bench-stocktake-"));
  const token = "bench-stocktake";
  // 360 variations per lot of the demo catalog.
  const scale = Math.ceil(lines / 360);
  const service = await serve(["--db", join(dir, "store.db"), "--scale", String(scale), "--access-token", token]);
  const client = h.createClient({ baseUrl: service.url, accessToken: token });
  const journal = await h.openJournal(join(dir, "stocktake.db"));
  try {
    const location = "LMAIN0000000001";
    const { items } = await h.loadScope(client, location, { kind: "full" });
    const { counts } = await h.readExpected(client, location);
    if (items.length < lines) throw new Error(`the store has ${items.length} variations, not ${lines}`);
    const count = journal.startCount(
      {
        merchantId: "MLBACKROOMDEMO",
        locationId: location,
        locationName: "Main Street",
        timeZone: "America/New_York",
        scope: { kind: "full" },
        counterId: "",
        counterName: "",
        startedAt: new Date().toISOString(),
      },
      items,
      counts,
      new Date(),
    );
    const at = new Date().toISOString();
    // One line at a time, as a scanner would: each is committed to the journal before the next.
    const t0 = performance.now();
    for (let i = 0; i < lines; i++) {
      journal.recordLine(count.id, {
        variationId: items[i].variationId,
        quantity: String(i % 97),
        countedAt: at,
        countedBy: "",
      });
    }
    const journalMs = performance.now() - t0;
    const t1 = performance.now();
    h.planCommit(journal, count.id, new Date(), () => crypto.randomUUID());
    const outcome = await h.runCommit({
      journal,
      countId: count.id,
      client,
      now: () => new Date(),
      newKey: () => crypto.randomUUID(),
      concurrency,
    });
    const commitMs = performance.now() - t1;
    if (outcome.kind !== "committed" || outcome.lines !== lines) {
      throw new Error(`the commit did not finish: ${JSON.stringify(outcome)}`);
    }
    return { lines, requests: Math.ceil(lines / 100), concurrency, journalMs, commitMs };
  } finally {
    journal.close();
    await client.close();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every stocktake benchmark, printed as it goes; for scripts/bench.mjs and `node scripts/bench-stocktake.mjs`. */
export async function benchStocktake(opts = {}, log = console.log) {
  const f = (n) => n.toFixed(0);
  const c = await benchCommit(opts);
  log(
    `stocktake: ${c.lines.toLocaleString("en-US")} counted lines committed end to end (${c.requests} requests, ${c.concurrency} in flight, backroom serve in its own process)`,
  );
  log(`  commit ${f(c.commitMs)} ms  (target ≤ 3000 ms)  ${c.commitMs <= 3000 ? "met" : "MISSED"}`);
  log(
    `  journaling the lines one by one beforehand: ${f(c.journalMs)} ms (${((c.journalMs * 1000) / c.lines).toFixed(0)} µs a line)`,
  );
  return { commit: c };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await benchStocktake();
  process.exit(0);
}
