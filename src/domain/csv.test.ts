import { describe, expect, it } from "vitest";
import type { Shift } from "../spec/generated/types.js";
import { csvField, MEMBER_WEEKS_CSV_HEADER, memberWeeksCsv, SHIFTS_CSV_HEADER, shiftsCsv, toCsv } from "./csv.js";
import { buildReview, memberWeeks } from "./review.js";

describe("csv", () => {
  it("quotes fields that need it and defuses formulas", () => {
    expect(csvField('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvField("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvField("-3")).toBe("-3");
    expect(
      toCsv([
        ["a", 1],
        ["b", 2],
      ]),
    ).toBe("a,1\r\nb,2\r\n");
  });

  it("keeps text that a spreadsheet would read as a formula or a number as text", () => {
    // A tab or carriage return before the formula is still evaluated by spreadsheets (OWASP).
    expect(csvField("\t=1+1")).toBe("'\t=1+1");
    expect(csvField("\r=2+2")).toBe('"\'\r=2+2"');
    expect(csvField("@x")).toBe("'@x");
    expect(csvField("+1+1")).toBe("'+1+1");
    // A name "+1" or a phone number in E.164 would lose its plus (and digits) as a number.
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("+14155550100")).toBe("'+14155550100");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("-1e5")).toBe("'-1e5");
    // Numbers as backroom writes them stay numbers a spreadsheet can add up.
    expect(csvField("-12.75")).toBe("-12.75");
    expect(csvField("-500")).toBe("-500");
    expect(csvField(-3)).toBe("-3");
  });
});

describe("shifts export", () => {
  const TZ = "America/New_York";
  const members = new Map([
    ["m1", { id: "m1", given_name: "Ana", family_name: "Diaz, Jr" }],
    ["m2", { id: "m2", given_name: "Bo", family_name: "Li" }],
  ]);
  const base = {
    members,
    timeZone: TZ,
    startOfDay: "05:00",
    startOfWeek: "MON",
    now: new Date("2026-05-06T16:00:00Z"),
    from: "2026-05-04",
    to: "2026-05-06",
  };
  const overnight: Shift = {
    id: "s1",
    location_id: "L1",
    team_member_id: "m1",
    // Monday 20:00 → Tuesday 04:30 New York time, a 30-minute unpaid break at midnight.
    start_at: "2026-05-05T00:00:00Z",
    end_at: "2026-05-05T08:30:00Z",
    status: "CLOSED",
    wage: { title: "Baker", hourly_rate: { amount: 2000, currency: "USD" } },
    breaks: [
      {
        start_at: "2026-05-05T04:00:00Z",
        end_at: "2026-05-05T04:30:00Z",
        break_type_id: "B",
        name: "Meal",
        expected_duration: "PT30M",
        is_paid: false,
      },
    ],
  };
  const noWage: Shift = {
    id: "s2",
    location_id: "L1",
    team_member_id: "m2",
    start_at: "2026-05-06T13:00:00Z",
    status: "OPEN",
    wage: { hourly_rate: { amount: 0, currency: "USD" } },
  };

  it("writes one row per shift: an overnight shift with two dates, and a shift with no wage flagged, not 0.00", () => {
    const review = buildReview([overnight, noWage], base);
    const csv = shiftsCsv(review.rows, () => "Harbour Dock");
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(SHIFTS_CSV_HEADER.join(","));
    expect(lines[0]).toBe(
      "location,member,job title,start date,start time,end date,end time,time zone,workday,status," +
        "paid hours,unpaid break hours,regular hours,overtime hours,hourly rate,cost,currency,flags",
    );
    expect(lines[1]).toBe(
      'Harbour Dock,"Ana Diaz, Jr",Baker,2026-05-04,20:00,2026-05-05,04:30,America/New_York,2026-05-04,closed,' +
        "8.00,0.50,8.00,0.00,20.00,160.00,USD,",
    );
    expect(lines[2]).toBe(
      "Harbour Dock,Bo Li,,2026-05-06,09:00,,,America/New_York,2026-05-06,open,3.00,0.00,3.00,0.00,,,,no wage; open",
    );
    expect(lines[3]).toBe("");
    expect(lines).toHaveLength(4);
    // Every row has as many cells as the header has names.
    const cells = (line: string) => 1 + (line.replaceAll(/"([^"]|"")*"/g, "").match(/,/g)?.length ?? 0);
    expect(cells(lines[1] ?? "")).toBe(SHIFTS_CSV_HEADER.length);
    expect(cells(lines[2] ?? "")).toBe(SHIFTS_CSV_HEADER.length);
  });

  it("flags a shift over 8 hours and splits overtime in its columns", () => {
    const days = ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07", "2026-05-08"];
    const shifts: Shift[] = days.map((d, i) => ({
      id: `d${i}`,
      location_id: "L1",
      team_member_id: "m2",
      start_at: `${d}T12:00:00Z`,
      end_at: `${d}T21:00:00Z`,
      status: "CLOSED",
      wage: { title: "Clerk", hourly_rate: { amount: 1000, currency: "USD" } },
    }));
    const review = buildReview(shifts, { ...base, to: "2026-05-10", now: new Date("2026-05-11T00:00:00Z") });
    const friday = shiftsCsv(review.rows, () => "Main").split("\r\n")[5];
    expect(friday).toBe(
      "Main,Bo Li,Clerk,2026-05-08,08:00,2026-05-08,17:00,America/New_York,2026-05-08,closed,9.00,0.00,4.00,5.00,10.00,115.00,USD,over 8 h",
    );
  });

  it("sums a member's week for the summary file", () => {
    const review = buildReview([overnight, noWage], base);
    const csv = memberWeeksCsv(memberWeeks(review, "MON"), () => "Harbour Dock");
    expect(csv.split("\r\n")).toEqual([
      MEMBER_WEEKS_CSV_HEADER.join(","),
      'Harbour Dock,"Ana Diaz, Jr",2026-05-04,2026-05-10,1,8.00,0.50,8.00,0.00,160.00,0.00,160.00,USD,',
      "Harbour Dock,Bo Li,2026-05-04,2026-05-10,1,3.00,0.00,3.00,0.00,,,,,1 shift without wage; 1 open",
      "",
    ]);
  });
});
