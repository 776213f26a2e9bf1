#!/usr/bin/env node
// UI benchmarks of the real app in a pseudo-terminal, launched as `npm start` and the installed
// `backroom` launch it (bin/backroom.js run by its #! line, with the launcher's memory settings),
// each beside its baseline in the same run:
// - start-up to first frame, beside `node -e 0` and beside an Ink hello-world bundle: Ink as
//   published, bundled as the app is (esbuild, ESM, React's production build); the same hello world
//   with the app's patches to Ink is printed too, so what the patches give is visible;
// - key press → frame on the review list holding 10,000 shifts (p50/p95), in a demo store file
//   filled for the run;
// - resident memory of the app process with those shifts loaded, beside the hello world's, again
//   once the list has been open 40 s (past its first background refresh); and, for comparison,
//   the same run as `node bin/backroom.js` (Node's defaults, no launcher settings).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { quantile } from "./bench-terminal.mjs";
import { bundleOptions, publishedInkOptions } from "./bundle-options.mjs";
import { scriptArgs } from "./script-args.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".bench");

async function bundle(name, contents, loader = "ts", options = bundleOptions) {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, name);
  await build({ ...options, stdin: { contents, resolveDir: root, loader, sourcefile: name }, outfile });
  return outfile;
}

const HELLO = `
import { render, Text } from "ink";
import { createElement } from "react";
render(createElement(Text, null, "Hello from Ink"));
setInterval(() => {}, 1 << 30);
`;

// The local service and the client, to fill a demo store file before the app opens it.
const FILL = `
export { createService } from "./src/service/index.js";
export { createClient } from "./src/square/client.js";
`;

/** The app as `npm start` and the installed `backroom` run it: the file itself, by its #! line. */
export const APP = "bin/backroom.js";
/** The same app started by plain `node`, without the launcher's settings. */
const APP_PLAIN_NODE = "node bin/backroom.js";

const median = (a) =>
  quantile(
    [...a].sort((x, y) => x - y),
    0.5,
  );

/** The environment minus CI (Ink in CI draws only the last frame), with its own data folders. */
export function ttyEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.CI;
  return env;
}

/**
 * A command in a real pseudo-terminal (`script`), 100×30: write keys, wait for output, read the
 * process's resident memory. `script` runs `sh -c`, which execs the command: its pid is the
 * grandchild we read /proc of.
 */
export function pty(command, env) {
  const child = spawn("script", ["-qfec", `stty cols 100 rows 30; exec ${command}`, "/dev/null"], {
    cwd: root,
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  let waiters = [];
  child.stdout.on("data", (d) => {
    out += d;
    const at = performance.now();
    const still = [];
    for (const w of waiters) if (!w(at)) still.push(w);
    waiters = still;
  });
  return {
    child,
    output: () => out,
    /** Resolves with the time the output first satisfied `test` (checked on each chunk). */
    waitFor(test, timeoutMs = 60_000) {
      if (test(out)) return Promise.resolve(performance.now());
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => {
          writeFileSync(join(outDir, "last-pty-output.txt"), out);
          fail(new Error(`timed out waiting; the output is in .bench/last-pty-output.txt`));
        }, timeoutMs);
        waiters.push((at) => {
          if (!test(out)) return false;
          clearTimeout(timer);
          ok(at);
          return true;
        });
      });
    },
    /** Resolves with the time of the next chunk of output. */
    nextOutput(timeoutMs = 5000) {
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error("no output")), timeoutMs);
        waiters.push((at) => {
          clearTimeout(timer);
          ok(at);
          return true;
        });
      });
    },
    write(keys) {
      child.stdin.write(keys);
    },
    rssMb() {
      const pid = grandchild(child.pid);
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
    },
    stop() {
      child.kill("SIGKILL");
      try {
        process.kill(grandchild(child.pid), "SIGKILL");
      } catch {
        // Gone already.
      }
    },
  };
}

function grandchild(pid) {
  for (let depth = 0; depth < 3; depth++) {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    if (kids.length === 0) return pid;
    pid = Number(kids[0]);
  }
  return pid;
}

/** Time from spawn to the first output that satisfies `test`; the process is then stopped. */
async function firstFrame(command, test, env) {
  const t0 = performance.now();
  const p = pty(command, env);
  try {
    const at = await p.waitFor(test, 30_000);
    return { ms: at - t0, rssMb: p.rssMb() };
  } finally {
    p.stop();
  }
}

async function firstExit(command, env) {
  const t0 = performance.now();
  const p = pty(command, env);
  await new Promise((ok) => p.child.on("exit", ok));
  return performance.now() - t0;
}

