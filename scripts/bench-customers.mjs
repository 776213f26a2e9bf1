#!/usr/bin/env node
// Customer lookup benchmark: the built `backroom serve` with a demo store of 100,000 customers
// (--scale 200) in its own process, and the app's store and screen in this one, drawing on a fake
// terminal of 100×30. Measures the customer index's first fill (every profile paged in while the
// screen stays usable: keys typed meanwhile are timed too) and its size on disk; then, from a key
// press: the frame that shows the results of the query typed so far (typing at a person's pace,
// every key searched in the index), and the frame after a move through the results (pages read
// from the index as the cursor goes down). Prints p50/p95 of each.
// Usage: node scripts/bench-customers.mjs [scale] — or import { runCustomersBench } from it.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { FakeStdin, FakeStdout, quantile } from "./bench-terminal.mjs";
import { bundleOptions } from "./bundle-options.mjs";
import { scriptArgs, wholeNumber } from "./script-args.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".bench");
const TOKEN = "bench-customers-token";

// What this bench drives in-process: the real client, the store and the app's renderer.
const HARNESS_ENTRY = `
export { createClient } from "./src/square/client.js";
export { createStore } from "./src/state/index.js";
export { renderApp } from "./src/ui/run-app.js";
`;

/** What a person types: names, a company, an email fragment, phone numbers in two spellings, a reference id. */
const QUERIES = ["mary smith", "garcia", "summit roofing", "john.w", "(718) 555-12", "2015550", "CRM-1001", "patel@g"];
/** Typed while the index fills: the screen must answer meanwhile. */
const DURING_FILL = ["smith", "jo", "555"];
/** A person's pace between keys: longer than the search's debounce, so each key is searched. */
const TYPING_GAP_MS = 150;
/** Past Ink's frame throttle (30 a second), so each move gets a frame of its own. */
const MOVE_GAP_MS = 40;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `backroom serve` on a free port; resolves with the child and its address. */
function startService(scale) {
  return new Promise((ok, fail) => {
    // Its own process group, so that stopping it stops everything it started.
    const child = spawn(
      process.execPath,
      ["bin/backroom.js", "serve", "--port", "0", "--scale", String(scale), "--access-token", TOKEN],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    let out = "";
    const timer = setTimeout(() => {
      process.kill(-child.pid, "SIGKILL");
      fail(new Error(`the service did not start within 5 minutes:\n${out.slice(-2000)}`));
    }, 300_000);
    const onData = (d) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      child.stdout.resume();
      child.stderr.resume();
      ok({ child, url: m[1] });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => {
      out += d.toString();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the service exited with ${code} before it was ready:\n${out.slice(-2000)}`));
    });
  });
}

function stopService(child) {
  return new Promise((r) => {
    if (child.exitCode !== null) return r();
    child.once("exit", () => r());
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      child.kill("SIGTERM");
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, 5000).unref();
  });
}

/** Waits until `test()` holds, checking every 5 ms; fails after `ms`. */
async function until(test, what, ms = 60_000) {
  const end = performance.now() + ms;
  while (!test()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The time from now until the first frame written while `test()` holds. */
function frameWhen(stdout, test, what, ms = 30_000) {
  return new Promise((ok, fail) => {
    const t0 = performance.now();
    const timer = setTimeout(() => {
      stdout.off("frame", onFrame);
      fail(new Error(`no frame showed ${what} within ${ms} ms`));
    }, ms);
    const onFrame = () => {
      if (!test()) return;
      clearTimeout(timer);
      stdout.off("frame", onFrame);
      ok(performance.now() - t0);
    };
    stdout.on("frame", onFrame);
  });
}

/** How long a frame may follow a state change: past it, the frame already on screen showed that state. */
const FRAME_FOLLOWS_MS = 50;

/**
 * The time from now until the screen shows a state for which `test()` holds: the first frame
 * written once it holds, or — when the state that holds draws the same frame as the one already
 * on screen (the results of "sm" and "smi" are the same rows), so Ink writes none — the moment it
 * came to hold.
 */
function shownWhen(stdout, store, test, what, ms = 30_000) {
  return new Promise((ok, fail) => {
    const t0 = performance.now();
    let heldAt;
    let quiet;
    const done = (at) => {
      clearTimeout(timer);
      clearTimeout(quiet);
      stdout.off("frame", onFrame);
      unsubscribe();
      ok(at - t0);
    };
    const timer = setTimeout(() => {
      clearTimeout(quiet);
      stdout.off("frame", onFrame);
      unsubscribe();
      fail(new Error(`the screen never showed ${what} within ${ms} ms`));
    }, ms);
    const onFrame = () => {
      if (test()) done(performance.now());
    };
    const unsubscribe = store.subscribe(() => {
      if (heldAt !== undefined || !test()) return;
      heldAt = performance.now();
      quiet = setTimeout(() => done(heldAt), FRAME_FOLLOWS_MS);
    });
    stdout.on("frame", onFrame);
  });
}

/**
 * Types a query at a person's pace, then clears the line; the time from each key to its results'
 * frame, and (in `afterHold`) from the moment the keyboard layer hands the key to the search line
 * (where a burst could be a scan it holds a printable key up to 30 ms; the customers' search line
 * takes typed text at once).
 */
async function typeQuery({ store, stdin, stdout }, query, afterHold = []) {
  const s = () => store.getState();
  const out = [];
  const clearLine = "\u0015";
  for (const key of [...query.split(""), clearLine]) {
    await sleep(TYPING_GAP_MS);
    const before = s().customers.results;
    const line = key === clearLine ? "" : s().customers.line + key;
    const t0 = performance.now();
    let lineAt;
    const stop = store.subscribe(() => {
      if (lineAt === undefined && s().customers.line === line) lineAt = performance.now();
    });
    const shown = shownWhen(
      stdout,
      store,
      () => {
        const c = s().customers;
        return c.line === line && c.results !== before && c.results.phase === "ready";
      },
      `the results for "${line}"`,
    );
    stdin.press(key);
    const ms = await shown;
    stop();
    out.push(ms);
    if (lineAt !== undefined) afterHold.push(ms - (lineAt - t0));
  }
  return out;
}

const ms = (sorted, q) => (sorted.length ? quantile(sorted, q).toFixed(1) : "–");

/** The first fill, in the background, while keys are typed and timed; then the index's size on disk. */
async function measureFill(ctx, dataDir) {
  const { store, stdin, log } = ctx;
  const s = () => store.getState();
  const fillStart = performance.now();
  s().showScreen("customers");
  // The search line takes the keys when asked (/), as a person would.
  await until(() => s().screen.kind === "customers", "the customers screen");
  stdin.press("/");
  await until(() => s().field.customers === "search", "the search line");
  await until(() => s().customers.index.phase === "filling" && s().customers.index.size > 0, "the fill to begin");
  const duringFill = [];
  let typedDuringFill = 0;
  for (const query of DURING_FILL) {
    if (s().customers.index.phase !== "filling") break;
    duringFill.push(...(await typeQuery(ctx, query)));
    typedDuringFill += 1;
  }
  await until(() => s().customers.index.phase === "ready", "the fill", 300_000);
  const seconds = (performance.now() - fillStart) / 1000;
  log(
    `  the index's first fill: ${s().customers.index.size.toLocaleString("en-US")} profiles in ${seconds.toFixed(1)} s (target: ≤ 60 s)`,
  );
  duringFill.sort((a, b) => a - b);
  log(
    `    meanwhile, key press → frame with its results: p50 ${ms(duringFill, 0.5)} ms   p95 ${ms(duringFill, 0.95)} ms   (${duringFill.length} keys, ${typedDuringFill} queries)`,
  );
  await until(() => !s().customers.index.refreshing, "the refresh after the fill");
  const indexFile = join(dataDir, "customers-demo.db");
  const bytes = ["", "-wal", "-shm"].reduce(
    (sum, side) => sum + (existsSync(indexFile + side) ? statSync(indexFile + side).size : 0),
    0,
  );
  log(
    `  the index on disk: ${(bytes / 1e6).toFixed(1)} MB (file, write-ahead log and shared memory; target: ≤ 100 MB)`,
  );
  return { profiles: s().customers.index.size, seconds, bytes };
}

/** Typing: each key, then the frame that shows the results for the line typed so far. */
async function measureTyping(ctx) {
  const typing = [];
  const afterHold = [];
  for (const query of QUERIES) typing.push(...(await typeQuery(ctx, query, afterHold)));
  typing.sort((a, b) => a - b);
  afterHold.sort((a, b) => a - b);
  ctx.log(`  typing a query, key press → frame with its results (${typing.length} keys, ${QUERIES.length} queries)`);
  ctx.log(
    `    p50 ${ms(typing, 0.5)} ms   p95 ${ms(typing, 0.95)} ms   (target: p95 ≤ 50 ms, search in the index included)`,
  );
  ctx.log(
    `    of which from the key reaching the search line: p50 ${ms(afterHold, 0.5)} ms   p95 ${ms(afterHold, 0.95)} ms   (search in the index and the frame)`,
  );
  return {
    keys: typing.length,
    p50Ms: quantile(typing, 0.5),
    p95Ms: quantile(typing, 0.95),
    afterHoldP95Ms: quantile(afterHold, 0.95),
  };
}

/** Moving: everyone by name, the cursor going down; pages come in as it nears their end. */
async function measureMoving({ store, stdin, stdout, log }, moves) {
  const s = () => store.getState();
  await until(() => s().customers.line === "" && s().customers.results.phase === "ready", "the full list");
  const down = "\u001b[B";
  const moving = [];
  for (let i = 0; i < moves; i++) {
    await sleep(MOVE_GAP_MS);
    const frame = frameWhen(stdout, () => true, "a move");
    stdin.press(down);
    moving.push(await frame);
  }
  const loaded = s().customers.results.rows.length;
  moving.sort((a, b) => a - b);
  log(`  moving through results, key press → frame (${moving.length} moves; ${loaded} profiles loaded, page by page)`);
  log(`    p50 ${ms(moving, 0.5)} ms   p95 ${ms(moving, 0.95)} ms   (target: p95 ≤ 16 ms)`);
  return { moves: moving.length, loaded, p50Ms: quantile(moving, 0.5), p95Ms: quantile(moving, 0.95) };
}

/** Builds what this bench drives in-process: the real client, the store and the app's renderer. */
async function buildHarness() {
  if (!existsSync(join(root, "dist", "backroom.mjs"))) throw new Error("run `npm run build` first");
  mkdirSync(outDir, { recursive: true });
  const harness = join(outDir, "customers-harness.js");
  await build({
    ...bundleOptions,
    stdin: { contents: HARNESS_ENTRY, resolveDir: root, loader: "ts", sourcefile: "customers-harness.ts" },
    outfile: harness,
  });
  return import(pathToFileURL(harness).href);
}

/** Runs the customer lookup benchmark; `scale` 200 is the demo store of 100,000 customers. */
export async function runCustomersBench({ scale = 200, moves = 300, log: print = console.log } = {}) {
  // Ink takes over console.log while the app is drawn: lines wait here until it is gone.
  const lines = [];
  const log = (line) => lines.push(line);
  const h = await buildHarness();
  const t0 = performance.now();
  const { child, url } = await startService(scale);
  log(
    `customers: demo store at scale ${scale} seeded and listening in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const client = h.createClient({ baseUrl: url, accessToken: TOKEN, maxRetries: 0 });
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  let instance;
  const dataDir = mkdtempSync(join(tmpdir(), "backroom-bench-"));
  try {
    const store = h.createStore({ client, dataDir });
    ({ instance } = h.renderApp({ store, stdin, stdout, color: false }));
    await until(() => store.getState().locationId !== undefined, "the locations");
    const total = (await client.customers.listCustomers({ limit: 1, count: true })).count;
    log(`  customers in the store: ${total.toLocaleString("en-US")}`);
    const ctx = { store, stdin, stdout, log };
    const fill = await measureFill(ctx, dataDir);
    const typing = await measureTyping(ctx);
    const moving = await measureMoving(ctx, moves);
    return { scale, fill, typing, moving };
  } finally {
    instance?.unmount();
    instance?.cleanup();
    await client.close();
    await stopService(child);
    rmSync(dataDir, { recursive: true, force: true });
    for (const line of lines) print(line);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { positionals, fail } = scriptArgs("bench-customers", "node scripts/bench-customers.mjs [scale]", {
    allowPositionals: true,
  });
  if (positionals.length > 1) fail(`one scale at most, got ${positionals.join(" ")}`);
  await runCustomersBench({
    scale: wholeNumber(positionals[0], { fallback: 200, min: 1, max: 1000, what: "the scale", fail }),
  });
  process.exit(0);
}
