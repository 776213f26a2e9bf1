// The service benchmark's rows and its one table: requests/s, latency, share of the bare server
// by requests/s and by CPU time a request, and Prism beside it.

/** What each row of the table is, in order; `prism` marks the rows Prism is run for. */
export const ROWS = [
  ["retrieveCustomer", "retrieveCustomer", true],
  ["searchCustomers", "searchCustomers, fuzzy email fragment", true],
  ["searchCustomersByTime", "searchCustomers, created_at range", false],
  ["createShift", "createShift", true],
  ["batchChangeInventory", "batchChangeInventory, 100 counts", false],
  ["deprecatedBatchChangeInventory", "the same at the deprecated path", false],
  ["batchRetrieveInventoryCounts", "batchRetrieveInventoryCounts", false],
];

export function line(name, r) {
  const fail = r.failures ? `  (${r.failures} failed: ${r.firstFailure})` : "";
  return `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(1)} ms   p99 ${r.p99.toFixed(1)} ms   (${r.requests} requests)${fail}`;
}

export const fmt = (n, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";

/** The one table: every figure of the run beside the bare server and Prism. */
export function table(results, log) {
  const bare = results.bare;
  const head = [
    "operation",
    "req/s",
    "p50 ms",
    "p99 ms",
    "of bare*",
    "CPU µs/req",
    "CPU of bare†",
    "Prism req/s",
    "× Prism",
  ];
  const cpuShare = (r, b) =>
    r.cpuUsPerRequest && b.cpuUsPerRequest ? `${fmt((100 * b.cpuUsPerRequest) / r.cpuUsPerRequest, 1)}%` : "–";
  const body = [];
  body.push([
    `bare node:http, stored JSON (mean; ${fmt(bare.min)}–${fmt(bare.max)})`,
    fmt(bare.rps),
    fmt(bare.p50, 1),
    fmt(bare.p99, 1),
    "100%",
    fmt(bare.cpuUsPerRequest, 1),
    "100%",
    "",
    "",
  ]);
  for (const [key, label, withPrism] of ROWS) {
    const r = results[key];
    if (!r) continue;
    const prism = withPrism ? results.prism?.[key] : undefined;
    const extra = /atchChangeInventory$/.test(key) ? ` (${fmt(r.rps * 100)} counts/s)` : "";
    body.push([
      label + extra + (r.failures ? ` [${r.failures} failed]` : ""),
      fmt(r.rps),
      fmt(r.p50, 1),
      fmt(r.p99, 1),
      `${fmt((100 * r.rps) / (r.bare ?? bare).rps, 1)}%`,
      fmt(r.cpuUsPerRequest, 1),
      cpuShare(r, r.bare ?? bare),
      prism ? fmt(prism.rps) : "",
      prism ? `${fmt(r.rps / prism.rps, 2)}×` : "",
    ]);
  }
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((row) => row[c].length)));
  const lineOf = (row) =>
    `  ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ")}`;
  log(lineOf(head));
  log(`  ${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of body) log(lineOf(row));
  log("  * of the bare server's run just before the operation's own (the machine's load drifts)");
  log("  † the bare server's CPU time a request (from /proc) as a share of the service's: what an answer costs it");
}
