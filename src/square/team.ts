import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Team: the seller's team members. */
export function teamApi(t: Transport) {
  return {
    /** Searches team members by location and status; paged by body cursor. */
    searchTeamMembers: (body: T.SearchTeamMembersRequest = {}, o?: RequestOptions) =>
      t.page<T.SearchTeamMembersResponse, T.TeamMember>(op.SearchTeamMembers, { body }, (p) => p.team_members, o),
    /** Returns one team member. */
    retrieveTeamMember: (teamMemberId: string, o?: RequestOptions) =>
      t.call<T.RetrieveTeamMemberResponse>(op.RetrieveTeamMember, { path: { team_member_id: teamMemberId } }, o),
  };
}
