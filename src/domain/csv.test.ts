import { describe, expect, it } from "vitest";
import { csvField, reviewCsv, toCsv } from "./csv.js";
import { buildReview } from "./shifts.js";

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

  it("writes one row per shift of the review", () => {
    const review = buildReview(
      [
        {
          id: "s1",
          location_id: "L1",
          team_member_id: "m1",
          start_at: "2026-05-04T13:00:00Z",
          end_at: "2026-05-04T21:30:00Z",
          status: "CLOSED",
          wage: { hourly_rate: { amount: 1550, currency: "USD" } },
          breaks: [
            {
              start_at: "2026-05-04T17:00:00Z",
              end_at: "2026-05-04T17:30:00Z",
              break_type_id: "B",
              name: "Lunch",
              expected_duration: "PT30M",
              is_paid: false,
            },
          ],
        },
      ],
      {
        members: new Map([["m1", { id: "m1", given_name: "Ana", family_name: "Diaz, Jr" }]]),
        timeZone: "America/New_York",
        startOfDay: "00:00",
        startOfWeek: "MON",
        now: new Date("2026-05-05T00:00:00Z"),
        from: "2026-05-04",
        to: "2026-05-04",
      },
    );
    expect(reviewCsv(review.rows, "America/New_York", new Date("2026-05-05T00:00:00Z"))).toBe(
      "member,date,start,end,breaks,paid hours,wage,cost,currency\r\n" +
        '"Ana Diaz, Jr",2026-05-04,09:00,17:30,Lunch 30m (unpaid),8.00,15.50,124.00,USD\r\n',
    );
  });
});
