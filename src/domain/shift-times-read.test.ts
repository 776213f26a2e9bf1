import { describe, expect, it } from "vitest";
import { checkDraftFields, readShiftTimes } from "./shift-times-read.js";

const input = { startDate: "2026-04-01", startTime: "08:55", endDate: "2026-04-01", endTime: "17:00" };

describe("readShiftTimes", () => {
  it("reads a start and an end local to the zone, or no end when both end fields are empty", () => {
    expect(readShiftTimes(input, "America/New_York")).toEqual({
      startAt: new Date("2026-04-01T12:55:00Z"),
      endAt: new Date("2026-04-01T21:00:00Z"),
    });
    expect(readShiftTimes({ ...input, endDate: " ", endTime: "" }, "UTC")).toEqual({
      startAt: new Date("2026-04-01T08:55:00Z"),
      endAt: undefined,
    });
  });

  it("names the field each problem is about, in the clock rules' words", () => {
    expect(readShiftTimes({ ...input, startDate: "2026-11-272026-11-26" }, "UTC")).toEqual({
      text: 'The start date "2026-11-272026-11-26" is not a date (YYYY-MM-DD).',
      field: "startDate",
    });
    expect(readShiftTimes({ ...input, startTime: "8.55" }, "UTC")).toMatchObject({ field: "startTime" });
    expect(readShiftTimes({ ...input, endDate: "2026-04-31" }, "UTC")).toMatchObject({ field: "endDate" });
    expect(readShiftTimes({ ...input, endDate: "", endTime: "25:00" }, "UTC")).toMatchObject({ field: "endDate" });
    expect(readShiftTimes({ ...input, endTime: "25:00" }, "UTC")).toEqual({
      text: 'The end time "25:00" is not a time (HH:MM).',
      field: "endTime",
    });
  });
});

describe("checkDraftFields", () => {
  const now = new Date("2026-04-01T20:00:00Z");
  const startAt = new Date("2026-04-01T09:00:00Z");
  const endAt = new Date("2026-04-01T17:00:00Z");
  const lunch = (from: string, to: string) => ({
    name: "Lunch",
    breakTypeId: "bt",
    expectedDuration: "PT30M",
    isPaid: false,
    startAt: new Date(`2026-04-01T${from}:00Z`),
    endAt: new Date(`2026-04-01T${to}:00Z`),
  });

  it("puts a problem with a break on the breaks field", () => {
    expect(checkDraftFields({ startAt, endAt, breaks: [lunch("16:45", "17:15")] }, now, "UTC")).toEqual({
      text: "The break Lunch ends at 17:15, after that end.",
      field: "breaks",
    });
  });

  it("leaves a problem with the start and end as words about no one field, and passes a good shift", () => {
    expect(checkDraftFields({ startAt: endAt, endAt: startAt, breaks: [] }, now, "UTC")).toBe(
      "The end 09:00 is not after the start 17:00.",
    );
    expect(checkDraftFields({ startAt, endAt, breaks: [lunch("12:00", "12:30")] }, now, "UTC")).toBeUndefined();
  });
});
