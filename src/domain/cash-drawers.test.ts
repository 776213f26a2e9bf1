import { describe, expect, it } from "vitest";
import { enums } from "../spec/generated/schemas.js";
import type { CashDrawerEventType, CashDrawerShift, CashDrawerShiftEvent } from "../spec/generated/types.js";
import {
  attentionReasons,
  byCloser,
  CASH_DRAWER_EVENT_TYPES,
  checkExpectedCash,
  dailyOverShort,
  drawerRow,
  drawerTotals,
  EVENT_TYPE_LABELS,
  eventTimeline,
  filterTimeline,
  largestDifferences,
  localDateTime,
  localDayWindow,
  parseDateRange,
  reconcileShift,
} from "./cash-drawers.js";
import { DRAWER_DAY_CSV_HEADER, DRAWER_EVENTS_CSV_HEADER, drawerDayCsv, drawerEventsCsv } from "./cash-drawers-csv.js";

const TZ = "America/New_York";
const usd = (amount: number) => ({ amount, currency: "USD" as const });
let seq = 0;
const ev = (event_type: CashDrawerEventType, amount: number, extra: Partial<CashDrawerShiftEvent> = {}) => ({
  id: `E${++seq}`,
  event_type,
  event_money: usd(amount),
  created_at: `2026-03-10T15:${String(seq % 60).padStart(2, "0")}:00.000Z`,
  ...extra,
});

/** A shift with one event of every type the spec lists. */
const EVERY_TYPE: CashDrawerShiftEvent[] = [
  ev("NO_SALE", 0, { description: "Change for a customer", team_member_id: "TM1" }),
  ev("CASH_TENDER_PAYMENT", 4_250, { team_member_id: "TM1" }),
  ev("OTHER_TENDER_PAYMENT", 0),
  ev("CASH_TENDER_PAYMENT", 1_000),
  ev("CASH_TENDER_CANCELLED_PAYMENT", 1_000),
  ev("OTHER_TENDER_CANCELLED_PAYMENT", 0),
  ev("CASH_TENDER_REFUND", 799, { description: "Wrong size" }),
  ev("OTHER_TENDER_REFUND", 0),
  ev("PAID_IN", 5_000, { description: "Float top-up" }),
  ev("PAID_OUT", 1_275, { description: "Window cleaner", team_member_id: "TM2" }),
];
// 200.00 + 42.50 (+10.00 − 10.00) − 7.99 + 50.00 − 12.75 = 271.76
const EVERY_TYPE_EXPECTED = 20_000 + 4_250 - 799 + 5_000 - 1_275;

const closedShift = (over: Partial<CashDrawerShift> = {}): CashDrawerShift => ({
  id: "S1",
  state: "CLOSED",
  opened_at: "2026-03-10T12:00:00.000Z",
  ended_at: "2026-03-10T18:00:00.000Z",
  closed_at: "2026-03-10T18:20:00.000Z",
  description: "Front counter, morning",
  device: { id: "D1", name: "Front counter" },
  opened_cash_money: usd(20_000),
  cash_payment_money: usd(4_250),
  cash_refunds_money: usd(799),
  cash_paid_in_money: usd(5_000),
  cash_paid_out_money: usd(1_275),
  expected_cash_money: usd(EVERY_TYPE_EXPECTED),
  closed_cash_money: usd(EVERY_TYPE_EXPECTED - 500),
  opening_team_member_id: "TM1",
  ending_team_member_id: "TM1",
  closing_team_member_id: "TM2",
  ...over,
});

describe("the event types", () => {
  it("lists every type of the spec, each with a label", () => {
    expect([...CASH_DRAWER_EVENT_TYPES].sort()).toEqual([...(enums.CashDrawerEventType ?? [])].sort());
    for (const t of CASH_DRAWER_EVENT_TYPES) expect(EVENT_TYPE_LABELS[t]).toBeTruthy();
    expect(new Set(EVERY_TYPE.map((e) => e.event_type))).toEqual(new Set(CASH_DRAWER_EVENT_TYPES));
  });
});

