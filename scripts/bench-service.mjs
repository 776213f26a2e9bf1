#!/usr/bin/env node
// Service benchmark: the built `backroom serve` in its own process (so it has a core of its own,
// as it would in use), loaded over loopback from this process. Prints requests/s and latency of
// retrieveCustomer, searchCustomers over 100,000 customers (a fuzzy email fragment, and a
// created_at range), createShift, batchChangeInventory with 100 physical counts per request (at
// its path and at the deprecated one) and batchRetrieveInventoryCounts over 100,000+ counts, each
// as a share of a bare node:http server
// (its own process, answering a stored JSON body) driven by the same generator and connections,
// and beside the same customer and shift calls against Prism (a stateless mock of the same spec)
// when it can be run here. One table at the end, all from one run; and the time `serve` takes to
// listen at scale 1 (median of three starts) and at the benchmark's scale, with peak memory.
// Usage: node scripts/bench-service.mjs [scale] [--only name,name] [--no-prism] [--no-start-up]
// [--cpu-prof DIR] — or import { runServiceBench } from it.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuTimeMs, peakMemoryMb, startChild, stop } from "./bench-child.mjs";
import { inventoryFloor, seedImageOf } from "./bench-inventory-floor.mjs";
import { load as runLoad } from "./bench-load.mjs";
import { line, ROWS, table, transportTable } from "./bench-service-table.mjs";
import { scriptArgs, wholeNumber } from "./script-args.mjs";

/**
 * Seconds of the same requests, untimed, before each timed load: the JIT and the page cache warm
 * up before the clock runs. Three, not one: after one second a fresh `serve` still spent about twice
 * the CPU a request of its later seconds on a fuzzy customer search (2 s windows after it: 541,
 * 305, 269, 328, 292, 252 µs), 13 % of it in V8's optimising compiler (perf, s7-search's log).
 */
const WARM_UP_SECONDS = 3;

