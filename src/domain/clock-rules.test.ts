import { describe, expect, it } from "vitest";
import type { Shift } from "../spec/generated/types.js";
import {
  checkClockIn,
  checkEndBreak,
  checkEndTime,
  checkShiftTimes,
  checkStartBreak,
  withBreakStarted,
  withShiftClosed,
} from "./clock-rules.js";

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
