import type { Shift } from "../spec/generated/types.js";
import type { StoreClient } from "./types.js";

const DAY_MS = 86_400_000;

/**
 * One member's shifts, at any location, that could overlap the instants from `fromMs` to `toMs`:
 * those starting from two days before (a long shift reaches into the window) to `toMs`, and any
 * still open (an open shift runs on). For the rules checked before a shift is saved.
 */
export async function readMemberShifts(
  client: StoreClient,
  memberId: string,
  fromMs: number,
  toMs: number,
): Promise<Shift[]> {
  const [near, open] = await Promise.all([
    client.labor
      .searchShifts({
        query: {
          filter: {
            location_ids: [],
            team_member_ids: [memberId],
            start: { start_at: new Date(fromMs - 2 * DAY_MS).toISOString(), end_at: new Date(toMs).toISOString() },
          },
        },
        limit: 200,
      })
      .all(),
    client.labor
      .searchShifts({
        query: { filter: { location_ids: [], team_member_ids: [memberId], status: "OPEN" } },
        limit: 200,
      })
      .all(),
  ]);
  const byId = new Map<string, Shift>();
  for (const s of [...near, ...open]) byId.set(s.id ?? s.start_at, s);
  return [...byId.values()];
}
