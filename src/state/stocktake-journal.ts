/**
 * The stocktake journal: a SQLite file in the data folder that holds every count until it is
 * committed — the header, the catalog and book quantities it was counted against, every counted
 * line (written before the screen acknowledges it), unknown codes, and the commit's requests
 * with their idempotency keys and states. A count survives the terminal dying at any moment:
 * reopen the journal and it is all there, down to which requests the service has accepted.
 *
 * better-sqlite3 is loaded when a journal is opened, not with the app: the first frame does not
 * wait for it. WAL with synchronous=NORMAL: a committed write survives the process being killed
 * (it is lost only on power loss, and then only the last moments).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import type {
  CountLine,
  CountScope,
  ExpectedCount,
  PlannedBatch,
  StockItem,
  UncountedChoice,
} from "../domain/stocktake.js";

type Database = BetterSqlite3.Database;

/** Where a count stands. */
export type CountStatus = "open" | "committing" | "committed" | "discarded";

/** A count's header. */
export interface CountHeader {
  /** The count's id; also every change's `reference_id`. */
  id: string;
  /** The seller the location belongs to: one open count per location of one seller. */
  merchantId: string;
  locationId: string;
  locationName: string;
  timeZone: string;
  scope: CountScope;
  /** The team member counting (the signed-in one, or one picked at the start); "" when none. */
  counterId: string;
  counterName: string;
  startedAt: string;
  status: CountStatus;
  /** What to do with the uncounted items of a full count. */
  uncounted: UncountedChoice;
  /** Scan = 1 unit mode: every scan adds one. */
  scanOne: boolean;
  /** When the commit was planned (the batches formed). */
  plannedAt: string | undefined;
  committedAt: string | undefined;
  /** The latest `calculated_at` of the book quantities read: where the next incremental read starts. */
  expectedSyncedAt: string | undefined;
}

/** A count in a listing, with how far it got. */
export interface CountListing extends CountHeader {
  lines: number;
  unknownCodes: number;
  batches: number;
  batchesAccepted: number;
}

/** A code scanned or typed that matched nothing, kept to be resolved later. */
export interface UnknownCode {
  code: string;
  firstSeenAt: string;
  lastSeenAt: string;
  times: number;
  /** The variation it was resolved to, if it was. */
  resolvedTo: string | undefined;
}

/** Where a request of the commit stands. */
export type BatchState = "planned" | "sent" | "accepted" | "superseded";

/** One request of a commit as the journal holds it. */
export interface JournalBatch extends PlannedBatch {
  state: BatchState;
  attempts: number;
  sentAt: string | undefined;
  settledAt: string | undefined;
  /** The ids of the changes the service recorded, once accepted. */
  changeIds: string[];
  /** Why it was set aside (superseded), in words. */
  problem: string | undefined;
}

/** A line the service refused, set aside from the commit. */
export interface RefusedLine {
  variationId: string;
  problem: string;
}

/** Everything the journal holds about one count. */
export interface CountRecord {
  header: CountHeader;
  /** The catalog entries the count knows, by variation id. */
  items: Map<string, StockItem>;
  /** The variations of the scope, in catalog order (a full count's every tracked variation). */
  scope: string[];
  expected: Map<string, ExpectedCount>;
  /** Counted lines, in the order first counted. */
  lines: CountLine[];
  unknown: UnknownCode[];
  batches: JournalBatch[];
  refused: RefusedLine[];
  /** Names of the team members who counted, by id. */
  people: Map<string, string>;
}

/** What starts a count. */
export type NewCount = Omit<
  CountHeader,
  "id" | "status" | "plannedAt" | "committedAt" | "expectedSyncedAt" | "uncounted" | "scanOne"
> &
  Partial<Pick<CountHeader, "uncounted" | "scanOne">>;

