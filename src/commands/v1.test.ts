import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createService, type LocalService } from "../service/index.js";
import { DEMO } from "../service/seed/demo-ids.js";
import type { V1Order, V1Payment, V1Refund, V1Settlement } from "../spec/generated/types.js";
import { createClient, type SquareClient } from "../square/index.js";
import { runV1Get, runV1List } from "./v1.js";

const home = mkdtempSync(join(tmpdir(), "backroom-v1-home-"));
const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };
// Noon in New York.
const NOW = new Date("2026-06-15T16:00:00.000Z");

let svc: LocalService;
let client: SquareClient;
let opened = 0;
beforeAll(async () => {
  svc = createService({ clock: { now: () => NOW, set: () => {}, advance: () => {} } });
  const url = await svc.listen();
  client = createClient({ baseUrl: url, accessToken: svc.accessToken, maxRetries: 0 });
  // The service lays its V1 history out on the first V1 request (seed/deferred.ts); these tests
  // also read its tables directly.
  const first = await fetch(`${url}/v1/me/payments?limit=1`, {
    headers: { authorization: `Bearer ${svc.accessToken}` },
  });
  expect(first.status).toBe(200);
}, 30_000);
afterAll(async () => {
  await client?.close();
  await svc?.close();
});
afterEach(async () => {
  await fetch(`${svc.url}/_emulator/faults`, { method: "DELETE" });
});

const deps = () => ({
  open: async () => {
    opened++;
    return { client, close: async () => {} };
  },
  now: () => NOW,
});

async function run(which: "list" | "get", kind: string, argv: string[], tty = false) {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), tty ? { isTTY: true } : {});
  const io = { stdout, stderr, stdin: new PassThrough(), env };
  const code =
    which === "list"
      ? await runV1List(kind as "payments", argv, io, deps())
      : await runV1Get(kind as "payment", argv, io, deps());
  return { code, out: String(stdout.read() ?? ""), err: String(stderr.read() ?? "") };
}
const list = (kind: string, argv: string[], tty = false) => run("list", kind, argv, tty);
const json = async <T>(kind: string, argv: string[]): Promise<T[]> => {
  const r = await list(kind, [...argv, "--json"]);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as T[];
};
const ids = (records: { id?: string }[]) => new Set(records.map((r) => r.id));

