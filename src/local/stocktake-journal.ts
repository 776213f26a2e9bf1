/**
 * The stocktake journal: a SQLite file in the data folder that holds every count until it is
 * committed — the header, the catalog and book quantities it was counted against, every counted
 * line (written before the screen acknowledges it), unknown codes, and the commit's requests
 * with their idempotency keys and states. A count survives the terminal dying at any moment:
 * reopen the journal and it is all there, down to which requests the service has accepted.
 *
 * Opened through openLocalDb: owner-only, WAL, numbered migrations (stocktake-journal-schema.ts).
 * `synchronous = NORMAL`: a committed write survives the process being killed; a power cut may
 * lose the last moments. Each line is its own transaction, so a scanner's line is on disk before
 * the screen says it was counted.
 */
import { randomBytes } from "node:crypto";
import { SharedValues } from "../domain/shared-values.js";
import type { CountLine, ExpectedCount, StockItem } from "../domain/stocktake.js";
import { type LocalDb, openLocalDb } from "./db.js";
import { Statements } from "./statements.js";
import { type CountRow, headerOf, JOURNAL_MIGRATIONS } from "./stocktake-journal-schema.js";
import {
  type CountHeader,
  type CountListing,
  type CountRecord,
  CountStateError,
  type NewCount,
  OpenCountExists,
  type RefusedLine,
  type UnknownCode,
} from "./stocktake-journal-types.js";
import { CommitRequests } from "./stocktake-requests.js";

export * from "./stocktake-journal-types.js";
export { CommitRequests } from "./stocktake-requests.js";

/** An items row as `load` reads it: variation, item, SKU, UPC, name, category, price, currency, precision, tracked, scope position. */
type ItemRow = [string, string, string, string, string, string, number | null, string, number, number, number | null];

