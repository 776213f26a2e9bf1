import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAWER_DAY_CSV_HEADER, DRAWER_EVENTS_CSV_HEADER } from "../domain/cash-drawers-csv.js";
import { createService, type LocalService } from "../service/index.js";
import { createClient, type SquareClient } from "../square/index.js";
import { parseCommandLine } from "./args.js";
import {
  DRAWERS_EVENTS_SPEC,
  DRAWERS_REPORT_SPEC,
  drawersEventsOptions,
  drawersReportOptions,
  runDrawersEvents,
  runDrawersReport,
} from "./drawers.js";
import type { EventRecord, ShiftRecord, TotalsRecord } from "./drawers-output.js";

const home = mkdtempSync(join(tmpdir(), "backroom-drawers-home-"));
const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };
// 16:00 in New York: today's mornings are over, the afternoons open.
const NOW = new Date("2026-06-15T20:00:00.000Z");
const TODAY = "2026-06-15";

let svc: LocalService;
let client: SquareClient;
beforeAll(async () => {
  svc = createService({ clock: { now: () => NOW, set: () => {}, advance: () => {} } });
  const url = await svc.listen();
  client = createClient({ baseUrl: url, accessToken: svc.accessToken, maxRetries: 0 });
}, 30_000);
afterAll(async () => {
  await client?.close();
  await svc?.close();
});

const deps = () => ({ open: async () => ({ client, close: async () => {} }), now: () => NOW });

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = (s: PassThrough) => () => String(s.read() ?? "");
  return { io: { stdout, stderr, stdin: new PassThrough(), env }, out: text(stdout), err: text(stderr) };
}

async function run(which: "report" | "events", argv: string[]) {
  const t = io();
  const code = await (which === "report" ? runDrawersReport : runDrawersEvents)(argv, t.io, deps());
  return { code, out: t.out(), err: t.err() };
}

describe("the flags of backroom drawers", () => {
  const report = (argv: string[]) => {
    const parsed = parseCommandLine(DRAWERS_REPORT_SPEC, argv);
    if (parsed === "help") throw new Error("help");
    return drawersReportOptions(parsed, env);
  };
  const events = (argv: string[]) => {
    const parsed = parseCommandLine(DRAWERS_EVENTS_SPEC, argv);
    if (parsed === "help") throw new Error("help");
    return drawersEventsOptions(parsed, env);
  };

  it("takes one day or a range, and says what is wrong with either", () => {
    expect(report(["--date", "2026-06-01", "--json"])).toMatchObject({ date: "2026-06-01", format: "json" });
    expect(report(["--from", "2026-06-01", "--to", "2026-06-07", "--csv"])).toMatchObject({ format: "csv" });
    expect(() => report(["--date", "2026-06-01", "--from", "2026-06-01"])).toThrow(/cannot go together/);
    expect(() => report(["--to", "2026-06-01"])).toThrow(/--to needs --from/);
    expect(() => report(["--date", "2026-02-30"])).toThrow(/--date "2026-02-30" is not a date/);
    expect(() => report(["--from", "2026-06-07", "--to", "2026-06-01"])).toThrow(/starts .* after it ends/);
    expect(() => report(["--from", "2026-01-01", "--to", "2026-06-01"])).toThrow(/longer than 92 days/);
    expect(() => report(["--json", "--csv"])).toThrow(/cannot go together/);
  });

  it("reads event types in any case, and refuses one that is not a type", () => {
    expect([...events(["S1", "--type", "paid_out, NO_SALE"]).types]).toEqual(["PAID_OUT", "NO_SALE"]);
    expect(() => events(["S1", "--type", "PAYOUT"])).toThrow(/"PAYOUT" is not an event type; use NO_SALE/);
    expect(() => events(["S1", "--type", ","])).toThrow(/at least one event type/);
    expect(() => parseCommandLine(DRAWERS_EVENTS_SPEC, [])).toThrow(/missing SHIFT_ID/);
  });
});