describe("the range rules, before anything is sent", () => {
  it("exits 2 with the rule in words for a range over a year or before 2013, without opening the service", async () => {
    const before = opened;
    const long = await list("payments", ["--from", "2025-01-01", "--to", "2026-01-01"]);
    expect(long.code).toBe(2);
    expect(long.err).toContain(
      "2025-01-01 to 2026-01-01 is longer than one year: the service answers at most one year at a time",
    );
    const early = await list("settlements", ["--from", "2012-12-31", "--to", "2013-02-01"]);
    expect(early.code).toBe(2);
    expect(early.err).toContain("the service keeps no V1 records before 2013-01-01");
    const early2 = await list("refunds", ["--to", "2013-01-15"]);
    expect(early2.code).toBe(2);
    expect((await list("payments", ["--from", "2026-13-01"])).code).toBe(2);
    expect((await list("payments", ["--status", "SENT"])).err).toContain("--status is for settlements only");
    expect((await list("settlements", ["--status", "LOST"])).err).toContain("--status must be one of SENT, FAILED");
    expect((await list("refunds", ["--include-partial"])).code).toBe(2);
    expect(opened).toBe(before);
  });

  it("reads exactly one year", async () => {
    const r = await list("settlements", ["--location", "me", "--from", "2025-06-16", "--to", "2026-06-15"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Settlements at all locations, 2025-06-16 to 2026-06-15.");
    // `all`, as the other commands say it, is every location too.
    const all = await list("settlements", ["--location", "All", "--from", "2025-06-16", "--to", "2026-06-15"]);
    expect(all.code, all.err).toBe(0);
    expect(all.out).toBe(r.out);
  });
});

describe("backroom v1 payments", () => {
  it("prints exactly the records with --json, every page of the range, each with its location", async () => {
    const payments = await json<V1Payment & { location_id: string }>("payments", [
      "--location",
      "main street",
      "--from",
      "2026-03-01",
      "--to",
      "2026-06-14",
    ]);
    // Counted at the service itself: Main Street's complete payments of those days (New York time).
    const { n } = svc.db
      .prepare(
        "SELECT count(*) AS n FROM v1_payments WHERE location_id = ? AND is_partial = 0 AND created_at >= ? AND created_at < ? AND arrived_at <= ?",
      )
      .get(DEMO.mainLocationId, "2026-03-01T05:00:00.000Z", "2026-06-15T04:00:00.000Z", NOW.toISOString()) as {
      n: number;
    };
    expect(n).toBeGreaterThan(200);
    expect(payments).toHaveLength(n);
    expect(ids(payments).size).toBe(n);
    expect(payments.every((p) => p.location_id === DEMO.mainLocationId && !p.is_partial)).toBe(true);
    const times = payments.map((p) => p.created_at ?? "");
    expect([...times].sort()).toEqual(times);
  });

  it("reads the last 30 days by default and says so, with the offline note and totals", async () => {
    const r = await list("payments", []);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Payments at Main Street, the last 30 days, 2026-05-17 to 2026-06-15");
    expect(r.out).toContain("the service's own, when no dates are sent, is the last year");
    expect(r.out).toContain("up to 72 hours later");
    expect(r.out).toMatch(/\n\d+ payments: collected [\d,]+\.\d\d USD, fees/);
  });

  it("adds partial payments only with --include-partial", async () => {
    const without = await json<V1Payment>("payments", ["--from", "2026-06-15"]);
    const withPartial = await json<V1Payment>("payments", ["--from", "2026-06-15", "--include-partial"]);
    const partial = withPartial.filter((p) => p.is_partial);
    expect(partial.length).toBeGreaterThan(0);
    expect(without.some((p) => p.is_partial)).toBe(false);
    expect(withPartial).toHaveLength(without.length + partial.length);
    for (const p of partial) expect(p.itemizations).toEqual([]);
  });

  it("shows progress on stderr when it is a terminal, and NDJSON and CSV for scripts", async () => {
    const r = await list(
      "payments",
      ["--location", "me", "--from", "2026-01-01", "--to", "2026-06-15", "--ndjson"],
      true,
    );
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/reading payments: [2-9] pages, \d+ records\n$/);
    const lines = r.out.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(400);
    expect(JSON.parse(lines[0] ?? "")).toHaveProperty("tender");
    const csv = await list("payments", ["--csv"]);
    expect(csv.out.split("\r\n")[0]).toBe(
      "payment_id,location_id,location,taken_at,taken_local,partial,tenders,currency,collected,fees,refunded,items",
    );
  });
});

describe("me: every location", () => {
  it("equals the union of the locations, for each list", async () => {
    const range = ["--from", "2026-04-01", "--to", "2026-06-15"];
    for (const kind of ["payments", "refunds", "settlements", "orders"]) {
      const all = await json<{ id?: string; payment_id?: string; created_at?: string }>(kind, [
        "--location",
        "me",
        ...(kind === "orders" ? [] : range),
      ]);
      const each = [];
      for (const loc of ["Main Street", "Harbour Dock"]) {
        each.push(
          ...(await json<(typeof all)[number]>(kind, ["--location", loc, ...(kind === "orders" ? [] : range)])),
        );
      }
      // Refunds have no id of their own: the payment (or tender) and the time name one.
      const key = (r: (typeof all)[number]) => r.id ?? `${r.payment_id}@${r.created_at}`;
      expect(all.length, kind).toBeGreaterThan(0);
      expect(all.map(key).sort(), kind).toEqual(each.map(key).sort());
    }
  });
});

describe("the other lists", () => {
  it("lists refunds as negative amounts at the location", async () => {
    const refunds = await json<V1Refund>("refunds", ["--from", "2025-07-01", "--to", "2026-06-15"]);
    expect(refunds.length).toBeGreaterThan(0);
    expect(refunds.every((r) => (r.refunded_money?.amount ?? 0) < 0)).toBe(true);
  });

  it("filters settlements by status", async () => {
    const range = ["--location", "me", "--from", "2025-06-16", "--to", "2026-06-15"];
    const failed = await json<V1Settlement>("settlements", [...range, "--status", "failed"]);
    const sent = await json<V1Settlement>("settlements", [...range, "--status", "SENT"]);
    const all = await json<V1Settlement>("settlements", range);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((s) => s.status === "FAILED")).toBe(true);
    expect(sent.length + failed.length).toBe(all.length);
  });

  it("lists every online-store order, or those placed on some days", async () => {
    const orders = await json<V1Order>("orders", []);
    expect(orders.length).toBe(220);
    const june = await json<V1Order>("orders", ["--from", "2026-06-01"]);
    expect(june.length).toBeGreaterThan(0);
    expect(june.length).toBeLessThan(orders.length);
    expect(june.every((o) => (o.created_at ?? "") >= "2026-06-01T04:00:00.000Z")).toBe(true);
  });
});

