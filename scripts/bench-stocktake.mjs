#!/usr/bin/env node
// Stocktake benchmarks: 10,000 counted lines committed end to end against the local service
// (`backroom serve` in its own process, as a store manager's machine runs it beside the app), and
// key press → frame on the Stocktake screen while the count holds 10,000 lines (p50/p95), and the
// resident memory of the app launched as `npm start` launches it with such a count open.
// `node scripts/bench-stocktake.mjs` prints them (`… memory`: the memory alone); scripts/bench.mjs
// imports `benchStocktake()`.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { FakeStdin, FakeStdout, quantile } from "./bench-terminal.mjs";
import { APP, helloRss, pty, ttyEnv } from "./bench-ui.mjs";
import { bundleOptions } from "./bundle-options.mjs";
import { scriptArgs } from "./script-args.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, ".bench");

// What the bench drives in-process: the client, the journal and the commit, as the app does.
const COMMIT_HARNESS = `
export { createClient } from "./src/square/client.js";
export { openJournal } from "./src/local/stocktake-journal.js";
export { planCommit, runCommit } from "./src/state/stocktake-commit.js";
export { loadScope, readExpected } from "./src/state/stocktake-source.js";
export { createStore } from "./src/state/index.js";
export { renderApp } from "./src/ui/run-app.js";
export { createService } from "./src/service/index.js";
`;

/**
 * Bundles a harness as the app is built: ES modules split into chunks that Node links itself. One
 * file made from stdin would have esbuild stand in for the modules' top-level awaits (Ink's), and
 * with the app's import cycles its stand-in never finished: the import hung and the bench ended
 * with nothing printed (exit 13, a top-level await unsettled).
 */
async function bundle(name, contents) {
  const dir = join(outDir, name.replace(/\.[^.]+$/, ""));
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, "entry.ts");
  writeFileSync(entry, contents.replaceAll('"./src/', '"../../src/'));
  await build({
    ...bundleOptions,
    entryPoints: { [name.replace(/\.[^.]+$/, "")]: entry },
    outdir: dir,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
  });
  return join(dir, `${name.replace(/\.[^.]+$/, "")}.mjs`);
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

const LOCATION = "LMAIN0000000001";
const TOKEN = "bench-stocktake";

/** A full count at Main Street in a journal, with `lines` lines counted. */
async function countWithLines(h, client, journal, lines, { oneByOne }) {
  const { items } = await h.loadScope(client, LOCATION, { kind: "full" });
  const { counts } = await h.readExpected(client, LOCATION);
  if (items.length < lines) throw new Error(`the store has ${items.length} variations, not ${lines}`);
  const count = journal.startCount(
    {
      merchantId: "MLBACKROOMDEMO",
      locationId: LOCATION,
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
  // Each line counted at its own moment, a second apart up to now, as a scanner's lines are.
  const end = Date.now();
  const line = (i) => ({
    variationId: items[i].variationId,
    quantity: String(i % 97),
    countedAt: new Date(end - (lines - i) * 1000).toISOString(),
    countedBy: "",
  });
  const t0 = performance.now();
  // One line at a time, as a scanner would: each is committed to the journal before the next.
  if (oneByOne) for (let i = 0; i < lines; i++) journal.recordLine(count.id, line(i));
  else
    journal.recordLines(
      count.id,
      Array.from({ length: lines }, (_, i) => line(i)),
    );
  return { id: count.id, journalMs: performance.now() - t0 };
}

/**
 * `lines` counted lines at Main Street journaled, then committed: planning (keys fixed and
 * journaled) and every request sent and journaled as accepted, until the count is committed.
 */
export async function benchCommit(h, url, dir, { lines = 10_000, concurrency = 4 } = {}) {
  const client = h.createClient({ baseUrl: url, accessToken: TOKEN });
  const journal = await h.openJournal(join(dir, "commit", "stocktake.db"));
  try {
    const count = await countWithLines(h, client, journal, lines, { oneByOne: true });
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
    return { lines, requests: Math.ceil(lines / 100), concurrency, journalMs: count.journalMs, commitMs };
  } finally {
    journal.close();
    await client.close();
  }
}

/**
 * Key press → frame on the Stocktake screen while the open count holds `lines` lines: typing on
 * the counting line (a digit, then Backspace), and j/k on the review of every line. p50/p95.
 */
export async function benchKeys(h, url, dir, { lines = 10_000, presses = 200 } = {}) {
  const client = h.createClient({ baseUrl: url, accessToken: TOKEN });
  const dataDir = join(dir, "keys");
  const journal = await h.openJournal(join(dataDir, "stocktake.db"));
  await countWithLines(h, client, journal, lines, { oneByOne: false });
  journal.close();
  const store = h.createStore({ client, dataDir });
  const stdout = new FakeStdout(110, 30);
  const stdin = new FakeStdin();
  const { instance } = h.renderApp({ store, stdin, stdout, color: false });
  const until = async (what, test) => {
    for (let i = 0; i < 3000 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!test()) throw new Error(`never saw ${what}`);
  };
  // A key whose frame never comes is a failure of the bench, not a wait for ever.
  const nextFrame = () =>
    new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error("a key press drew no frame within 2 s")), 2000);
      stdout.once("frame", () => {
        clearTimeout(timer);
        ok();
      });
    });
  const summary = (samples) => {
    samples.sort((a, b) => a - b);
    return { p50Ms: quantile(samples, 0.5), p95Ms: quantile(samples, 0.95) };
  };
  // The samples of the even presses and of the odd ones apart, when the two keys differ in kind.
  const sample = async (keys) => {
    const even = [];
    const odd = [];
    for (let i = 0; i < presses; i++) {
      // Ink draws at most 30 frames a second; pause past that so each press gets its own frame.
      await new Promise((r) => setTimeout(r, 40));
      const frame = nextFrame();
      const t0 = performance.now();
      stdin.press(keys(i));
      await frame;
      (i % 2 === 0 ? even : odd).push(performance.now() - t0);
    }
    return { ...summary([...even, ...odd]), even: summary(even), odd: summary(odd) };
  };
  try {
    const st = () => store.getState();
    await until("the location", () => st().locationId !== undefined);
    await until("the team", () => st().timeclock.loaded);
    await new Promise((r) => setTimeout(r, 200));
    // The same measure on the Time clock screen, in the same run: what any frame of the app costs here.
    const baseline = await sample((i) => (i % 10 < 5 ? "j" : "k"));
    stdin.press("4");
    await until("the open count", () => st().screen.kind === "stocktake" && st().stocktake.openHere !== undefined);
    stdin.press("\r");
    await until("the count's lines", () => (st().stocktake.count?.lines.length ?? 0) === lines);
    await until("the counting line", () => st().stocktake.view.kind === "count");
    await new Promise((r) => setTimeout(r, 200));
    const typing = await sample((i) => (i % 2 === 0 ? "7" : "\u007f"));
    // esc lets go of the counting line; v opens the review.
    stdin.press("\u001b");
    await until("the counting line let go", () => !st().stocktake.typing);
    stdin.press("v");
    await until("the review", () => st().stocktake.view.kind === "review");
    await new Promise((r) => setTimeout(r, 500));
    const review = await sample((i) => (i % 50 < 40 ? "j" : "k"));
    // The arrows go at once; a printable key waits up to 30 ms where a burst may be a scan.
    const reviewArrows = await sample((i) => (i % 50 < 40 ? "\u001b[B" : "\u001b[A"));
    const rssMb = process.memoryUsage().rss / 1024 / 1024;
    return { lines, presses, typing, review, reviewArrows, baseline, rssMb };
  } finally {
    instance.unmount();
    await client.close();
  }
}