describe("backroom drawers report", () => {
  it("prints exactly the records with --json: one per shift, then the day's totals", async () => {
    const r = await run("report", ["--location", "Main Street", "--json"]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    const records = JSON.parse(r.out) as (ShiftRecord | TotalsRecord)[];
    const shifts = records.filter((x): x is ShiftRecord => x.record === "shift");
    const totals = records.filter((x): x is TotalsRecord => x.record !== "shift");
    expect(shifts).toHaveLength(6);
    expect(totals).toHaveLength(1);
    expect(records.at(-1)).toBe(totals[0]);
    for (const s of shifts) expect(s.date).toBe(TODAY);
    expect(shifts.map((s) => s.needs_attention.join("+")).sort()).toEqual([
      "",
      "events disagree",
      "not counted",
      "open",
      "open",
      "open",
    ]);
    const short = shifts.find((s) => s.expected_from_events !== null);
    expect(short).toMatchObject({ description: "Garden centre, morning", state: "CLOSED", over_short: -2_000 });
    expect(short?.expected_from_events).toBe((short?.expected_cash ?? 0) - 2_000);
    expect(short?.closed_by).toMatch(/^[A-Z][a-z]+ /);
    const t = totals[0];
    const sum = (f: (s: ShiftRecord) => number | null) => shifts.reduce((a, s) => a + (f(s) ?? 0), 0);
    expect(t).toMatchObject({
      record: "day-totals",
      date: TODAY,
      shifts: 6,
      counted_shifts: 2,
      needs_attention: 4,
      events_disagree: 1,
      opening_cash: sum((s) => s.opening_cash),
      cash_sales: sum((s) => s.cash_sales),
      expected_cash: sum((s) => s.expected_cash),
      counted_cash: sum((s) => s.counted_cash),
      over_short: sum((s) => s.over_short),
    });
    expect(t?.over).toBeGreaterThan(0);
    expect(t?.short).toBe(-2_000);
    for (const s of shifts) {
      expect(s.expected_cash).toBe(s.opening_cash + s.cash_sales - s.cash_refunds + s.paid_in - s.paid_out);
    }
  });

  it("gives each day's totals and the range's over a range", async () => {
    const r = await run("report", ["--from", "2026-06-10", "--to", "2026-06-12", "--json"]);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.out) as (ShiftRecord | TotalsRecord)[];
    const totals = records.filter((x): x is TotalsRecord => x.record !== "shift");
    expect(totals.map((t) => [t.record, t.date])).toEqual([
      ["day-totals", "2026-06-10"],
      ["day-totals", "2026-06-11"],
      ["day-totals", "2026-06-12"],
      ["range-totals", null],
    ]);
    const shifts = records.filter((x): x is ShiftRecord => x.record === "shift");
    expect(shifts).toHaveLength(18);
    expect(totals[3]?.over_short).toBe(totals.slice(0, 3).reduce((a, t) => a + t.over_short, 0));
    expect(totals[3]?.shifts).toBe(18);
  });

  it("prints the day as CSV, one row per shift, the over/short a signed number", async () => {
    const r = await run("report", ["--csv"]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\r\n");
    expect(lines[0]).toBe(DRAWER_DAY_CSV_HEADER.join(","));
    expect(lines).toHaveLength(7);
    const garden = lines.find((l) => l.includes('"Garden centre, morning"'));
    expect(garden).toContain(",events disagree,");
    expect(garden).toMatch(/,-20\.00,\d+\.\d\d$/);
    // One drawer over, written as a plain number a spreadsheet adds up (no "+": see csvField).
    expect(lines.slice(1).filter((l) => Number(l.split(",").at(-2)) > 0)).toHaveLength(1);
    expect(lines.some((l) => l.includes(",+"))).toBe(false);
  });

  it("lays the day out for people, with the flags and the totals", async () => {
    const r = await run("report", ["--location", "main street"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Cash drawers at Main Street, ${TODAY} (America/New_York)`);
    expect(r.out).toMatch(/Garden centre .* -20\.00 +EVENTS≠/);
    expect(r.out).toMatch(/Front counter .*NOT COUNTED/);
    expect(r.out).toContain("Totals: 6 shifts, 2 counted.");
    expect(r.out).toContain("4 shifts need attention");
    // The one drawer whose events disagree, said as one.
    expect(r.out).toContain("1 shift has events that do not add up to its expected cash.");
  });

  it("names the drawers still open from the day before, after midnight, with the command that shows them", async () => {
    // 01:00 the next morning in New York: yesterday afternoon's drawers were never closed.
    const t = io();
    const night = { ...deps(), now: () => new Date("2026-06-16T05:00:00.000Z") };
    const code = await runDrawersReport(["--location", "main street"], t.io, night);
    const out = t.out();
    expect(code).toBe(0);
    expect(out).toContain("Cash drawers at Main Street, 2026-06-16");
    expect(out).toMatch(
      /\n\d+ drawers? still open from Mon 2026-06-15: `backroom drawers report --date 2026-06-15` shows them\.\n$/,
    );
    // The day itself has them all: the report of that day lists as many open.
    const open = Number(/(\d+) drawers? still open/.exec(out)?.[1]);
    const day = await run("report", ["--location", "main street", "--json"]);
    const records = JSON.parse(day.out) as (ShiftRecord | TotalsRecord)[];
    expect(records.filter((r) => "state" in r && r.state === "OPEN")).toHaveLength(open);
    // Not for a script: the records stay the day's own.
    const json = io();
    await runDrawersReport(["--location", "main street", "--json"], json.io, night);
    expect(json.out()).not.toContain("still open");
  });

  it("writes to a file, and leaves an existing one alone without --force", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "backroom-drawers-")), "day.csv");
    writeFileSync(file, "keep me");
    const refused = await run("report", ["--csv", "--out", file]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("already exists; pass --force");
    expect(readFileSync(file, "utf8")).toBe("keep me");
    const forced = await run("report", ["--csv", "--out", file, "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.out).toBe("");
    expect(readFileSync(file, "utf8").startsWith("date,shift id,")).toBe(true);
  });

  it("says so on stderr, with a non-zero exit, for an unknown location or a failing service", async () => {
    const unknown = await run("report", ["--location", "Nowhere", "--json"]);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toBe("");
    expect(unknown.err).toContain('no location "Nowhere"; there are: Main Street, Harbour Dock');
    await fetch(`${svc.url}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "ListCashDrawerShifts", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 }),
    });
    const failed = await run("report", ["--json"]);
    expect(failed.code).toBe(1);
    expect(failed.out).toBe("");
    expect(failed.err).toMatch(/^backroom drawers report: the service refused: .*\(SERVICE_UNAVAILABLE\)\n$/);
  });
});