describe("reconcileShift", () => {
  it("lays out opening + cash sales − cash refunds + paid in − paid out = expected, counted, difference", () => {
    const r = reconcileShift(closedShift(), EVERY_TYPE);
    const byKey = Object.fromEntries(r.lines.map((l) => [l.key, l]));
    expect(r.lines.map((l) => [l.op, l.label])).toEqual([
      ["", "Opening cash"],
      ["+", "Cash sales"],
      ["-", "Cash refunds"],
      ["+", "Paid in"],
      ["-", "Paid out"],
      ["=", "Expected cash"],
      ["", "Counted cash"],
      ["", "Over/short"],
    ]);
    expect(byKey.cashSales?.events).toBe(4_250);
    expect(byKey.cashRefunds?.events).toBe(799);
    expect(byKey.paidIn?.events).toBe(5_000);
    expect(byKey.paidOut?.events).toBe(1_275);
    expect(byKey.expected?.shift).toBe(EVERY_TYPE_EXPECTED);
    expect(byKey.expected?.events).toBe(EVERY_TYPE_EXPECTED);
    expect(r.fromLines).toBe(EVERY_TYPE_EXPECTED);
    expect(r.fromEvents).toBe(EVERY_TYPE_EXPECTED);
    expect(r.counted).toBe(EVERY_TYPE_EXPECTED - 500);
    expect(r.difference).toBe(-500);
    expect(r.mismatch).toBeUndefined();
    expect(r.linesDisagree).toBe(false);
    expect(r.lines.some((l) => l.differs)).toBe(false);
  });

  it("moves the expected cash by exactly each cash event, and not at all for the others", () => {
    const base = { opened_cash_money: usd(10_000), expected_cash_money: usd(10_000) };
    const effect: Record<CashDrawerEventType, number> = {
      NO_SALE: 0,
      CASH_TENDER_PAYMENT: 300,
      OTHER_TENDER_PAYMENT: 0,
      CASH_TENDER_CANCELLED_PAYMENT: -300,
      OTHER_TENDER_CANCELLED_PAYMENT: 0,
      CASH_TENDER_REFUND: -300,
      OTHER_TENDER_REFUND: 0,
      PAID_IN: 300,
      PAID_OUT: -300,
    };
    for (const t of CASH_DRAWER_EVENT_TYPES) {
      // Zero-amount types are recorded with 0 by the spec; give them 300 to prove they are ignored.
      const r = reconcileShift(base, [ev(t, 300)]);
      expect([t, r.fromEvents]).toEqual([t, 10_000 + effect[t]]);
    }
  });

  it("shows a shift whose events disagree with its expected cash, line by line", () => {
    // The service says 12.75 was paid out; the events hold a second paid out of 20.00.
    const events = [...EVERY_TYPE, ev("PAID_OUT", 2_000, { description: "Delivery tip" })];
    const r = reconcileShift(closedShift({ closed_cash_money: usd(EVERY_TYPE_EXPECTED - 2_000) }), events);
    expect(r.mismatch).toEqual({
      reported: EVERY_TYPE_EXPECTED,
      fromEvents: EVERY_TYPE_EXPECTED - 2_000,
      difference: 2_000,
    });
    const differing = r.lines.filter((l) => l.differs).map((l) => [l.key, l.shift, l.events]);
    expect(differing).toEqual([
      ["paidOut", 1_275, 3_275],
      ["expected", EVERY_TYPE_EXPECTED, EVERY_TYPE_EXPECTED - 2_000],
    ]);
    // The difference stays against the service's figure: the mismatch is shown, not corrected.
    expect(r.difference).toBe(-2_000);
    expect(r.linesDisagree).toBe(false);
  });

  it("notices when the service's expected cash is not the sum of its own lines", () => {
    const r = reconcileShift(closedShift({ expected_cash_money: usd(1) }));
    expect(r.linesDisagree).toBe(true);
    expect(r.fromLines).toBe(EVERY_TYPE_EXPECTED);
    expect(r.expected).toBe(1);
    expect(r.fromEvents).toBeUndefined();
    expect(r.lines.every((l) => l.events === undefined)).toBe(true);
  });

  it("leaves counted and difference empty before the drawer is counted", () => {
    const { closed_cash_money: _c, closed_at: _a, ...ended } = closedShift({ state: "ENDED" });
    const r = reconcileShift(ended);
    expect(r.counted).toBeUndefined();
    expect(r.difference).toBeUndefined();
  });
});

describe("checkExpectedCash", () => {
  it("is quiet when the events add up, and reports the gap either way when not", () => {
    expect(checkExpectedCash(closedShift(), EVERY_TYPE)).toBeUndefined();
    const missingSale = EVERY_TYPE.filter(
      (e) => e.event_type !== "CASH_TENDER_PAYMENT" || e.event_money?.amount !== 4_250,
    );
    expect(checkExpectedCash(closedShift(), missingSale)).toEqual({
      reported: EVERY_TYPE_EXPECTED,
      fromEvents: EVERY_TYPE_EXPECTED - 4_250,
      difference: 4_250,
    });
  });

  it("has nothing to check against when the service gave no expected cash", () => {
    expect(checkExpectedCash({ opened_cash_money: usd(5) }, [ev("PAID_IN", 100)])).toBeUndefined();
  });
});