/** Every load is bounded by time only, so that the fast and the slow run as long; it follows a warm-up. */
async function load(opts) {
  const warm = await runLoad({ ...opts, maxRequests: 10_000_000, maxSeconds: WARM_UP_SECONDS });
  // The timed run goes on from where the warm-up stopped: writes carry new idempotency keys.
  const cpuBefore = opts.pid === undefined ? undefined : cpuTimeMs(opts.pid);
  const r = await runLoad({ maxRequests: 10_000_000, ...opts, request: (i) => opts.request(i + warm.requests) });
  // The first index neither run used: a request made after them is new (a write's key, a shift's hours).
  r.nextIndex = warm.requests + r.requests + 1;
  const cpuAfter = opts.pid === undefined ? undefined : cpuTimeMs(opts.pid);
  // The server's CPU per request: µs of its user and system time over the timed run.
  if (cpuBefore !== undefined && cpuAfter !== undefined && r.requests > 0) {
    r.cpuUsPerRequest = ((cpuAfter - cpuBefore) * 1000) / r.requests;
  }
  return r;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TOKEN = "bench-access-token";

async function call(url, method, path, body) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", "square-version": "2024-01-18" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

const headers = {
  authorization: `Bearer ${TOKEN}`,
  "content-type": "application/json",
  "square-version": "2024-01-18",
};

/**
 * A fragment of an email a clerk might type: up to five letters or digits from inside one word of
 * the address's local part (`patricia.nguyen42@…` → `trici`, `guyen`, `yen42`, …), never a whole
 * address, so the search has to find it in the middle of the text.
 */
export function emailFragment(email, i) {
  const local = email.split("@")[0] ?? "";
  const words = local.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
  const word = words[i % Math.max(1, words.length)] ?? local;
  const len = Math.min(5, word.length);
  const start = (i * 3) % (word.length - len + 1);
  return word.slice(start, start + len);
}

/** The customer and shift loads, shared by the service and Prism runs. */
function customerAndShiftLoads(customers, memberIds, locationId) {
  // Long before the demo history, even at a large --scale: the new shifts never overlap it.
  const base = Date.parse("2001-01-01T00:00:00Z");
  const emails = customers.map((c) => c.email_address).filter((e) => typeof e === "string");
  return {
    retrieveCustomer: (i) => ({ method: "GET", path: `/v2/customers/${customers[i % customers.length].id}`, headers }),
    searchCustomers: (i) => ({
      method: "POST",
      path: "/v2/customers/search",
      headers,
      body: {
        limit: 20,
        query: { filter: { email_address: { fuzzy: emailFragment(emails[i % emails.length] ?? "smith", i) } } },
      },
    }),
    searchCustomersByTime: (i) => ({
      method: "POST",
      path: "/v2/customers/search",
      headers,
      body: {
        limit: 20,
        query: {
          filter: { created_at: { start_at: new Date(base + (i % 900) * 86_400_000).toISOString() } },
          sort: { field: "CREATED_AT", order: "ASC" },
        },
      },
    }),
    // Closed shifts in the past, one hour each, never overlapping for the same member: the members
    // take turns, each a shift every two hours, so 100,000 requests reach only into 2003 (one
    // every three hours across all members reached the demo history in a fast run).
    createShift: (i) => {
      const start = base + Math.floor(i / memberIds.length) * 2 * 3_600_000;
      return {
        method: "POST",
        path: "/v2/labor/shifts",
        headers,
        body: {
          idempotency_key: `bench-shift-${process.pid}-${i}`,
          shift: {
            location_id: locationId,
            team_member_id: memberIds[i % memberIds.length],
            start_at: new Date(start).toISOString(),
            end_at: new Date(start + 3_600_000).toISOString(),
          },
        },
      };
    },
  };
}

/** The data folder `serve` keeps its seed images under (as it looks for it). */
const dataDir = () => process.env.XDG_DATA_HOME || join(process.env.HOME || homedir(), ".local", "share");

/**
 * The day's prepared seed image of a scale as it is now (its path and when it was written), or
 * undefined. `serve` writes a new one before it listens when the one there is of another seed
 * version (the code that lays the store out changed), so a start came from the image only when
 * the image is the same file after it as before.
 */
function seedImageStamp(scale) {
  const path = seedImageOf(dataDir(), scale);
  return path === undefined ? undefined : `${path}@${statSync(path).mtimeMs}`;
}

/** Seconds to `listening` and peak memory of `serve` at a scale, started and stopped `runs` times (median). */
async function startUp(scale, runs) {
  const seen = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const { child } = await startChild(
      process.execPath,
      ["bin/backroom.js", "serve", "--port", "0", "--scale", String(scale)],
      /listening on (http:\/\/\S+)/,
      300_000,
    );
    seen.push({ seconds: (performance.now() - t0) / 1000, peakMb: peakMemoryMb(child.pid) });
    await stop(child);
  }
  seen.sort((a, b) => a.seconds - b.seconds);
  return seen[Math.floor(seen.length / 2)];
}

/** Starts `serve` with a store of benchmark volumes, saying whether it came from the day's image. */
async function startLarge(scale, log, cpuProfDir) {
  // `serve` starts a store of benchmark volumes from the day's prepared image when there is one
  // (src/service/seed-image.ts): say which start this is, as the two differ by seconds.
  const before = seedImageStamp(scale);
  const t0 = performance.now();
  const { child, match } = await startChild(
    process.execPath,
    [
      ...(cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfDir] : []),
      "bin/backroom.js",
      "serve",
      "--port",
      "0",
      "--scale",
      String(scale),
      "--access-token",
      TOKEN,
    ],
    /listening on (http:\/\/\S+)/,
    300_000,
  );
  const seconds = (performance.now() - t0) / 1000;
  const peakMb = peakMemoryMb(child.pid);
  const fromImage = before !== undefined && seedImageStamp(scale) === before;
  log(
    `service: demo store at scale ${scale} ${fromImage ? "copied from the day's image" : "seeded"} and listening in ${seconds.toFixed(1)} s` +
      (peakMb ? `, peak memory ${peakMb.toFixed(0)} MB` : ""),
  );
  return { child, url: match[1], fromImage, seconds, peakMb };
}

