import { describe, expect, it } from "vitest";
import type { Shift } from "../spec/generated/types.js";
import {
  type BreakDraft,
  breakDraftOf,
  breakDrafts,
  breaksExample,
  checkClockIn,
  checkEndBreak,
  checkEndTime,
  checkNoOverlap,
  checkNotOnShiftElsewhere,
  checkShiftDraft,
  checkShiftTimes,
  checkStartBreak,
  clockOutQuestion,
  formatBreaks,
  newPastShift,
  onShiftElsewhere,
  parseBreaks,
  withBreakDrafts,
  withBreakStarted,
  withShiftClosed,
} from "./clock-rules.js";
import { localDate, localTime, zonedInstant } from "./time.js";

const TZ = "America/New_York";
const now = new Date("2026-05-04T20:00:00Z");
const open: Shift = {
  id: "s1",
  location_id: "L1",
  team_member_id: "m1",
  start_at: "2026-05-04T13:00:00Z",
  status: "OPEN",
};
const lunch = {
  id: "b",
  break_type_id: "B1",
  break_name: "Lunch",
  expected_duration: "PT30M",
  is_paid: false,
  location_id: "L1",
};

describe("clock rules", () => {
  it("refuses a second clock-in and a start in the future, in words", () => {
    expect(checkClockIn(open, now, now, TZ)).toBe("Already clocked in since 09:00; clock out first.");
    expect(checkClockIn(undefined, new Date(now.getTime() + 3_600_000), now, TZ)).toMatch(/in the future/);
    expect(checkClockIn(undefined, now, now, TZ)).toBeUndefined();
  });

  it("refuses a break while one is running, and ending none", () => {
    const onBreak = withBreakStarted(open, lunch, new Date("2026-05-04T16:00:00Z"));
    expect(checkStartBreak(onBreak, TZ)).toBe("A break (Lunch) is still running since 12:00; end it first.");
    expect(checkStartBreak(undefined, TZ)).toMatch(/Not clocked in/);
    expect(checkEndBreak(open)).toBe("No break is running.");
    expect(checkEndBreak(onBreak)).toBeUndefined();
  });

  it("closes a shift by ending its running break first", () => {
    const onBreak = withBreakStarted(open, lunch, new Date("2026-05-04T16:00:00Z"));
    const closed = withShiftClosed(onBreak, now);
    expect(closed.status).toBe("CLOSED");
    expect(closed.end_at).toBe(now.toISOString());
    expect(closed.breaks?.[0]?.end_at).toBe(now.toISOString());
  });

  it("checks end and edited times", () => {
    expect(checkEndTime(open, new Date("2026-05-04T12:00:00Z"), now, TZ)).toMatch(/not after the start/);
    expect(checkEndTime(open, new Date("2026-05-05T12:00:00Z"), now, TZ)).toMatch(/in the future/);
    const onBreak = withBreakStarted(open, lunch, new Date("2026-05-04T16:00:00Z"));
    expect(checkEndTime(onBreak, new Date("2026-05-04T15:00:00Z"), now, TZ)).toMatch(/Lunch starts at 12:00/);
    expect(checkShiftTimes(onBreak, new Date("2026-05-04T17:00:00Z"), now, now, TZ)).toMatch(/before that start/);
  });
});

const at = (hhmm: string, date = "2026-05-04") => zonedInstant(date, hhmm, TZ);
const draft = (name: string, from: string, to?: string, id?: string): BreakDraft => ({
  ...(id ? { id } : {}),
  breakTypeId: name === "Lunch" ? "B1" : "B2",
  name,
  expectedDuration: "PT30M",
  isPaid: name !== "Lunch",
  startAt: at(from),
  endAt: to ? at(to) : undefined,
});

const draftBreak = {
  start_at: at("12:00").toISOString(),
  break_type_id: "B1",
  name: "Lunch",
  expected_duration: "PT30M",
  is_paid: false,
};