describe("drawerRow", () => {
  it("reads every field of the day view in minor units, on the local date it opened", () => {
    const row = drawerRow(closedShift({ opened_at: "2026-03-11T03:30:00.000Z" }), TZ, EVERY_TYPE);
    expect(row).toMatchObject({
      id: "S1",
      state: "CLOSED",
      date: "2026-03-10",
      openedBy: "TM1",
      endedBy: "TM1",
      closedBy: "TM2",
      description: "Front counter, morning",
      device: "Front counter",
      currency: "USD",
      opened: 20_000,
      cashSales: 4_250,
      cashRefunds: 799,
      paidIn: 5_000,
      paidOut: 1_275,
      expected: EVERY_TYPE_EXPECTED,
      counted: EVERY_TYPE_EXPECTED - 500,
      overShort: -500,
      attention: undefined,
      mismatch: undefined,
    });
  });

  it("flags an open shift and an ended one that was not counted", () => {
    const open = drawerRow({ id: "A", state: "OPEN", opened_at: "2026-03-10T12:00:00Z" }, TZ);
    const ended = drawerRow({ id: "B", state: "ENDED", opened_at: "2026-03-10T12:00:00Z" }, TZ);
    expect([open.attention, ended.attention]).toEqual(["open", "not counted"]);
    expect(open.overShort).toBeUndefined();
    expect(attentionReasons(ended)).toEqual(["not counted"]);
    const mismatched = drawerRow(closedShift(), TZ, []);
    expect(attentionReasons(mismatched)).toEqual(["events disagree"]);
  });

  it("works from the list's summary, whose lines it does not have", () => {
    const row = drawerRow(
      {
        id: "S",
        state: "CLOSED",
        opened_at: "2026-03-10T12:00:00Z",
        opened_cash_money: usd(100),
        expected_cash_money: usd(900),
        closed_cash_money: usd(925),
      },
      TZ,
    );
    expect([row.cashSales, row.expected, row.counted, row.overShort]).toEqual([0, 900, 925, 25]);
  });
});

const row = (id: string, date: string, state: "OPEN" | "ENDED" | "CLOSED", overShort?: number, closer?: string) =>
  drawerRow(
    {
      id,
      state,
      opened_at: `${date}T14:00:00.000Z`,
      opened_cash_money: usd(10_000),
      cash_payment_money: usd(5_000),
      cash_refunds_money: usd(0),
      cash_paid_in_money: usd(0),
      cash_paid_out_money: usd(1_000),
      expected_cash_money: usd(14_000),
      ...(overShort === undefined ? {} : { closed_cash_money: usd(14_000 + overShort) }),
      ...(closer ? { closing_team_member_id: closer } : {}),
    },
    TZ,
  );

describe("drawerTotals", () => {
  it("adds up the day; counted figures only over closed shifts", () => {
    const rows = [
      row("a", "2026-03-10", "CLOSED", 250, "TM1"),
      row("b", "2026-03-10", "CLOSED", -1_000, "TM2"),
      row("c", "2026-03-10", "CLOSED", 0, "TM1"),
      row("d", "2026-03-10", "ENDED"),
      row("e", "2026-03-10", "OPEN"),
    ];
    const t = drawerTotals(rows);
    expect(t).toEqual({
      currency: "USD",
      shifts: 5,
      countedShifts: 3,
      attention: 2,
      mismatches: 0,
      opened: 50_000,
      cashSales: 25_000,
      cashRefunds: 0,
      paidIn: 0,
      paidOut: 5_000,
      expected: 70_000,
      counted: 42_000 - 750,
      expectedOfCounted: 42_000,
      over: 250,
      short: -1_000,
      net: -750,
    });
    expect(t.counted - t.expectedOfCounted).toBe(t.net);
  });

  it("is all zeros for a day without shifts", () => {
    expect(drawerTotals([])).toMatchObject({ shifts: 0, net: 0, expected: 0, currency: "USD" });
  });
});

