#!/usr/bin/env node
// Client benchmark: page 50,000 customer records from a local HTTP server with this project's
// client, with the official SDK (`square`, a devDependency used only here) and with bare
// `undici.request` (the transport the client stands on, with nothing of its own), in the same run.
// The TS client is bundled with esbuild into .bench/ first, so no build step is needed.
// Usage: node scripts/bench-client.mjs [records] — or import { runClientBench } from scripts/bench.mjs.
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { Agent, request } from "undici";
import { scriptArgs, wholeNumber } from "./script-args.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** One customer as the service returns it; varied so no two records serialise alike. */
function customer(i) {
  const n = String(i).padStart(6, "0");
  return {
    id: `CUST${n}ZK4M8Q2R`,
    created_at: new Date(Date.UTC(2023, 0, 1) + i * 61_000).toISOString(),
    updated_at: new Date(Date.UTC(2024, 0, 1) + i * 37_000).toISOString(),
    given_name: `Given${i % 977}`,
    family_name: `Family${i % 1301}`,
    email_address: `customer${n}@example.com`,
    phone_number: `+1555${String(i % 10_000_000).padStart(7, "0")}`,
    address: {
      address_line_1: `${(i % 900) + 100} Market Street`,
      locality: "San Francisco",
      administrative_district_level_1: "CA",
      postal_code: String(94_000 + (i % 200)),
      country: "US",
    },
    reference_id: `REF-${n}`,
    note: i % 3 === 0 ? "Prefers email receipts" : "",
    preferences: { email_unsubscribed: i % 7 === 0 },
    creation_source: i % 2 ? "THIRD_PARTY" : "DIRECTORY",
    group_ids: [`GRP${i % 5}`],
    segment_ids: [`SEG${i % 3}`, `SEG${(i % 3) + 3}`],
    version: i % 4,
  };
}

/**
 * Starts a ListCustomers server on 127.0.0.1:0 serving `records` customers, `pageSize` a page,
 * cursor-paged. Pages are serialised up front so the server's own cost is the same for both clients.
 */
async function startServer(records, pageSize) {
  const pages = [];
  for (let start = 0, p = 0; start < records; start += pageSize, p++) {
    const customers = [];
    for (let i = start; i < Math.min(records, start + pageSize); i++) customers.push(customer(i));
    const body = { customers };
    if (start + pageSize < records) body.cursor = `page-${p + 1}`;
    pages.push(Buffer.from(JSON.stringify(body)));
  }
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method !== "GET" || url.pathname !== "/v2/customers") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ errors: [{ category: "INVALID_REQUEST_ERROR", code: "NOT_FOUND" }] }));
      return;
    }
    const cursor = url.searchParams.get("cursor");
    const index = cursor ? Number(cursor.slice("page-".length)) : 0;
    const page = pages[index];
    if (!page) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ errors: [{ category: "INVALID_REQUEST_ERROR", code: "INVALID_CURSOR" }] }));
      return;
    }
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": page.length,
      "square-version": req.headers["square-version"] ?? "2024-01-18",
    });
    res.end(page);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((ok) => {
        server.close(ok);
        // The SDK's fetch keeps its sockets alive; do not wait for them to time out.
        server.closeAllConnections();
      }),
  };
}

