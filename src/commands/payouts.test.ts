import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientWithScopes, pinnedClock, startService, type TestService } from "../../test/helpers/service.js";
import { DEMO } from "../service/seed/demo-ids.js";
import type { Payout, PayoutEntry } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";
import { parseCommandLine } from "./args.js";
import { PAYOUTS_LIST_SPEC, payoutsListOptions, runPayoutsEntries, runPayoutsGet, runPayoutsList } from "./payouts.js";
import { PAYOUTS_RECONCILE_SPEC, reconcileOptions, runPayoutsReconcile } from "./payouts-reconcile.js";

const home = mkdtempSync(join(tmpdir(), "backroom-payouts-home-"));
const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };
// Noon in New York on a Wednesday.
const NOW = Date.parse("2026-06-17T16:00:00.000Z");

let t: TestService;
let lastMonth: Payout[];
beforeAll(async () => {
  t = await startService({ clock: pinnedClock(NOW) });
  lastMonth = await t.client.payouts
    .listPayouts({ begin_time: "2026-05-18T04:00:00.000Z", end_time: "2026-06-18T04:00:00.000Z" })
    .all();
}, 30_000);
afterAll(async () => {
  await t?.close();
});

const deps = (client: SquareClient = t.client) => ({
  open: async () => ({ client, close: async () => {} }),
  now: () => new Date(NOW),
});

type Run = typeof runPayoutsList;
async function run(command: Run, argv: string[], client?: SquareClient) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await command(argv, { stdout, stderr, stdin: new PassThrough(), env }, deps(client));
  return { code, out: String(stdout.read() ?? ""), err: String(stderr.read() ?? "") };
}

describe("the flags of backroom payouts", () => {
  const list = (argv: string[]) => {
    const parsed = parseCommandLine(PAYOUTS_LIST_SPEC, argv);
    if (parsed === "help") throw new Error("help");
    return payoutsListOptions(parsed, env);
  };
  const reconcile = (argv: string[]) => {
    const parsed = parseCommandLine(PAYOUTS_RECONCILE_SPEC, argv);
    if (parsed === "help") throw new Error("help");
    return reconcileOptions(parsed, env);
  };
  it("reads statuses in words and dates, and says what is wrong with them", () => {
    expect(list(["--status", "In transit", "--json"])).toMatchObject({ status: "SENT", format: "json" });
    expect(() => list(["--status", "lost"])).toThrow(/--status must be sent, paid or failed, not "lost"/);
    expect(() => list(["--from", "2026-02-30"])).toThrow(/--from "2026-02-30" is not a date/);
    expect(() => list(["--from", "2026-06-10", "--to", "2026-06-01"])).toThrow(/starts \(2026-06-10\) after it ends/);
    expect(() => list(["--json", "--csv"])).toThrow(/cannot go together/);
  });
  it("takes the statement's column flags, from 1", () => {
    expect(reconcile(["s.csv", "--date-column", "Buchungstag", "--date-format", "DD.MM.YYYY"]).columns).toEqual({
      dateColumn: "Buchungstag",
      amountColumn: undefined,
      descriptionColumn: undefined,
      dateFormat: "DD.MM.YYYY",
    });
    expect(() => reconcile(["s.csv", "--amount-column", "0"])).toThrow(/counts columns from 1/);
    expect(() => reconcile(["s.csv", "--env", "moon"])).toThrow(/--env must be one of/);
  });
  it("prints usage with exit 2 for a mistake, and --help with exit 0", async () => {
    const bad = await run(runPayoutsReconcile, []);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/missing STATEMENT.csv/);
    const help = await run(runPayoutsList, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--location ID\|NAME\|all/);
  });
});

