#!/usr/bin/env node
// UI benchmarks: start-up to first frame of the compiled app beside `node -e 0` (both under a
// pseudo-terminal, in the same run), key press to frame on the review list with 10,000 shifts
// (p50/p95), and resident memory. `node scripts/bench-ui.mjs` prints them; scripts/bench.mjs
// can import `benchUi()` and fold the numbers into its own report.
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { bundleOptions } from "./bundle-options.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".bench");

// What the key-press bench drives in-process: the store and the app over an in-memory client.
const HARNESS_ENTRY = `
export { createFakeClient, fakeDemoData } from "./src/state/fake-client.js";
export { createStore } from "./src/state/index.js";
export { AppRoot } from "./src/ui/App.js";
export { render } from "ink";
export { createElement } from "react";
`;

async function bundle(name, contents) {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, name);
  await build({ ...bundleOptions, stdin: { contents, resolveDir: root, loader: "ts", sourcefile: name }, outfile });
  return outfile;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** The environment minus CI: Ink in CI draws only the last frame, and there is no first one to see. */
function ttyEnv() {
  const env = { ...process.env };
  delete env.CI;
  return env;
}

/** Runs a command under `script` (a real pseudo-terminal) until `done(output)` or it exits; ms. */
function timeUnderPty(command, done, timeoutMs = 20_000) {
  return new Promise((ok, fail) => {
    const start = performance.now();
    // A fresh pty has no size; give it the 100×30 of the tmux test before the command runs.
    const child = spawn("script", ["-qfec", `stty cols 100 rows 30; ${command}`, "/dev/null"], {
      cwd: root,
      env: ttyEnv(),
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    let finished = false;
    const finish = (ms) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      child.kill("SIGTERM");
      ok(ms);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`no first frame within ${timeoutMs} ms; output so far:\n${out.slice(-500)}`));
    }, timeoutMs);
    child.stdout.on("data", (d) => {
      out += d;
      if (done?.(out)) finish(performance.now() - start);
    });
    child.on("exit", () => finish(performance.now() - start));
  });
}

/**
 * Start-up: first frame of the compiled app (`node bin/backroom.js`, what `npm start` runs, on the
 * in-process demo store) vs. `node -e 0`, medians of `runs`, alternating so both see the same load.
 */
export async function benchStartup({ runs = 5 } = {}) {
  await new Promise((ok, fail) => {
    const b = spawn(process.execPath, [join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
    b.on("exit", (code) => (code === 0 ? ok() : fail(new Error(`build failed (${code})`))));
  });
  const appMs = [];
  const nodeMs = [];
  for (let i = 0; i < runs; i++) {
    nodeMs.push(await timeUnderPty("node -e 0"));
    // The tab bar is in the very first frame, before any data arrives.
    appMs.push(await timeUnderPty("node bin/backroom.js", (out) => out.includes("Time clock")));
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  return { firstFrameMs: median(appMs), nodeBaselineMs: median(nodeMs), runs };
}

class FakeStdout extends EventEmitter {
  columns = 100;
  rows = 30;
  isTTY = true;
  writes = 0;
  write(_chunk) {
    this.writes += 1;
    this.emit("frame");
    return true;
  }
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  #queue = [];
  setEncoding() {}
  setRawMode() {}
  ref() {}
  unref() {}
  resume() {}
  pause() {}
  read() {
    return this.#queue.shift() ?? null;
  }
  press(data) {
    this.#queue.push(data);
    this.emit("readable");
  }
}

/** Key press → frame on the review list with `shifts` shifts; p50/p95 over `presses` presses. */
export async function benchKeys({ shifts = 10_000, presses = 200 } = {}) {
  const h = await import(pathToFileURL(await bundle("ui-harness.js", HARNESS_ENTRY)).href);
  const now = new Date("2026-05-20T19:00:00Z");
  const data = h.fakeDemoData(now);
  const members = data.members.map((m) => m.id);
  // Spread over two workweeks, so the review range holds every one of them.
  for (let i = 0; i < shifts; i++) {
    const start = Date.parse("2026-05-04T12:00:00Z") + (i % 14) * 86_400_000 + (i % 600) * 60_000;
    data.shifts.push({
      id: `B${i}`,
      location_id: "L-MAIN",
      team_member_id: members[i % members.length],
      start_at: new Date(start).toISOString(),
      end_at: new Date(start + 4 * 3_600_000).toISOString(),
      status: "CLOSED",
      version: 1,
      wage: { hourly_rate: { amount: 1700, currency: "USD" } },
      breaks: [],
    });
  }
  const store = h.createStore({ client: h.createFakeClient(data, () => now), clock: { now: () => now } });
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  const app = h.render(h.createElement(h.AppRoot, { store, color: false }), {
    stdout,
    stdin,
    stderr: stdout,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const nextFrame = () => new Promise((ok) => stdout.once("frame", ok));
  const settle = async (test) => {
    for (let i = 0; i < 500 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!test()) throw new Error("the review never loaded");
  };
  await settle(() => store.getState().timeclock.loaded);
  store.getState().showScreen("review");
  await store.getState().loadReview({ from: "2026-05-04", to: "2026-05-17" });
  await settle(() => (store.getState().review.result?.rows.length ?? 0) >= shifts);
  stdin.press("s");
  await nextFrame();
  const samples = [];
  for (let i = 0; i < presses; i++) {
    // Ink draws at most 30 frames a second; pause past that so each press gets its own frame.
    await new Promise((r) => setTimeout(r, 40));
    const frame = nextFrame();
    const t0 = performance.now();
    stdin.press(i % 50 < 40 ? "j" : "k");
    await frame;
    samples.push(performance.now() - t0);
  }
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  app.unmount();
  samples.sort((a, b) => a - b);
  return { shifts, presses, p50Ms: quantile(samples, 0.5), p95Ms: quantile(samples, 0.95), rssMb };
}

/** Every UI benchmark, printed as it goes; for scripts/bench.mjs and `node scripts/bench-ui.mjs`. */
export async function benchUi(opts = {}, log = console.log) {
  const f = (n) => n.toFixed(1);
  const startup = await benchStartup(opts);
  log("ui: start-up to first frame (pty, median of %d)", startup.runs);
  log(`  node -e 0            ${f(startup.nodeBaselineMs)} ms`);
  log(
    `  backroom first frame ${f(startup.firstFrameMs)} ms  (×${(startup.firstFrameMs / startup.nodeBaselineMs).toFixed(2)} of node -e 0)`,
  );
  const keys = await benchKeys(opts);
  log(`ui: key press to frame, review list of ${keys.shifts.toLocaleString("en-US")} shifts (${keys.presses} presses)`);
  log(`  p50 ${f(keys.p50Ms)} ms   p95 ${f(keys.p95Ms)} ms`);
  log(`ui: resident memory with that review loaded: ${f(keys.rssMb)} MB`);
  return { startup, keys };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await benchUi();
  process.exit(0);
}