/** Bundles src/square/index.ts into .bench/ and imports it. */
async function loadClient() {
  const outdir = join(root, ".bench");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, "square-client.mjs");
  await build({
    entryPoints: [join(root, "src/square/index.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
}

async function timeIt(fn) {
  const started = process.hrtime.bigint();
  const count = await fn();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { count, ms };
}

/**
 * Runs the client benchmark and prints records/s of the three and their ratios: the client over
 * the SDK (target ≥ 2×) and raw undici over the client (the client's own overhead; target ≤ 1.3×).
 */
export async function runClientBench({ records = 50_000, pageSize = 100, rounds = 3, log = console.log } = {}) {
  const [{ createClient }, { SquareClient: SdkClient }] = await Promise.all([loadClient(), import("square")]);
  const server = await startServer(records, pageSize);
  const ours = createClient({ baseUrl: server.baseUrl, accessToken: "bench-token" });
  const sdk = new SdkClient({ token: "bench-token", environment: server.baseUrl });
  // Raw undici: the same requests (headers, keep-alive agent, cursor in the query), parsed with
  // JSON.parse, and nothing else — no retries, timeouts, error mapping or paging helper.
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 });

  const runOurs = async () => {
    let n = 0;
    for await (const c of ours.customers.listCustomers()) if (c.id) n++;
    return n;
  };
  const runSdk = async () => {
    let n = 0;
    const page = await sdk.customers.list();
    for await (const c of page) if (c.id) n++;
    return n;
  };

  const runRaw = async () => {
    let n = 0;
    let cursor;
    do {
      const url = `${server.baseUrl}/v2/customers${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await request(url, {
        dispatcher: agent,
        headers: { accept: "application/json", authorization: "Bearer bench-token", "square-version": "2024-01-18" },
      });
      const page = JSON.parse(await res.body.text());
      for (const c of page.customers ?? []) if (c.id) n++;
      cursor = page.cursor;
    } while (cursor);
    return n;
  };

  try {
    // One untimed pass each warms the JIT and opens the keep-alive connections.
    await runOurs();
    await runSdk();
    await runRaw();
    const oursMs = [];
    const sdkMs = [];
    const rawMs = [];
    // Take turns, each round in another order (each follows each of the others once in three
    // rounds), so that drift of the machine and the garbage one run leaves to the next hit all alike.
    const orders = [
      ["ours", "sdk", "raw"],
      ["sdk", "raw", "ours"],
      ["raw", "ours", "sdk"],
    ];
    const runs = { ours: runOurs, sdk: runSdk, raw: runRaw };
    for (let r = 0; r < rounds; r++) {
      const timed = {};
      for (const name of orders[r % orders.length]) timed[name] = await timeIt(runs[name]);
      const { ours: a, sdk: b, raw: c } = timed;
      if (a.count !== records || b.count !== records || c.count !== records) {
        throw new Error(
          `paged ${a.count} (backroom), ${b.count} (SDK) and ${c.count} (undici) records, expected ${records}`,
        );
      }
      oursMs.push(a.ms);
      sdkMs.push(b.ms);
      rawMs.push(c.ms);
    }
    const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const oursRate = records / (median(oursMs) / 1000);
    const sdkRate = records / (median(sdkMs) / 1000);
    const rawRate = records / (median(rawMs) / 1000);
    const ratio = oursRate / sdkRate;
    const overhead = rawRate / oursRate;
    const fmt = (x) => Math.round(x).toLocaleString("en-US");
    log(`client: paging ${fmt(records)} customers, ${pageSize} a page, median of ${rounds} runs`);
    log(`  raw undici.request ${fmt(rawRate).padStart(10)} records/s  (${median(rawMs).toFixed(0)} ms)`);
    log(`  backroom client    ${fmt(oursRate).padStart(10)} records/s  (${median(oursMs).toFixed(0)} ms)`);
    log(`  square SDK v46     ${fmt(sdkRate).padStart(10)} records/s  (${median(sdkMs).toFixed(0)} ms)`);
    log(`  client vs SDK      ${ratio.toFixed(2)}× faster  (target ≥ 2×: ${ratio >= 2 ? "met" : "NOT met"})`);
    log(
      `  client's overhead  ${overhead.toFixed(2)}× raw undici's time  (target ≤ 1.3×: ${overhead <= 1.3 ? "met" : "NOT met"})`,
    );
    return { records, pageSize, oursRate, sdkRate, rawRate, ratio, overhead };
  } finally {
    await ours.close();
    await agent.close();
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { positionals, fail } = scriptArgs("bench-client", "node scripts/bench-client.mjs [records]", {
    allowPositionals: true,
  });
  if (positionals.length > 1) fail(`one number of records at most, got ${positionals.join(" ")}`);
  const what = "the number of records";
  const records = wholeNumber(positionals[0], { fallback: undefined, min: 100, max: 10_000_000, what, fail });
  await runClientBench(records ? { records } : {});
}
