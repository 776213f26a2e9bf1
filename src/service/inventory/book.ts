import type { InventoryChangeType } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { stmt } from "../db.js";
import { randomIds } from "../ids.js";
import {
  addChange,
  applyChange,
  type ChangeRec,
  type CountRec,
  countIn,
  countsHere,
  emptyMerchant,
  type MerchantBook,
  type Movement,
  type ObjectBook,
  type OnWrite,
  objectBook,
  reorder,
  sortCalculated,
} from "./ledger.js";

/**
 * The inventory book: every change of the store's inventory and the counts they add up to, held in
 * memory, over a log in SQLite that holds the changes alone, one row per batch.
 *
 * Why: a batch of 100 physical counts stored as rows (a change row with its three indexes, a count
 * read, a count update moving its row in the calculated-at index) cost SQLite 45–55 µs a count on
 * this machine, before HTTP, JSON or checks: at most ~200 batches a second. Its log row costs
 * about 5 µs a count, and a count moved in memory about a microsecond.
 *
 * The log is the record; the book is what it adds up to, built from the log the first time a store's
 * inventory is used (1.3–1.7 s and 95 MB for the 210,000 changes and 180,000 counts of a scale-200
 * store; milliseconds for the demo store) and kept in step with it: every use first reads the
 * log's last row (its seq and a random token). When that row is the one the book last wrote or
 * read, the book is current. When rows came after it (another connection to the same file), the
 * book reads them. When it is gone (a request's writes rolled back, a reset), or the book stopped
 * half-way through a batch (a change refused as it was applied), the book is built again from the
 * whole log.
 */

/** Changes of one log row at most: a change's arrival order is its row's seq times this, plus its place in the row. */
export const ROW_SPAN = 65_536;

/** A change as the log stores it. */
type LogEntry = [
  id: string,
  type: InventoryChangeType,
  objectId: string,
  locationId: string,
  toLocationId: string | null,
  state: string,
  toState: string | null,
  units: number,
  /** occurred_at and created_at, in epoch milliseconds. */
  occurredMs: number,
  createdMs: number,
  /** The fields a client set that the service only echoes (reference_id, source, …), if any. */
  extras: Record<string, unknown> | null,
];

/** The book of one database. */
interface Book {
  /** The log row the book last wrote or read (0: none), and its token. */
  lastSeq: number;
  lastToken: string;
  /** Set while a batch is being applied: a book left so by an error is built again. */
  applying: boolean;
  merchants: Map<string, MerchantBook>;
  /**
   * One copy of each id, location, state and type the book holds: read from the log, each entry
   * brings its own copies, and a scale-200 store's 210,000 changes and 180,000 counts held about
   * 30 MB of duplicates.
   */
  words: Map<string, string>;
}

/**
 * The words of any book that JSON must escape (a quote, a backslash, a control character, half of
 * a surrogate pair): in practice none, as ids, locations and states are the service's own. The
 * counts' and changes' JSON (reads.ts) writes every other word between quotes as it is: a page of
 * 100 counts in half the time JSON.stringify takes over its strings.
 */
export const wordsToEscape = new Set<string>();

/** Whether JSON writes a string other than between quotes as it is. */
function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/**
 * A word of the book as JSON writes it between its quotes: as it is, unless it needs escaping. The
 * writers put the quotes in their own text around it: with each word made into a quoted copy of
 * its own (a new string, copied again when the page is put together) and the records joined, a
 * page of 100 counts took 53 µs where it takes 37 µs (walk included).
 */
export const wordText = (s: string): string => (wordsToEscape.has(s) ? JSON.stringify(s).slice(1, -1) : s);

const quotedOrNull = (s: string | null): string => (s === null ? "null" : `"${wordText(s)}"`);

/** The book's one copy of a string. */
function word(book: Book, s: string): string {
  const known = book.words.get(s);
  if (known !== undefined) return known;
  if (needsEscape(s)) wordsToEscape.add(s);
  book.words.set(s, s);
  return s;
}

