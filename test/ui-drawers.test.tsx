// The cash drawers screen as a manager uses it, driven by keys against the local service's demo data.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  byCloser,
  dailyOverShort,
  drawerRow,
  drawerTotals,
  largestDifferences,
  localDayWindow,
} from "../src/domain/cash-drawers.js";
import { overShortChart } from "../src/domain/cash-drawers-chart.js";
import { DRAWER_DAY_CSV_HEADER, DRAWER_EVENTS_CSV_HEADER } from "../src/domain/cash-drawers-csv.js";
import { formatAmount } from "../src/domain/money.js";
import { addDays } from "../src/domain/time.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import type { CashDrawerShift } from "../src/spec/generated/types.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { startService, type TestService } from "./helpers/service.js";

// 16:00 in New York: the mornings are over (one counted over, one short with events that
// disagree, one never counted) and the afternoons are open.
const NOW = new Date("2026-06-15T20:00:00.000Z");
const TODAY = "2026-06-15";
const TZ = DEMO.mainTimezone;
const clock = { now: () => NOW, set: () => {}, advance: () => {} };

let service: TestService;
let app: DrivenApp | undefined;
const dir = mkdtempSync(join(tmpdir(), "backroom-drawers-ui-"));

beforeAll(async () => {
  service = await startService({ clock });
}, 30_000);
afterAll(async () => {
  await service?.close();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function open(columns = 80, rows = 24): Promise<DrivenApp> {
  app = await startApp({ shared: service, columns, rows, store: { clock: { now: () => NOW }, dataDir: dir } });
  // The tab bar (at 60 columns only the current tab keeps its title) says the app is drawn.
  await app.waitFor("1 Time clock");
  await app.press("6");
  await app.waitFor("Totals:", 15_000);
  return app;
}

/** A day's shifts at the main location, read straight from the service. */
async function shiftsOf(date: string): Promise<CashDrawerShift[]> {
  const { begin, end } = localDayWindow(date, date, TZ);
  const summaries = await service.client.cashDrawers
    .listCashDrawerShifts({ location_id: DEMO.mainLocationId, begin_time: begin, end_time: end })
    .all();
  const full: CashDrawerShift[] = [];
  for (const s of summaries) {
    const r = await service.client.cashDrawers.retrieveCashDrawerShift(s.id ?? "", {
      location_id: DEMO.mainLocationId,
    });
    if (r.cash_drawer_shift) full.push(r.cash_drawer_shift);
  }
  return full;
}

const lines = (frame: string) => frame.split("\n");

/** Backspaces enough to empty the export form's path field (it opens on the default path). */
const clear = (a: DrivenApp, what: "day" | "events") =>
  KEYS.backspace.repeat(a.store.getState().drawersExportPath(what).length);

/** Moves the cursor onto the row that contains `text`, then presses enter. */
async function openRow(a: DrivenApp, text: string) {
  const index = a.store.getState().drawers.day?.rows.findIndex((r) => r.description === text) ?? -1;
  expect(index).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < index; i++) await a.press("j");
  await a.press(KEYS.enter);
  await a.waitFor(text);
  await a.waitForStore((s) => s.drawers.detail?.complete === true);
}

describe("the day view", () => {
  it("lists today's drawers with their flags, and the day's totals as the service's shifts add up", async () => {
    const a = await open();
    const frame = await a.waitFor(`Mon ${TODAY} (today)`);
    const shifts = await shiftsOf(TODAY);
    expect(shifts).toHaveLength(6);
    const totals = drawerTotals(shifts.map((s) => drawerRow(s, TZ)));
    expect(frame).toContain("Totals: 6 shifts, 2 counted");
    expect(frame).toContain(`expected ${formatAmount(totals.expected, "USD")}`);
    expect(frame).toContain(
      `counted ${formatAmount(totals.counted, "USD")} of ${formatAmount(totals.expectedOfCounted, "USD")}`,
    );
    expect(frame).toContain(`net ${formatAmount(totals.net, "USD")} SHORT`);
    expect(totals.net).toBeLessThan(0);
    // Flags read without colour: ! needs attention, ≠ events disagree, the over/short signed.
    expect(frame).toMatch(/ENDED +! +Front counter/);
    expect(frame.match(/OPEN +! /g)).toHaveLength(3);
    expect(frame).toMatch(/CLOSED +≠ +Garden centre .* -20\.00/);
    expect(frame).toMatch(/CLOSED +Paint desk .* \+\d+\.\d\d/);
    expect(lines(frame).length).toBeLessThanOrEqual(24);
    for (const line of lines(frame)) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("steps back and forth a day with [ and ], and t comes back to today", async () => {
    const a = await open();
    await a.press("[");
    let frame = await a.waitFor("Sun 2026-06-14");
    await a.waitFor((f) => f.includes("Totals: 6 shifts"));
    frame = a.frame();
    // Yesterday's last front counter shift was never counted.
    expect(frame).toMatch(/ENDED +! +Front counter/);
    expect(frame).toContain("Totals: 6 shifts, 5 counted");
    const yesterday = drawerTotals((await shiftsOf("2026-06-14")).map((s) => drawerRow(s, TZ)));
    expect(frame).toContain(`expected ${formatAmount(yesterday.expected, "USD")}`);
    await a.press("]");
    await a.waitFor(`Mon ${TODAY} (today)`);
    // No further than the store's today: a day to come has no drawers yet, and the key says so.
    await a.press("]");
    await a.waitFor("Tue 2026-06-16 has not come yet (today is Mon 2026-06-15).");
    expect(a.frame()).toContain(`Mon ${TODAY} (today)`);
    expect(a.store.getState().drawers.from).toBe(TODAY);
    await a.press("[");
    await a.waitFor("Sun 2026-06-14");
    await a.press("t");
    await a.waitFor(`Mon ${TODAY} (today)`);
    await a.waitFor("Totals: 6 shifts, 2 counted");
  });

  it("after midnight, today's empty day says which drawers are still open from the evening before", async () => {
    // 01:00 in New York on Tuesday: Monday's afternoon drawers were never ended.
    const night = new Date("2026-06-16T05:00:00.000Z");
    const late = await startService({ clock: { now: () => night, set: () => {}, advance: () => {} } });
    try {
      app = await startApp({
        shared: late,
        columns: 80,
        rows: 24,
        store: { clock: { now: () => night }, dataDir: dir },
      });
      await app.waitFor("1 Time clock");
      await app.press("6");
      await app.waitFor("Tue 2026-06-16 (today)", 15_000);
      const open = (
        await late.client.cashDrawers
          .listCashDrawerShifts({
            location_id: DEMO.mainLocationId,
            begin_time: "2026-06-09T04:00:00Z",
            end_time: "2026-06-16T04:00:00Z",
          })
          .all()
      ).filter((s) => s.state === "OPEN");
      expect(open.length).toBeGreaterThan(0);
      const frame = await app.waitFor(`${open.length} drawers still open from Mon 06-15: [ to see them`);
      expect(frame).toContain("No drawer was opened on this day.");
      await app.press("[");
      await app.waitFor("Mon 2026-06-15");
      await app.waitFor((f) => (f.match(/OPEN +! /g) ?? []).length === open.length);
      expect(app.frame()).not.toContain("still open from");
      // At 60 columns the note is whole, on two lines if it must.
      await app.press("t");
      app.stdout.resize(60, 24);
      await app.waitFor(`${open.length} drawers still open from Mon 06-15: [ to see`);
    } finally {
      await app?.close();
      app = undefined;
      await late.close();
    }
  });

  it("follows the location: another store's drawers, on its own today", async () => {
    const a = await open(100, 30);
    await a.press("[");
    await a.waitFor("Sun 2026-06-14");
    await a.press("L");
    await a.waitFor("Harbour Dock");
    await a.press("j", KEYS.enter);
    // A day picked by hand stays picked across the switch.
    await a.waitFor("Harbour Dock · Sun 2026-06-14");
    await a.waitFor(/Totals: 2 shifts, 2 counted/);
    await a.press("t");
    // 13:00 in Los Angeles: the dock's morning was counted short, the afternoon is open.
    const frame = await a.waitFor(`Harbour Dock · Mon ${TODAY} (today)`);
    await a.waitFor("Totals: 2 shifts, 1 counted");
    expect(a.frame()).toMatch(/OPEN +! +Dock till/);
    expect(a.frame()).toMatch(/CLOSED +Dock till .* -\d+\.\d\d/);
    expect(frame).toContain("America/Los_Angeles");
  });

  it("reads a range of days from the date form, and refuses a range that ends before it starts", async () => {
    const a = await open(100, 30);
    await a.press("d");
    await a.waitFor("Drawers of which days?");
    await a.press(`${"\u007f".repeat(10)}2026-06-12`, KEYS.tab, "2026-06-10", KEYS.enter);
    await a.waitFor("The range starts (2026-06-12) after it ends (2026-06-10).");
    // The cursor is still in the "to" field: put the end after the start.
    await a.press(`${"\u007f".repeat(10)}2026-06-14`, KEYS.enter);
    await a.waitFor("Fri 2026-06-12 → Sun 2026-06-14");
    await a.waitFor("Totals: 18 shifts");
    // A range shows each shift's date.
    expect(a.frame()).toMatch(/Date +Open/);
  });

  it("a bad from date refused from the To field takes the manager back to From, typing replaces it", async () => {
    const a = await open(100, 30);
    await a.press("d");
    await a.waitFor("Drawers of which days?");
    await a.press(`${"\u007f".repeat(10)}2026-06-1`, KEYS.tab, "2026-06-14", KEYS.enter);
    await a.waitFor('The from "2026-06-1" is not a date; write it as YYYY-MM-DD.');
    await a.waitFor(/› From: +2026-06-1 /);
    await a.press("2026-06-12", KEYS.enter);
    await a.waitFor("Fri 2026-06-12 → Sun 2026-06-14");
  });

  it("stops a day to come typed in the form, as ] does, and keeps the form open on the value", async () => {
    const a = await open(100, 30);
    await a.press("d");
    await a.waitFor("Drawers of which days?");
    await a.press(`${"\u007f".repeat(10)}2026-06-20`, KEYS.enter);
    let frame = await a.waitFor("Sat 2026-06-20 has not come yet (today is Mon 2026-06-15).");
    expect(frame).toContain("Drawers of which days?");
    expect(frame).toContain("2026-06-20");
    expect(a.store.getState().drawers.from).toBe(TODAY);
    // A range that runs into the days to come: its end is named.
    await a.press(`${"\u007f".repeat(10)}2026-06-14`, KEYS.tab, "2026-06-17", KEYS.enter);
    frame = await a.waitFor("Wed 2026-06-17 has not come yet (today is Mon 2026-06-15).");
    expect(frame).toContain("Drawers of which days?");
    // Fixed: today is shown.
    await a.press(`${"\u007f".repeat(10)}2026-06-15`, KEYS.enter);
    await a.waitFor("Sun 2026-06-14 → Mon 2026-06-15");
  });
});

describe("a shift in detail", () => {
  it("shows the reconciliation, with the lines where the events disagree marked", async () => {
    const a = await open();
    await openRow(a, "Garden centre, morning");
    const frame = await a.waitFor("[Reconciliation]");
    expect(frame).toContain("≠ events disagree");
    expect(frame).toMatch(/│ - Paid out +│ +0\.00 │ +20\.00 │ ≠ differs │/);
    expect(frame).toMatch(/│ = Expected cash +│ +([\d,]+\.\d\d) │ +([\d,]+\.\d\d) │ ≠ differs │/);
    const [, shiftExpected, eventsExpected] = (
      /│ = Expected cash +│ +([\d,]+\.\d\d) │ +([\d,]+\.\d\d) │/.exec(frame) ?? []
    ).map((x) => x.replaceAll(",", ""));
    expect(Number(shiftExpected) - Number(eventsExpected)).toBeCloseTo(20, 6);
    expect(frame).toMatch(/Counted [\d,]+\.\d\d · over\/short -20\.00 SHORT/);
    expect(lines(frame).length).toBeLessThanOrEqual(24);
    await a.press(KEYS.escape);
    await a.waitFor("Totals:");
  });

  it("puts counted and over/short in the table when the terminal is tall enough", async () => {
    const a = await open(120, 40);
    await openRow(a, "Paint desk, morning");
    const frame = await a.waitFor("│   Over/short");
    const shift = (await shiftsOf(TODAY)).find((s) => s.description === "Paint desk, morning");
    const over = (shift?.closed_cash_money?.amount ?? 0) - (shift?.expected_cash_money?.amount ?? 0);
    expect(over).toBeGreaterThan(0);
    expect(frame).toMatch(
      new RegExp(`│   Over/short +│ +\\+${formatAmount(over, "USD").replace(".", "\\.")} │ +│ OVER +│`),
    );
    expect(frame).toMatch(/│ {3}Counted cash +│ +[\d,]+\.\d\d │/);
    // Side by side: the events are there too.
    expect(frame).toMatch(/Time +Event +Amount +Cash +Drawer/);
  });

  it("filters the events by type: paid outs and no-sale opens, then what the picker ticks", async () => {
    const a = await open();
    await openRow(a, "Garden centre, morning");
    const shiftId = a.store.getState().drawers.detail?.shiftId ?? "";
    const events = await service.client.cashDrawers
      .listCashDrawerShiftEvents(shiftId, { location_id: DEMO.mainLocationId })
      .all();
    const wanted = events.filter((e) => e.event_type === "PAID_OUT" || e.event_type === "NO_SALE");
    await a.press("v");
    await a.waitFor(`[Events ${events.length} (all types)]`);
    await a.press("p");
    let frame = await a.waitFor(`[Events ${wanted.length} of ${events.length} (NO_SALE, PAID_OUT)]`);
    const rows = lines(frame).filter((l) => /^[ ›] \d\d:\d\d /.test(l));
    expect(rows).toHaveLength(wanted.length);
    for (const r of rows) expect(r).toMatch(/ (Paid out|No sale) /);
    expect(frame).toMatch(/Paid out +20\.00 +-20\.00 .*Delivery tip/);
    // p again shows every event.
    await a.press("p");
    await a.waitFor(`[Events ${events.length} (all types)]`);
    // The picker: untick nothing, tick "Paid in" only.
    await a.press("f");
    await a.waitFor("Show which events?");
    await a.press("j".repeat(7), " ", KEYS.enter);
    const paidIn = events.filter((e) => e.event_type === "PAID_IN").length;
    frame = await a.waitFor(`(PAID_IN)]`);
    expect(frame).toContain(`Events ${paidIn} of ${events.length}`);
    const shown = lines(frame).filter((l) => /^[ ›] \d\d:\d\d /.test(l));
    expect(shown).toHaveLength(paidIn);
    for (const r of shown) expect(r).toMatch(/ Paid in /);
  });
});

describe("the trend", () => {
  it("draws 30 days of over/short either side of a zero line, readable without colour", async () => {
    const a = await open();
    await a.press("c");
    const frame = await a.waitFor("Largest differences", 15_000);
    expect(frame).toContain("over/short per day, 2026-05-17 to 2026-06-15");
    // The same days, read from the service, drawn by the chart: the frame holds each of its lines.
    const from = addDays(TODAY, -29);
    const { begin, end } = localDayWindow(from, TODAY, TZ);
    const summaries = await service.client.cashDrawers
      .listCashDrawerShifts({ location_id: DEMO.mainLocationId, begin_time: begin, end_time: end })
      .all();
    const days = dailyOverShort(
      summaries.map((s) => drawerRow(s, TZ)),
      from,
      TODAY,
    );
    // The chart sits between the title and the date labels, the zero line in the middle,
    // each day two cells wide after a ten-cell scale.
    const rows = lines(frame);
    const title = rows.findIndex((l) => l.includes("over/short per day"));
    const zero = rows.findIndex((l) => /^ +0 [─·]/.test(l));
    const perSide = zero - title - 1;
    expect(perSide).toBeGreaterThanOrEqual(2);
    const chart = overShortChart(days, perSide, 2);
    const drawn = rows.slice(title + 1, title + 2 + 2 * perSide).map((l) => l.slice(10).padEnd(60).slice(0, 60));
    expect(drawn).toEqual(chart.lines);
    expect(rows[title + 1]?.trim().startsWith("+")).toBe(true);
    expect(rows[title + 1 + 2 * perSide]?.trim().startsWith("-")).toBe(true);
    // Today (the last column): an over above the line and a short below it.
    const col = 10 + 29 * 2;
    expect(rows.slice(title + 1, zero).some((l) => l[col] === "█")).toBe(true);
    expect(rows.slice(zero + 1, title + 2 + 2 * perSide).some((l) => l[col] === "▒")).toBe(true);
    expect(frame).toContain("Mon 2026-06-15: 2 counted · over +10.00 · short -20.00 · net -10.00 short");
    expect(frame).toContain("05-17         05-24         05-31         06-07");
    // The largest difference of the month is listed first; per closer, the count and net.
    const rowsOfMonth = [];
    for (const sm of summaries) {
      const full = sm.closed_cash_money
        ? (await service.client.cashDrawers.retrieveCashDrawerShift(sm.id ?? "", { location_id: DEMO.mainLocationId }))
            .cash_drawer_shift
        : sm;
      rowsOfMonth.push(drawerRow(full ?? sm, TZ));
    }
    const [largest] = largestDifferences(rowsOfMonth, 1);
    const sign = (n: number) => (n > 0 ? `\\+${formatAmount(n, "USD")}` : formatAmount(n, "USD")).replace(".", "\\.");
    expect(frame).toMatch(new RegExp(`^  ${largest?.date.slice(5)} .* ${sign(largest?.overShort ?? 0)} `, "m"));
    const [worst] = byCloser(rowsOfMonth);
    const names = new Map(
      (await service.client.team.searchTeamMembers({}).all()).map((m) => [m.id, `${m.given_name} ${m.family_name}`]),
    );
    const worstName = names.get(worst?.teamMemberId ?? "") ?? "";
    expect(frame).toMatch(
      new RegExp(`${worstName} +${worst?.shifts} +${worst?.exact} +${sign(worst?.net ?? 0)}$`, "m"),
    );
    expect(frame).toMatch(/By who closed/);
    for (const line of lines(frame)) expect(line.length).toBeLessThanOrEqual(80);
    // ← moves to yesterday; enter opens it.
    await a.press("h");
    await a.waitFor("Sun 2026-06-14: 5 counted");
    await a.press(KEYS.enter);
    await a.waitFor("Sun 2026-06-14");
    await a.waitFor("Totals: 6 shifts, 5 counted");
  });
});

describe("CSV exports", () => {
  it("writes the day one row per shift, and asks before replacing a file", async () => {
    const a = await open(100, 30);
    const path = join(dir, "today.csv");
    writeFileSync(path, "someone's notes\n");
    await a.press("e");
    await a.waitFor("Write CSV to");
    await a.press(clear(a, "day") + path, KEYS.enter);
    await a.waitFor("is already there. Replace it?");
    await a.press("n");
    await a.waitFor((f) => !f.includes("Replace it?"));
    expect(readFileSync(path, "utf8")).toBe("someone's notes\n");
    await a.press("e");
    await a.waitFor("Write CSV to");
    await a.press(clear(a, "day") + path, KEYS.enter);
    await a.waitFor("Replace it?");
    await a.press("y");
    await a.waitFor(`Wrote 6 drawer shifts to ${path}.`);
    const csv = readFileSync(path, "utf8").split("\r\n");
    expect(csv[0]).toBe(DRAWER_DAY_CSV_HEADER.join(","));
    expect(csv.filter(Boolean)).toHaveLength(7);
    const garden = csv.find((l) => l.includes('"Garden centre, morning"')) ?? "";
    expect(garden.startsWith(`${TODAY},`)).toBe(true);
    expect(garden).toContain(",CLOSED,events disagree,");
    expect(garden).toMatch(/,-20\.00,\d+\.\d\d$/);
    expect(csv.filter((l) => l.includes(",OPEN,open,"))).toHaveLength(3);
    expect(csv.filter((l) => l.includes(",ENDED,not counted,"))).toHaveLength(1);
  });

  it("a path whose folder is not there takes the manager back to it, selected: the path typed next replaces it", async () => {
    const a = await open(100, 30);
    await a.press("e");
    await a.waitFor("Write CSV to");
    await a.press(clear(a, "day") + join(dir, "no-such-folder", "day.csv"), KEYS.enter);
    await a.waitFor("! The file was not written: its folder does not exist.");
    const path = join(dir, "day-again.csv");
    await a.press(path, KEYS.enter);
    await a.waitFor(`Wrote 6 drawer shifts to ${path}.`);
    expect(readFileSync(path, "utf8").split("\r\n")[0]).toBe(DRAWER_DAY_CSV_HEADER.join(","));
  });

  it("writes a shift's events, only the types of the filter", async () => {
    const a = await open(100, 30);
    await openRow(a, "Garden centre, morning");
    await a.press("p", "e");
    await a.waitFor("Only the event types of the filter are written.");
    const path = join(dir, "garden-events.csv");
    await a.press(clear(a, "events") + path, KEYS.enter);
    await a.waitFor(`to ${path}.`);
    const csv = readFileSync(path, "utf8").trimEnd().split("\r\n");
    expect(csv[0]).toBe(DRAWER_EVENTS_CSV_HEADER.join(","));
    expect(csv.length).toBeGreaterThan(1);
    for (const l of csv.slice(1)) expect(l.split(",")[1]).toMatch(/^(PAID_OUT|NO_SALE)$/);
    expect(csv.some((l) => /,PAID_OUT,Paid out,20\.00,-20\.00,\d+\.\d\d,[^,]+,Delivery tip,/.test(l))).toBe(true);
  });
});

describe("narrow terminals", () => {
  it("shows the whole export path at 60 columns, over two lines, and the end of what is typed", async () => {
    const a = await open(60, 24);
    await a.press("e");
    // The default path (the data folder's exports/, then the file's name) is longer than the room.
    // The form's lines, without their borders: the path is whole once they are joined.
    const inside = (f: string) =>
      f
        .split("\n")
        .filter((l) => l.startsWith("│"))
        .map((l) => l.slice(1, -1).trim())
        .join("");
    await a.waitFor((f) => inside(f).includes(`exports/drawers-LMAIN0000000001-${TODAY}.csv`));
    // Typed at the end, the end stays in sight; the form's bottom border is still on the screen.
    await a.press(KEYS.right, "-copy");
    const typed = await a.waitFor((f) => inside(f).includes(`${TODAY}.csv-copy`));
    expect(typed).toContain("╰");
  });

  it("keeps the day view's key columns at 60 columns, dropping the others", async () => {
    const a = await open(60, 24);
    const frame = await a.waitFor(/Expected +Counted +Over\/short/);
    for (const line of lines(frame)) expect(line.length).toBeLessThanOrEqual(60);
    expect(frame).not.toContain("Opened by");
    expect(frame).toMatch(/Garden centre +[\d,]+\.\d\d +[\d,]+\.\d\d +-20\.00/);
    await openRow(a, "Garden centre, morning");
    const detail = await a.waitFor("[Reconciliation]");
    for (const line of lines(detail)) expect(line.length).toBeLessThanOrEqual(60);
    expect(detail).toMatch(/over\/short -20\.00 SHORT/);
  });
});
