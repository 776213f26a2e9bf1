import type { Location, SearchTeamMembersRequest, TeamMember } from "../../spec/generated/types.js";
import { merchantOf, type RouteTable } from "../context.js";
import { pageByOffset } from "../cursor.js";
import type { Db } from "../db.js";
import { notFound } from "../errors.js";
import { pageLimit } from "../params.js";

/** One location of the seller, as the wire shows it, or undefined. */
export function findLocation(db: Db, merchantId: string, id: string): Location | undefined {
  const row = db.prepare("SELECT data FROM locations WHERE merchant_id = ? AND id = ?").get(merchantId, id) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as Location) : undefined;
}

/** Every location of the seller, oldest first. */
export function allLocations(db: Db, merchantId: string): Location[] {
  const rows = db
    .prepare("SELECT data FROM locations WHERE merchant_id = ? ORDER BY created_at, id")
    .all(merchantId) as { data: string }[];
  return rows.map((r) => JSON.parse(r.data) as Location);
}

/** One team member of the seller, or undefined. */
export function findTeamMember(db: Db, merchantId: string, id: string): TeamMember | undefined {
  const row = db.prepare("SELECT data FROM team_members WHERE merchant_id = ? AND id = ?").get(merchantId, id) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as TeamMember) : undefined;
}

/** Stores a location (insert or replace). */
export function saveLocation(db: Db, merchantId: string, loc: Location & { id: string }): void {
  db.prepare(
    "INSERT OR REPLACE INTO locations (id, merchant_id, name, timezone, status, created_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(
    loc.id,
    merchantId,
    loc.name ?? "",
    loc.timezone ?? "UTC",
    loc.status ?? "ACTIVE",
    loc.created_at ?? "",
    JSON.stringify(loc),
  );
}

/** Stores a team member with its location assignment (insert or replace). */
export function saveTeamMember(db: Db, merchantId: string, m: TeamMember & { id: string }): void {
  const all = m.assigned_locations?.assignment_type === "ALL_CURRENT_AND_FUTURE_LOCATIONS";
  db.prepare(
    "INSERT OR REPLACE INTO team_members (id, merchant_id, status, is_owner, all_locations, created_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(m.id, merchantId, m.status ?? "ACTIVE", m.is_owner ? 1 : 0, all ? 1 : 0, m.created_at ?? "", JSON.stringify(m));
  db.prepare("DELETE FROM team_member_locations WHERE team_member_id = ?").run(m.id);
  if (!all) {
    const put = db.prepare("INSERT INTO team_member_locations (team_member_id, location_id) VALUES (?, ?)");
    for (const loc of m.assigned_locations?.location_ids ?? []) put.run(m.id, loc);
  }
}

/** The seller's main location id (`main` in a path names it). */
function mainLocationId(db: Db, merchantId: string): string | undefined {
  const row = db.prepare("SELECT main_location_id FROM merchants WHERE id = ?").get(merchantId) as
    | { main_location_id: string | null }
    | undefined;
  return row?.main_location_id ?? undefined;
}

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
    const merchant = merchantOf(ctx);
    const req = ctx.body as SearchTeamMembersRequest;
    const limit = pageLimit(req.limit, { max: 200, def: 100 });
    const filter = req.query?.filter ?? {};
    const where = ["m.merchant_id = ?"];
    const args: unknown[] = [merchant];
    if (filter.status) {
      where.push("m.status = ?");
      args.push(filter.status);
    }
    if (filter.is_owner !== undefined) {
      where.push("m.is_owner = ?");
      args.push(filter.is_owner ? 1 : 0);
    }
    const locs = filter.location_ids ?? [];
    if (locs.length > 0) {
      where.push(
        `(m.all_locations = 1 OR EXISTS (SELECT 1 FROM team_member_locations l WHERE l.team_member_id = m.id AND l.location_id IN (${locs.map(() => "?").join(",")})))`,
      );
      args.push(...locs);
    }
    const rows = ctx.db
      .prepare(`SELECT m.data FROM team_members m WHERE ${where.join(" AND ")} ORDER BY m.created_at, m.id`)
      .all(...args) as { data: string }[];
    const page = pageByOffset(
      rows.map((r) => JSON.parse(r.data) as TeamMember),
      { query: req.query ?? {} },
      req.cursor,
      limit,
    );
    return { body: { team_members: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) } };
  },

  RetrieveTeamMember(ctx) {
    const id = ctx.path.team_member_id ?? "";
    const team_member = findTeamMember(ctx.db, merchantOf(ctx), id);
    if (!team_member) throw notFound(`Team member not found: ${id}.`);
    return { body: { team_member } };
  },
};
