/**
 * What one entry on the counting line — or one scan — is taken to be. A line can be a quantity
 * for the item just scanned, `+N` for the item just counted, a code the count knows, a code it
 * does not, or words to search by; each reading is a named case, decided without I/O. The slice
 * then does what the reading needs (a look-up at the service, a line journaled).
 */

import { parseQuantity, type QuantityUnits } from "../domain/quantity.js";
import {
  applyCountEntry,
  type Checked,
  type CountEntry,
  type CountLine,
  findByCode,
  looksLikeCode,
  parseCountEntry,
  type StockItem,
} from "../domain/stocktake.js";
import { type EntrySource, expectedOf, type StocktakeData } from "./stocktake-machine.js";

/** What an entry is taken to be. */
export type EntryReading =
  /** A blank line: nothing to do. */
  | { kind: "nothing" }
  /** No count is open to take it. */
  | { kind: "no-count"; text: string }
  /** The count is being committed: its lines can no longer change. */
  | { kind: "closed"; problem: string }
  /** The quantity asked for the item just scanned: `12` sets its count, `+3` adds, `-1` takes back, `=4` replaces. */
  | { kind: "quantity"; item: StockItem; entry: CountEntry }
  /** A bare quantity for an item already counted: does it add to the count, or replace it? Asked. */
  | { kind: "add-or-replace"; item: StockItem; units: QuantityUnits; current: string }
  /** `+N`, `-N` or `=N` right after a count: the same item on another shelf, or its count put right. */
  | { kind: "add-to-last"; item: StockItem; entry: CountEntry }
  /** `+N` or `-N` with no item just counted to add it to. */
  | { kind: "nothing-to-add"; problem: string }
  /** Meant as a quantity of `item`, but not one (a comma for decimals, too many decimals, …). */
  | { kind: "bad-quantity"; item: StockItem; problem: string }
  /** A SKU or UPC of an item the count knows: counted at once in scan = 1 unit mode (`counts`), else its quantity asked. */
  | { kind: "scan"; item: StockItem; counts: CountEntry | undefined }
  /** One token with a digit that the count does not know: asked of the service, else kept as an unknown code. */
  | { kind: "unknown-code"; code: string }
  /** Words: asked of the service as a code, else searched by name. */
  | { kind: "words"; text: string };

/** What an entry is read against: the open count, what the line asks, and the answer to the last entry. */
export type EntryContext = Pick<StocktakeData, "count" | "prompt" | "feedback">;

/** One unit, as a count entry: what a scan adds in scan = 1 unit mode. */
const ONE_UNIT: CountEntry = { kind: "add", units: parseQuantity("1") ?? 0 };

/** What scanning an item does now: one unit added (scan = 1 unit), or undefined: ask its quantity. */
export function scanEntry(ctx: EntryContext): CountEntry | undefined {
  return ctx.count?.header.scanOne ? ONE_UNIT : undefined;
}

/** What an item has counted so far, if it has a line. */
function countedNow(ctx: EntryContext, variationId: string): string | undefined {
  const at = ctx.count?.lineAt.get(variationId);
  return at === undefined ? undefined : ctx.count?.lines[at]?.quantity;
}

/** What the counting line asks for, when it asks for a quantity: the item. */
function askedItem(ctx: EntryContext): StockItem | undefined {
  return ctx.prompt.kind === "quantity" ? ctx.count?.items.get(ctx.prompt.variationId) : undefined;
}

/** Reads an entry (typed on the counting line, or scanned) against the count and the line's prompt. */
export function interpretEntry(raw: string, ctx: EntryContext, source: EntrySource = "typed"): EntryReading {
  const text = raw.trim();
  const count = ctx.count;
  if (!text) return { kind: "nothing" };
  if (!count) return { kind: "no-count", text };
  if (count.header.status !== "open") {
    return { kind: "closed", problem: "This count is being committed; its lines can no longer change." };
  }
  const known = findByCode(text, count.bySku, count.byUpc);
  // A scan is always a code; typed, it is first the quantity the line asks for.
  const asked = source === "typed" ? askedItem(ctx) : undefined;
  if (asked) {
    const entry = parseCountEntry(text, asked.precision);
    const current = countedNow(ctx, asked.variationId);
    if (entry.ok && entry.value.kind === "set" && !entry.value.said && current !== undefined) {
      return { kind: "add-or-replace", item: asked, units: entry.value.units, current };
    }
    if (entry.ok) return { kind: "quantity", item: asked, entry: entry.value };
    // Not a quantity: maybe the next scan, when the last one's quantity was left out.
    if (!known && /^[\d+\-.,\s]+$/.test(text)) return { kind: "bad-quantity", item: asked, problem: entry.problem };
  }
  if (known) return { kind: "scan", item: known, counts: scanEntry(ctx) };
  const last = ctx.feedback?.kind === "counted" ? count.items.get(ctx.feedback.variationId) : undefined;
  if (source === "typed" && /^[+=-]/.test(text)) {
    const entry = parseCountEntry(text, last?.precision ?? 0);
    if (last) {
      return entry.ok
        ? { kind: "add-to-last", item: last, entry: entry.value }
        : { kind: "bad-quantity", item: last, problem: entry.problem };
    }
    if (entry.ok) {
      const problem = `${text} adds to the item just counted, and none is: scan or type the item first.`;
      return { kind: "nothing-to-add", problem };
    }
  }
  return looksLikeCode(text) ? { kind: "unknown-code", code: text } : { kind: "words", text };
}

/**
 * The line an entry makes of an item: its new total from what is counted so far, with when and
 * by whom, and the books' quantity it was counted against.
 */
export function lineOf(ctx: EntryContext, item: StockItem, entry: CountEntry, countedAt: string): Checked<CountLine> {
  const count = ctx.count;
  if (!count) return { ok: false, problem: "No count is open." };
  const at = count.lineAt.get(item.variationId);
  const next = applyCountEntry(at === undefined ? undefined : count.lines[at]?.quantity, entry);
  if (!next.ok) return { ok: false, problem: `${item.name}: ${next.problem}` };
  return {
    ok: true,
    value: {
      variationId: item.variationId,
      quantity: next.value,
      countedAt,
      countedBy: count.header.counterId,
      // Unknown while an item from outside the scope is being read: never guessed as 0.
      expected: expectedOf(count, item.variationId),
    },
  };
}