const maybeWord = (book: Book, s: string | null | undefined): string | null =>
  s === null || s === undefined ? null : word(book, s);

const books = new WeakMap<Db, Book>();

/**
 * Each log row's random token (see above), drawn from a pooled source: `randomBytes` took about
 * 5 µs a call, 13 µs a batch in `serve`'s profile; a pooled id takes about 0.6 µs.
 */
const logTokens = randomIds();
const TOKEN_LENGTH = 16;

function merchantOf(book: Book, merchantId: string): MerchantBook {
  let m = book.merchants.get(merchantId);
  if (!m) {
    m = emptyMerchant();
    book.merchants.set(merchantId, m);
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// The log.

/** A change as a seed lays it out, to be written to the log. */
export type SeedChange = Omit<ChangeRec, "order" | "earlier">;

const entryOf = (c: SeedChange): LogEntry => [
  c.id,
  c.type,
  c.objectId,
  c.locationId,
  c.toLocationId,
  c.state,
  c.toState,
  c.units,
  c.occurredMs,
  c.createdMs,
  c.extras,
];

/**
 * A batch's log entries as JSON (what JSON.stringify of their {@link entryOf} writes), written
 * field by field onto one string: a batch of 100 counts wrote its row in a third of the time. Its
 * words were interned (so known to need escaping or not); its ids are the service's own (ids.ts).
 * Its times are written once each: an epoch millisecond is no small integer, slow to write out,
 * and a batch's changes share their created_at and mostly their occurred_at.
 */
function entriesJson(changes: readonly ChangeRec[]): string {
  let createdMs = Number.NaN;
  let created = "";
  let occurredMs = Number.NaN;
  let occurred = "";
  let out = "[";
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i] as ChangeRec;
    if (c.createdMs !== createdMs) {
      createdMs = c.createdMs;
      created = String(createdMs);
    }
    if (c.occurredMs !== occurredMs) {
      occurredMs = c.occurredMs;
      occurred = String(occurredMs);
    }
    const extras = c.extras === null ? "null" : JSON.stringify(c.extras);
    out += `${i === 0 ? "" : ","}["${c.id}","${c.type}","${wordText(c.objectId)}","${wordText(c.locationId)}",${quotedOrNull(
      c.toLocationId,
    )},"${wordText(c.state)}",${quotedOrNull(c.toState)},${c.units},${occurred},${created},${extras}]`;
  }
  return `${out}]`;
}

/** A log entry as a change record; `intern` gives the book's copy of a word. */
function changeOfEntry(seq: number, pos: number, e: LogEntry, intern: (s: string) => string): ChangeRec {
  return {
    order: seq * ROW_SPAN + pos,
    id: e[0],
    type: intern(e[1]) as InventoryChangeType,
    objectId: intern(e[2]),
    locationId: intern(e[3]),
    toLocationId: e[4] === null ? null : intern(e[4]),
    state: intern(e[5]),
    toState: e[6] === null ? null : intern(e[6]),
    units: e[7],
    occurredMs: e[8],
    createdMs: e[9],
    extras: e[10],
    earlier: null,
  };
}

/** The changes one log row of a seller recorded, in order (none if it has no such row). */
export function loggedChanges(db: Db, merchantId: string, seq: number): ChangeRec[] {
  const entries = stmt(db, "SELECT entries FROM inventory_log WHERE seq = ? AND merchant_id = ?")
    .pluck()
    .get(seq, merchantId) as string | undefined;
  if (entries === undefined) return [];
  return (JSON.parse(entries) as LogEntry[]).map((e, pos) => changeOfEntry(seq, pos, e, (w) => w));
}

