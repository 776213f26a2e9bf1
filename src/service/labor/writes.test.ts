import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, pinnedClock, startService, type TestService } from "../../../test/helpers/service.js";
import { DEMO } from "../seed/demo-ids.js";

// A member who has left: no seeded shifts, so the test lays out its own.
const JORDAN = "TMDEMO0008";
const NOW = Date.parse("2024-01-18T17:00:00Z");

let t: TestService;
beforeAll(async () => {
  t = await startService({ clock: pinnedClock(NOW) });
});
afterAll(async () => {
  await t.close();
});

describe("a new shift's id", () => {
  it("rises with the time it was created, so the id index takes it at its end", async () => {
    const made: string[] = [];
    // Written out of time order, a second apart: the ids follow when they were written.
    for (const day of [3, 9, 1, 7, 5, 2, 8, 4, 6, 10, 12, 11]) {
      t.advance(1);
      const start = `2023-11-${String(day).padStart(2, "0")}T14:00:00Z`;
      const { shift } = await t.client.labor.createShift({
        idempotency_key: `order-${day}`,
        shift: {
          location_id: DEMO.mainLocationId,
          team_member_id: JORDAN,
          start_at: start,
          end_at: start.replace("T14", "T18"),
        },
      });
      made.push(shift?.id ?? "");
    }
    for (const id of made) expect(id).toMatch(/^[A-Z0-9]{26}$/);
    expect([...made].sort()).toEqual(made);
  });
});

describe("a shift write's answer", () => {
  /** The answer's text as sent, for what parsing would hide (key order, spacing, numbers). */
  const sent = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.service.accessToken}`, "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, text: await res.text() };
  };

  it("is the stored shift's JSON, as a read and a replay of the same request send it", async () => {
    const request = {
      idempotency_key: "answer-as-stored",
      shift: {
        location_id: DEMO.mainLocationId,
        team_member_id: JORDAN,
        start_at: "2023-10-02T13:04:59Z",
        end_at: "2023-10-02T17:30:00-04:00",
        declared_cash_tip_money: { amount: 250, currency: "USD" },
      },
    };
    const made = await sent("POST", "/v2/labor/shifts", request);
    expect(made.status).toBe(200);
    const { shift } = JSON.parse(made.text);
    expect(shift).toMatchObject({ start_at: "2023-10-02T09:04:00-04:00", status: "CLOSED", version: 1 });
    expect(made.text).toBe(JSON.stringify({ shift }));
    expect((await sent("GET", `/v2/labor/shifts/${shift.id}`)).text).toBe(made.text);
    expect((await sent("POST", "/v2/labor/shifts", request)).text).toBe(made.text);

    const changed = await sent("PUT", `/v2/labor/shifts/${shift.id}`, {
      shift: { ...request.shift, end_at: "2023-10-02T18:00:00-04:00", version: 1 },
    });
    expect(JSON.parse(changed.text).shift).toMatchObject({ end_at: "2023-10-02T18:00:00-04:00", version: 2 });
    expect((await sent("GET", `/v2/labor/shifts/${shift.id}`)).text).toBe(changed.text);
  });
});

describe("what a shift write reads around it", () => {
  const at = (day: number) => `2023-09-${String(day).padStart(2, "0")}T14:00:00Z`;
  const until = (day: number) => `2023-09-${String(day).padStart(2, "0")}T18:00:00Z`;
  const refusal = async (shift: Record<string, unknown>, key: string) => {
    const err = await failure(
      t.client.labor.createShift({ idempotency_key: key, shift: shift as { location_id: string; start_at: string } }),
    );
    return `${err.errors[0]?.field}: ${err.errors[0]?.detail}`;
  };

  it("refuses in the same order as ever: the location, then the member named, then whether the member exists", async () => {
    const base = { start_at: at(1), end_at: until(1) };
    expect(
      await refusal({ ...base, location_id: "NOPE", team_member_id: JORDAN, employee_id: "TMDEMO0002" }, "r1"),
    ).toBe("shift.location_id: Location not found: NOPE.");
    expect(await refusal({ ...base, location_id: "NOPE", team_member_id: "GHOST" }, "r2")).toBe(
      "shift.location_id: Location not found: NOPE.",
    );
    expect(
      await refusal(
        { ...base, location_id: DEMO.mainLocationId, team_member_id: JORDAN, employee_id: "TMDEMO0002" },
        "r3",
      ),
    ).toBe("shift.team_member_id: team_member_id and employee_id name different team members.");
    expect(await refusal({ ...base, location_id: DEMO.mainLocationId }, "r4")).toBe(
      "shift.team_member_id: A shift needs a team_member_id.",
    );
    expect(await refusal({ ...base, location_id: DEMO.mainLocationId, employee_id: "GHOST" }, "r5")).toBe(
      "shift.team_member_id: Team member not found: GHOST.",
    );
  });

  it("takes the zone and currency of the shift's location and the title of the member's first wage", async () => {
    const wages = await t.client.labor.listTeamMemberWages({ team_member_id: JORDAN });
    const { shift } = await t.client.labor.createShift({
      idempotency_key: "around-dock",
      shift: { location_id: DEMO.secondLocationId, employee_id: JORDAN, start_at: at(2), end_at: until(2) },
    });
    const dock = await t.client.locations.retrieveLocation(DEMO.secondLocationId);
    expect(shift?.timezone).toBe(dock.location?.timezone);
    expect(shift?.wage).toEqual({
      ...(wages.team_member_wages?.[0]?.title ? { title: wages.team_member_wages[0].title } : {}),
      hourly_rate: { amount: 0, currency: dock.location?.currency },
    });
    expect(shift?.team_member_id).toBe(JORDAN);
  });
});