describe("a shift added or edited with its breaks", () => {
  const later = at("18:00");

  it("accepts a past shift with a break inside it", () => {
    expect(
      checkShiftDraft(
        { startAt: at("08:55"), endAt: at("17:00"), breaks: [draft("Lunch", "12:00", "12:30")] },
        later,
        TZ,
      ),
    ).toBeUndefined();
  });

  it("refuses times the service would refuse, in the time clock's words", () => {
    const check = (startAt: Date, endAt: Date | undefined, breaks: BreakDraft[] = []) =>
      checkShiftDraft({ startAt, endAt, breaks }, later, TZ);
    expect(check(at("19:00"), undefined)).toBe("The start 19:00 is in the future.");
    expect(check(at("09:00"), at("08:00"))).toBe("The end 08:00 is not after the start 09:00.");
    expect(check(at("09:00"), at("19:00"))).toBe("The end 19:00 is in the future.");
    expect(check(at("09:00"), at("15:00"), [draft("Lunch", "15:01", "15:20")])).toBe(
      "The break Lunch starts at 15:01, after that end.",
    );
    expect(check(at("09:00"), at("15:00"), [draft("Lunch", "14:45", "15:15")])).toBe(
      "The break Lunch ends at 15:15, after that end.",
    );
    expect(check(at("09:00"), at("15:00"), [draft("Lunch", "08:30", "09:15")])).toBe(
      "The break Lunch starts at 08:30, before that start.",
    );
    expect(check(at("09:00"), at("15:00"), [draft("Lunch", "12:30", "12:00")])).toBe(
      "The break Lunch ends at 12:00, not after it starts at 12:30.",
    );
    expect(check(at("09:00"), at("15:00"), [draft("Lunch", "12:00")])).toMatch(
      /The break Lunch \(from 12:00\) has no end; a shift with an end needs every break ended/,
    );
    expect(check(at("09:00"), undefined, [draft("Lunch", "12:00"), draft("Coffee", "13:00", "13:10")])).toMatch(
      /Lunch \(from 12:00\) has no end, but Coffee starts after it/,
    );
    expect(check(at("09:00"), at("15:00"), [draft("Coffee", "12:15", "12:25"), draft("Lunch", "12:00", "12:30")])).toBe(
      "The breaks Lunch (12:00–12:30) and Coffee (12:15–12:25) overlap.",
    );
    expect(check(at("09:00"), undefined, [draft("Lunch", "17:50", "18:30")])).toBe(
      "The break Lunch ends at 18:30, in the future.",
    );
  });

  it("refuses a shift that overlaps another of the member's, naming where", () => {
    const other: Shift = { ...open, id: "s9", location_id: "L2", end_at: "2026-05-04T17:00:00Z", status: "CLOSED" };
    const names = (id: string) => (id === "L2" ? "Harbour Dock" : undefined);
    expect(checkNoOverlap({ startAt: at("12:00"), endAt: at("14:00") }, [other], TZ, undefined, names)).toBe(
      "That overlaps their shift of 2026-05-04 09:00–13:00 at Harbour Dock; one person's shifts cannot overlap.",
    );
    expect(checkNoOverlap({ startAt: at("13:00"), endAt: at("14:00") }, [other], TZ)).toBeUndefined();
    expect(checkNoOverlap({ startAt: at("12:00"), endAt: at("14:00") }, [other], TZ, "s9")).toBeUndefined();
    // An open shift runs on: a later shift overlaps it.
    expect(checkNoOverlap({ startAt: at("16:00"), endAt: at("17:00") }, [open], TZ)).toMatch(/09:00–still open/);
  });

  it("builds the shift body with breaks in time order, kept breaks keeping their ids", () => {
    const body = newPastShift({
      locationId: "L1",
      teamMemberId: "m1",
      startAt: at("08:55"),
      endAt: at("17:00"),
      breaks: [draft("Coffee", "15:00", "15:10"), draft("Lunch", "12:00", "12:30", "b1")],
    });
    expect(body).toMatchObject({
      location_id: "L1",
      team_member_id: "m1",
      start_at: "2026-05-04T12:55:00.000Z",
      end_at: "2026-05-04T21:00:00.000Z",
    });
    expect(body.breaks?.map((b) => [b.id, b.name, b.is_paid])).toEqual([
      ["b1", "Lunch", false],
      [undefined, "Coffee", true],
    ]);
    const round = breakDrafts(body);
    expect(round.map((b) => b.name)).toEqual(["Lunch", "Coffee"]);
    expect(withBreakDrafts(body, round.slice(1)).breaks?.map((b) => b.name)).toEqual(["Coffee"]);
    expect(breakDraftOf(lunch, at("12:00"), undefined)).toMatchObject({
      breakTypeId: "b",
      name: "Lunch",
      endAt: undefined,
    });
  });

  it("clocks out at a past time only after the breaks, and never with a break that ends later", () => {
    const withLunch = { ...open, breaks: [{ ...draftBreak, end_at: at("12:30").toISOString() }] };
    expect(checkEndTime(withLunch, at("12:15"), now, TZ)).toBe("The break Lunch ends at 12:30, after that end.");
    expect(checkEndTime(withLunch, at("12:45"), now, TZ)).toBeUndefined();
  });
});

