import { describe, expect, it } from "vitest";
import { ServiceError } from "./errors.js";
import { parseTime } from "./params.js";

/** The error's code and detail, or "ok". */
const refusal = (value: unknown): string => {
  try {
    parseTime(value, "shift.start_at");
    return "ok";
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const [e] = err.errors;
    return `${e?.code} ${e?.field}: ${e?.detail}`;
  }
};

describe("parseTime", () => {
  it("reads the instant JavaScript reads, at every offset, fraction and month end", () => {
    const texts = [
      "2001-01-01T00:00:00Z",
      "2024-02-29T23:59:59.9996Z",
      "2024-01-18T09:05:00-05:00",
      "2024-01-18T09:05-05:00",
      "2023-12-31t22:15:30.5+05:45",
      "1969-12-31T23:59:59.123456789-00:01",
      "2026-11-27T14:05:00+14:00",
      "1900-03-01T00:00:00Z",
      "9999-12-31T23:59:59-23:59",
      "0100-02-28T12:00:00Z",
    ];
    for (const text of texts) {
      // Date.parse needs seconds and upper-case letters; the instant is the same.
      const iso = text.toUpperCase().replace(/T(\d{2}:\d{2})([+\-Z])/, "T$1:00$2");
      expect([text, parseTime(text, "x").getTime()]).toEqual([text, Date.parse(iso)]);
    }
  });

  it("reads the years 1 to 99 as themselves, not as 1900 to 1999", () => {
    expect(parseTime("0005-06-01T12:34:56Z", "x").toISOString()).toBe("0005-06-01T12:34:56.000Z");
    expect(parseTime("0099-12-31T23:30:00-01:00", "x").toISOString()).toBe("0100-01-01T00:30:00.000Z");
  });

  it("refuses what is not a real point in time, naming the field", () => {
    expect(refusal("2024-01-18T09:05:00Z")).toBe("ok");
    expect(refusal("2023-02-29T10:00:00Z")).toBe(
      'INVALID_TIME shift.start_at: shift.start_at is not a real point in time: "2023-02-29T10:00:00Z".',
    );
    for (const bad of [
      "2024-04-31T10:00:00Z",
      "2024-13-01T10:00:00Z",
      "2024-00-10T10:00:00Z",
      "2024-01-00T10:00:00Z",
      "2024-01-18T24:00:00Z",
      "2024-01-18T10:60:00Z",
      "2024-01-18T10:00:60Z",
      "2024-01-18T10:00:00+24:00",
      "2024-01-18T10:00:00+05:60",
      "0000-01-01T00:00:00Z",
    ]) {
      expect(refusal(bad)).toMatch(/^INVALID_TIME shift\.start_at: shift\.start_at is not a real point in time/);
    }
    for (const bad of ["2024-01-18", "2024-01-18T10:00:00", "yesterday", 1705570000000, null, undefined]) {
      expect(refusal(bad)).toBe("INVALID_TIME shift.start_at: shift.start_at must be an RFC 3339 timestamp.");
    }
  });
});
