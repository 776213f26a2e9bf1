import Database from "better-sqlite3";
import type { Db } from "../db.js";
import { teamMemberExists } from "../directory/repo.js";
import { firstWageTitle, locationZone } from "./repo.js";

/** What a shift needs of its location: its time zone and currency. */
export interface LocationZone {
  timezone: string | null;
  currency: string | null;
}

/** What a shift needs of its team member: whether the seller has them, and their first wage's title. */
export interface MemberFacts {
  exists: boolean;
  firstWageTitle: string | undefined;
}

/**
 * The locations' zones and the members' facts that shift writes have read, kept while the tables
 * they come from are unchanged: every shift write asks, and few requests change a location, a
 * team member or a wage. Kept beside them, the generation they were read at: a temporary table's
 * one number, which temporary triggers set, on any write to those tables on this connection, to a
 * number never used before. A write that rolls back takes its new number back with it, so what
 * was read after it (in the same transaction) is not taken for current once it is undone; a
 * commit of another connection on the same file changes data_version. Either forgets them all.
 */
interface Kept {
  /** The generation and data_version, as one text. */
  generation: Database.Statement;
  seenAt: string;
  zones: Map<string, LocationZone | undefined>;
  members: Map<string, MemberFacts>;
}

const kept = new WeakMap<Db, Kept>();
/** The last generation handed out, on any connection: a number is never used twice. */
let lastGeneration = 0;
/** Past this many entries the maps start over: a seller has a few locations and some dozens of members. */
const MAX_KEPT = 1000;
/** The tables the kept facts are read from. */
const SOURCES = ["locations", "team_members", "team_member_wages"] as const;

function keptOf(db: Db): Kept {
  let k = kept.get(db);
  if (k) return k;
  // Not deterministic, and called from triggers: neither option may be set.
  db.function("backroom_labor_generation", () => ++lastGeneration);
  db.exec(
    `CREATE TEMP TABLE IF NOT EXISTS backroom_labor_generation (n INTEGER NOT NULL);
     INSERT INTO backroom_labor_generation (n) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM backroom_labor_generation);`,
  );
  for (const table of SOURCES) {
    for (const event of ["INSERT", "UPDATE", "DELETE"]) {
      db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS backroom_labor_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table}
         BEGIN UPDATE backroom_labor_generation SET n = backroom_labor_generation(); END`,
      );
    }
  }
  // The class's own prepare: db.prepare hands out shared statements, which must keep their mode.
  const generation = Database.prototype.prepare
    .call(
      db,
      "SELECT (SELECT n FROM temp.backroom_labor_generation) || ':' || (SELECT data_version FROM pragma_data_version)",
    )
    .pluck();
  k = { generation, seenAt: "", zones: new Map(), members: new Map() };
  kept.set(db, k);
  return k;
}

/** The kept facts, forgotten first if their tables changed since they were read. */
function current(db: Db): Kept {
  let k = keptOf(db);
  let at: string;
  try {
    at = k.generation.get() as string;
  } catch (err) {
    // Made inside a request that was then refused, the temporary table and its triggers were
    // rolled back with it: made again, with nothing kept.
    if (!(err instanceof Database.SqliteError)) throw err;
    kept.delete(db);
    k = keptOf(db);
    at = k.generation.get() as string;
  }
  if (at !== k.seenAt || k.zones.size + k.members.size >= MAX_KEPT) {
    k.zones.clear();
    k.members.clear();
    k.seenAt = at;
  }
  return k;
}

/** What a shift write reads of its location and member, from the kept facts or, the first time, the store. */
export interface ShiftLookups {
  /** The location's zone and currency; undefined when the seller has no such location. */
  zone(merchantId: string, locationId: string): LocationZone | undefined;
  member(merchantId: string, memberId: string): MemberFacts;
}

/** The kept facts of `db` for one shift write: the generation is checked once, here. */
export function shiftLookups(db: Db): ShiftLookups {
  const k = current(db);
  return {
    zone(merchantId, locationId) {
      const key = `${merchantId}\u0000${locationId}`;
      if (k.zones.has(key)) return k.zones.get(key);
      const zone = locationZone(db, merchantId, locationId);
      k.zones.set(key, zone);
      return zone;
    },
    member(merchantId, memberId) {
      const key = `${merchantId}\u0000${memberId}`;
      let facts = k.members.get(key);
      if (!facts) {
        facts = {
          exists: teamMemberExists(db, merchantId, memberId),
          firstWageTitle: firstWageTitle(db, merchantId, memberId),
        };
        k.members.set(key, facts);
      }
      return facts;
    },
  };
}