/** A second open count at a location that already has one. */
export class OpenCountExists extends Error {
  override name = "OpenCountExists";
  readonly existing: CountHeader;
  constructor(existing: CountHeader) {
    super(`A count is already open at ${existing.locationName} (${existing.id}, started ${existing.startedAt}).`);
    this.existing = existing;
  }
}

/** A change to a count that its state does not allow (lines of a count being committed, ...). */
export class CountStateError extends Error {
  override name = "CountStateError";
}

/** The journal file in a data folder. */
export const journalPath = (dataDir: string): string => join(dataDir, "stocktake.db");

const SCHEMA = `
CREATE TABLE IF NOT EXISTS counts (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL,
  location_id TEXT NOT NULL,
  location_name TEXT NOT NULL,
  time_zone TEXT NOT NULL,
  scope TEXT NOT NULL,
  counter_id TEXT NOT NULL,
  counter_name TEXT NOT NULL,
  started_at TEXT NOT NULL,
  status TEXT NOT NULL,
  uncounted TEXT NOT NULL DEFAULT 'leave',
  scan_one INTEGER NOT NULL DEFAULT 0,
  planned_at TEXT,
  committed_at TEXT,
  expected_synced_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS one_open_count_per_location
  ON counts (merchant_id, location_id) WHERE status IN ('open', 'committing');
CREATE TABLE IF NOT EXISTS items (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  variation_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  sku TEXT NOT NULL,
  upc TEXT NOT NULL,
  name TEXT NOT NULL,
  category_id TEXT NOT NULL,
  price_amount INTEGER,
  currency TEXT NOT NULL,
  precision INTEGER NOT NULL,
  tracked INTEGER NOT NULL,
  scope_seq INTEGER,
  PRIMARY KEY (count_id, variation_id)
);
CREATE TABLE IF NOT EXISTS expected (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  variation_id TEXT NOT NULL,
  quantity TEXT NOT NULL,
  calculated_at TEXT NOT NULL,
  PRIMARY KEY (count_id, variation_id)
);
CREATE TABLE IF NOT EXISTS lines (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  variation_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  quantity TEXT NOT NULL,
  counted_at TEXT NOT NULL,
  counted_by TEXT NOT NULL,
  expected TEXT,
  refused TEXT,
  PRIMARY KEY (count_id, variation_id)
);
CREATE INDEX IF NOT EXISTS lines_in_order ON lines (count_id, seq);
CREATE INDEX IF NOT EXISTS items_in_scope_order ON items (count_id, scope_seq);
CREATE TABLE IF NOT EXISTS unknown_codes (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  times INTEGER NOT NULL,
  resolved_to TEXT,
  PRIMARY KEY (count_id, code)
);
CREATE TABLE IF NOT EXISTS batches (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  variation_ids TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  sent_at TEXT,
  settled_at TEXT,
  change_ids TEXT,
  problem TEXT,
  PRIMARY KEY (count_id, seq)
);
CREATE TABLE IF NOT EXISTS people (
  count_id TEXT NOT NULL REFERENCES counts(id) ON DELETE CASCADE,
  member_id TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (count_id, member_id)
);
PRAGMA user_version = 1;
`;

interface CountRow {
  id: string;
  merchant_id: string;
  location_id: string;
  location_name: string;
  time_zone: string;
  scope: string;
  counter_id: string;
  counter_name: string;
  started_at: string;
  status: CountStatus;
  uncounted: UncountedChoice;
  scan_one: number;
  planned_at: string | null;
  committed_at: string | null;
  expected_synced_at: string | null;
}

interface BatchRow {
  seq: number;
  idempotency_key: string;
  variation_ids: string;
  body: string;
  state: BatchState;
  attempts: number;
  sent_at: string | null;
  settled_at: string | null;
  change_ids: string | null;
  problem: string | null;
}

