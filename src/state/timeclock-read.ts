// What the time clock reads: the location's team, their wages, and every open shift of the seller.
import type { Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import type { StoreClient } from "./types.js";

/** The time clock's data as read for one location. */
export interface TimeClockRead {
  members: TeamMember[];
  /** The first wage of each member, by member ID (the rate a clock-in records). */
  wages: Record<string, TeamMemberWage>;
  /** Open shifts at the location. */
  openShifts: Shift[];
  /** Open shifts of this location's members at other locations. */
  elsewhere: Shift[];
}

/** Reads the team, wages and open shifts of a location. */
export async function readTimeClock(
  client: Pick<StoreClient, "team" | "labor">,
  locationId: string,
): Promise<TimeClockRead> {
  const [members, wages, open] = await Promise.all([
    client.team
      .searchTeamMembers({ query: { filter: { location_ids: [locationId], status: "ACTIVE" } }, limit: 200 })
      .all(),
    client.labor.listTeamMemberWages({ limit: 200 }).all(),
    // Every open shift of the seller: few (one per person at work), and they tell who of this
    // team is at work at another location.
    client.labor
      .searchShifts({ query: { filter: { location_ids: [], team_member_ids: [], status: "OPEN" } }, limit: 200 })
      .all(),
  ]);
  const byMember: Record<string, TeamMemberWage> = {};
  for (const w of wages) if (w.team_member_id && !byMember[w.team_member_id]) byMember[w.team_member_id] = w;
  const team = new Set(members.map((m) => m.id));
  return {
    members,
    wages: byMember,
    openShifts: open.filter((s) => s.location_id === locationId),
    elsewhere: open.filter((s) => s.location_id !== locationId && team.has(s.team_member_id)),
  };
}