describe("the trend", () => {
  const rows = [
    row("a", "2026-03-01", "CLOSED", 250, "TM1"),
    row("b", "2026-03-01", "CLOSED", -1_000, "TM2"),
    row("c", "2026-03-03", "CLOSED", -50, "TM2"),
    row("d", "2026-03-03", "CLOSED", 0, "TM1"),
    row("e", "2026-03-04", "CLOSED", 2_000, "TM3"),
    row("f", "2026-03-04", "ENDED"),
    row("g", "2026-03-04", "CLOSED", -2_000),
    row("z", "2026-02-27", "CLOSED", -9_999, "TM1"),
  ];

  it("gives every day of the range, zeros where nothing was counted, and leaves out other days", () => {
    const days = dailyOverShort(rows, "2026-03-01", "2026-03-04");
    expect(days).toEqual([
      { date: "2026-03-01", shifts: 2, counted: 2, over: 250, short: -1_000, net: -750 },
      { date: "2026-03-02", shifts: 0, counted: 0, over: 0, short: 0, net: 0 },
      { date: "2026-03-03", shifts: 2, counted: 2, over: 0, short: -50, net: -50 },
      { date: "2026-03-04", shifts: 3, counted: 2, over: 2_000, short: -2_000, net: 0 },
    ]);
    expect(dailyOverShort(rows, "2026-02-01", "2026-03-31")).toHaveLength(59);
  });

  it("lists the largest differences either way, a short first on a tie, without the exact counts", () => {
    const top = largestDifferences(rows.slice(0, 7), 4);
    expect(top.map((r) => [r.id, r.overShort])).toEqual([
      ["g", -2_000],
      ["e", 2_000],
      ["b", -1_000],
      ["a", 250],
    ]);
    expect(largestDifferences(rows, 100).some((r) => r.overShort === 0)).toBe(false);
  });

  it("sums per team member who closed: count and net, the most short first", () => {
    const closers = byCloser(rows.slice(0, 7));
    expect(closers).toEqual([
      { teamMemberId: undefined, shifts: 1, exact: 0, over: 0, short: -2_000, net: -2_000 },
      { teamMemberId: "TM2", shifts: 2, exact: 0, over: 0, short: -1_050, net: -1_050 },
      { teamMemberId: "TM1", shifts: 2, exact: 1, over: 250, short: 0, net: 250 },
      { teamMemberId: "TM3", shifts: 1, exact: 0, over: 2_000, short: 0, net: 2_000 },
    ]);
  });
});

describe("the event timeline", () => {
  const timeline = eventTimeline(usd(20_000), EVERY_TYPE);

  it("gives each event its effect on the cash and the drawer after it", () => {
    expect(timeline.map((e) => [e.type, e.change])).toEqual([
      ["NO_SALE", 0],
      ["CASH_TENDER_PAYMENT", 4_250],
      ["OTHER_TENDER_PAYMENT", 0],
      ["CASH_TENDER_PAYMENT", 1_000],
      ["CASH_TENDER_CANCELLED_PAYMENT", -1_000],
      ["OTHER_TENDER_CANCELLED_PAYMENT", 0],
      ["CASH_TENDER_REFUND", -799],
      ["OTHER_TENDER_REFUND", 0],
      ["PAID_IN", 5_000],
      ["PAID_OUT", -1_275],
    ]);
    expect(timeline.at(-1)?.balance).toBe(EVERY_TYPE_EXPECTED);
    expect(timeline[0]?.label).toBe("No sale");
  });

  it("filters by type, as a manager looks at paid outs and no-sale opens", () => {
    const picked = filterTimeline(timeline, new Set<CashDrawerEventType>(["PAID_OUT", "NO_SALE"]));
    expect(picked.map((e) => e.type)).toEqual(["NO_SALE", "PAID_OUT"]);
    expect(filterTimeline(timeline, new Set())).toHaveLength(timeline.length);
  });
});

describe("local times", () => {
  it("gives local date and time in the location's zone", () => {
    expect(localDateTime("2026-03-10T18:20:00.000Z", TZ)).toBe("2026-03-10 14:20");
    expect(localDateTime(undefined, TZ)).toBe("");
  });
});