describe("one record", () => {
  it("shows a payment's tenders, items, totals and refunds", async () => {
    const [p] = (await json<V1Payment>("payments", ["--from", "2026-04-15", "--location", "me"])).filter(
      (x) => (x.tender?.length ?? 0) > 1,
    );
    const r = await run("get", "payment", [p?.id ?? ""]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Payment ${p?.id} at Main Street`);
    expect(r.out).toMatch(/Tenders:\n.*amount.*refunded.*left/);
    expect(r.out).toMatch(/Processing fees [\d.]+ USD/);
    const parsed = JSON.parse((await run("get", "payment", [p?.id ?? "", "--json", "--location", "me"])).out);
    expect(parsed).toMatchObject({ id: p?.id, location_id: DEMO.mainLocationId });
  });

  it("shows a settlement's entries adding up to its total", async () => {
    const row = svc.db
      .prepare(
        "SELECT id, location_id FROM v1_settlements WHERE data LIKE '%\"REFUND\"%' AND data LIKE '%\"CHARGE\"%' LIMIT 1",
      )
      .get() as { id: string; location_id: string };
    const r = await run("get", "settlement", [row.id, "--location", "me"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Payment ×\d+: /);
    expect(r.out).toMatch(/Refund ×\d+: -/);
    expect(r.out).toMatch(/The entries add up to the total of -?[\d,.]+ USD\./);
    const parsed = JSON.parse((await run("get", "settlement", [row.id, "--location", "me", "--json"])).out);
    expect(parsed.entries_add_up).toBe(true);
    expect(parsed.entries_sum).toBe(parsed.total_money.amount);
    const byHand = (parsed as V1Settlement).entries?.reduce(
      (x, e) => x + (e.amount_money?.amount ?? 0) + (e.fee_money?.amount ?? 0),
      0,
    );
    expect(byHand).toBe(parsed.total_money.amount);
  });

  it("shows an order's history and the actions its state allows; says when there is no such record", async () => {
    const [open] = (await json<V1Order>("orders", [])).filter((o) => o.state === "OPEN");
    const r = await run("get", "order", [open?.id ?? "", "--location", "me"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/History:\n {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}Placed/);
    expect(r.out).toContain("It can now be: complete (shipped), cancel.");
    const missing = await run("get", "payment", ["NOSUCHPAYMENT"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no payment NOSUCHPAYMENT at Main Street");
  });
});

describe("a retired operation", () => {
  it("says plainly that the service no longer offers it, and what replaces it", async () => {
    await fetch(`${svc.url}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "V1ListPayments", status: 410, code: "GONE" }),
    });
    const r = await list("payments", []);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      "backroom v1 payments: The service no longer offers payments (V1ListPayments) through the old (V1) interface; use the Payments API (listPayments) instead. (V1ListPayments)\n",
    );
  });
});
