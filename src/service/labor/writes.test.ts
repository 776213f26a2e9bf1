import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedClock, startService, type TestService } from "../../../test/helpers/service.js";
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