/** Reads the log rows after the book's last into it, applying each change as it arrived. */
function catchUp(db: Db, book: Book): void {
  const rows = stmt(
    db,
    "SELECT seq, merchant_id, token, entries FROM inventory_log WHERE seq > ? ORDER BY seq",
  ).iterate(book.lastSeq) as IterableIterator<{ seq: number; merchant_id: string; token: string; entries: string }>;
  const touched = new Set<MerchantBook>();
  book.applying = true;
  for (const row of rows) {
    const m = merchantOf(book, row.merchant_id);
    touched.add(m);
    const intern = (w: string) => word(book, w);
    for (const [pos, e] of (JSON.parse(row.entries) as LogEntry[]).entries()) {
      const ob = objectBook(m, e[2], intern);
      const c = changeOfEntry(row.seq, pos, e, intern);
      applyChange(m, row.merchant_id, ob, c, ignore);
      addChange(m, ob, c);
    }
    book.lastSeq = row.seq;
    book.lastToken = row.token;
  }
  // Read back in bulk: the calculated order is made once, not kept change by change.
  for (const m of touched) sortCalculated(m);
  book.applying = false;
}

const ignore: OnWrite = () => {};

/**
 * The book of a database, current with its log (see the module's comment): read from the log the
 * first time, then kept; built again when the log no longer ends where the book does.
 */
export function bookOf(db: Db): Book {
  const tail = stmt(db, "SELECT seq, token FROM inventory_log ORDER BY seq DESC LIMIT 1").get() as
    | { seq: number; token: string }
    | undefined;
  const book = books.get(db);
  if (book && !book.applying) {
    if ((tail?.seq ?? 0) === book.lastSeq && (tail?.token ?? "") === book.lastToken) return book;
    const mine =
      book.lastSeq === 0
        ? undefined
        : (stmt(db, "SELECT token FROM inventory_log WHERE seq = ?").get(book.lastSeq) as
            | { token: string }
            | undefined);
    if (tail && (book.lastSeq === 0 || mine?.token === book.lastToken)) {
      catchUp(db, book);
      return book;
    }
  }
  const fresh: Book = { lastSeq: 0, lastToken: "", applying: false, merchants: new Map(), words: new Map() };
  catchUp(db, fresh);
  books.set(db, fresh);
  return fresh;
}

/** A seller's share of a database's book (see {@link bookOf}), if the seller has any inventory. */
export const sellerBook = (db: Db, merchantId: string): MerchantBook | undefined =>
  bookOf(db).merchants.get(merchantId);

/** A change to record: checked and planned (see changes.ts). */
export interface NewChange extends Movement {
  type: InventoryChangeType;
  occurredAt: string;
  extras: Record<string, unknown> | null;
}

/** What recording a batch did. */
export interface BatchRecorded {
  /** The log row the changes were recorded in: null when none was (every count unchanged). */
  seq: number | null;
  /** The changes recorded, in order. */
  changes: ChangeRec[];
  /** The counts the batch moved, each once, as it left them. */
  changed: CountRec[];
  /** The counts of every (object, location) the batch names, all states, in the order first named. */
  counts: CountRec[];
}

/**
 * Records a batch of checked changes in order, as one log row: each change is applied to the
 * counts as it comes. With `ignoreUnchanged`, a physical count equal to its key's current count is
 * not recorded. `newId` names each change recorded; `now` is their created_at.
 */