describe("dates", () => {
  it("turns local dates into the list's window, across a change of clocks", () => {
    // 2026-03-08 is 23 hours long in New York.
    expect(localDayWindow("2026-03-08", "2026-03-08", TZ)).toEqual({
      begin: "2026-03-08T05:00:00.000Z",
      end: "2026-03-09T04:00:00.000Z",
    });
    expect(localDayWindow("2026-03-01", "2026-03-31", TZ).end).toBe("2026-04-01T04:00:00.000Z");
  });

  it("takes one date, a range, one end of a range, or today", () => {
    expect(parseDateRange({}, "2026-03-10")).toEqual({ ok: true, from: "2026-03-10", to: "2026-03-10" });
    expect(parseDateRange({ date: "2026-03-01" }, "2026-03-10")).toEqual({
      ok: true,
      from: "2026-03-01",
      to: "2026-03-01",
    });
    expect(parseDateRange({ from: "2026-02-01", to: "2026-02-28" }, "x")).toEqual({
      ok: true,
      from: "2026-02-01",
      to: "2026-02-28",
    });
    expect(parseDateRange({ from: "2026-02-01" }, "x")).toMatchObject({ from: "2026-02-01", to: "2026-02-01" });
  });

  it("explains what is wrong with a range", () => {
    const problem = (input: Parameters<typeof parseDateRange>[0]) => {
      const r = parseDateRange(input, "2026-03-10");
      return r.ok ? "" : r.problem;
    };
    expect(problem({ date: "2026-02-30" })).toMatch(/not a date.*YYYY-MM-DD/);
    expect(problem({ from: "yesterday" })).toMatch(/"yesterday" is not a date/);
    expect(problem({ date: "2026-03-01", from: "2026-03-01" })).toMatch(/not both/);
    expect(problem({ from: "2026-03-05", to: "2026-03-01" })).toMatch(/starts \(2026-03-05\) after it ends/);
    expect(problem({ from: "2026-01-01", to: "2026-12-31" })).toMatch(/longer than 92 days/);
  });

  it("names the input a bad date was typed in, and none for a range wrong as a whole", () => {
    expect(parseDateRange({ from: "2026-03-01", to: "2026-03-4" }, "2026-03-10")).toMatchObject({ field: "to" });
    expect(parseDateRange({ from: "yesterday", to: "x" }, "2026-03-10")).toMatchObject({ field: "from" });
    expect(parseDateRange({ from: "2026-03-05", to: "2026-03-01" }, "2026-03-10")).not.toHaveProperty("field");
  });
});

describe("CSV exports", () => {
  const names = new Map([
    ["TM1", "Marcus Bell"],
    ["TM2", "Liam O'Connor"],
  ]);

  it("writes the day one row per shift, with local times, names and a signed over/short", () => {
    const rows = [
      drawerRow(closedShift(), TZ, EVERY_TYPE),
      drawerRow({ id: "S2", state: "OPEN", opened_at: "2026-03-10T19:00:00.000Z", opened_cash_money: usd(15_000) }, TZ),
      drawerRow(closedShift({ id: "S3", description: 'Paint desk, "late"' }), TZ, []),
    ];
    const lines = drawerDayCsv(rows, TZ, names).split("\r\n");
    expect(lines[0]).toBe(DRAWER_DAY_CSV_HEADER.join(","));
    expect(lines[1]).toBe(
      [
        "2026-03-10",
        "S1",
        "CLOSED",
        "",
        "2026-03-10 08:00",
        "2026-03-10 14:00",
        "2026-03-10 14:20",
        "Marcus Bell",
        "Marcus Bell",
        "Liam O'Connor",
        '"Front counter, morning"',
        "Front counter",
        "USD",
        "200.00",
        "42.50",
        "7.99",
        "50.00",
        "12.75",
        "271.76",
        "266.76",
        "-5.00",
        "",
      ].join(","),
    );
    expect(lines[2]).toBe("2026-03-10,S2,OPEN,open,2026-03-10 15:00,,,,,,,,USD,150.00,0.00,0.00,0.00,0.00,150.00,,,");
    expect(lines[3]).toContain(",events disagree,");
    expect(lines[3]).toContain('"Paint desk, ""late"""');
    expect(lines[3]?.endsWith(",-5.00,200.00")).toBe(true);
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe("");
  });

  it("writes a shift's events with their effect and the drawer after each", () => {
    const csv = drawerEventsCsv(eventTimeline(usd(20_000), EVERY_TYPE), TZ, names);
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(DRAWER_EVENTS_CSV_HEADER.join(","));
    expect(lines).toHaveLength(1 + EVERY_TYPE.length);
    const paidOut = lines.find((l) => l.includes(",PAID_OUT,"));
    expect(paidOut?.split(",").slice(1)).toEqual([
      "PAID_OUT",
      "Paid out",
      "12.75",
      "-12.75",
      "271.76",
      "Liam O'Connor",
      "Window cleaner",
      EVERY_TYPE.at(-1)?.id,
    ]);
    expect(lines[1]?.split(",")[0]).toMatch(/^2026-03-10 11:\d\d:00$/);
  });
});
