import { describe, expect, it } from "vitest";
import {
  addDays,
  describePayPeriod,
  durationMinutes,
  formatDuration,
  formatterFor,
  isoDuration,
  localDate,
  localParts,
  localTime,
  offsetAt,
  parseClockTime,
  parseDate,
  parsePayPeriod,
  payPeriodOf,
  weekStartOf,
  workdayOf,
  zonedInstant,
  zoneOffsetMs,
} from "./time.js";

const HOUR = 3_600_000;

describe("time zones", () => {
  it("reads local date and time of an instant", () => {
    expect(localDate("2026-03-01T03:30:00Z", "America/New_York")).toBe("2026-02-28");
    expect(localTime("2026-03-01T03:30:00Z", "America/New_York")).toBe("22:30");
    expect(localTime("2026-03-01T03:30:00Z", "Asia/Tokyo")).toBe("12:30");
  });

  it("agrees with the exact offset on every hour of a transition day", () => {
    const start = Date.parse("2024-03-10T00:00:00Z");
    const offsets = Array.from({ length: 24 }, (_, h) => offsetAt(start + h * HOUR, "America/New_York") / HOUR);
    expect(offsets.slice(0, 7)).toEqual([-5, -5, -5, -5, -5, -5, -5]);
    expect(offsets.slice(7)).toEqual(Array(17).fill(-4));
  });

  it("reads the same wall clock as Intl through a year, in zones with odd offsets and transitions", () => {
    const zones = ["America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns", "Europe/Dublin"];
    const two = (n: number) => String(n).padStart(2, "0");
    const fast = (ms: number, tz: string) => {
      const p = localParts(ms, tz);
      return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
    };
    // Intl's own wall clock: the instant moved by the offset Intl reports.
    const exact = (ms: number, tz: string) =>
      new Date(Math.floor(ms / 1000) * 1000 + zoneOffsetMs(ms, tz)).toISOString().slice(0, 19);
    const wrong: string[] = [];
    const from = Date.parse("2025-01-01T00:00:00Z");
    for (const tz of zones) {
      // 61 minutes and 13 seconds apart: each day of the year, the samples move through its hours.
      for (let ms = from; ms < from + 366 * 24 * HOUR; ms += 3_673_000) {
        if (fast(ms, tz) !== exact(ms, tz)) wrong.push(`${tz} ${new Date(ms).toISOString()}`);
      }
    }
    // And each minute of the two hours around New York's spring-forward.
    for (let ms = Date.parse("2025-03-09T06:00:00Z"); ms < Date.parse("2025-03-09T08:00:00Z"); ms += 60_000) {
      if (fast(ms, "America/New_York") !== exact(ms, "America/New_York")) wrong.push(new Date(ms).toISOString());
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it("asks Intl for the offset it lists in its parts, whatever the year", () => {
    // The parts Intl lists for the same formatter, as a reference apart from how time.ts reads its text.
    const listed = (ms: number, timeZone: string) => {
      const parts = formatterFor(timeZone).formatToParts(ms);
      const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
      return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
    };
    const zones = ["America/New_York", "Asia/Kathmandu", "Pacific/Chatham", "UTC", "Africa/Casablanca"];
    // Years of one to six digits (read from Intl's parts, not its text), and ones on either side of 1000.
    const instants = [
      "0005-06-01T12:34:56Z",
      "0999-12-31T23:59:59Z",
      "1000-01-01T00:00:00Z",
      "1883-11-18T17:00:00Z",
      "1970-01-01T00:00:00Z",
      "2001-01-01T04:59:59Z",
      "2024-03-10T07:00:00Z",
      "9999-12-31T23:59:59Z",
      "+012345-06-01T00:00:00Z",
    ].map(Date.parse);
    const wrong: string[] = [];
    for (const timeZone of zones) {
      for (const ms of instants) {
        const want = listed(ms, timeZone) - Math.floor(ms / 1000) * 1000;
        if (zoneOffsetMs(ms, timeZone) !== want) wrong.push(`${timeZone} ${new Date(ms).toISOString()}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("refuses an invalid instant or zone as Intl does", () => {
    expect(() => localParts(Number.NaN, "America/New_York")).toThrow(RangeError);
    expect(() => localParts(0, "Not/AZone")).toThrow(RangeError);
  });

  it("finds the instant of a wall-clock time, across DST", () => {
    expect(zonedInstant("2026-01-15", "09:00", "America/New_York").toISOString()).toBe("2026-01-15T14:00:00.000Z");
    expect(zonedInstant("2026-07-15", "09:00", "America/New_York").toISOString()).toBe("2026-07-15T13:00:00.000Z");
    // Fall back on 2026-11-01: 01:30 happens twice; the first one (EDT) is meant.
    expect(zonedInstant("2026-11-01", "01:30", "America/New_York").toISOString()).toBe("2026-11-01T05:30:00.000Z");
    // Spring forward on 2026-03-08: 02:30 does not exist and moves forward.
    expect(zonedInstant("2026-03-08", "02:30", "America/New_York").toISOString()).toBe("2026-03-08T07:30:00.000Z");
  });

  it("buckets instants into workdays using the start of day", () => {
    // 03:00 local is before a 05:00 start of day: it belongs to the previous workday.
    expect(workdayOf("2026-05-02T07:00:00Z", "America/New_York", "05:00")).toBe("2026-05-01");
    expect(workdayOf("2026-05-02T10:00:00Z", "America/New_York", "05:00")).toBe("2026-05-02");
    expect(workdayOf("2026-05-02T07:00:00Z", "America/New_York")).toBe("2026-05-02");
  });

  it("finds the first day of a workweek", () => {
    expect(weekStartOf("2026-05-07", "MON")).toBe("2026-05-04"); // a Thursday
    expect(weekStartOf("2026-05-04", "MON")).toBe("2026-05-04");
    expect(weekStartOf("2026-05-07", "SUN")).toBe("2026-05-03");
  });
});

describe("parsing", () => {
  it("validates dates and clock times", () => {
    expect(parseDate("2026-02-30")).toBeUndefined();
    expect(parseDate("2026-02-28")).toEqual({ year: 2026, month: 2, day: 28 });
    expect(parseClockTime("24:00")).toBeUndefined();
    expect(parseClockTime("7:05")).toEqual({ hour: 7, minute: 5 });
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  it("reads and writes ISO durations", () => {
    expect(durationMinutes("PT30M")).toBe(30);
    expect(durationMinutes("PT1H15M")).toBe(75);
    expect(durationMinutes("PT")).toBeUndefined();
    expect(durationMinutes("30")).toBeUndefined();
    expect(isoDuration(75)).toBe("PT1H15M");
    expect(isoDuration(60)).toBe("PT1H");
  });
});

describe("formatDuration", () => {
  it("writes minutes, then hours and minutes", () => {
    expect(formatDuration(0.4)).toBe("0 min");
    expect(formatDuration(45)).toBe("45 min");
    expect(formatDuration(125.9)).toBe("2 h 05 min");
    expect(formatDuration(-3)).toBe("0 min");
  });
});

describe("pay periods", () => {
  it("finds the period holding a date, for each rule", () => {
    expect(payPeriodOf("2026-05-07", { every: "week" }, "MON")).toEqual({ from: "2026-05-04", to: "2026-05-10" });
    expect(payPeriodOf("2026-05-07", { every: "week" }, "SUN")).toEqual({ from: "2026-05-03", to: "2026-05-09" });
    const biweekly = { every: "two-weeks", startingOn: "2026-01-05" } as const;
    expect(payPeriodOf("2026-05-07", biweekly, "MON")).toEqual({ from: "2026-04-27", to: "2026-05-10" });
    expect(payPeriodOf("2026-05-11", biweekly, "MON")).toEqual({ from: "2026-05-11", to: "2026-05-24" });
    // Before the first day given, the periods run on backwards.
    expect(payPeriodOf("2025-12-31", biweekly, "MON")).toEqual({ from: "2025-12-22", to: "2026-01-04" });
    expect(payPeriodOf("2026-02-20", { every: "half-month" }, "MON")).toEqual({ from: "2026-02-16", to: "2026-02-28" });
    expect(payPeriodOf("2028-02-03", { every: "half-month" }, "MON")).toEqual({ from: "2028-02-01", to: "2028-02-15" });
    expect(payPeriodOf("2028-02-20", { every: "month" }, "MON")).toEqual({ from: "2028-02-01", to: "2028-02-29" });
  });

  it("reads the config file's payPeriod, naming the setting at fault", () => {
    expect(parsePayPeriod(undefined)).toEqual({ ok: true, value: { every: "week" } });
    expect(parsePayPeriod({ every: "two-weeks", startingOn: "2026-01-05" })).toEqual({
      ok: true,
      value: { every: "two-weeks", startingOn: "2026-01-05" },
    });
    const problem = (raw: unknown) => {
      const r = parsePayPeriod(raw);
      return r.ok ? "accepted" : `${r.field} ${r.problem}`;
    };
    expect(problem({ every: "fortnight" })).toBe("payPeriod.every must be one of week, two-weeks, half-month, month");
    expect(problem({ every: "two-weeks" })).toMatch(/^payPeriod.startingOn must be the first day of one pay period/);
    expect(problem({ every: "month", startingOn: "2026-01-01" })).toMatch(/only goes with "every": "two-weeks"/);
    expect(problem("weekly")).toMatch(/^payPeriod must be an object/);
    expect(describePayPeriod({ every: "two-weeks", startingOn: "2026-01-05" })).toBe("every two weeks from 2026-01-05");
  });
});
