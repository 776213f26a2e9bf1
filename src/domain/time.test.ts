import { describe, expect, it } from "vitest";
import {
  addDays,
  durationMinutes,
  formatDuration,
  isoDuration,
  localDate,
  localTime,
  parseClockTime,
  parseDate,
  weekStartOf,
  workdayOf,
  zonedInstant,
} from "./time.js";

describe("time zones", () => {
  it("reads local date and time of an instant", () => {
    expect(localDate("2026-03-01T03:30:00Z", "America/New_York")).toBe("2026-02-28");
    expect(localTime("2026-03-01T03:30:00Z", "America/New_York")).toBe("22:30");
    expect(localTime("2026-03-01T03:30:00Z", "Asia/Tokyo")).toBe("12:30");
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