/** What the loads are made of: the first 2,000 customers, the active team, the first location. */
async function storeFacts(url, log) {
  const customers = [];
  let cursor;
  for (let page = 0; page < 20; page++) {
    const r = await call(
      url,
      "GET",
      `/v2/customers?limit=100&sort_field=CREATED_AT${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    customers.push(...(r.customers ?? []));
    cursor = r.cursor;
    if (!cursor) break;
  }
  const total = await call(url, "POST", "/v2/customers/search", { limit: 1, count: true });
  const members = await call(url, "POST", "/v2/team-members/search", { query: { filter: { status: "ACTIVE" } } });
  const locations = await call(url, "GET", "/v2/locations");
  const memberIds = members.team_members.map((m) => m.id);
  log(`  customers in store: ${total.count ?? "?"}; team members: ${memberIds.length}`);
  return { customers, memberIds, locationId: locations.locations[0].id };
}

/**
 * The inventory loads over the catalog's variations: 100 physical counts a request (on the
 * current and the deprecated path), and batch reads of counts.
 */
async function inventoryLoads(url, locationId, log) {
  const variations = [];
  let cursor;
  do {
    const r = await call(
      url,
      "GET",
      `/v2/catalog/list?types=ITEM_VARIATION${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    variations.push(...(r.objects ?? []).map((o) => o.id));
    cursor = r.cursor;
  } while (cursor && variations.length < 5000);
  const counted = await call(url, "POST", "/v2/inventory/counts/batch-retrieve", { limit: 1000 });
  log(`  catalog variations: ${variations.length}; first page of counts: ${(counted.counts ?? []).length}`);
  // Counts of the past two days, a second apart: never "in the future", however long a run.
  const stamp = Date.now() - 2 * 86_400_000;
  const batchChange = (i, path = "/v2/inventory/changes/batch-create") => ({
    method: "POST",
    path,
    headers,
    body: {
      idempotency_key: `bench-inv-${process.pid}-${path.length}-${i}`,
      ignore_unchanged_counts: true,
      changes: Array.from({ length: 100 }, (_, k) => ({
        type: "PHYSICAL_COUNT",
        physical_count: {
          catalog_object_id: variations[(i * 100 + k) % variations.length],
          location_id: locationId,
          state: "IN_STOCK",
          quantity: String(((i * 7 + k) % 500) + 1),
          occurred_at: new Date(stamp + i * 1000).toISOString(),
        },
      })),
    },
  });
  const batchCounts = (i) => ({
    method: "POST",
    path: "/v2/inventory/counts/batch-retrieve",
    headers,
    body: {
      location_ids: [locationId],
      states: ["IN_STOCK"],
      limit: 100,
      catalog_object_ids:
        i % 2 ? undefined : variations.slice((i * 10) % variations.length, ((i * 10) % variations.length) + 10),
    },
  });
  return {
    batchChangeInventory: batchChange,
    // Later counts of the same keys: the deprecated path's counts are not all equal to the current ones.
    deprecatedBatchChangeInventory: (i) => batchChange(i + 20_000, "/v2/inventory/batch-change"),
    batchRetrieveInventoryCounts: batchCounts,
  };
}

/** The bare server's runs of one benchmark, averaged (each figure's share is of the run just before it). */
function bareSummary(bareRuns) {
  const mean = (f) => bareRuns.reduce((n, r) => n + r[f], 0) / bareRuns.length;
  return {
    rps: mean("rps"),
    cpuUsPerRequest: mean("cpuUsPerRequest"),
    p50: mean("p50"),
    p99: mean("p99"),
    min: Math.min(...bareRuns.map((r) => r.rps)),
    max: Math.max(...bareRuns.map((r) => r.rps)),
    runs: bareRuns,
  };
}

/**
 * Runs the whole service benchmark; `scale` sets the demo volumes (200 → 100,000 customers).
 * `only` limits the loads to some rows (by their names in ROWS), `prism: false` leaves Prism out
 * and `startUp: false` the three starts at scale 1: for working on one figure. With `cpuProfDir`
 * the service writes a V8 CPU profile there when it stops (`node --cpu-prof`).
 */
export async function runServiceBench({
  scale = 200,
  seconds = 4,
  connections = 16,
  log = console.log,
  only = undefined,
  prism = true,
  startUp: timeStartUp = true,
  cpuProfDir = undefined,
} = {}) {
  if (!existsSync(join(root, "dist", "backroom.mjs"))) throw new Error("run `npm run build` first");
  const small = timeStartUp ? await startUp(1, 3) : undefined;
  if (small) {
    log(
      `service: demo store at scale 1 listening in ${small.seconds.toFixed(2)} s (median of 3)` +
        (small.peakMb ? `, peak memory ${small.peakMb.toFixed(0)} MB` : ""),
    );
  }
  const wanted = (name) => !only || only.includes(name);
  const large = await startLarge(scale, log, cpuProfDir);
  const { child, url } = large;
  const results = { seedSeconds: large.seconds, seedPeakMb: large.peakMb, smallStart: small };
  let bare;
  try {
    const { customers, memberIds, locationId } = await storeFacts(url, log);
    // The baseline answers what retrieveCustomer answers, byte for byte, to the same requests.
    const stored = await call(url, "GET", `/v2/customers/${customers[0].id}`);
    bare = await startChild(
      process.execPath,
      ["scripts/bench-load.mjs", "bare", JSON.stringify(stored)],
      /listening on (http:\/\/\S+)/,
      30_000,
    );
    const loads = customerAndShiftLoads(customers, memberIds, locationId);
    // The machine is shared and its load drifts within a run: each figure is taken right after a
    // run of the bare server, and its share is of that one.
    const bareRuns = [];
    const measure = async (name, request) => {
      const b = await load({
        url: bare.match[1],
        pid: bare.child.pid,
        request: loads.retrieveCustomer,
        connections,
        maxSeconds: seconds,
      });
      bareRuns.push(b);
      const r = await load({ url, pid: child.pid, request, connections, maxSeconds: seconds });
      r.bare = b;
      results[name] = r;
      log(line(`${name} (bare just before: ${b.rps.toFixed(0)})`, r));
      r.transport = await transportRun({ url, request, index: r.nextIndex, connections, seconds });
      log(line(`  a bare server with its traffic (${r.transport.answerBytes} bytes answered)`, r.transport));
      return r;
    };
    for (const [name, request] of Object.entries(loads)) if (wanted(name)) await measure(name, request);
    for (const [name, request] of Object.entries(await inventoryLoads(url, locationId, log))) {
      if (wanted(name)) await measure(name, request);
    }
    results.bare = bareSummary(bareRuns);
    if (prism) results.prism = await prismRun({ customers, seconds, connections, log });
  } finally {
    if (bare) await stop(bare.child);
    await stop(child);
  }
  const image = wanted("batchChangeInventory") ? seedImageOf(dataDir(), scale) : undefined;
  if (image) results.inventoryFloor = inventoryFloor(image);
  log(`\nservice at scale ${scale}, ${connections} connections, ${seconds} s a load, one run:`);
  table(results, log);
  transportTable(results, log);
  if (results.inventoryFloor) logFloor(results.inventoryFloor, results.batchChangeInventory, log);
  log(
    `  seeding at scale ${scale}${large.fromImage ? " (from the day's prepared image)" : " (no image yet: seeded, and the image made)"}: ${large.seconds.toFixed(1)} s to listening` +
      (large.peakMb ? `, peak memory of the service process ${large.peakMb.toFixed(0)} MB` : ""),
  );
  if (small) log(`  seeding at scale 1: ${small.seconds.toFixed(2)} s to listening (median of 3)`);
  return results;
}

/**
 * What the transport alone allows an operation: a bare node:http server fed the operation's own
 * requests (a 20 KB batch of counts is read whole) and answering its own answer, taken from the
 * service by one more request of the same load. The service's share of this is the share its own
 * work leaves; what is missing from 100 % is the service's, not HTTP's.
 */
async function transportRun({ url, request, index, connections, seconds }) {
  const sample = request(index);
  const res = await fetch(`${url}${sample.path}`, {
    method: sample.method,
    headers: sample.headers,
    ...(sample.body === undefined ? {} : { body: JSON.stringify(sample.body) }),
  });
  const answer = await res.text();
  if (!res.ok) throw new Error(`${sample.method} ${sample.path}: ${res.status} ${answer.slice(0, 300)}`);
  const dir = mkdtempSync(join(tmpdir(), "backroom-bench-"));
  const file = join(dir, "answer.json");
  writeFileSync(file, answer);
  const bare = await startChild(
    process.execPath,
    ["scripts/bench-load.mjs", "bare", `@${file}`],
    /listening on (http:\/\/\S+)/,
    30_000,
  );
  try {
    const r = await load({ url: bare.match[1], pid: bare.child.pid, request, connections, maxSeconds: seconds });
    return { ...r, answerBytes: Buffer.byteLength(answer) };
  } finally {
    await stop(bare.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SQLite's own cost of a physical count, beside what a request of 100 costs the service. */
function logFloor(f, measured, log) {
  const us = (n) => `${n.toFixed(1)} µs`;
  const service = measured?.cpuUsPerRequest ? `; the service spends ${us(measured.cpuUsPerRequest / 100)} a count` : "";
  log(
    `  SQLite alone, a physical count (a copy of the image, serve's settings): its share of its batch's log row ${us(f.logRow)}` +
      ` = at most ${f.requestsPerSecond.toFixed(0)} requests/s of 100 counts from storage alone, before HTTP, JSON and checks${service}`,
  );
}

/** The same customer and shift calls against Prism's stateless mock, when Prism can be run. */
async function prismRun({ customers, seconds, connections, log }) {
  const spec = resolve(root, "..", "shared", "spec", "square-api.json");
  if (!existsSync(spec)) {
    log("prism: not run (the spec file ../shared/spec/square-api.json is not beside the project)");
    return undefined;
  }
  let started;
  try {
    started = await startChild(
      "npx",
      ["--yes", "@stoplight/prism-cli@5", "mock", "--port", "0", "--host", "127.0.0.1", "--errors", "false", spec],
      /Prism is listening on (http:\/\/\S+)/,
      240_000,
      { ...process.env, NO_COLOR: "1", npm_config_yes: "true" },
    );
  } catch (err) {
    log(`prism: not run (${String(err.message).split("\n")[0]})`);
    return undefined;
  }
  const url = started.match[1].replace(/\/$/, "");
  log(`prism: mock of the same spec at ${url}`);
  const out = {};
  try {
    // The same bodies; Prism answers its example whatever the id, so one id is enough.
    const one = customers.map((c) => ({ ...c, id: "CUSTOMER1" }));
    const loads = customerAndShiftLoads(one, ["TEAMMEMBER1"], "LOCATION1");
    for (const name of ROWS.filter((r) => r[2]).map((r) => r[0])) {
      out[name] = await load({ url, request: loads[name], connections, maxSeconds: seconds });
      log(line(`prism ${name}`, out[name]));
    }
  } finally {
    await stop(started.child);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals, fail } = scriptArgs(
    "bench-service",
    "node scripts/bench-service.mjs [scale] [--only name,name] [--no-prism] [--no-start-up] [--cpu-prof DIR]",
    {
      allowPositionals: true,
      options: {
        only: { type: "string" },
        "no-prism": { type: "boolean", default: false },
        "no-start-up": { type: "boolean", default: false },
        "cpu-prof": { type: "string" },
      },
    },
  );
  const names = ROWS.map((r) => r[0]);
  const only = values.only?.split(",").filter((n) => n !== "");
  const unknown = only?.filter((n) => !names.includes(n)) ?? [];
  if (unknown.length > 0) fail(`no row named ${unknown.join(", ")}; the rows are ${names.join(", ")}`);
  if (positionals.length > 1) fail(`one scale at most, got ${positionals.join(" ")}`);
  const scale = wholeNumber(positionals[0], { fallback: 200, min: 1, max: 1000, what: "the scale", fail });
  await runServiceBench({
    scale,
    only,
    prism: !values["no-prism"],
    startUp: !values["no-start-up"],
    cpuProfDir: values["cpu-prof"] === undefined ? undefined : resolve(values["cpu-prof"]),
  });
}