const headerOf = (r: CountRow): CountHeader => ({
  id: r.id,
  merchantId: r.merchant_id,
  locationId: r.location_id,
  locationName: r.location_name,
  timeZone: r.time_zone,
  scope: JSON.parse(r.scope) as CountScope,
  counterId: r.counter_id,
  counterName: r.counter_name,
  startedAt: r.started_at,
  status: r.status,
  uncounted: r.uncounted,
  scanOne: r.scan_one === 1,
  plannedAt: r.planned_at ?? undefined,
  committedAt: r.committed_at ?? undefined,
  expectedSyncedAt: r.expected_synced_at ?? undefined,
});

const batchOf = (r: BatchRow): JournalBatch => ({
  seq: r.seq,
  idempotencyKey: r.idempotency_key,
  variationIds: JSON.parse(r.variation_ids) as string[],
  body: JSON.parse(r.body),
  state: r.state,
  attempts: r.attempts,
  sentAt: r.sent_at ?? undefined,
  settledAt: r.settled_at ?? undefined,
  changeIds: r.change_ids ? (JSON.parse(r.change_ids) as string[]) : [],
  problem: r.problem ?? undefined,
});

const ID_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

/** A count id a manager can read out and type: `ST-20260302-K7QX2M`. */
export function newCountId(now: Date): string {
  const bytes = randomBytes(6);
  let suffix = "";
  for (const b of bytes) suffix += ID_ALPHABET[b % ID_ALPHABET.length];
  return `ST-${now.toISOString().slice(0, 10).replaceAll("-", "")}-${suffix}`;
}

/** The journal's operations; every write is one SQLite transaction. */
export class StocktakeJournal {
  readonly path: string;
  readonly #db: Database;
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  readonly #rawStatements = new Map<string, BetterSqlite3.Statement>();

  constructor(db: Database, path: string) {
    this.#db = db;
    this.path = path;
  }