describe("what to ask before clocking out", () => {
  it("asks to end a running break first, and about a very short shift", () => {
    const onBreak = { ...open, breaks: [draftBreak] };
    expect(clockOutQuestion(onBreak, "Ana", at("12:40"), TZ)?.text).toBe(
      "Ana is on Lunch since 12:00. End the break at 12:40 and clock out?",
    );
    expect(clockOutQuestion(open, "Ana", at("09:03"), TZ)?.text).toBe(
      "Ana clocked in at 09:00, only 3 min ago. Clock out anyway?",
    );
    expect(clockOutQuestion(open, "Ana", new Date(at("09:00").getTime() + 20_000), TZ)?.text).toBe(
      "Ana clocked in at 09:00, under a minute ago. Clock out anyway?",
    );
    expect(clockOutQuestion(open, "Ana", at("17:00"), TZ)).toBeUndefined();
    expect(clockOutQuestion(onBreak, "Ana", at("12:40"), TZ)?.shortShift).toBe(false);
    expect(clockOutQuestion(open, "Ana", at("09:03"), TZ)?.shortShift).toBe(true);
  });
});

describe("a member on shift at another location", () => {
  it("says where and since when, and refuses a clock-in here", () => {
    const there: Shift = { ...open, location_id: "L2", timezone: "America/Chicago" };
    // At the other store's wall clock (08:00 in Chicago), and this screen's beside it (09:00 in New York).
    expect(onShiftElsewhere(there, "Harbour Dock", TZ)).toBe("On shift at Harbour Dock since 08:00 (09:00 here)");
    expect(onShiftElsewhere(there, "Harbour Dock", TZ, new Date("2026-05-05T15:00:00Z"))).toBe(
      "On shift at Harbour Dock since 2026-05-04 08:00 (09:00 here)",
    );
    expect(checkNotOnShiftElsewhere(there, "L1", "Harbour Dock", TZ)).toBe(
      "On shift at Harbour Dock since 08:00 (09:00 here); clock out there first.",
    );
    // The same zone: one time.
    const sameZone: Shift = { ...there, timezone: TZ };
    expect(onShiftElsewhere(sameZone, "Harbour Dock", TZ)).toBe("On shift at Harbour Dock since 09:00");
    expect(checkNotOnShiftElsewhere(open, "L1", "Main", TZ)).toBeUndefined();
  });
});

