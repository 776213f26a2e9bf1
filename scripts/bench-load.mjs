// A small closed-loop load generator on undici: N connections, each sends its next request as
// soon as the previous answer arrives, until a request count or a time budget is spent (both
// bounded, loopback only). Reports requests/s, latency percentiles and non-2xx answers.
// Run as `node scripts/bench-load.mjs bare '<json>'` (or `bare @file`, for a body longer than a
// command line takes) it is the bare baseline instead: a node:http server that answers the stored
// JSON body to every request, the fastest any service written on node:http can answer on this machine.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Pool } from "undici";

/** Latency percentile of a sorted array of milliseconds. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs one load: `request(i)` gives {method, path, headers?, body?} for the i-th request.
 * Returns {requests, seconds, rps, p50, p95, p99, failures, firstFailure}.
 */
export async function load({ url, request, connections = 16, maxRequests = 20_000, maxSeconds = 5 }) {
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 10_000 });
  const latencies = [];
  let next = 0;
  let failures = 0;
  let firstFailure;
  const deadline = performance.now() + maxSeconds * 1000;
  const started = performance.now();
  async function worker() {
    while (next < maxRequests && performance.now() < deadline) {
      const i = next++;
      const r = request(i);
      const t0 = performance.now();
      const res = await pool.request({
        method: r.method,
        path: r.path,
        headers: r.headers ?? {},
        body: r.body === undefined ? null : typeof r.body === "string" ? r.body : JSON.stringify(r.body),
      });
      const text = await res.body.text();
      latencies.push(performance.now() - t0);
      if (res.statusCode >= 300) {
        failures++;
        firstFailure ??= `${res.statusCode} ${text.slice(0, 200)}`;
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failures,
    firstFailure,
  };
}

/** The bare baseline server: reads each request to its end, then answers `body` (a JSON text). */
export function bareServer(body) {
  const bytes = Buffer.from(body);
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
      res.end(bytes);
    });
  });
  server.keepAliveTimeout = 30_000;
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href && process.argv[2] === "bare") {
  const arg = process.argv[3] ?? "{}";
  const server = bareServer(arg.startsWith("@") ? readFileSync(arg.slice(1), "utf8") : arg);
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    console.log(`listening on http://127.0.0.1:${port}`);
  });
}