export { JournalHandle, journalPath } from "./handles.js";

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
  /** The requests of the counts' commits. */
  readonly requests: CommitRequests;
  readonly #s: Statements;
  readonly #db: LocalDb;

  constructor(db: LocalDb, path: string) {
    this.#db = db;
    this.#s = new Statements(db);
    this.path = path;
    this.requests = new CommitRequests(this.#s, (id) => this.#requireOpen(id));
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
    return this.#s.transaction(() => {
      const open = this.openCountAt(input.merchantId, input.locationId);
      if (open) throw new OpenCountExists(open);
      let id = newCountId(now);
      while (this.#s.get("SELECT 1 FROM counts WHERE id = ?").get(id)) id = newCountId(now);
      this.#s
        .get(
          `INSERT INTO counts (id, merchant_id, location_id, location_name, time_zone, scope, counter_id, counter_name, started_at, status, uncounted, scan_one, blind)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)`,
        )
        .run(
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
          input.blind ? 1 : 0,
        );
      if (input.counterId) this.#namePerson(id, input.counterId, input.counterName);
      this.#putItems(id, scopeItems, 0);
      this.#putExpected(id, expected);
      const header = this.get(id);
      if (!header) throw new Error("the count just written is missing");
      return header;
    });
  }

  #putItems(countId: string, items: readonly StockItem[], firstScopeSeq: number | undefined): void {
    const insert = this.#s.get(
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
    const upsert = this.#s.get(
      `INSERT INTO expected (count_id, variation_id, quantity, calculated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (count_id, variation_id) DO UPDATE SET quantity = excluded.quantity, calculated_at = excluded.calculated_at`,
    );
    let latest = syncedAt ?? "";
    for (const [id, e] of expected) {
      upsert.run(countId, id, e.quantity, e.calculatedAt);
      if (e.calculatedAt > latest) latest = e.calculatedAt;
    }
    if (latest) {
      this.#s
        .get(
          "UPDATE counts SET expected_synced_at = ? WHERE id = ? AND (expected_synced_at IS NULL OR expected_synced_at < ?)",
        )
        .run(latest, countId, latest);
    }
  }

  /** Adds catalog entries found during the count (a scan outside the scope, a name search). */
  addItems(countId: string, items: readonly StockItem[]): void {
    this.#s.transaction(() => this.#putItems(countId, items, undefined));
  }

  /**
   * Records book quantities read (an incremental refresh) and moves the sync point forward: to
   * `syncedAt` (the latest `calculated_at` the read saw, location-wide) or the newest of these.
   */
  putExpected(countId: string, expected: ReadonlyMap<string, ExpectedCount>, syncedAt?: string): void {
    this.#s.transaction(() => this.#putExpected(countId, expected, syncedAt));
  }

  /** The count, if the journal has it. */
  get(countId: string): CountHeader | undefined {
    const row = this.#s.get("SELECT * FROM counts WHERE id = ?").get(countId) as CountRow | undefined;
    return row ? headerOf(row) : undefined;
  }

  /** The open (or half-committed) count at a location, if any. */
  openCountAt(merchantId: string, locationId: string): CountHeader | undefined {
    const row = this.#s
      .get("SELECT * FROM counts WHERE merchant_id = ? AND location_id = ? AND status IN ('open', 'committing')")
      .get(merchantId, locationId) as CountRow | undefined;
    return row ? headerOf(row) : undefined;
  }

  /** Counts newest first: open ones first, then the most recent others, `limit` in all. */
  list(limit = 50): CountListing[] {
    const rows = this.#s
      .get(
        `SELECT c.*,
         (SELECT COUNT(*) FROM lines l WHERE l.count_id = c.id) AS line_count,
         (SELECT COUNT(*) FROM unknown_codes u WHERE u.count_id = c.id AND u.resolved_to IS NULL) AS unknown_count,
         (SELECT COUNT(*) FROM batches b WHERE b.count_id = c.id AND b.state != 'superseded') AS batch_count,
         (SELECT COUNT(*) FROM batches b WHERE b.count_id = c.id AND b.state = 'accepted') AS accepted_count
       FROM counts c
       ORDER BY (c.status IN ('open', 'committing')) DESC, c.started_at DESC LIMIT ?`,
      )
      .all(limit) as (CountRow & {
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

  /**
   * Everything about one count. A full count holds tens of thousands of rows, kept in memory while
   * the count is open: rows are read one at a time as arrays (no row objects, no array of them all),
   * each variation's id is one string wherever it appears (its item, book quantity, line, scope),
   * and the values rows repeat (item, category, currency, quantities, who counted) are shared.
   */
  load(countId: string): CountRecord | undefined {
    const header = this.get(countId);
    if (!header) return undefined;
    const shared = new SharedValues();
    const { items, scope } = this.#loadItems(countId, shared);
    // The item's own id string when the count knows the variation.
    const idOf = (id: string) => items.get(id)?.variationId ?? shared.text(id);
    const expected = new Map<string, ExpectedCount>();
    for (const r of this.#s
      .raw("SELECT variation_id, quantity, calculated_at FROM expected WHERE count_id = ?")
      .iterate(countId) as IterableIterator<[string, string, string]>) {
      expected.set(idOf(r[0]), { quantity: shared.text(r[1]), calculatedAt: shared.text(r[2]) });
    }
    const lines: CountLine[] = [];
    const refused: RefusedLine[] = [];
    for (const r of this.#s
      .raw(
        "SELECT variation_id, quantity, counted_at, counted_by, expected, refused FROM lines WHERE count_id = ? ORDER BY seq",
      )
      .iterate(countId) as IterableIterator<[string, string, string, string, string | null, string | null]>) {
      const variationId = idOf(r[0]);
      const line = { variationId, quantity: shared.text(r[1]), countedAt: r[2], countedBy: shared.text(r[3]) };
      lines.push(r[4] === null ? line : { ...line, expected: shared.text(r[4]) });
      if (r[5] !== null) refused.push({ variationId, problem: r[5] });
    }
    return {
      header,
      items,
      scope,
      expected,
      lines,
      unknown: this.unknownCodes(countId),
      batches: this.requests.list(countId),
      refused,
      people: this.people(countId),
    };
  }

  /** The catalog entries of a count, by variation id, and its scope in catalog order. */
  #loadItems(countId: string, shared: SharedValues): { items: Map<string, StockItem>; scope: string[] } {
    const items = new Map<string, StockItem>();
    const scope: string[] = [];
    for (const r of this.#s
      .raw(
        "SELECT variation_id, item_id, sku, upc, name, category_id, price_amount, currency, precision, tracked, scope_seq FROM items WHERE count_id = ? ORDER BY scope_seq",
      )
      .iterate(countId) as IterableIterator<ItemRow>) {
      items.set(r[0], {
        variationId: r[0],
        itemId: shared.text(r[1]),
        sku: r[2],
        upc: r[3],
        name: r[4],
        categoryId: shared.text(r[5]),
        priceAmount: r[6] ?? undefined,
        currency: shared.text(r[7]),
        precision: r[8],
        tracked: r[9] === 1,
      });
      if (r[10] !== null) scope.push(r[0]);
    }
    return { items, scope };
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
    this.#s.transaction(() => {
      this.#requireOpen(countId);
      const next = this.#s.get("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM lines WHERE count_id = ?");
      let seq = (next.get(countId) as { n: number }).n;
      const upsert = this.#s.get(
        `INSERT INTO lines (count_id, variation_id, seq, quantity, counted_at, counted_by, expected) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (count_id, variation_id) DO UPDATE SET quantity = excluded.quantity, counted_at = excluded.counted_at,
           counted_by = excluded.counted_by, expected = excluded.expected`,
      );
      for (const l of lines) {
        upsert.run(countId, l.variationId, seq++, l.quantity, l.countedAt, l.countedBy, l.expected ?? null);
      }
    });
  }

  /** Takes a line out of the count (counted by mistake). */
  removeLine(countId: string, variationId: string): void {
    this.#s.transaction(() => {
      this.#requireOpen(countId);
      this.#s.get("DELETE FROM lines WHERE count_id = ? AND variation_id = ?").run(countId, variationId);
    });
  }

  /** Keeps a code that matched nothing (again: counts how often it was seen). */
  recordUnknown(countId: string, code: string, at: string): void {
    this.#s
      .get(
        `INSERT INTO unknown_codes (count_id, code, first_seen_at, last_seen_at, times) VALUES (?, ?, ?, ?, 1)
       ON CONFLICT (count_id, code) DO UPDATE SET last_seen_at = excluded.last_seen_at, times = unknown_codes.times + 1, resolved_to = NULL`,
      )
      .run(countId, code, at, at);
  }

  /** Marks an unknown code as resolved to a variation (its line is recorded separately). */
  resolveUnknown(countId: string, code: string, variationId: string): void {
    this.#s
      .get("UPDATE unknown_codes SET resolved_to = ? WHERE count_id = ? AND code = ?")
      .run(variationId, countId, code);
  }

  /** Drops an unknown code from the list (scanned by mistake). */
  dismissUnknown(countId: string, code: string): void {
    this.#s.get("DELETE FROM unknown_codes WHERE count_id = ? AND code = ?").run(countId, code);
  }

  /** The codes kept for a count, first seen first. */
  unknownCodes(countId: string): UnknownCode[] {
    const rows = this.#s
      .get(
        "SELECT code, first_seen_at, last_seen_at, times, resolved_to FROM unknown_codes WHERE count_id = ? ORDER BY first_seen_at, code",
      )
      .all(countId) as {
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
  updateSettings(countId: string, settings: Partial<Pick<CountHeader, "uncounted" | "scanOne" | "blind">>): void {
    this.#s.transaction(() => {
      this.#requireOpen(countId);
      if (settings.uncounted !== undefined) {
        this.#s.get("UPDATE counts SET uncounted = ? WHERE id = ?").run(settings.uncounted, countId);
      }
      if (settings.scanOne !== undefined) {
        this.#s.get("UPDATE counts SET scan_one = ? WHERE id = ?").run(settings.scanOne ? 1 : 0, countId);
      }
      if (settings.blind !== undefined) {
        this.#s.get("UPDATE counts SET blind = ? WHERE id = ?").run(settings.blind ? 1 : 0, countId);
      }
    });
  }

  /** Drops an open count (its lines stay in the journal, marked discarded). */
  discard(countId: string): void {
    this.#s
      .get("UPDATE counts SET status = 'discarded' WHERE id = ? AND status IN ('open', 'committing')")
      .run(countId);
  }

  /** The team member who counts from now on (picked at the start or changed). */
  setCounter(countId: string, counterId: string, counterName: string): void {
    this.#s.transaction(() => {
      this.#s
        .get("UPDATE counts SET counter_id = ?, counter_name = ? WHERE id = ?")
        .run(counterId, counterName, countId);
      if (counterId) this.#namePerson(countId, counterId, counterName);
    });
  }

  #namePerson(countId: string, memberId: string, name: string): void {
    this.#s
      .get(
        "INSERT INTO people (count_id, member_id, name) VALUES (?, ?, ?) ON CONFLICT (count_id, member_id) DO UPDATE SET name = excluded.name",
      )
      .run(countId, memberId, name);
  }

  /** The names of the team members who counted, by id. */
  people(countId: string): Map<string, string> {
    const rows = this.#s.get("SELECT member_id, name FROM people WHERE count_id = ?").all(countId) as {
      member_id: string;
      name: string;
    }[];
    return new Map(rows.map((r) => [r.member_id, r.name]));
  }
}

/** Opens (or creates) the journal at `path`, bringing an older file's schema up to date. */
export async function openJournal(path: string): Promise<StocktakeJournal> {
  const db = await openLocalDb(path, { label: "The stocktake journal", migrations: JOURNAL_MIGRATIONS });
  // A count is read into memory once, when it is opened, and then only written line by line: the
  // page cache needs no more than SQLite's stock 2 MB. better-sqlite3 builds SQLite with 16 MB,
  // which reading a 10,000-line count fills with a second copy of it (4.7 MB that stay).
  db.pragma("cache_size = -2000");
  return new StocktakeJournal(db, path);
}
