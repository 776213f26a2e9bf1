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