export function recordInBook(
  db: Db,
  merchantId: string,
  planned: readonly NewChange[],
  newId: () => string,
  now: string,
  ignoreUnchanged: boolean,
): BatchRecorded {
  const book = bookOf(db);
  const m = merchantOf(book, merchantId);
  const seq = book.lastSeq + 1;
  const createdMs = Date.parse(now);
  // A batch's changes mostly share one occurred_at (a stocktake commits its counts at one moment).
  let lastAt = "";
  let lastMs = 0;
  const msOf = (at: string) => {
    if (at !== lastAt) {
      lastAt = at;
      lastMs = Date.parse(at);
    }
    return lastMs;
  };
  const changes: ChangeRec[] = [];
  // A count moved more than once is reported once, as the batch leaves it; every count written
  // moves to the end of the calculated order.
  const changed = new Set<CountRec>();
  const writes = new Set<CountRec>();
  const note: OnWrite = (rec, moved) => {
    // The batch's created_at is every count's calculated_at: the text is at hand.
    rec.calculatedAt = now;
    writes.add(rec);
    if (moved) changed.add(rec);
  };
  const intern = (w: string) => word(book, w);
  // A batch's changes mostly share their location and state: each is looked up once in a row.
  let place = "";
  let placeWord = "";
  let state = "";
  let stateWord = "";
  // The (object, location) pairs the batch names, whose counts it answers.
  const named = new NamedPairs();
  book.applying = true;
  for (const p of planned) {
    const ob = objectBook(m, p.objectId, intern);
    named.add(ob, p.locationId);
    if (p.toLocationId) named.add(ob, p.toLocationId);
    const current = p.type === "PHYSICAL_COUNT" ? countIn(ob, p.locationId, p.state) : undefined;
    if (ignoreUnchanged && current && current.units === p.units) continue;
    if (changes.length >= ROW_SPAN) throw new Error(`A batch records at most ${ROW_SPAN} changes.`);
    if (p.locationId !== place) {
      place = p.locationId;
      placeWord = word(book, place);
    }
    if (p.state !== state) {
      state = p.state;
      stateWord = word(book, state);
    }
    const c: ChangeRec = {
      order: seq * ROW_SPAN + changes.length,
      id: newId(),
      type: p.type,
      objectId: ob.id,
      locationId: placeWord,
      toLocationId: maybeWord(book, p.toLocationId),
      state: stateWord,
      toState: maybeWord(book, p.toState),
      units: p.units,
      occurredMs: msOf(p.occurredAt),
      createdMs,
      extras: p.extras,
      earlier: null,
    };
    applyChange(m, merchantId, ob, c, note, current);
    addChange(m, ob, c);
    changes.push(c);
  }
  if (changes.length > 0) {
    const token = logTokens.next(TOKEN_LENGTH);
    const r = stmt(db, "INSERT INTO inventory_log (seq, merchant_id, token, entries) VALUES (?, ?, ?, ?)").run(
      seq,
      merchantId,
      token,
      entriesJson(changes),
    );
    if (Number(r.lastInsertRowid) !== seq) throw new Error("The inventory log moved under the book.");
    book.lastSeq = seq;
    book.lastToken = token;
    reorder(m, writes);
  }
  book.applying = false;
  return {
    seq: changes.length > 0 ? seq : null,
    changes,
    changed: [...changed],
    counts: named.counts(),
  };
}

/**
 * Every (object, location) pair a batch names, each once, in the order first named (a transfer
 * names both ends), with the object's share of the book: its counts are read from there, without
 * looking the object up again.
 */
class NamedPairs {
  private readonly objects: ObjectBook[] = [];
  private readonly locations: string[] = [];
  /** Each object's locations named so far: a handful at most. */
  private readonly named = new Map<ObjectBook, string[]>();

  add(ob: ObjectBook, locationId: string): void {
    let locations = this.named.get(ob);
    if (!locations) {
      locations = [];
      this.named.set(ob, locations);
    }
    if (locations.includes(locationId)) return;
    locations.push(locationId);
    this.objects.push(ob);
    this.locations.push(locationId);
  }

  /** The counts of every pair, in the order first named, each pair's by state. */
  counts(): CountRec[] {
    const out: CountRec[] = [];
    for (let i = 0; i < this.objects.length; i++) {
      countsHere(this.objects[i] as ObjectBook, this.locations[i] as string, out);
    }
    return out;
  }
}

/** Appends changes to the log as a seed lays them out (in arrival order), `perRow` a row; the book reads them when next used. */
export function seedLog(db: Db, merchantId: string, changes: Iterable<SeedChange>, perRow = 2000): void {
  const insert = stmt(db, "INSERT INTO inventory_log (merchant_id, token, entries) VALUES (?, ?, ?)");
  let row: LogEntry[] = [];
  const flush = () => {
    if (row.length === 0) return;
    insert.run(merchantId, logTokens.next(TOKEN_LENGTH), JSON.stringify(row));
    row = [];
  };
  for (const c of changes) {
    row.push(entryOf(c));
    if (row.length >= perRow) flush();
  }
  flush();
}