  #raw(sql: string): BetterSqlite3.Statement {
    let s = this.#rawStatements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql).raw(true);
      this.#rawStatements.set(sql, s);
    }
    return s;
  }

  #stmt(sql: string): BetterSqlite3.Statement {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  /** Closes the file. */
  close(): void {
    this.#db.close();
  }

  /**
   * Starts a count with the catalog entries of its scope (in scope order) and the book
   * quantities known at the start. Refuses a second open count at the same location.
   */
  startCount(
    input: NewCount,
    scopeItems: readonly StockItem[],
    expected: ReadonlyMap<string, ExpectedCount>,
    now: Date,
  ): CountHeader {
    return this.#db.transaction(() => {
      const open = this.openCountAt(input.merchantId, input.locationId);
      if (open) throw new OpenCountExists(open);
      let id = newCountId(now);
      while (this.#stmt("SELECT 1 FROM counts WHERE id = ?").get(id)) id = newCountId(now);
      this.#stmt(
        `INSERT INTO counts (id, merchant_id, location_id, location_name, time_zone, scope, counter_id, counter_name, started_at, status, uncounted, scan_one)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)`,
      ).run(
        id,
        input.merchantId,
        input.locationId,
        input.locationName,
        input.timeZone,
        JSON.stringify(input.scope),
        input.counterId,
        input.counterName,
        input.startedAt,
        input.uncounted ?? "leave",
        input.scanOne ? 1 : 0,
      );
      if (input.counterId) this.#namePerson(id, input.counterId, input.counterName);
      this.#putItems(id, scopeItems, 0);
      this.#putExpected(id, expected);
      const header = this.get(id);
      if (!header) throw new Error("the count just written is missing");
      return header;
    })();
  }

  #putItems(countId: string, items: readonly StockItem[], firstScopeSeq: number | undefined): void {
    const insert = this.#stmt(
      `INSERT INTO items (count_id, variation_id, item_id, sku, upc, name, category_id, price_amount, currency, precision, tracked, scope_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (count_id, variation_id) DO UPDATE SET item_id = excluded.item_id, sku = excluded.sku,
         upc = excluded.upc, name = excluded.name, category_id = excluded.category_id,
         price_amount = excluded.price_amount, currency = excluded.currency, precision = excluded.precision,
         tracked = excluded.tracked, scope_seq = COALESCE(items.scope_seq, excluded.scope_seq)`,
    );
    for (const [i, it] of items.entries()) {
      insert.run(
        countId,
        it.variationId,
        it.itemId,
        it.sku,
        it.upc,
        it.name,
        it.categoryId,
        it.priceAmount ?? null,
        it.currency,
        it.precision,
        it.tracked ? 1 : 0,
        firstScopeSeq === undefined ? null : firstScopeSeq + i,
      );
    }
  }

  #putExpected(countId: string, expected: ReadonlyMap<string, ExpectedCount>, syncedAt?: string): void {
    const upsert = this.#stmt(
      `INSERT INTO expected (count_id, variation_id, quantity, calculated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (count_id, variation_id) DO UPDATE SET quantity = excluded.quantity, calculated_at = excluded.calculated_at`,
    );
    let latest = syncedAt ?? "";
    for (const [id, e] of expected) {
      upsert.run(countId, id, e.quantity, e.calculatedAt);
      if (e.calculatedAt > latest) latest = e.calculatedAt;
    }
    if (latest) {
      this.#stmt(
        "UPDATE counts SET expected_synced_at = ? WHERE id = ? AND (expected_synced_at IS NULL OR expected_synced_at < ?)",
      ).run(latest, countId, latest);
    }
  }

  /** Adds catalog entries found during the count (a scan outside the scope, a name search). */
  addItems(countId: string, items: readonly StockItem[]): void {
    this.#db.transaction(() => this.#putItems(countId, items, undefined))();
  }

  /**
   * Records book quantities read (an incremental refresh) and moves the sync point forward: to
   * `syncedAt` (the latest `calculated_at` the read saw, location-wide) or the newest of these.
   */
  putExpected(countId: string, expected: ReadonlyMap<string, ExpectedCount>, syncedAt?: string): void {
    this.#db.transaction(() => this.#putExpected(countId, expected, syncedAt))();
  }

  /** The count, if the journal has it. */
  get(countId: string): CountHeader | undefined {
    const row = this.#stmt("SELECT * FROM counts WHERE id = ?").get(countId) as CountRow | undefined;
    return row ? headerOf(row) : undefined;
  }

  /** The open (or half-committed) count at a location, if any. */
  openCountAt(merchantId: string, locationId: string): CountHeader | undefined {
    const row = this.#stmt(
      "SELECT * FROM counts WHERE merchant_id = ? AND location_id = ? AND status IN ('open', 'committing')",
    ).get(merchantId, locationId) as CountRow | undefined;
    return row ? headerOf(row) : undefined;
  }

  /** Counts newest first: open ones first, then the most recent others, `limit` in all. */
  list(limit = 50): CountListing[] {
    const rows = this.#stmt(
      `SELECT c.*,
         (SELECT COUNT(*) FROM lines l WHERE l.count_id = c.id) AS line_count,
         (SELECT COUNT(*) FROM unknown_codes u WHERE u.count_id = c.id AND u.resolved_to IS NULL) AS unknown_count,
         (SELECT COUNT(*) FROM batches b WHERE b.count_id = c.id AND b.state != 'superseded') AS batch_count,
         (SELECT COUNT(*) FROM batches b WHERE b.count_id = c.id AND b.state = 'accepted') AS accepted_count
       FROM counts c
       ORDER BY (c.status IN ('open', 'committing')) DESC, c.started_at DESC LIMIT ?`,
    ).all(limit) as (CountRow & {
      line_count: number;
      unknown_count: number;
      batch_count: number;
      accepted_count: number;
    })[];
    return rows.map((r) => ({
      ...headerOf(r),
      lines: r.line_count,
      unknownCodes: r.unknown_count,
      batches: r.batch_count,
      batchesAccepted: r.accepted_count,
    }));
  }

  /** Everything about one count. */
  load(countId: string): CountRecord | undefined {
    const header = this.get(countId);
    if (!header) return undefined;
    // Rows as arrays: a full count holds tens of thousands, and objects per row cost more than the read.
    const items = new Map<string, StockItem>();
    const scope: string[] = [];
    for (const r of this.#raw(
      "SELECT variation_id, item_id, sku, upc, name, category_id, price_amount, currency, precision, tracked, scope_seq FROM items WHERE count_id = ? ORDER BY scope_seq",
    ).all(countId) as [
      string,
      string,
      string,
      string,
      string,
      string,
      number | null,
      string,
      number,
      number,
      number | null,
    ][]) {
      items.set(r[0], {
        variationId: r[0],
        itemId: r[1],
        sku: r[2],
        upc: r[3],
        name: r[4],
        categoryId: r[5],
        priceAmount: r[6] ?? undefined,
        currency: r[7],
        precision: r[8],
        tracked: r[9] === 1,
      });
      if (r[10] !== null) scope.push(r[0]);
    }
    const expected = new Map<string, ExpectedCount>();
    for (const r of this.#raw("SELECT variation_id, quantity, calculated_at FROM expected WHERE count_id = ?").all(
      countId,
    ) as [string, string, string][]) {
      expected.set(r[0], { quantity: r[1], calculatedAt: r[2] });
    }
    const lines: CountLine[] = [];
    const refused: RefusedLine[] = [];
    for (const r of this.#raw(
      "SELECT variation_id, quantity, counted_at, counted_by, expected, refused FROM lines WHERE count_id = ? ORDER BY seq",
    ).all(countId) as [string, string, string, string, string | null, string | null][]) {
      lines.push(
        r[4] === null
          ? { variationId: r[0], quantity: r[1], countedAt: r[2], countedBy: r[3] }
          : { variationId: r[0], quantity: r[1], countedAt: r[2], countedBy: r[3], expected: r[4] },
      );
      if (r[5] !== null) refused.push({ variationId: r[0], problem: r[5] });
    }
    return {
      header,
      items,
      scope,
      expected,
      lines,
      unknown: this.unknownCodes(countId),
      batches: this.batches(countId),
      refused,
      people: this.people(countId),
    };
  }

  #requireOpen(countId: string): CountHeader {
    const header = this.get(countId);
    if (!header) throw new CountStateError(`There is no count ${countId}.`);
    if (header.status !== "open") {
      throw new CountStateError(
        header.status === "committing"
          ? "This count is being committed; its lines can no longer change. Resume the commit to finish it."
          : `This count is ${header.status}; its lines can no longer change.`,
      );
    }
    return header;
  }

  /**
   * Records one counted line (its new total) before the screen shows it. Returns once SQLite has
   * committed it.
   */
  recordLine(countId: string, line: CountLine): void {
    this.recordLines(countId, [line]);
  }

  /** Records several lines in one transaction (an imported file). */
  recordLines(countId: string, lines: readonly CountLine[]): void {
    this.#db.transaction(() => {
      this.#requireOpen(countId);
      const next = this.#stmt("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM lines WHERE count_id = ?");
      let seq = (next.get(countId) as { n: number }).n;
      const upsert = this.#stmt(
        `INSERT INTO lines (count_id, variation_id, seq, quantity, counted_at, counted_by, expected) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (count_id, variation_id) DO UPDATE SET quantity = excluded.quantity, counted_at = excluded.counted_at,
           counted_by = excluded.counted_by, expected = excluded.expected`,
      );
      for (const l of lines) {
        upsert.run(countId, l.variationId, seq++, l.quantity, l.countedAt, l.countedBy, l.expected ?? null);
      }
    })();
  }

  /** Takes a line out of the count (counted by mistake). */
  removeLine(countId: string, variationId: string): void {
    this.#db.transaction(() => {
      this.#requireOpen(countId);
      this.#stmt("DELETE FROM lines WHERE count_id = ? AND variation_id = ?").run(countId, variationId);
    })();
  }

  /** Keeps a code that matched nothing (again: counts how often it was seen). */
  recordUnknown(countId: string, code: string, at: string): void {
    this.#stmt(
      `INSERT INTO unknown_codes (count_id, code, first_seen_at, last_seen_at, times) VALUES (?, ?, ?, ?, 1)
       ON CONFLICT (count_id, code) DO UPDATE SET last_seen_at = excluded.last_seen_at, times = unknown_codes.times + 1, resolved_to = NULL`,
    ).run(countId, code, at, at);
  }

  /** Marks an unknown code as resolved to a variation (its line is recorded separately). */
  resolveUnknown(countId: string, code: string, variationId: string): void {
    this.#stmt("UPDATE unknown_codes SET resolved_to = ? WHERE count_id = ? AND code = ?").run(
      variationId,
      countId,
      code,
    );
  }

  /** Drops an unknown code from the list (scanned by mistake). */
  dismissUnknown(countId: string, code: string): void {
    this.#stmt("DELETE FROM unknown_codes WHERE count_id = ? AND code = ?").run(countId, code);
  }

  /** The codes kept for a count, first seen first. */
  unknownCodes(countId: string): UnknownCode[] {
    const rows = this.#stmt(
      "SELECT code, first_seen_at, last_seen_at, times, resolved_to FROM unknown_codes WHERE count_id = ? ORDER BY first_seen_at, code",
    ).all(countId) as {
      code: string;
      first_seen_at: string;
      last_seen_at: string;
      times: number;
      resolved_to: string | null;
    }[];
    return rows.map((r) => ({
      code: r.code,
      firstSeenAt: r.first_seen_at,
      lastSeenAt: r.last_seen_at,
      times: r.times,
      resolvedTo: r.resolved_to ?? undefined,
    }));
  }

  /** Changes the count's settings while it is open. */
  updateSettings(countId: string, settings: Partial<Pick<CountHeader, "uncounted" | "scanOne">>): void {
    this.#db.transaction(() => {
      this.#requireOpen(countId);
      if (settings.uncounted !== undefined) {
        this.#stmt("UPDATE counts SET uncounted = ? WHERE id = ?").run(settings.uncounted, countId);
      }
      if (settings.scanOne !== undefined) {
        this.#stmt("UPDATE counts SET scan_one = ? WHERE id = ?").run(settings.scanOne ? 1 : 0, countId);
      }
    })();
  }

  /**
   * Fixes the commit: stores its requests (keys and bodies never change afterwards) and moves the
   * count to committing, in one transaction — so a crash leaves either an open count or a full
   * plan, never half of one.
   */
  planCommit(countId: string, batches: readonly PlannedBatch[], plannedAt: string): void {
    this.#db.transaction(() => {
      this.#requireOpen(countId);
      this.#insertBatches(countId, batches);
      this.#stmt("UPDATE counts SET status = 'committing', planned_at = ? WHERE id = ?").run(plannedAt, countId);
    })();
  }

  #insertBatches(countId: string, batches: readonly PlannedBatch[]): void {
    const insert = this.#stmt(
      "INSERT INTO batches (count_id, seq, idempotency_key, variation_ids, body, state) VALUES (?, ?, ?, ?, ?, 'planned')",
    );
    for (const b of batches) {
      insert.run(countId, b.seq, b.idempotencyKey, JSON.stringify(b.variationIds), JSON.stringify(b.body));
    }
  }

  /** The commit's requests, in order. */
  batches(countId: string): JournalBatch[] {
    return (this.#stmt("SELECT * FROM batches WHERE count_id = ? ORDER BY seq").all(countId) as BatchRow[]).map(
      batchOf,
    );
  }

  /** Notes that a request is on its way: its outcome is unknown until it is settled. */
  markSent(countId: string, seq: number, at: string): void {
    this.#stmt(
      "UPDATE batches SET state = CASE WHEN state = 'planned' THEN 'sent' ELSE state END, attempts = attempts + 1, sent_at = ? WHERE count_id = ? AND seq = ?",
    ).run(at, countId, seq);
  }

  /** Notes that the service accepted a request, with the ids of the changes it recorded. */
  markAccepted(countId: string, seq: number, changeIds: readonly string[], at: string): void {
    this.#stmt(
      "UPDATE batches SET state = 'accepted', settled_at = ?, change_ids = ?, problem = NULL WHERE count_id = ? AND seq = ?",
    ).run(at, JSON.stringify(changeIds), countId, seq);
  }

  /**
   * Sets aside a request the service refused because of one line: the line is marked refused
   * with the service's words, and the rest of the request is formed again as `replacement` (a new
   * key: the refused request changed nothing, and its key stays bound to its body).
   */
  supersede(
    countId: string,
    seq: number,
    refused: RefusedLine,
    replacement: PlannedBatch | undefined,
    at: string,
  ): void {
    this.#db.transaction(() => {
      this.#stmt(
        "UPDATE batches SET state = 'superseded', settled_at = ?, problem = ? WHERE count_id = ? AND seq = ?",
      ).run(at, refused.problem, countId, seq);
      this.#stmt("UPDATE lines SET refused = ? WHERE count_id = ? AND variation_id = ?").run(
        refused.problem,
        countId,
        refused.variationId,
      );
      if (replacement) this.#insertBatches(countId, [replacement]);
    })();
  }

  /** The next free batch position of a count. */
  nextBatchSeq(countId: string): number {
    return (
      this.#stmt("SELECT COALESCE(MAX(seq), -1) + 1 AS n FROM batches WHERE count_id = ?").get(countId) as {
        n: number;
      }
    ).n;
  }

  /** Marks a count committed once every request is settled. */
  finishCommit(countId: string, at: string): void {
    this.#db.transaction(() => {
      const pending = this.#stmt(
        "SELECT COUNT(*) AS n FROM batches WHERE count_id = ? AND state IN ('planned', 'sent')",
      ).get(countId) as { n: number };
      if (pending.n > 0) throw new CountStateError(`${pending.n} requests of this count are not settled yet.`);
      this.#stmt("UPDATE counts SET status = 'committed', committed_at = ? WHERE id = ? AND status = 'committing'").run(
        at,
        countId,
      );
    })();
  }

  /** Drops an open count (its lines stay in the journal, marked discarded). */
  discard(countId: string): void {
    this.#stmt("UPDATE counts SET status = 'discarded' WHERE id = ? AND status IN ('open', 'committing')").run(countId);
  }

  /** The team member who counts from now on (picked at the start or changed). */
  setCounter(countId: string, counterId: string, counterName: string): void {
    this.#db.transaction(() => {
      this.#stmt("UPDATE counts SET counter_id = ?, counter_name = ? WHERE id = ?").run(
        counterId,
        counterName,
        countId,
      );
      if (counterId) this.#namePerson(countId, counterId, counterName);
    })();
  }

  #namePerson(countId: string, memberId: string, name: string): void {
    this.#stmt(
      "INSERT INTO people (count_id, member_id, name) VALUES (?, ?, ?) ON CONFLICT (count_id, member_id) DO UPDATE SET name = excluded.name",
    ).run(countId, memberId, name);
  }

  /** The names of the team members who counted, by id. */
  people(countId: string): Map<string, string> {
    const rows = this.#stmt("SELECT member_id, name FROM people WHERE count_id = ?").all(countId) as {
      member_id: string;
      name: string;
    }[];
    return new Map(rows.map((r) => [r.member_id, r.name]));
  }
}

/**
 * Opens (or creates) the journal at `path`, loading better-sqlite3 on first use. The folder is
 * created when missing.
 */
export async function openJournal(path: string): Promise<StocktakeJournal> {
  const { default: Sqlite } = await import("better-sqlite3");
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Sqlite(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  db.exec(SCHEMA);
  return new StocktakeJournal(db, path);
}
