import { describe, expect, it } from "vitest";
import type { BreakType, Shift } from "../../spec/generated/types.js";
import { ServiceError } from "../errors.js";
import { buildShift, checkAgainstOthers, defaultShiftWage, memberOfShift, normalizeBreakDuration } from "./rules.js";

const lunch: BreakType = {
  id: "LUNCH",
  location_id: "L",
  break_name: "Lunch",
  expected_duration: "PT30M",
  is_paid: false,
};
let n = 0;
const base = {
  timeZone: "America/New_York",
  currency: "USD",
  now: new Date("2024-01-18T17:00:00Z"),
  newId: () => `ID${++n}`,
  breakType: (id: string) => (id === "LUNCH" ? lunch : undefined),
  defaultWage: { hourly_rate: { amount: 0, currency: "USD" as const } },
};
const code = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (err instanceof ServiceError) return err.errors[0]?.code;
    throw err;
  }
  return "OK";
};
const input = (extra: Partial<Shift> = {}): Shift => ({
  location_id: "L",
  start_at: "2024-01-18T13:00:00Z",
  ...extra,
});

describe("break durations", () => {
  it("accepts ISO 8601 durations in canonical form and refuses others", () => {
    expect(normalizeBreakDuration("PT15M", "f")).toBe("PT15M");
    expect(normalizeBreakDuration("PT90M", "f")).toBe("PT1H30M");
    expect(normalizeBreakDuration("PT10M30S", "f")).toBe("PT10M");
    for (const bad of ["15", "T15M", "PT", "PT0M", "PT30S", "fifteen"]) {
      expect(code(() => normalizeBreakDuration(bad, "f"))).toBe("INVALID_VALUE");
    }
  });
});

