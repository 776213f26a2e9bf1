import { describe, expect, it } from "vitest";
import { truncateToMinute, wallClockMs, workdayWindow, zonedRfc3339 } from "./time.js";

const NY = "America/New_York";

describe("labor time helpers", () => {
  it("writes instants at the zone's offset on either side of a daylight-saving change", () => {
    // 2024-03-10: New York springs forward at 02:00 local (07:00 UTC).
    expect(zonedRfc3339(Date.parse("2024-03-10T06:59:00Z"), NY)).toBe("2024-03-10T01:59:00-05:00");
    expect(zonedRfc3339(Date.parse("2024-03-10T07:00:00Z"), NY)).toBe("2024-03-10T03:00:00-04:00");
    expect(zonedRfc3339(Date.parse("2024-11-03T05:30:00Z"), NY)).toBe("2024-11-03T01:30:00-04:00");
    expect(zonedRfc3339(Date.parse("2024-11-03T06:30:00Z"), NY)).toBe("2024-11-03T01:30:00-05:00");
    expect(zonedRfc3339(Date.parse("2024-01-18T17:00:00Z"), "Asia/Kolkata")).toBe("2024-01-18T22:30:00+05:30");
  });

  it("finds the instant of a local wall-clock time", () => {
    expect(new Date(wallClockMs("2024-01-18", 9 * 60 + 5, NY)).toISOString()).toBe("2024-01-18T14:05:00.000Z");
    expect(new Date(wallClockMs("2024-07-18", 9 * 60, NY)).toISOString()).toBe("2024-07-18T13:00:00.000Z");
  });

  it("drops seconds", () => {
    expect(new Date(truncateToMinute(Date.parse("2024-01-18T17:03:59.999Z"))).toISOString()).toBe(
      "2024-01-18T17:03:00.000Z",
    );
  });

  it("turns workdays into instants from the start of day of the first to that of the day after the last", () => {
    const w = workdayWindow({ start_date: "2024-01-18", end_date: "2024-01-19" }, NY, "04:00");
    expect(new Date(w.from).toISOString()).toBe("2024-01-18T09:00:00.000Z");
    expect(new Date(w.to).toISOString()).toBe("2024-01-20T09:00:00.000Z");
  });
});
