// The demo store's payouts, read through the real client over their whole history (the default
// window is the last year; the seed goes further back): every payout is the sum of its entries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPayoutNet, entryBreakdown } from "../src/domain/payouts.js";
import type { Payout } from "../src/spec/generated/types.js";
import { listPayoutsInRange, loadEntriesOf } from "../src/state/payouts-load.js";
import { pinnedClock, startService, type TestService } from "./helpers/service.js";

const NOW = Date.parse("2026-06-17T16:00:00.000Z");

/** Every payout of every location, from before the seed's first day to after its last. */
async function wholeHistory(t: TestService): Promise<Payout[]> {
  const locations = (await t.client.locations.listLocations()).locations ?? [];
  return listPayoutsInRange(t.client, { locations, from: "2020-01-01", to: "2026-12-31" });
}

describe("the demo store's payouts", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startService({ clock: pinnedClock(NOW) });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("each add up: entries' net is the payout's amount, across the whole history", async () => {
    const payouts = await wholeHistory(t);
    const byLocation = new Map<string, number>();
    for (const p of payouts) byLocation.set(p.location_id, (byLocation.get(p.location_id) ?? 0) + 1);
    // A little more than a year of daily payouts at each of the two locations.
    expect([...byLocation.values()].every((n) => n > 300)).toBe(true);
    const oldest = payouts.at(-1)?.created_at ?? "";
    expect(Date.parse(oldest)).toBeLessThan(NOW - 366 * 86_400_000);
    const entries = await loadEntriesOf(t.client, payouts);
    for (const p of payouts) {
      const list = entries.get(p.id) ?? [];
      expect(list.length, p.id).toBeGreaterThan(0);
      expect(checkPayoutNet(p, list), p.id).toBeUndefined();
      const b = entryBreakdown(list);
      expect(b.total.gross - b.total.fee, p.id).toBe(b.total.net);
    }
  }, 120_000);
});
