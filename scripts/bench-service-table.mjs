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
  printTable(head, body, log);
  log("  * of the bare server's run just before the operation's own (the machine's load drifts)");
  log("  † the bare server's CPU time a request (from /proc) as a share of the service's: what an answer costs it");
}

/**
 * The transport alone: per operation, a bare server fed its own requests and answering its own
 * answer, as a share of the bare server of the main table, and the service's share of it.
 */
export function transportTable(results, log) {
  const head = [
    "the transport alone (bare server, the operation's traffic)",
    "answer",
    "req/s",
    "of bare*",
    "service's share",
  ];
  const body = [];
  for (const [key, label] of ROWS) {
    const r = results[key];
    if (!r?.transport) continue;
    const t = r.transport;
    body.push([
      label,
      t.answerBytes < 1024 ? `${t.answerBytes} B` : `${fmt(t.answerBytes / 1024, 1)} KB`,
      fmt(t.rps),
      `${fmt((100 * t.rps) / (r.bare ?? results.bare).rps, 1)}%`,
      `${fmt((100 * r.rps) / t.rps, 1)}%`,
    ]);
  }
  if (body.length === 0) return;
  log("");
  printTable(head, body, log);
  log("  the service's share: its requests/s as a share of the bare server's with the same requests and answer");
}

/** Columns padded to their widest cell: the first left-aligned, the figures right-aligned. */
function printTable(head, body, log) {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((row) => row[c].length)));
  const lineOf = (row) =>
    `  ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ")}`;
  log(lineOf(head));
  log(`  ${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of body) log(lineOf(row));
}