/**
 * Resident memory of the app as `npm start` launches it (bin/backroom.js by its #! line, in a
 * pty), on a demo store file of `lines`+ variations whose journal holds an open full count of
 * `lines` lines: on the Stocktake screen before the count is opened, once it is resumed (the
 * counting view), and once its review is open. `command` starts another build of the app (an
 * earlier commit's bin/backroom.js, to compare in the same conditions).
 */
export async function benchCountMemory(h, { lines = 10_000, scale, command = APP } = {}) {
  const data = mkdtempSync(join(tmpdir(), "backroom-bench-count-"));
  const file = join(data, "store.db");
  try {
    const service = h.createService({ dbPath: file, scale: Number(scale) });
    const url = await service.listen(0, "127.0.0.1");
    const client = h.createClient({ baseUrl: url, accessToken: service.accessToken });
    // The journal where the app looks for it: the data folder's stocktake.db.
    const journal = await h.openJournal(join(data, "backroom", "stocktake.db"));
    try {
      await countWithLines(h, client, journal, lines, { oneByOne: false });
    } finally {
      journal.close();
      await client.close();
      await service.close();
    }
    const p = pty(`${command} --db ${file}`, ttyEnv({ XDG_DATA_HOME: data, XDG_CONFIG_HOME: data }));
    const shown = lines.toLocaleString("en-US");
    const settle = () => new Promise((r) => setTimeout(r, 2000));
    try {
      await p.waitFor((o) => o.includes("● online"));
      p.write("4");
      await p.waitFor((o) => o.includes("Open count:"));
      await settle();
      const homeRssMb = p.rssMb();
      p.write("\r");
      await p.waitFor((o) => o.includes(`${shown} lines`) && o.includes("Counting"), 120_000);
      await settle();
      const countRssMb = p.rssMb();
      // esc lets go of the counting line; v opens the review.
      p.write("\u001b");
      await new Promise((r) => setTimeout(r, 300));
      p.write("v");
      await p.waitFor((o) => /Review\b.*lines/.test(o.slice(-8000)), 120_000);
      await settle();
      const reviewRssMb = p.rssMb();
      p.write("q");
      await Promise.race([new Promise((ok) => p.child.on("exit", ok)), new Promise((ok) => setTimeout(ok, 3000))]);
      return { lines, homeRssMb, countRssMb, reviewRssMb };
    } finally {
      p.stop();
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

/** Every stocktake benchmark, printed as it goes; for scripts/bench.mjs and `node scripts/bench-stocktake.mjs`. */
export async function benchStocktake(opts = {}, log = console.log) {
  const lines = opts.lines ?? 10_000;
  const h = await import(pathToFileURL(await bundle("stocktake-harness.js", COMMIT_HARNESS)).href);
  const dir = mkdtempSync(join(tmpdir(), "backroom-bench-stocktake-"));
  // 360 variations per lot of the demo catalog.
  const scale = String(Math.ceil(lines / 360));
  const service = await serve(["--db", join(dir, "store.db"), "--scale", scale, "--access-token", TOKEN]);
  try {
    const f = (n) => n.toFixed(0);
    const c = await benchCommit(h, service.url, dir, { ...opts, lines });
    log(
      `stocktake: ${c.lines.toLocaleString("en-US")} counted lines committed end to end (${c.requests} requests, ${c.concurrency} in flight, backroom serve in its own process)`,
    );
    log(`  commit ${f(c.commitMs)} ms  (target ≤ 3000 ms)  ${c.commitMs <= 3000 ? "met" : "MISSED"}`);
    log(
      `  journaling the lines one by one beforehand: ${f(c.journalMs)} ms (${((c.journalMs * 1000) / c.lines).toFixed(0)} µs a line)`,
    );
    const k = await benchKeys(h, service.url, dir, { ...opts, lines });
    const g = (n) => n.toFixed(1);
    log(
      `stocktake: key press to frame while the count holds ${k.lines.toLocaleString("en-US")} lines (${k.presses} presses each)`,
    );
    const judged = (r) =>
      `p50 ${g(r.p50Ms)} ms  p95 ${g(r.p95Ms)} ms  (target p95 ≤ 16 ms)  ${r.p95Ms <= 16 ? "met" : "MISSED"}`;
    log(`  typing on the counting line, Backspace  ${judged(k.typing.odd)}`);
    log(
      `    a digit, held up to 30 ms first (it may begin a scan)  p50 ${g(k.typing.even.p50Ms)} ms  p95 ${g(k.typing.even.p95Ms)} ms`,
    );
    log(`  ↓/↑ on the review            ${judged(k.reviewArrows)}`);
    log(`    j/k, held up to 30 ms first p50 ${g(k.review.p50Ms)} ms  p95 ${g(k.review.p95Ms)} ms`);
    log(
      `  for scale: j/k on the Time clock screen, same run  p50 ${g(k.baseline.p50Ms)} ms  p95 ${g(k.baseline.p95Ms)} ms`,
    );
    log(`  resident memory of this bench process with that count open: ${g(k.rssMb)} MB`);
    const m = await benchCountMemory(h, { lines, scale });
    const inkRss = await helloRss();
    log(
      `stocktake: resident memory of the app (${APP} in a pty, as npm start runs it) with a ${m.lines.toLocaleString("en-US")}-line count open`,
    );
    log(
      `  counting view ${g(m.countRssMb)} MB  (target ≤ 150 MB)  ${m.countRssMb <= 150 ? "met" : "MISSED"}; Ink hello world ${g(inkRss)} MB (×${(m.countRssMb / inkRss).toFixed(2)})`,
    );
    log(`  its review open ${g(m.reviewRssMb)} MB  (×${(m.reviewRssMb / inkRss).toFixed(2)})`);
    log(`  the Stocktake screen before the count is opened ${g(m.homeRssMb)} MB`);
    return { commit: c, keys: k, memory: m, inkRss };
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The app's memory alone (`node scripts/bench-stocktake.mjs memory [APP…]`): no commit, no key
 * presses. Several apps (paths of other builds' bin/backroom.js) are measured in turn, `rounds`
 * times, so that they share the machine's conditions.
 */
async function benchMemoryOnly(commands, { lines = 10_000, rounds = commands.length > 1 ? 3 : 1 } = {}) {
  const h = await import(pathToFileURL(await bundle("stocktake-harness.js", COMMIT_HARNESS)).href);
  const inkRss = await helloRss();
  console.log(`Ink hello world ${inkRss.toFixed(1)} MB; app with a ${lines.toLocaleString("en-US")}-line count open:`);
  for (let round = 0; round < rounds; round++) {
    for (const command of commands) {
      const m = await benchCountMemory(h, { lines, scale: Math.ceil(lines / 360), command });
      const f = (n) => n.toFixed(1);
      console.log(
        `  ${command}: counting view ${f(m.countRssMb)} MB, review ${f(m.reviewRssMb)} MB; before it is opened ${f(m.homeRssMb)} MB`,
      );
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { positionals, fail } = scriptArgs("bench-stocktake", "node scripts/bench-stocktake.mjs [memory [APP…]]", {
    allowPositionals: true,
  });
  const [mode, ...command] = positionals;
  if (mode !== undefined && mode !== "memory") fail(`the only mode is memory, got ${mode}`);
  if (mode === "memory") await benchMemoryOnly(command.length > 0 ? command : [APP]);
  else await benchStocktake();
  process.exit(0);
}