describe("buildShift", () => {
  it("opens without an end and closes with one", () => {
    expect(buildShift({ ...base, input: input() }).shift.status).toBe("OPEN");
    expect(buildShift({ ...base, input: input({ end_at: "2024-01-18T15:00:00Z" }) }).shift.status).toBe("CLOSED");
  });

  it("refuses a break with an unknown break type unless the shift already had it", () => {
    const orphan = {
      id: "B1",
      start_at: "2024-01-18T14:00:00Z",
      end_at: "2024-01-18T14:30:00Z",
      break_type_id: "GONE",
      name: "Old",
      expected_duration: "PT30M",
      is_paid: false,
    };
    expect(code(() => buildShift({ ...base, input: input({ breaks: [orphan] }) }))).toBe("BAD_REQUEST");
    const kept = buildShift({ ...base, input: input({ breaks: [orphan] }), existing: input({ breaks: [orphan] }) });
    expect(kept.shift.breaks?.[0]).toMatchObject({ id: "B1", name: "Old" });
  });

  it("refuses overlapping breaks", () => {
    const b = (start: string, end: string) => ({
      start_at: start,
      end_at: end,
      break_type_id: "LUNCH",
      name: "x",
      expected_duration: "PT30M",
      is_paid: false,
    });
    const both = [b("2024-01-18T14:00:00Z", "2024-01-18T14:30:00Z"), b("2024-01-18T14:20:00Z", "2024-01-18T14:40:00Z")];
    expect(code(() => buildShift({ ...base, input: input({ breaks: both }) }))).toBe("BAD_REQUEST");
  });

  it("writes the shift's fields in one order, whichever are present", () => {
    const json = (over: Partial<Parameters<typeof buildShift>[0]>) =>
      JSON.stringify(buildShift({ ...base, input: input(), ...over }).shift);
    expect(json({})).toBe(
      '{"location_id":"L","timezone":"America/New_York","start_at":"2024-01-18T08:00:00-05:00",' +
        '"wage":{"hourly_rate":{"amount":0,"currency":"USD"}},"breaks":[],"status":"OPEN"}',
    );
    expect(json({ defaultWage: defaultShiftWage("Cashier", "CAD"), currency: "CAD", timeZone: "Asia/Kolkata" })).toBe(
      '{"location_id":"L","timezone":"Asia/Kolkata","start_at":"2024-01-18T18:30:00+05:30",' +
        '"wage":{"title":"Cashier","hourly_rate":{"amount":0,"currency":"CAD"}},"breaks":[],"status":"OPEN"}',
    );
    const lunchBreak = {
      start_at: "2024-01-18T14:00:00Z",
      end_at: "2024-01-18T14:30:59Z",
      break_type_id: "LUNCH",
      name: "ignored",
      expected_duration: "PT1M",
      is_paid: true,
    };
    const sent = input({
      end_at: "2024-01-18T15:00:00Z",
      // Sent in another order, and without a rate: the shift keeps the order it was sent in.
      wage: { title: "Stock", job_id: "J1" } as NonNullable<Shift["wage"]>,
      declared_cash_tip_money: { amount: 250, currency: "USD" },
      breaks: [lunchBreak],
    });
    expect(json({ input: sent, newId: () => "BREAK1" })).toBe(
      '{"location_id":"L","timezone":"America/New_York","start_at":"2024-01-18T08:00:00-05:00",' +
        '"end_at":"2024-01-18T10:00:00-05:00","wage":{"title":"Stock","job_id":"J1",' +
        '"hourly_rate":{"amount":0,"currency":"USD"}},"breaks":[{"id":"BREAK1","start_at":"2024-01-18T09:00:00-05:00",' +
        '"end_at":"2024-01-18T09:30:00-05:00","break_type_id":"LUNCH","name":"Lunch","expected_duration":"PT30M",' +
        '"is_paid":false}],"status":"CLOSED","declared_cash_tip_money":{"amount":250,"currency":"USD"}}',
    );
    const kept = { ...sent, wage: { hourly_rate: { amount: 1500, currency: "USD" as const }, title: "Lead" } };
    expect(json({ input: input({ start_at: "2024-01-18T13:00:00Z" }), existing: kept })).toBe(
      '{"location_id":"L","timezone":"America/New_York","start_at":"2024-01-18T08:00:00-05:00",' +
        '"wage":{"hourly_rate":{"amount":1500,"currency":"USD"},"title":"Lead"},"breaks":[],"status":"OPEN",' +
        '"declared_cash_tip_money":{"amount":250,"currency":"USD"}}',
    );
  });

  it("puts the open-shift rule before the overlap rule", () => {
    const built = buildShift({ ...base, input: input() });
    const other = { ...input(), id: "OTHER" };
    expect(() => checkAgainstOthers(built, other, other)).toThrow(/already has an open shift/);
    expect(() => checkAgainstOthers(built, undefined, other)).toThrow(/overlaps/);
    expect(code(() => checkAgainstOthers(built, undefined, undefined))).toBe("OK");
  });
});

describe("memberOfShift", () => {
  const input = (over: Partial<Shift>): Shift => ({ location_id: "L", start_at: "2024-01-18T09:00:00Z", ...over });
  const stored = { ...input({ team_member_id: "TM1" }), id: "S1", version: 3 };

  it("takes team_member_id, or the deprecated employee_id, or the stored shift's member", () => {
    expect(memberOfShift(input({ team_member_id: "TM1" }), undefined)).toBe("TM1");
    expect(memberOfShift(input({ employee_id: "TM1" }), undefined)).toBe("TM1");
    expect(memberOfShift(input({ team_member_id: "TM1", employee_id: "TM1" }), undefined)).toBe("TM1");
    expect(memberOfShift(input({}), stored)).toBe("TM1");
  });

  it("refuses two different members, none at all, a changed member and a stale version", () => {
    expect(code(() => memberOfShift(input({ team_member_id: "TM1", employee_id: "TM2" }), undefined))).toBe(
      "BAD_REQUEST",
    );
    expect(code(() => memberOfShift(input({}), undefined))).toBe("BAD_REQUEST");
    expect(code(() => memberOfShift(input({ team_member_id: "TM2" }), stored))).toBe("BAD_REQUEST");
    expect(code(() => memberOfShift(input({ version: 2 }), stored))).toBe("CONFLICT");
    expect(memberOfShift(input({ version: 3 }), stored)).toBe("TM1");
  });
});