/** Start-up: medians of `runs`, the three commands alternating so they see the same load. */
export async function benchStartup({ runs = 5 } = {}) {
  const hello = await bundle("hello-ink.mjs", HELLO, "js", publishedInkOptions);
  const patched = await bundle("hello-ink-patched.mjs", HELLO, "js");
  const data = mkdtempSync(join(tmpdir(), "backroom-bench-"));
  const env = ttyEnv({ XDG_DATA_HOME: data, XDG_CONFIG_HOME: data });
  const saysHello = (o) => o.includes("Hello from Ink");
  try {
    const app = [];
    const ink = [];
    const inkPatched = [];
    const node = [];
    for (let i = 0; i < runs; i++) {
      node.push(await firstExit("node -e 0", env));
      ink.push((await firstFrame(`node ${hello}`, saysHello, env)).ms);
      inkPatched.push((await firstFrame(`node ${patched}`, saysHello, env)).ms);
      // The tab bar is in the very first frame, before any data arrives.
      app.push((await firstFrame(APP, (o) => o.includes("Time clock"), env)).ms);
    }
    return {
      runs,
      appMs: median(app),
      inkMs: median(ink),
      inkPatchedMs: median(inkPatched),
      nodeMs: median(node),
    };
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

/** Fills a demo store file with `shifts` closed shifts over the last two weeks; returns the range. */
async function fillStore(file, shifts) {
  const m = await import(pathToFileURL(await bundle("bench-fill.mjs", FILL)).href);
  const service = m.createService({ dbPath: file });
  const url = await service.listen(0, "127.0.0.1");
  const client = m.createClient({ baseUrl: url, accessToken: service.accessToken, maxRetries: 2 });
  try {
    const locations = (await client.locations.listLocations()).locations ?? [];
    const main = locations[0];
    const members = await client.team
      .searchTeamMembers({ query: { filter: { location_ids: [main.id], status: "ACTIVE" } } })
      .all();
    const today = new Date();
    // Well before the demo history, so no shift of the seed overlaps.
    const from = new Date(Date.UTC(today.getUTCFullYear() - 2, 0, 5, 12));
    // Each member's shifts follow one another: 10 minutes long, 2 minutes apart.
    const per = Math.ceil(shifts / members.length);
    const jobs = [];
    for (const [mi, member] of members.entries()) {
      for (let i = 0; i < per && mi * per + i < shifts; i++) {
        const start = from.getTime() + i * 12 * 60_000;
        jobs.push({
          idempotency_key: `bench-${mi}-${i}`,
          shift: {
            location_id: main.id,
            team_member_id: member.id,
            start_at: new Date(start).toISOString(),
            end_at: new Date(start + 10 * 60_000).toISOString(),
          },
        });
      }
    }
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) await client.labor.createShift(jobs[next++]);
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const day = (d) => d.toISOString().slice(0, 10);
    return { from: day(from), to: day(new Date(from.getTime() + 14 * 86_400_000)) };
  } finally {
    await client.close();
    await service.close();
  }
}

/** Presses `key(i)` `presses` times, each after the last one's frame; the times to each frame, sorted. */
async function pressAndTime(p, presses, key) {
  const samples = [];
  for (let i = 0; i < presses; i++) {
    // Ink draws at most 30 frames a second; pause past that so each press gets its own frame.
    await new Promise((r) => setTimeout(r, 40));
    const t0 = performance.now();
    const frame = p.nextOutput();
    p.write(key(i));
    samples.push((await frame) - t0);
  }
  return samples.sort((a, b) => a - b);
}

/**
 * Key press → frame on the review list with `shifts` shifts, and the app's memory with them
 * loaded; with `openMs`, its memory again once the list has been open that long (the review
 * refreshes itself every 30 s).
 */
export async function benchKeys({ shifts = 10_000, presses = 200, command = APP, openMs = 0 } = {}) {
  const data = mkdtempSync(join(tmpdir(), "backroom-bench-"));
  const file = join(data, "bench.db");
  try {
    const range = await fillStore(file, shifts);
    const env = ttyEnv({ XDG_DATA_HOME: data, XDG_CONFIG_HOME: data });
    // NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR" profiles the app during the run.
    const p = pty(`${command} --db ${file}`, env);
    try {
      await p.waitFor((o) => o.includes("● online"));
      p.write("2");
      await p.waitFor((o) => o.includes("Workday"));
      p.write("d");
      await p.waitFor((o) => o.includes("Workdays to review"));
      for (const k of ["\u0015", range.from, "\t", "\u0015", range.to, "\r"]) {
        p.write(k);
        await new Promise((r) => setTimeout(r, 50));
      }
      await p.waitFor(
        (o) => o.includes(`Total: ${shifts.toLocaleString("en-US")} shifts`) || o.includes(`Total: ${shifts} shifts`),
        120_000,
      );
      p.write("s");
      await p.waitFor((o) => /of \d{1,3},\d{3}/.test(o.slice(-4000)), 120_000);
      const rssMb = p.rssMb();
      const loadedAt = performance.now();
      // The arrows, then j/k: a printable key waits up to 30 ms where a burst may be a scan
      // (src/ui/scan-detector.ts), an arrow goes at once, so the arrows time the frame itself.
      const arrows = await pressAndTime(p, presses, (i) => (i % 50 < 40 ? "\u001b[B" : "\u001b[A"));
      const letters = await pressAndTime(p, presses, (i) => (i % 50 < 40 ? "j" : "k"));
      const wait = loadedAt + openMs - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const openRssMb = openMs > 0 ? p.rssMb() : undefined;
      // Quit as a manager does (a profile taken with NODE_OPTIONS=--cpu-prof is written on exit).
      p.write("q");
      await Promise.race([new Promise((ok) => p.child.on("exit", ok)), new Promise((ok) => setTimeout(ok, 3000))]);
      return {
        shifts,
        presses,
        p50Ms: quantile(arrows, 0.5),
        p95Ms: quantile(arrows, 0.95),
        letters: { p50Ms: quantile(letters, 0.5), p95Ms: quantile(letters, 0.95) },
        rssMb,
        openRssMb,
      };
    } finally {
      p.stop();
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

/** The launcher's own command line, from bin/backroom.js's #! line (`VAR=… node --flag`). */
function launcher() {
  const line = readFileSync(join(root, APP), "utf8").split("\n")[0] ?? "";
  const m = /^#!\/usr\/bin\/env -S (.+)$/.exec(line);
  if (!m) throw new Error(`${APP} no longer starts with "#!/usr/bin/env -S …": update the bench`);
  return `env ${m[1]}`;
}

/** Resident memory of the Ink hello world (Ink as published), after its first frame; `node` starts it. */
export async function helloRss(node = "node") {
  const hello = await bundle("hello-ink.mjs", HELLO, "js", publishedInkOptions);
  return (await firstFrame(`${node} ${hello}`, (o) => o.includes("Hello from Ink"), ttyEnv())).rssMb;
}

/** Every UI benchmark, printed as it goes; for scripts/bench.mjs and `node scripts/bench-ui.mjs`. */
export async function benchUi(opts = {}, log = console.log) {
  const f = (n) => n.toFixed(1);
  const s = await benchStartup(opts);
  log("ui: start-up to first frame, real app in a pty (median of %d)", s.runs);
  log(`  node -e 0              ${f(s.nodeMs)} ms`);
  log(`  Ink hello world        ${f(s.inkMs)} ms  (Ink as published)`);
  log(`    with the app's patches to Ink  ${f(s.inkPatchedMs)} ms`);
  log(
    `  backroom first frame   ${f(s.appMs)} ms  (×${(s.appMs / s.inkMs).toFixed(2)} of Ink's hello world; target ≤ 1.3)`,
  );
  // Open 40 s: past the review's first background refresh (30 s), so the figure after it is steady.
  const keys = await benchKeys({ openMs: 40_000, ...opts });
  log(`ui: key press to frame, review list of ${keys.shifts.toLocaleString("en-US")} shifts (${keys.presses} presses)`);
  log(`  ↓/↑  p50 ${f(keys.p50Ms)} ms   p95 ${f(keys.p95Ms)} ms  (target p95 ≤ 16 ms)`);
  log(
    `  j/k  p50 ${f(keys.letters.p50Ms)} ms   p95 ${f(keys.letters.p95Ms)} ms  (held up to 30 ms first: a printable key may begin a scan, src/ui/scan-detector.ts)`,
  );
  const inkRss = await helloRss();
  log(`ui: resident memory with those shifts loaded: ${f(keys.rssMb)} MB; Ink hello world ${f(inkRss)} MB`);
  log(`  ×${(keys.rssMb / inkRss).toFixed(2)} of the hello world (target ≤ 2)`);
  if (keys.openRssMb !== undefined) {
    log(
      `  the list open 40 s, past its first background refresh: ${f(keys.openRssMb)} MB (×${(keys.openRssMb / inkRss).toFixed(2)})`,
    );
  }
  const inkLaunched = await helloRss(launcher());
  log(
    `  the hello world started with the launcher's settings: ${f(inkLaunched)} MB (app ×${(keys.rssMb / inkLaunched).toFixed(2)})`,
  );
  const plain = await benchKeys({ ...opts, presses: 20, command: APP_PLAIN_NODE });
  log(
    `  the app started as \`${APP_PLAIN_NODE}\` (Node's defaults): ${f(plain.rssMb)} MB, ×${(plain.rssMb / inkRss).toFixed(2)}`,
  );
  return { startup: s, keys, inkRss, inkLaunchedRss: inkLaunched, plainRss: plain.rssMb };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  scriptArgs("bench-ui", "node scripts/bench-ui.mjs");
  await benchUi();
  process.exit(0);
}
