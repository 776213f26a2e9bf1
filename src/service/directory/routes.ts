import { merchantOf, type RouteTable } from "../context.js";
import { pageByOffset } from "../cursor.js";
import { notFound } from "../errors.js";
import { pageLimit } from "../params.js";
import { allLocations, findLocation, findTeamMember, mainLocationId, searchTeamMembers } from "./repo.js";

/** Locations and team members: supporting read-only operations. */
export const directoryRoutes: RouteTable = {
  ListLocations(ctx) {
    return { body: { locations: allLocations(ctx.db, merchantOf(ctx)) } };
  },

  RetrieveLocation(ctx) {
    const merchant = merchantOf(ctx);
    const asked = ctx.path.location_id ?? "";
    const id = asked === "main" ? (mainLocationId(ctx.db, merchant) ?? "") : asked;
    const location = findLocation(ctx.db, merchant, id);
    if (!location) throw notFound(`Location not found: ${asked}.`);
    return { body: { location } };
  },

  SearchTeamMembers(ctx) {
    const req = ctx.body;
    const limit = pageLimit(req.limit, { max: 200, def: 100 });
    const members = searchTeamMembers(ctx.db, merchantOf(ctx), req.query?.filter ?? {});
    const page = pageByOffset(ctx.op.name, members, { query: req.query ?? {} }, req.cursor, limit);
    return { body: { team_members: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) } };
  },

  RetrieveTeamMember(ctx) {
    const id = ctx.path.team_member_id ?? "";
    const team_member = findTeamMember(ctx.db, merchantOf(ctx), id);
    if (!team_member) throw notFound(`Team member not found: ${id}.`);
    return { body: { team_member } };
  },
};