describe("backroom payouts list", () => {
  it("prints the last 30 days of the main location, newest first, with the totals", async () => {
    const r = await run(runPayoutsList, []);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Payouts of Main Street created 2026-05-19 to 2026-06-17, newest first/);
    const ids = [...r.out.matchAll(/po_[0-9a-f-]{36}/g)].map((m) => m[0]);
    expect(ids).toEqual(lastMonth.filter((p) => (p.created_at ?? "") >= "2026-05-19T04:00").map((p) => p.id));
    const paid = lastMonth.filter((p) => p.status === "PAID" && (p.created_at ?? "") >= "2026-05-19T04:00");
    expect(r.out).toContain(`Paid ${paid.length}, `);
  });

  it("--json prints exactly the service's payouts; --csv a row each", async () => {
    const json = await run(runPayoutsList, ["--from", "2026-06-01", "--to", "2026-06-10", "--json"]);
    const records = JSON.parse(json.out) as Payout[];
    expect(records.length).toBeGreaterThan(5);
    for (const p of records) {
      expect(lastMonth.find((q) => q.id === p.id)).toEqual(p);
      expect(p.created_at! >= "2026-06-01T04:00:00").toBe(true);
      expect(p.created_at! < "2026-06-11T04:00:00").toBe(true);
    }
    const csv = await run(runPayoutsList, ["--from", "2026-06-01", "--to", "2026-06-10", "--csv"]);
    const lines = csv.out.trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,location_id,status,created_at,arrival_date,amount,currency,destination,end_to_end_id,type",
    );
    expect(lines).toHaveLength(records.length + 1);
    expect(lines[1]).toMatch(/^po_.*,(sent|paid|failed),.*,bank account ••\w{4},/);
  });

  it("lists every location with --location all, and filters by status", async () => {
    const r = await run(runPayoutsList, ["--location", "all", "--status", "paid", "--ndjson"]);
    const records = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Payout);
    expect(new Set(records.map((p) => p.location_id))).toEqual(new Set([DEMO.mainLocationId, DEMO.secondLocationId]));
    expect(records.every((p) => p.status === "PAID")).toBe(true);
    const one = await run(runPayoutsList, ["--location", "harbour dock", "--json"]);
    expect((JSON.parse(one.out) as Payout[]).every((p) => p.location_id === DEMO.secondLocationId)).toBe(true);
    const none = await run(runPayoutsList, ["--location", "moon base"]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no location "moon base"; there are: /);
  });

  it("is not an error for dates older than the service keeps: it says so and lists none", async () => {
    const r = await run(runPayoutsList, ["--from", "2020-06-01", "--to", "2020-12-31", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual([]);
    expect(r.err).toMatch(/Payouts before 2021-01-01 are not kept by the service; the Square Dashboard has them/);
  });
});

describe("backroom payouts get and entries", () => {
  it("gives the payout, its entries and their summary, which adds up", async () => {
    const p = lastMonth[3] as Payout;
    const r = await run(runPayoutsGet, [p.id, "--json"]);
    expect(r.code).toBe(0);
    const got = JSON.parse(r.out) as {
      payout: Payout;
      entries: PayoutEntry[];
      summary: { fee_total: number; entries_match_amount: boolean; total: { net: number }; groups: { type: string }[] };
    };
    expect(got.payout).toEqual(p);
    expect(got.entries.length).toBeGreaterThan(0);
    expect(got.summary.entries_match_amount).toBe(true);
    expect(got.summary.total.net).toBe(p.amount_money?.amount);
    const fees = got.entries.reduce(
      (s, e) =>
        s + (e.type === "REFUND" ? -Math.abs(e.fee_amount_money?.amount ?? 0) : (e.fee_amount_money?.amount ?? 0)),
      0,
    );
    expect(got.summary.fee_total).toBe(fees);
    expect(got.summary.groups[0]?.type).toBe("CHARGE");
    const text = await run(runPayoutsGet, [p.id]);
    expect(text.out).toMatch(/The entries add up to the payout's/);
    expect(text.out).toMatch(/charges\s+\d+/);
    // Each entry's row names one entry: "charge", while the summary's group is "charges".
    expect(text.out).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d {2}charge {2}/m);
    expect(text.out).not.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d {2}charges/m);
  });

  it("prints the entries as records, and says so when the payout does not exist", async () => {
    const p = lastMonth[0] as Payout;
    const all = await t.client.payouts.listPayoutEntries(p.id, { sort_order: "ASC" }).all();
    const r = await run(runPayoutsEntries, [p.id, "--ndjson"]);
    expect(
      r.out
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as PayoutEntry).id),
    ).toEqual(all.map((e) => e.id));
    const missing = await run(runPayoutsGet, ["po_nope"]);
    expect(missing).toMatchObject({ code: 1, out: "" });
    expect(missing.err).toMatch(/no payout po_nope/);
  });
});

describe("a sign-in without PAYOUTS_READ", () => {
  it("is told which permission is missing and how to sign in with it", async () => {
    const limited = clientWithScopes(t, "token-without-payouts", ["MERCHANT_PROFILE_READ"]);
    try {
      const r = await run(runPayoutsList, [], limited);
      expect(r.code).toBe(1);
      expect(r.out).toBe("");
      expect(r.err).toMatch(/lacks the PAYOUTS_READ permission\. Sign in again with `backroom login`/);
    } finally {
      await limited.close();
    }
  });
});

