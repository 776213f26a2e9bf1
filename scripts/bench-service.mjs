#!/usr/bin/env node
// Service benchmark: the built `backroom serve` in its own process (so it has a core of its own,
// as it would in use), loaded over loopback from this process. Prints requests/s of
// retrieveCustomer and searchCustomers over 100,000 customers, createShift,
// batchChangeInventory with 100 physical counts per request, and batchRetrieveInventoryCounts
// over 100,000+ counts; beside the same customer and shift calls against Prism (a stateless mock
// of the same spec) when it can be run here.
// Usage: node scripts/bench-service.mjs — or import { runServiceBench } from it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "./bench-load.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TOKEN = "bench-access-token";

/** Starts a child process and resolves when a line of its output matches; kills it on failure. */
function startChild(command, args, pattern, timeoutMs, env = process.env) {
  return new Promise((resolvePromise, reject) => {
    // Its own process group, so that stopping it stops what it started too (npx → prism).
    const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    const timer = setTimeout(() => {
      process.kill(-child.pid, "SIGKILL");
      reject(new Error(`${command} did not start within ${timeoutMs} ms:\n${out.slice(-2000)}`));
    }, timeoutMs);
    const onData = (d) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume();
        child.stderr.resume();
        resolvePromise({ child, match: m });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => {
      out += d.toString();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code} before it was ready:\n${out.slice(-2000)}`));
    });
  });
}

function stop(child) {
  return new Promise((r) => {
    if (child.exitCode !== null) return r();
    child.once("exit", () => r());
    const signal = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    signal("SIGTERM");
    setTimeout(() => signal("SIGKILL"), 5000).unref();
  });
}

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

/** The customer and shift loads, shared by the service and Prism runs. */
function customerAndShiftLoads(customerIds, memberIds, locationId) {
  // Long before the demo history, even at a large --scale: the new shifts never overlap it.
  const base = Date.parse("2001-01-01T00:00:00Z");
  return {
    retrieveCustomer: (i) => ({ method: "GET", path: `/v2/customers/${customerIds[i % customerIds.length]}`, headers }),
    searchCustomers: (i) => ({
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
    // Closed shifts in the past, one hour each, never overlapping for the same member.
    createShift: (i) => {
      const start = base + i * 3 * 3_600_000;
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

function line(name, r) {
  const fail = r.failures ? `  (${r.failures} failed: ${r.firstFailure})` : "";
  return `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(1)} ms   p99 ${r.p99.toFixed(1)} ms   (${r.requests} requests)${fail}`;
}

/** Runs the whole service benchmark; `scale` sets the demo volumes (200 → 100,000 customers). */
export async function runServiceBench({ scale = 200, seconds = 4, log = console.log } = {}) {
  if (!existsSync(join(root, "dist", "backroom.mjs"))) throw new Error("run `npm run build` first");
  const t0 = performance.now();
  const { child, match } = await startChild(
    process.execPath,
    ["bin/backroom.js", "serve", "--port", "0", "--scale", String(scale), "--access-token", TOKEN],
    /listening on (http:\/\/\S+)/,
    300_000,
  );
  const url = match[1];
  log(
    `service: demo store at scale ${scale} seeded and listening in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const results = {};
  try {
    const ids = [];
    let cursor;
    for (let page = 0; page < 20; page++) {
      const r = await call(
        url,
        "GET",
        `/v2/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      ids.push(...(r.customers ?? []).map((c) => c.id));
      cursor = r.cursor;
      if (!cursor) break;
    }
    const total = await call(url, "POST", "/v2/customers/search", { limit: 1, count: true });
    const members = await call(url, "POST", "/v2/team-members/search", { query: { filter: { status: "ACTIVE" } } });
    const locations = await call(url, "GET", "/v2/locations");
    const locationId = locations.locations[0].id;
    const memberIds = members.team_members.map((m) => m.id);
    log(`  customers in store: ${total.count ?? "?"}; team members: ${memberIds.length}`);
    const loads = customerAndShiftLoads(ids, memberIds, locationId);
    for (const [name, request] of Object.entries(loads)) {
      const r = await load({ url, request, maxSeconds: seconds });
      results[name] = r;
      log(line(name, r));
    }

    // Inventory: 100 physical counts per request over the catalog's variations.
    const variations = [];
    cursor = undefined;
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
    const stamp = Date.now() - 3_600_000;
    const batchChange = (i) => ({
      method: "POST",
      path: "/v2/inventory/changes/batch-create",
      headers,
      body: {
        idempotency_key: `bench-inv-${process.pid}-${i}`,
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
    results.batchChangeInventory = await load({ url, request: batchChange, connections: 4, maxSeconds: seconds });
    log(line("batchChangeInventory (100 counts)", results.batchChangeInventory));
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
    results.batchRetrieveInventoryCounts = await load({ url, request: batchCounts, maxSeconds: seconds });
    log(line("batchRetrieveInventoryCounts", results.batchRetrieveInventoryCounts));
  } finally {
    await stop(child);
  }

  results.prism = await prismRun({ seconds, log });
  if (results.prism) {
    for (const name of ["retrieveCustomer", "searchCustomers", "createShift"]) {
      const ours = results[name];
      const theirs = results.prism[name];
      if (ours && theirs)
        log(
          `  ${name}: backroom ${ours.rps.toFixed(0)} req/s vs Prism ${theirs.rps.toFixed(0)} req/s (×${(ours.rps / theirs.rps).toFixed(2)})`,
        );
    }
  }
  return results;
}

/** The same customer and shift calls against Prism's stateless mock, when Prism can be run. */
async function prismRun({ seconds, log }) {
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
    const loads = customerAndShiftLoads(["CUSTOMER1"], ["TEAMMEMBER1"], "LOCATION1");
    for (const [name, request] of Object.entries(loads)) {
      out[name] = await load({ url, request, maxSeconds: seconds });
      log(line(`prism ${name}`, out[name]));
    }
  } finally {
    await stop(started.child);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServiceBench({ scale: Number(process.argv[2] ?? 200) });
}
