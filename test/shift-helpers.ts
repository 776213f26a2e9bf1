/** Helpers of the shift arithmetic tests: a shift at 20.00 USD an hour. */
import type { Shift } from "../src/spec/generated/types.js";

export const TZ = "America/New_York";
export const rate = { amount: 2000, currency: "USD" as const };

/** A shift of `member` at L1 at 20.00 USD/h from `start` to `end` (open without one), with its breaks. */
export function shift(member: string, start: string, end: string | undefined, breaks: Shift["breaks"] = []): Shift {
  const s: Shift = {
    id: `${member}-${start}`,
    location_id: "L1",
    team_member_id: member,
    start_at: start,
    wage: { hourly_rate: rate },
    breaks,
  };
  if (end) {
    s.end_at = end;
    s.status = "CLOSED";
  } else s.status = "OPEN";
  return s;
}
