import type { BreakType, Shift, TeamMemberWage, WorkweekConfig } from "../../spec/generated/types.js";
import { type Db, stmt } from "../db.js";

/** A shift as stored: the wire object and its instants in epoch milliseconds. */
export interface StoredShift {
  shift: Shift & { id: string; version: number };
  startMs: number;
  endMs: number | null;
  createdMs: number;
  updatedMs: number;
}

interface ShiftRow {
  data: string;
  start_ms: number;
  end_ms: number | null;
  created_ms: number;
  updated_ms: number;
}

/** Turns a `shifts` row back into a stored shift. */
export function shiftFromRow(r: ShiftRow): StoredShift {
  return {
    shift: JSON.parse(r.data) as StoredShift["shift"],
    startMs: r.start_ms,
    endMs: r.end_ms,
    createdMs: r.created_ms,
    updatedMs: r.updated_ms,
  };
}

/** The columns a shift query selects, for {@link shiftFromRow}. */
export const SHIFT_COLUMNS = "data, start_ms, end_ms, created_ms, updated_ms";

/** One shift of the seller, or undefined. */
export function getShift(db: Db, merchantId: string, id: string): StoredShift | undefined {
  const row = stmt(db, `SELECT ${SHIFT_COLUMNS} FROM shifts WHERE merchant_id = ? AND id = ?`).get(merchantId, id) as
    | ShiftRow
    | undefined;
  return row ? shiftFromRow(row) : undefined;
}