describe("backroom payouts reconcile", () => {
  const folder = mkdtempSync(join(tmpdir(), "backroom-statements-"));
  const write = (name: string, text: string) => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };
  const usd = (cents: number) => (cents / 100).toFixed(2);
  const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
  const paidIn = (from: string, to: string) =>
    lastMonth
      .filter((p) => p.status === "PAID" && (p.arrival_date ?? "") >= from && (p.arrival_date ?? "") <= to)
      .sort((a, b) => (a.arrival_date ?? "").localeCompare(b.arrival_date ?? ""));

  it("refuses a statement on standard input past the size a statement has, saying the size", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const done = runPayoutsReconcile(["-"], { stdout, stderr, stdin, env }, deps());
    const line = `${"2026-06-08,SQUARE INC,1.00\n".repeat(40_000)}`;
    for (let sent = 0; sent <= 21 * 1_048_576; sent += line.length) stdin.write(line);
    stdin.end();
    expect(await done).toBe(2);
    expect(String(stderr.read() ?? "")).toBe(
      "backroom payouts reconcile: the statement on standard input is over 20 MB; a statement export is far smaller\n",
    );
  });

  it("matches a Chase statement's lines, prints the issue's JSON and exits 3 when a line is not a payout", async () => {
    const [a, b] = paidIn("2026-06-08", "2026-06-12");
    if (!a || !b) throw new Error("the demo store has no payouts that week");
    const path = write(
      "chase.csv",
      [
        "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #",
        `CREDIT,${us(a.arrival_date!)},"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ IND ID:${a.end_to_end_id} IND NAME:BACKROOM",${usd(a.amount_money!.amount!)},ACH_CREDIT,1000.00,,`,
        `CREDIT,${us(b.arrival_date!)},"ORIG CO NAME:SQUARE INC",${usd(b.amount_money!.amount!)},ACH_CREDIT,2000.00,,`,
        `DEBIT,${us(b.arrival_date!)},GREEN MOUNTAIN POWER,-185.32,ACH_DEBIT,1800.00,,`,
      ].join("\n"),
    );
    const r = await run(runPayoutsReconcile, [path, "--json"]);
    expect(r.code).toBe(3);
    const missing = paidIn(a.arrival_date!, b.arrival_date!).filter((p) => p.id !== a.id && p.id !== b.id);
    expect(JSON.parse(r.out)).toEqual({
      matched: [
        { line: 2, payout_id: a.id, by: "end_to_end_id" },
        { line: 3, payout_id: b.id, by: "amount_date" },
      ],
      ambiguous: [],
      unmatched: [
        {
          line: 4,
          date: b.arrival_date,
          amount: { amount: -18_532, currency: "USD" },
          description: "GREEN MOUNTAIN POWER",
        },
      ],
      missing: missing.map((p) => ({ payout_id: p.id, arrival_date: p.arrival_date, amount: p.amount_money })),
    });
    const text = await run(runPayoutsReconcile, [path]);
    expect(text.out).toMatch(/matched by reference\s+1/);
    expect(text.out).toMatch(
      /line 4 {2}\d{4}-\d\d-\d\d {2}-185\.32 {2}GREEN MOUNTAIN POWER\n {4}No payout has this amount\./,
    );
  });

  it("names each line it skipped by its number, and keeps a description on one line", async () => {
    const [a] = paidIn("2026-06-08", "2026-06-12");
    if (!a) throw new Error("the demo store has no payouts that week");
    const path = write(
      "skips.csv",
      [
        "Date,Description,Amount",
        `${a.arrival_date},"SQUARE\nDEPOSIT",${usd(a.amount_money!.amount!)}`,
        ",no date here,5.00",
        `${a.arrival_date},"RENT\nJUNE",-1200.00`,
        "Closing balance,,",
      ].join("\n"),
    );
    const r = await run(runPayoutsReconcile, [path]);
    expect(r.out).toContain("2 lines without an amount or date skipped");
    expect(r.out).toMatch(/Lines skipped \(no transaction on them\):\n {2}line 4: no date\n {2}line 7: /);
    expect(r.out).toMatch(/line 5 {2}\d{4}-\d\d-\d\d {2}-1,200\.00 {2}RENT JUNE\n/);
  });

  it("exits 0 when every line is a payout and every paid payout of its dates is there", async () => {
    const week = paidIn("2026-06-01", "2026-06-05");
    const path = write(
      "whole.csv",
      [
        "Date,Description,Amount",
        ...week.map((p) => `${p.arrival_date},SQUARE INC,"$${usd(p.amount_money!.amount!)}"`),
      ].join("\n"),
    );
    const r = await run(runPayoutsReconcile, [path, "--json"]);
    expect(JSON.parse(r.out).matched).toHaveLength(week.length);
    expect(r.code).toBe(0);
  });

  it("exits 2 for a file it cannot use, naming the lines, and 1 when the service fails", async () => {
    const bad = await run(runPayoutsReconcile, [write("bad.csv", "Date,Description,Amount\n2026-06-01,x,1.005\n")]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /1 line of the statement cannot be read\.\n {2}line 2: The amount USD has 2 decimals at most/,
    );
    expect((await run(runPayoutsReconcile, [join(folder, "absent.csv")])).err).toMatch(/there is no file/);
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "ListPayouts", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 },
    });
    const down = await run(runPayoutsReconcile, [write("one.csv", "Date,Description,Amount\n2026-06-01,x,1.00\n")]);
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/The service had a problem; try again\. \(SERVICE_UNAVAILABLE\)/);
  });
});
