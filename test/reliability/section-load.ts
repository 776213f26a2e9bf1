import { randomBytes } from "node:crypto";
import { type Rng, rng } from "../../src/service/seed/random.js";
import { discover } from "./fuzz.js";
import { isEnvelope, type RawRequest, send } from "./http.js";
import { atMost, exactly, type Figure, info, type Section } from "./section.js";
import { startServe } from "./serve-process.js";

/** Refusals that are the interface's own rules at work on valid requests (an overlap, a race). */
const RULE_CODES = new Set(["BAD_REQUEST", "CONFLICT", "NOT_FOUND", "INVALID_VALUE"]);
/**
 * How much the service's resident memory may grow over the run's last two thirds and still count
 * as stable. The first third warms it up (its heap and page cache grow to what the load needs, and
 * the store's pages it reads are mapped in), so growth from the start says more about how small it
 * started than about a leak: a service that starts smaller shows a larger share for the same end.
 */
const RSS_GROWTH_SHARE = 0.25;

interface Tally {
  latencies: number[];
  reads: number;
  writes: number;
  ruleRefusals: Map<string, number>;
  errors: Map<string, number>;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/**
 * Load: 50 clients at once, each a loop of mixed reads (profiles, searches, shifts, stock counts,
 * the catalog) and writes (new and edited profiles, stock adjustments, shifts) for 60 s, against
 * `backroom serve --scale 200`. Nothing may fail but the interface's own rule refusals; the
 * latency quantiles, throughput and the service's memory are printed.
 */
export const loadSection: Section = {
  name: "load",
  title: "Load: concurrent clients, mixed reads and writes",
  async run(ctx) {
    const full = ctx.mode === "full";
    const clients = full ? 50 : 8;
    const seconds = full ? 60 : 3;
    const scale = full ? 200 : 1;
    const token = `EAAAload${randomBytes(12).toString("hex")}`;
    ctx.log(`load: seeding the service at --scale ${scale}`);
    const serve = await startServe(ctx.cli, ["--port", "0", "--scale", String(scale), "--access-token", token]);
    try {
      const { ids } = await discover(serve.url, token);
      const pool = (k: keyof typeof ids) => ids[k] ?? [];
      const [main = ""] = pool("location");
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      let slot = 0;
      const json = (method: string, path: string, body?: unknown): RawRequest => ({
        method,
        path,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        timeoutMs: 30_000,
      });
      const reads: ((r: Rng) => RawRequest)[] = [
        (r) => json("GET", `/v2/customers/${r.pick(pool("customer"))}`),
        () => json("GET", "/v2/customers?limit=50"),
        (r) =>
          json("POST", "/v2/customers/search", {
            limit: 20,
            query: { filter: { email_address: { fuzzy: r.pick(["ann", "lee", "example"]) } } },
          }),
        () => json("POST", "/v2/labor/shifts/search", { limit: 50, query: { filter: { location_ids: [main] } } }),
        (r) => json("GET", `/v2/labor/shifts/${r.pick(pool("shift"))}`),
        () => json("GET", `/v2/labor/break-types?location_id=${main}`),
        (r) =>
          json("POST", "/v2/inventory/counts/batch-retrieve", {
            catalog_object_ids: [r.pick(pool("variation")), r.pick(pool("variation"))],
            location_ids: [main],
          }),
        (r) =>
          json("POST", "/v2/catalog/search-catalog-items", {
            text_filter: r.pick(["hammer", "paint", "rope"]),
            limit: 20,
          }),
        () => json("GET", "/v2/catalog/list"),
        (r) => json("GET", `/v2/catalog/object/${r.pick(pool("catalog_object"))}`),
      ];
      const writes: ((r: Rng, c: number) => RawRequest)[] = [
        (r, c) =>
          json("POST", "/v2/customers", {
            given_name: `Load ${c}`,
            family_name: `C${r.int(1, 1e6)}`,
            email_address: `load${c}.${r.int(1, 1e6)}@example.com`,
          }),
        (r) => json("PUT", `/v2/customers/${r.pick(pool("customer"))}`, { note: `seen ${r.int(1, 1e6)}` }),
        (r) =>
          json("POST", "/v2/inventory/changes/batch-create", {
            idempotency_key: `load-${randomBytes(8).toString("hex")}`,
            changes: [
              {
                type: "ADJUSTMENT",
                adjustment: {
                  catalog_object_id: r.pick(pool("variation")),
                  location_id: main,
                  from_state: "NONE",
                  to_state: "IN_STOCK",
                  quantity: String(r.int(1, 5)),
                  occurred_at: new Date(Date.now() - 60_000).toISOString(),
                },
              },
            ],
          }),
        (r) => {
          // Closed half-hour shifts an hour apart, long ago: writes that never overlap each other.
          const start = Date.UTC(2000, 0, 1) + slot++ * 3_600_000;
          return json("POST", "/v2/labor/shifts", {
            shift: {
              location_id: main,
              team_member_id: r.pick(pool("team_member")),
              start_at: new Date(start).toISOString(),
              end_at: new Date(start + 1_800_000).toISOString(),
            },
          });
        },
      ];

      const tally: Tally = { latencies: [], reads: 0, writes: 0, ruleRefusals: new Map(), errors: new Map() };
      const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
      const rssStart = serve.rss();
      const started = performance.now();
      const until = started + seconds * 1000;
      let rssWarm: number | undefined;
      const warm = setTimeout(
        () => {
          rssWarm = serve.rss();
        },
        (seconds * 1000) / 3,
      );
      const client = async (c: number) => {
        const r = rng(ctx.seed * 1000 + c);
        while (performance.now() < until) {
          const isWrite = r.chance(0.3);
          const req = isWrite ? r.pick(writes)(r, c) : r.pick(reads)(r);
          if (isWrite) tally.writes++;
          else tally.reads++;
          const t0 = performance.now();
          try {
            const res = await send(serve.url, req);
            tally.latencies.push(performance.now() - t0);
            if (res.status < 400) continue;
            const code = isEnvelope(res.json) ? (res.json.errors[0]?.code ?? "?") : `HTTP ${res.status} (no envelope)`;
            if (res.status < 500 && RULE_CODES.has(code)) bump(tally.ruleRefusals, code);
            else
              bump(
                tally.errors,
                `${req.method} ${req.path.replace(/\/[A-Z0-9:_-]{8,}/g, "/{id}")}: ${res.status} ${code}`,
              );
          } catch (err) {
            bump(tally.errors, `${req.method} ${req.path}: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
      clearTimeout(warm);
      const elapsed = (performance.now() - started) / 1000;
      const rssEnd = serve.rss();
      for (const [k, n] of [...tally.errors].slice(0, 10)) ctx.log(`load error ×${n}: ${k}`);
      const sorted = [...tally.latencies].sort((a, b) => a - b);
      const total = tally.reads + tally.writes;
      const errors = [...tally.errors.values()].reduce((a, b) => a + b, 0);
      const figures: Figure[] = [
        info("clients, duration, scale", `${clients}, ${elapsed.toFixed(0)} s, --scale ${scale}`),
        info("requests (reads / writes)", `${total} (${tally.reads} / ${tally.writes})`),
        info("throughput", `${(total / elapsed).toFixed(0)} requests/s`),
        info("latency p50 / p99", `${quantile(sorted, 0.5).toFixed(1)} / ${quantile(sorted, 0.99).toFixed(1)} ms`),
        exactly("errors (anything but a rule refusal)", errors),
        info(
          "rule refusals",
          tally.ruleRefusals.size === 0 ? "0" : [...tally.ruleRefusals].map(([k, n]) => `${k} ${n}`).join(", "),
        ),
      ];
      if (rssStart !== undefined && rssWarm !== undefined && rssEnd !== undefined) {
        const mb = (b: number) => b / 2 ** 20;
        figures.push(
          info(
            "service RSS at start → a third in → end",
            `${mb(rssStart).toFixed(0)} → ${mb(rssWarm).toFixed(0)} → ${mb(rssEnd).toFixed(0)} MB`,
          ),
        );
        figures.push(
          atMost(
            "service RSS growth after the first third",
            Math.round(((rssEnd - rssWarm) / rssWarm) * 100),
            RSS_GROWTH_SHARE * 100,
            " %",
          ),
        );
      }
      return figures;
    } finally {
      await serve.kill("SIGTERM");
    }
  },
};