const SHIFT_ROW = `INTO shifts (id, merchant_id, location_id, team_member_id, status, start_ms, end_ms, created_ms, updated_ms, version, data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const REPLACE_SHIFT = `INSERT OR REPLACE ${SHIFT_ROW}`;
const INSERT_SHIFT = `INSERT ${SHIFT_ROW}`;

/** Inserts or replaces a shift; answers the shift's JSON as stored. */
export function saveShift(db: Db, merchantId: string, s: StoredShift): string {
  return writeShiftRow(db, REPLACE_SHIFT, merchantId, s);
}

/**
 * Inserts a new shift (its id is new: a clash is an error, not a replacement); answers the
 * shift's JSON as stored. A plain INSERT skips the conflict search that OR REPLACE makes before
 * writing: measured, a quarter of the insert's cost (25 → 19 µs into a table with five indexes).
 */
export function insertShift(db: Db, merchantId: string, s: StoredShift): string {
  return writeShiftRow(db, INSERT_SHIFT, merchantId, s);
}

function writeShiftRow(db: Db, sql: string, merchantId: string, s: StoredShift): string {
  const json = JSON.stringify(s.shift);
  stmt(db, sql).run(
    s.shift.id,
    merchantId,
    s.shift.location_id,
    s.shift.team_member_id ?? "",
    s.shift.status ?? "OPEN",
    s.startMs,
    s.endMs,
    s.createdMs,
    s.updatedMs,
    s.shift.version,
    json,
  );
  return json;
}

/** Removes a shift; true when there was one. */
export function deleteShift(db: Db, merchantId: string, id: string): boolean {
  return stmt(db, "DELETE FROM shifts WHERE merchant_id = ? AND id = ?").run(merchantId, id).changes > 0;
}

/** The member's open shift other than `exceptId`, if any. */
export function findOpenShift(db: Db, merchantId: string, memberId: string, exceptId = ""): StoredShift | undefined {
  const row = stmt(
    db,
    `SELECT ${SHIFT_COLUMNS} FROM shifts WHERE merchant_id = ? AND team_member_id = ? AND status = 'OPEN' AND id != ? LIMIT 1`,
  ).get(merchantId, memberId, exceptId) as ShiftRow | undefined;
  return row ? shiftFromRow(row) : undefined;
}

/** Past any real instant: an open shift reaches as far as this (the index of migration 017, searches by end). */
export const FAR_FUTURE = 8_640_000_000_000_000;

/** How far a shift reaches, as the member's index holds it: its end, or {@link FAR_FUTURE} while open. */
const REACH = `COALESCE(end_ms, ${FAR_FUTURE})`;

/**
 * The overlap probes of {@link findOverlappingShift}, answered by the member's index alone
 * (migration 017; their plans are pinned by a test): the rowid of a shift and how far it reaches.
 * `rowid IS NOT ?` leaves out the shift being changed (NULL on create leaves out none).
 */
export const OVERLAP_PROBES = {
  before: `SELECT rowid AS row, ${REACH} AS reach FROM shifts
    WHERE merchant_id = ? AND team_member_id = ? AND start_ms < ? AND rowid IS NOT ?
    ORDER BY start_ms DESC, ${REACH} DESC LIMIT 1`,
  inside: `SELECT rowid AS row FROM shifts
    WHERE merchant_id = ? AND team_member_id = ? AND start_ms >= ? AND start_ms < ? AND ${REACH} > ? AND rowid IS NOT ?
    ORDER BY start_ms LIMIT 1`,
} as const;

/**
 * A shift of the member, other than `exceptId`, whose time overlaps [startMs, endMs) — an open
 * shift (no end) reaches into the future — or undefined. Shifts that only touch do not overlap.
 */
export function findOverlappingShift(
  db: Db,
  merchantId: string,
  memberId: string,
  startMs: number,
  endMs: number | null,
  exceptId = "",
): StoredShift | undefined {
  // A member's stored shifts never overlap one another (every write is checked against the
  // others), so in start order their ends rise too: the earliest that overlaps is either the last
  // one to start before this one, or the first to start inside it. Two index probes, where one
  // condition over the member's whole history would visit every earlier shift. Shifts of no
  // length may start with another: of those, the one that reaches furthest is asked about.
  const except = exceptId === "" ? null : shiftRowid(db, merchantId, exceptId);
  const before = stmt(db, OVERLAP_PROBES.before).get(merchantId, memberId, startMs, except) as
    | { row: number; reach: number }
    | undefined;
  const found =
    before && before.reach > startMs
      ? before
      : (stmt(db, OVERLAP_PROBES.inside).get(
          merchantId,
          memberId,
          startMs,
          endMs ?? Number.MAX_SAFE_INTEGER,
          startMs,
          except,
        ) as { row: number } | undefined);
  if (!found) return undefined;
  const row = stmt(db, `SELECT ${SHIFT_COLUMNS} FROM shifts WHERE rowid = ?`).get(found.row) as ShiftRow;
  return shiftFromRow(row);
}

/** The rowid of a shift of the seller, or null when there is none. */
function shiftRowid(db: Db, merchantId: string, id: string): number | null {
  const row = stmt(db, "SELECT rowid AS row FROM shifts WHERE merchant_id = ? AND id = ?").get(merchantId, id) as
    | { row: number }
    | undefined;
  return row?.row ?? null;
}

/**
 * What a shift needs of its location: its time zone and currency, or undefined when there is
 * none. Read off the index that holds both (migration 015), which the planner would pass over
 * for the table's own key on id: a look-up that does not parse the location's JSON.
 */
export function locationZone(
  db: Db,
  merchantId: string,
  id: string,
): { timezone: string | null; currency: string | null } | undefined {
  return stmt(db, LOCATION_ZONE).get(merchantId, id) as
    | { timezone: string | null; currency: string | null }
    | undefined;
}

/** The query of {@link locationZone} (its plan is pinned by a test). */
export const LOCATION_ZONE =
  "SELECT timezone, data ->> '$.currency' AS currency FROM locations INDEXED BY locations_zone WHERE merchant_id = ? AND id = ?";

/** A break type as stored. */
export type StoredBreakType = BreakType & { id: string; version: number };

/** One break type of the seller, or undefined. */
export function getBreakType(db: Db, merchantId: string, id: string): StoredBreakType | undefined {
  const row = stmt(db, "SELECT data FROM break_types WHERE merchant_id = ? AND id = ?").get(merchantId, id) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as StoredBreakType) : undefined;
}

/** The seller's break types, optionally of one location, oldest first. */
export function listBreakTypes(db: Db, merchantId: string, locationId?: string): StoredBreakType[] {
  const rows = (
    locationId === undefined
      ? stmt(db, "SELECT data FROM break_types WHERE merchant_id = ? ORDER BY created_at, id").all(merchantId)
      : stmt(db, "SELECT data FROM break_types WHERE merchant_id = ? AND location_id = ? ORDER BY created_at, id").all(
          merchantId,
          locationId,
        )
  ) as { data: string }[];
  return rows.map((r) => JSON.parse(r.data) as StoredBreakType);
}

/** How many break types a location has, not counting `exceptId`. */
export function countBreakTypes(db: Db, merchantId: string, locationId: string, exceptId = ""): number {
  const row = stmt(
    db,
    "SELECT COUNT(*) AS n FROM break_types WHERE merchant_id = ? AND location_id = ? AND id != ?",
  ).get(merchantId, locationId, exceptId) as { n: number };
  return row.n;
}

/** Inserts or replaces a break type. */
export function saveBreakType(db: Db, merchantId: string, bt: StoredBreakType): void {
  stmt(
    db,
    "INSERT OR REPLACE INTO break_types (id, merchant_id, location_id, version, created_at, data) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(bt.id, merchantId, bt.location_id, bt.version, bt.created_at ?? "", JSON.stringify(bt));
}

/** Removes a break type; true when there was one. Shifts keep their copies of its breaks. */
export function deleteBreakType(db: Db, merchantId: string, id: string): boolean {
  return stmt(db, "DELETE FROM break_types WHERE merchant_id = ? AND id = ?").run(merchantId, id).changes > 0;
}

/** A team member wage as stored. */
export type StoredWage = TeamMemberWage & { id: string; team_member_id: string };

/** The seller's team member wages, optionally of one member, in their stored order. */
export function listWages(db: Db, merchantId: string, memberId?: string): StoredWage[] {
  const rows = (
    memberId === undefined
      ? stmt(db, "SELECT data FROM team_member_wages WHERE merchant_id = ? ORDER BY seq, id").all(merchantId)
      : stmt(
          db,
          "SELECT data FROM team_member_wages WHERE merchant_id = ? AND team_member_id = ? ORDER BY seq, id",
        ).all(merchantId, memberId)
  ) as { data: string }[];
  return rows.map((r) => JSON.parse(r.data) as StoredWage);
}

/** The job title of the member's first wage, if it has one (read off the wages' index, migration 015). */
export function firstWageTitle(db: Db, merchantId: string, memberId: string): string | undefined {
  const row = stmt(db, FIRST_WAGE_TITLE).get(merchantId, memberId) as { title: string | null } | undefined;
  return row?.title ?? undefined;
}

/** The query of {@link firstWageTitle} (its plan is pinned by a test). */
export const FIRST_WAGE_TITLE =
  "SELECT data ->> '$.title' AS title FROM team_member_wages WHERE merchant_id = ? AND team_member_id = ? ORDER BY seq, id LIMIT 1";

/** One wage, or undefined. */
export function getWage(db: Db, merchantId: string, id: string): StoredWage | undefined {
  const row = stmt(db, "SELECT data FROM team_member_wages WHERE merchant_id = ? AND id = ?").get(merchantId, id) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as StoredWage) : undefined;
}

/** Inserts or replaces a wage; `seq` orders the listing. */
export function saveWage(db: Db, merchantId: string, w: StoredWage, seq: number): void {
  stmt(
    db,
    "INSERT OR REPLACE INTO team_member_wages (id, merchant_id, team_member_id, seq, data) VALUES (?, ?, ?, ?, ?)",
  ).run(w.id, merchantId, w.team_member_id, seq, JSON.stringify(w));
}

/** A workweek config as stored. */
export type StoredWorkweek = WorkweekConfig & { id: string; version: number };

/** The seller's workweek config, or undefined when none was ever written. */
export function getWorkweek(db: Db, merchantId: string): StoredWorkweek | undefined {
  const row = stmt(db, "SELECT data FROM workweek_configs WHERE merchant_id = ?").get(merchantId) as
    | { data: string }
    | undefined;
  return row ? (JSON.parse(row.data) as StoredWorkweek) : undefined;
}

/** Inserts or replaces the seller's workweek config. */
export function saveWorkweek(db: Db, merchantId: string, w: StoredWorkweek): void {
  stmt(db, "INSERT OR REPLACE INTO workweek_configs (id, merchant_id, version, data) VALUES (?, ?, ?, ?)").run(
    w.id,
    merchantId,
    w.version,
    JSON.stringify(w),
  );
}