describe("the breaks field of the shift editor", () => {
  const types = [lunch, { ...lunch, id: "c", break_name: "Coffee", expected_duration: "PT10M", is_paid: true }];
  const ctx = (startAt: Date, endAt: Date, existing: BreakDraft[] = []) => ({
    startAt,
    endAt,
    timeZone: TZ,
    types,
    existing,
  });

  it("reads breaks by type name with local times, and writes them back the same way", () => {
    const r = parseBreaks("lunch 12:00-12:30; Coffee 15:00 - 15:10", ctx(at("09:00"), at("17:00")));
    expect(
      r.ok && r.value.map((b) => [b.name, b.breakTypeId, b.isPaid, b.startAt.toISOString(), b.endAt?.toISOString()]),
    ).toEqual([
      ["Lunch", "b", false, "2026-05-04T16:00:00.000Z", "2026-05-04T16:30:00.000Z"],
      ["Coffee", "c", true, "2026-05-04T19:00:00.000Z", "2026-05-04T19:10:00.000Z"],
    ]);
    expect(r.ok && formatBreaks(r.value, TZ)).toBe("Lunch 12:00-12:30; Coffee 15:00-15:10");
    const running = parseBreaks("Lunch 12:00-", ctx(at("09:00"), at("13:00")));
    expect(running.ok && running.value[0]?.endAt).toBeUndefined();
    expect(parseBreaks("", ctx(at("09:00"), at("17:00")))).toEqual({ ok: true, value: [] });
  });

  it("puts times after midnight on the next day for a shift that runs past it", () => {
    const r = parseBreaks("Lunch 23:45-00:15; Coffee 02:00-02:10", ctx(at("20:00"), at("04:00", "2026-05-05")));
    expect(r.ok && r.value.map((b) => [localTimeOf(b.startAt), localTimeOf(b.endAt)])).toEqual([
      ["2026-05-04 23:45", "2026-05-05 00:15"],
      ["2026-05-05 02:00", "2026-05-05 02:10"],
    ]);
  });

  it("keeps a break's id when its times change, and the copy of a deleted type", () => {
    const existing: BreakDraft[] = [
      { ...draft("Lunch", "12:00", "12:30", "b1"), breakTypeId: "b" },
      {
        id: "b2",
        breakTypeId: "gone",
        name: "Stretch",
        expectedDuration: "PT5M",
        isPaid: true,
        startAt: at("15:00"),
        endAt: at("15:05"),
      },
    ];
    const r = parseBreaks("Lunch 12:15-12:45; Stretch 15:00-15:10", ctx(at("09:00"), at("17:00"), existing));
    expect(r.ok && r.value.map((b) => [b.id, b.breakTypeId, localTime(b.startAt, TZ)])).toEqual([
      ["b1", "b", "12:15"],
      ["b2", "gone", "15:00"],
    ]);
    // Removing a break is leaving it out.
    const removed = parseBreaks("Stretch 15:00-15:05", ctx(at("09:00"), at("17:00"), existing));
    expect(removed.ok && removed.value.map((b) => b.id)).toEqual(["b2"]);
  });

  it("explains what it cannot read, and an end before the start in the rule's words", () => {
    expect(parseBreaks("Lunch at noon", ctx(at("09:00"), at("17:00")))).toEqual({
      ok: false,
      problem: '"Lunch at noon" is not a break; write each as Lunch 12:00-12:30 (no end while it runs).',
    });
    expect(parseBreaks("Nap 12:00-12:30", ctx(at("09:00"), at("17:00")))).toEqual({
      ok: false,
      problem: "There is no break type Nap here; the break types are Lunch, Coffee.",
    });
    const backwards = parseBreaks("Lunch 12:30-12:00", ctx(at("09:00"), at("17:00")));
    expect(
      backwards.ok &&
        checkShiftDraft({ startAt: at("09:00"), endAt: at("17:00"), breaks: backwards.value }, at("18:00"), TZ),
    ).toBe("The break Lunch ends at 12:00, not after it starts at 12:30.");
  });
});

function localTimeOf(d: Date | undefined): string {
  return d ? `${localDate(d, TZ)} ${localTime(d, TZ)}` : "";
}

describe("breaksExample", () => {
  it("names the location's own break types, or says it has none", () => {
    expect(breaksExample(["Meal", "Rest", "Coffee"])).toBe("e.g. Meal 12:00-12:30; Rest 15:00-15:10");
    expect(breaksExample(["Pause"])).toBe("e.g. Pause 12:00-12:30");
    expect(breaksExample([])).toBe("no break types at this location (set them up on Break types)");
  });
});
