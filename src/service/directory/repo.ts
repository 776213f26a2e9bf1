import type { Currency, Location, SearchTeamMembersFilter, TeamMember } from "../../spec/generated/types.js";
import { type Db, placeholders, stmt } from "../db.js";

/** Whether the seller has a location with this id. */
export function locationExists(db: Db, merchantId: string, id: string): boolean {
  return stmt(db, "SELECT 1 FROM locations WHERE merchant_id = ? AND id = ?").get(merchantId, id) !== undefined;
}

/** One location of the seller, as the wire shows it, or undefined. */
export function findLocation(db: Db, merchantId: string, id: string): Location | undefined {
  const row = stmt(db, "SELECT data FROM locations WHERE merchant_id = ? AND id = ?").get(merchantId, id) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as Location) : undefined;
}

/** Whether the seller has a team member with this id. */
export function teamMemberExists(db: Db, merchantId: string, id: string): boolean {
  return stmt(db, "SELECT 1 FROM team_members WHERE merchant_id = ? AND id = ?").get(merchantId, id) !== undefined;
}

/** Every location of the seller, oldest first. */
export function allLocations(db: Db, merchantId: string): Location[] {
  const rows = stmt(db, "SELECT data FROM locations WHERE merchant_id = ? ORDER BY created_at, id").all(merchantId) as {
    data: string;
  }[];
  return rows.map((r) => JSON.parse(r.data) as Location);
}

/** The seller's main location id (`main` in a path names it; payouts list it by default). */
export function mainLocationId(db: Db, merchantId: string): string | undefined {
  const row = stmt(db, "SELECT main_location_id FROM merchants WHERE id = ?").get(merchantId) as
    | { main_location_id: string | null }
    | undefined;
  return row?.main_location_id ?? undefined;
}

/** The seller's currency (new gift cards hold it). */
export function merchantCurrency(db: Db, merchantId: string): Currency {
  const row = stmt(db, "SELECT currency FROM merchants WHERE id = ?").get(merchantId) as
    | { currency: Currency }
    | undefined;
  return row?.currency ?? "USD";
}

/** Stores a location (insert or replace). */
export function saveLocation(db: Db, merchantId: string, loc: Location & { id: string }): void {
  stmt(
    db,
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

/** One team member of the seller, or undefined. */
export function findTeamMember(db: Db, merchantId: string, id: string): TeamMember | undefined {
  const row = stmt(db, "SELECT data FROM team_members WHERE merchant_id = ? AND id = ?").get(merchantId, id) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as TeamMember) : undefined;
}

/** Stores a team member with its location assignment (insert or replace). */
export function saveTeamMember(db: Db, merchantId: string, m: TeamMember & { id: string }): void {
  const all = m.assigned_locations?.assignment_type === "ALL_CURRENT_AND_FUTURE_LOCATIONS";
  stmt(
    db,
    "INSERT OR REPLACE INTO team_members (id, merchant_id, status, is_owner, all_locations, created_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(m.id, merchantId, m.status ?? "ACTIVE", m.is_owner ? 1 : 0, all ? 1 : 0, m.created_at ?? "", JSON.stringify(m));
  stmt(db, "DELETE FROM team_member_locations WHERE team_member_id = ?").run(m.id);
  if (!all) {
    const put = stmt(db, "INSERT INTO team_member_locations (team_member_id, location_id) VALUES (?, ?)");
    for (const loc of m.assigned_locations?.location_ids ?? []) put.run(m.id, loc);
  }
}

/** The seller's team members that pass the filter (status, owner, any of some locations), oldest first. */
export function searchTeamMembers(db: Db, merchantId: string, filter: SearchTeamMembersFilter): TeamMember[] {
  const where = ["m.merchant_id = ?"];
  const args: unknown[] = [merchantId];
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
      `(m.all_locations = 1 OR EXISTS (SELECT 1 FROM team_member_locations l WHERE l.team_member_id = m.id AND l.location_id IN (${placeholders(locs.length)})))`,
    );
    args.push(...locs);
  }
  const rows = stmt(
    db,
    `SELECT m.data FROM team_members m WHERE ${where.join(" AND ")} ORDER BY m.created_at, m.id`,
  ).all(...args) as { data: string }[];
  return rows.map((r) => JSON.parse(r.data) as TeamMember);
}