describe("backroom drawers events", () => {
  async function gardenShift() {
    const r = await run("report", ["--json"]);
    const shifts = (JSON.parse(r.out) as ShiftRecord[]).filter((x) => x.record === "shift");
    const found = shifts.find((s) => s.description === "Garden centre, morning");
    if (!found) throw new Error("no garden centre shift");
    return found;
  }

  it("prints exactly the event records, each with its effect and the drawer after it", async () => {
    const shift = await gardenShift();
    const r = await run("events", [shift.shift_id, "--json"]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    const events = JSON.parse(r.out) as EventRecord[];
    expect(events.length).toBeGreaterThan(2);
    expect(events.at(-1)?.drawer_after).toBe(shift.expected_from_events);
    for (const e of events) {
      if (e.event_type === "PAID_OUT" || e.event_type === "CASH_TENDER_REFUND") expect(e.cash_change).toBe(-e.amount);
      if (e.event_type === "CASH_TENDER_PAYMENT" || e.event_type === "PAID_IN") expect(e.cash_change).toBe(e.amount);
    }
    expect(events.some((e) => e.event_type === "PAID_OUT" && e.description === "Delivery tip")).toBe(true);
  });

  it("filters by type", async () => {
    const shift = await gardenShift();
    const r = await run("events", [shift.shift_id, "--type", "PAID_OUT,NO_SALE", "--json"]);
    const events = JSON.parse(r.out) as EventRecord[];
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map((e) => e.event_type))).toEqual(
      new Set(events.some((e) => e.event_type === "NO_SALE") ? ["PAID_OUT", "NO_SALE"] : ["PAID_OUT"]),
    );
    const csv = await run("events", [shift.shift_id, "--type", "PAID_OUT", "--csv"]);
    const lines = csv.out.trimEnd().split("\r\n");
    expect(lines[0]).toBe(DRAWER_EVENTS_CSV_HEADER.join(","));
    expect(lines.slice(1).every((l) => l.split(",")[1] === "PAID_OUT")).toBe(true);
  });

  it("shows the reconciliation first for people, with the lines that disagree marked", async () => {
    const shift = await gardenShift();
    const r = await run("events", [shift.shift_id]);
    expect(r.out).toMatch(/- Paid out +\d+\.\d\d +\d+\.\d\d +≠ differs/);
    expect(r.out).toMatch(/= Expected cash +[\d,]+\.\d\d +[\d,]+\.\d\d +≠ differs/);
    expect(r.out).toMatch(/ +Over\/short +-20\.00/);
    expect(r.out).toContain("The events add up to");
  });

  it("says there is no such shift at the location, on stderr with exit 1", async () => {
    const r = await run("events", ["NOSUCHSHIFT", "--json"]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe("backroom drawers events: no drawer shift NOSUCHSHIFT at Main Street\n");
    const shift = await gardenShift();
    const elsewhere = await run("events", [shift.shift_id, "--location", "Harbour Dock"]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.err).toContain("at Harbour Dock");
  });
});
