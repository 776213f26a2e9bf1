/**
 * A count the Stocktake screen has open, as it holds it in memory: the journal's record with its
 * code indexes, and the pure helpers that read and change it (a line, the items, the books).
 */
import { type CountLine, type ExpectedCount, normalizeUpc, type StockItem } from "../domain/stocktake.js";
import { localTime } from "../domain/time.js";
import type { CountHeader, CountRecord, UnknownCode } from "../local/stocktake-journal.js";

/** A count the screen has open: the journal's record, kept in memory so a scan needs no round trip. */
export interface LoadedCount {
  header: CountHeader;
  items: ReadonlyMap<string, StockItem>;
  bySku: ReadonlyMap<string, StockItem>;
  byUpc: ReadonlyMap<string, StockItem>;
  scope: readonly string[];
  /** The scope as a set, for "is this item of the count?". */
  inScope: ReadonlySet<string>;
  expected: ReadonlyMap<string, ExpectedCount>;
  /** In the order first counted. */
  lines: readonly CountLine[];
  /** Position of each variation's line in `lines`. */
  lineAt: ReadonlyMap<string, number>;
  unknown: readonly UnknownCode[];
  /** The latest `calculated_at` of the books' quantities of the count's items: "expected last changed". */
  expectedChangedAt: string | undefined;
}

/** Adds items to the code indexes: SKUs as written and in capitals, UPCs as written and as 12 digits. */
function indexInto(bySku: Map<string, StockItem>, byUpc: Map<string, StockItem>, items: Iterable<StockItem>) {
  for (const it of items) {
    if (it.sku) {
      bySku.set(it.sku, it);
      bySku.set(it.sku.toUpperCase(), it);
    }
    if (it.upc) {
      byUpc.set(it.upc, it);
      byUpc.set(normalizeUpc(it.upc), it);
    }
  }
}

/** The latest `calculated_at` among some items' book quantities. */
function latestOf(expected: ReadonlyMap<string, ExpectedCount>, ids: Iterable<string>): string | undefined {
  let latest: string | undefined;
  for (const id of ids) {
    const at = expected.get(id)?.calculatedAt;
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}

/** A count as the screen holds it, from the journal's record. */
export function loadedCountOf(record: CountRecord): LoadedCount {
  const bySku = new Map<string, StockItem>();
  const byUpc = new Map<string, StockItem>();
  indexInto(bySku, byUpc, record.items.values());
  return {
    header: record.header,
    items: record.items,
    bySku,
    byUpc,
    scope: record.scope,
    inScope: new Set(record.scope),
    expected: record.expected,
    lines: record.lines,
    lineAt: new Map(record.lines.map((l, i) => [l.variationId, i])),
    unknown: record.unknown,
    expectedChangedAt: latestOf(record.expected, record.items.keys()),
  };
}

/**
 * The books' quantity of an item as the count knows it: read, or none for an item of the scope
 * the books do not list; undefined while an item that joined from outside the scope is being read.
 */
export function expectedOf(count: LoadedCount, variationId: string): string | undefined {
  return count.expected.get(variationId)?.quantity ?? (count.inScope.has(variationId) ? "0" : undefined);
}

/** Items of the count whose book quantity is not known yet (joined from outside the scope, not read). */
export function booksUnknown(count: LoadedCount): string[] {
  return [...count.items.keys()].filter((id) => expectedOf(count, id) === undefined);
}

/** The counted quantity of a line, or undefined. */
export function countedOf(count: LoadedCount, variationId: string): string | undefined {
  const at = count.lineAt.get(variationId);
  return at === undefined ? undefined : count.lines[at]?.quantity;
}

/** "expected last changed 14:05" (local), or nothing before the books are read. */
export function expectedChangedText(count: LoadedCount | undefined, timeZone: string): string {
  if (!count?.expectedChangedAt) return "";
  return `expected last changed ${localTime(count.expectedChangedAt, timeZone)}`;
}

/** The count with a line's new total: a recount keeps its place, a first count goes last. */
export function withLine(count: LoadedCount, line: CountLine): LoadedCount {
  const at = count.lineAt.get(line.variationId);
  if (at !== undefined) return { ...count, lines: count.lines.map((l, i) => (i === at ? line : l)) };
  const lineAt = new Map(count.lineAt).set(line.variationId, count.lines.length);
  return { ...count, lines: [...count.lines, line], lineAt };
}

export function withoutLine(count: LoadedCount, variationId: string): LoadedCount {
  const lines = count.lines.filter((l) => l.variationId !== variationId);
  return { ...count, lines, lineAt: new Map(lines.map((l, i) => [l.variationId, i])) };
}

export function withItems(count: LoadedCount, found: readonly StockItem[]): LoadedCount {
  const fresh = found.filter((i) => !count.items.has(i.variationId));
  if (fresh.length === 0) return count;
  const items = new Map(count.items);
  for (const it of fresh) items.set(it.variationId, it);
  const bySku = new Map(count.bySku);
  const byUpc = new Map(count.byUpc);
  indexInto(bySku, byUpc, fresh);
  return { ...count, items, bySku, byUpc };
}

export function withBooks(
  count: LoadedCount,
  read: { counts: ReadonlyMap<string, ExpectedCount>; syncedAt: string | undefined },
): LoadedCount {
  const since = count.header.expectedSyncedAt;
  const syncedAt = read.syncedAt && (!since || read.syncedAt > since) ? read.syncedAt : since;
  const latest = latestOf(read.counts, read.counts.keys());
  return {
    ...count,
    expected: read.counts.size > 0 ? new Map([...count.expected, ...read.counts]) : count.expected,
    header: { ...count.header, expectedSyncedAt: syncedAt },
    expectedChangedAt:
      latest && (!count.expectedChangedAt || latest > count.expectedChangedAt) ? latest : count.expectedChangedAt,
  };
}
