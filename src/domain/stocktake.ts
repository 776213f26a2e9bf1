/**
 * Stocktake arithmetic: what a typed count means, how far it is from the books, what it is
 * worth, and how a finished count becomes PHYSICAL_COUNT changes. Quantities are exact decimal
 * strings (see quantity.ts); money is in integer minor units.
 */
import type { CatalogObject } from "../spec/generated/types.js";
import { plural } from "./plural.js";
import { formatQuantity, parseQuantity, QUANTITY_DECIMALS, type QuantityUnits } from "./quantity.js";
import { farFromExpected } from "./stocktake-checks.js";

export * from "./stocktake-plan.js";

/** Digits after the point of a variation sold without a measurement unit: whole units. */
export const WHOLE_UNITS = 0;

/** What a count covers: every tracked variation at the location, or a chosen part of them. */
export type CountScope =
  | { kind: "full" }
  | { kind: "category"; categoryIds: string[]; label: string }
  | { kind: "search"; text: string }
  | { kind: "skus"; skus: string[] }
  | { kind: "file"; file: string };

/** A count's kind, as the summary names it. */
export const countKindOf = (scope: CountScope): "full" | "cycle" => (scope.kind === "full" ? "full" : "cycle");

/** The scope in the manager's words: "full count", "cycle count: Hand Tools", ... */
export function describeScope(scope: CountScope): string {
  switch (scope.kind) {
    case "full":
      return "full count";
    case "category":
      return `cycle count: ${scope.label}`;
    case "search":
      return `cycle count: “${scope.text}”`;
    case "skus":
      return `cycle count: ${plural(scope.skus.length, "SKU")}`;
    case "file":
      return `cycle count: ${scope.file}`;
  }
}

/** One variation as a count knows it, cached from the catalog so that a scan needs no round trip. */
export interface StockItem {
  variationId: string;
  itemId: string;
  sku: string;
  upc: string;
  /** Item and variation name: "Claw Hammer, 16 oz". */
  name: string;
  categoryId: string;
  /** The variation's price at the location, in minor units; undefined when priced at sale. */
  priceAmount: number | undefined;
  currency: string;
  /** Digits after the point its quantities may carry (its measurement unit's precision). */
  precision: number;
  /** Whether inventory is tracked for it at the location. */
  tracked: boolean;
}

/** The name of a variation in lists: the item's name, and the variation's when it adds something. */
export function variationLabel(itemName: string, variationName: string | undefined): string {
  const v = (variationName ?? "").trim();
  if (!v || v.toLowerCase() === "regular" || v === itemName) return itemName;
  return `${itemName}, ${v}`;
}

function presentAt(o: CatalogObject, locationId: string): boolean {
  if (o.present_at_all_locations === false) return (o.present_at_location_ids ?? []).includes(locationId);
  return !(o.absent_at_location_ids ?? []).includes(locationId);
}

/**
 * The variations of some catalog items present at a location, as stock items: price and
 * tracking from the location's override when it has one, precision from the measurement unit
 * (whole units without one; the interface's default of 3 for a unit that names none).
 */
export function stockItemsOf(
  items: readonly CatalogObject[],
  locationId: string,
  measurementUnits: ReadonlyMap<string, CatalogObject> = new Map(),
): StockItem[] {
  const out: StockItem[] = [];
  for (const item of items) {
    const data = item.item_data;
    if (!data || item.is_deleted || !presentAt(item, locationId)) continue;
    const categoryId = data.category_id ?? data.categories?.[0]?.id ?? "";
    for (const v of data.variations ?? []) {
      const d = v.item_variation_data;
      if (!d || v.is_deleted || !presentAt(v, locationId)) continue;
      const override = d.location_overrides?.find((o) => o.location_id === locationId);
      const price = override?.price_money ?? d.price_money;
      const unit = d.measurement_unit_id ? measurementUnits.get(d.measurement_unit_id) : undefined;
      const precision = d.measurement_unit_id
        ? Math.min(QUANTITY_DECIMALS, Math.max(0, unit?.measurement_unit_data?.precision ?? 3))
        : WHOLE_UNITS;
      out.push({
        variationId: v.id,
        itemId: item.id,
        sku: d.sku ?? "",
        upc: d.upc ?? "",
        name: variationLabel(data.name ?? "(unnamed item)", d.name),
        categoryId,
        priceAmount: typeof price?.amount === "number" ? price.amount : undefined,
        currency: price?.currency ?? "USD",
        precision,
        tracked: (override?.track_inventory ?? d.track_inventory) === true,
      });
    }
  }
  return out;
}

/**
 * What a typed quantity does: set the line's count, or add to (subtract from) what is counted so
 * far. `said`: the sign was typed (`=12`, `+3`, `-1`); a bare `12` for an item already counted
 * leaves open whether it adds or replaces.
 */
export type CountEntry =
  | { kind: "set"; units: QuantityUnits; said?: boolean }
  | { kind: "add"; units: QuantityUnits; said?: boolean };

/** A parse or a check: the value, or the problem in the manager's words. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const ENTRY = /^([+=-])?\s*(\d+)(?:\.(\d*))?$/;

function precisionWords(precision: number): string {
  if (precision === 0) return "whole units";
  return `at most ${plural(precision, "decimal")}`;
}

/**
 * Reads a quantity typed on the counting line: `12` is the count, `=12` replaces what is counted
 * so far, `+3` adds to it (the same item on another shelf), `-1` takes one back. Decimals are
 * allowed to the unit's precision.
 */
export function parseCountEntry(text: string, precision: number): Checked<CountEntry> {
  const t = text.trim();
  if (t === "") return { ok: false, problem: "Type a quantity: +N adds to what is counted, =N replaces it." };
  if (/^[+-]?\d+,\d+$/.test(t)) return { ok: false, problem: `Use a point for decimals: ${t.replace(",", ".")}.` };
  const m = ENTRY.exec(t);
  if (!m) return { ok: false, problem: `“${t}” is not a quantity: type a number such as 12, or +3 to add.` };
  const fraction = (m[3] ?? "").replace(/0+$/, "");
  if (fraction.length > precision) {
    return { ok: false, problem: `This item is counted in ${precisionWords(precision)}; “${t}” has more.` };
  }
  const digits = `${m[2]}${fraction ? `.${fraction}` : ""}`;
  const units = parseQuantity(digits.replace(/^0+(?=\d)/, ""));
  if (units === undefined) return { ok: false, problem: `“${t}” is too large for a count.` };
  if (m[1] === "+") return { ok: true, value: { kind: "add", units, said: true } };
  if (m[1] === "-") return { ok: true, value: { kind: "add", units: -units, said: true } };
  if (m[1] === "=") return { ok: true, value: { kind: "set", units, said: true } };
  return { ok: true, value: { kind: "set", units } };
}

/** The largest count a line may hold: ten integer digits, as quantity.ts can represent exactly. */
const MAX_COUNT_UNITS = 10 ** 10 * 10 ** QUANTITY_DECIMALS - 1;

/** The line's count after an entry, from what was counted so far (undefined: not counted yet). */
export function applyCountEntry(current: string | undefined, entry: CountEntry): Checked<string> {
  const before = current === undefined ? 0 : (parseQuantity(current) ?? 0);
  const after = entry.kind === "set" ? entry.units : before + entry.units;
  if (after < 0) {
    return {
      ok: false,
      problem: `That would leave ${formatQuantity(after)}; a count cannot go below zero (${formatQuantity(before)} so far).`,
    };
  }
  if (after > MAX_COUNT_UNITS) return { ok: false, problem: "That count is too large." };
  return { ok: true, value: formatQuantity(after) };
}

/** Counted minus expected, exactly (a missing expected count is zero). */
export function countVariance(counted: string, expected: string | undefined): QuantityUnits {
  return (parseQuantity(counted) ?? 0) - (parseQuantity(expected ?? "0") ?? 0);
}

/**
 * A variance's value at a unit price, in minor units, rounded half away from zero. Computed in
 * BigInt: units of 0.00001 times a price can pass Number's exact range.
 */
export function varianceValue(variance: QuantityUnits, priceAmount: number | undefined): number | undefined {
  if (priceAmount === undefined) return undefined;
  const scale = 10n ** BigInt(QUANTITY_DECIMALS);
  const product = BigInt(variance) * BigInt(priceAmount);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + scale / 2n) / scale;
  return Number(negative ? -rounded : rounded);
}

/** One counted variation. */
export interface CountLine {
  variationId: string;
  /** The count, canonical ("12", "0.5"). */
  quantity: string;
  /** When it was last counted (RFC 3339): the change's `occurred_at`. */
  countedAt: string;
  /** The team member who counted it ("" when nobody is known). */
  countedBy: string;
  /** The books' quantity when it was counted, if known. */
  expected?: string | undefined;
}

/** What the books say now: IN_STOCK quantity per variation at the location, and when it last changed. */
export interface ExpectedCount {
  quantity: string;
  calculatedAt: string;
}

/** One row of the review: a counted line, or an item of a full count nobody counted. */
export interface ReviewRow {
  item: StockItem;
  /** The count, or undefined for an uncounted item left untouched. */
  counted: string | undefined;
  /**
   * The books' quantity; undefined while it is being read (an item that joined the count from
   * outside its scope): the row then has no variance or value yet, and is not in the totals.
   */
  expected: string | undefined;
  variance: QuantityUnits;
  /** In minor units; undefined when the item has no fixed price. */
  value: number | undefined;
  countedAt: string | undefined;
  countedBy: string | undefined;
  /** An item of the scope that was not counted. */
  uncounted: boolean;
  /** Counted, but not one of the count's scope (scanned, typed, searched or imported from outside it). */
  outOfScope: boolean;
  /** The count is far from the books (ten times, or 500 units over): worth a second look. */
  far: boolean;
}

/** What to do with the items of a full count that nobody counted. */
export type UncountedChoice = "zero" | "leave";

/**
 * The review's rows: every counted line (against the books' quantity when it was counted, or the
 * latest one), then — for a full count — the scope's uncounted items, at zero or left untouched.
 */
export function buildReview(input: {
  items: ReadonlyMap<string, StockItem>;
  lines: readonly CountLine[];
  expected: ReadonlyMap<string, ExpectedCount>;
  /** Items of the scope, for the uncounted ones (a full count's every tracked variation). */
  scope: readonly string[];
  uncounted: UncountedChoice;
}): ReviewRow[] {
  const rows: ReviewRow[] = [];
  const counted = new Set<string>();
  const inScope = new Set(input.scope);
  for (const line of input.lines) {
    const item = input.items.get(line.variationId);
    if (!item) continue;
    counted.add(line.variationId);
    // The books when counted, else now; an item of the scope the books do not list has none.
    const expected =
      line.expected ??
      input.expected.get(line.variationId)?.quantity ??
      (inScope.has(line.variationId) ? "0" : undefined);
    const variance = expected === undefined ? 0 : countVariance(line.quantity, expected);
    rows.push({
      item,
      counted: line.quantity,
      expected,
      variance,
      value: expected === undefined ? undefined : varianceValue(variance, item.priceAmount),
      countedAt: line.countedAt,
      countedBy: line.countedBy,
      uncounted: false,
      outOfScope: !inScope.has(line.variationId),
      far: expected !== undefined && farFromExpected(line.quantity, expected),
    });
  }
  for (const id of input.scope) {
    if (counted.has(id)) continue;
    const item = input.items.get(id);
    if (!item) continue;
    const expected = input.expected.get(id)?.quantity ?? "0";
    const variance = input.uncounted === "zero" ? countVariance("0", expected) : 0;
    rows.push({
      item,
      counted: input.uncounted === "zero" ? "0" : undefined,
      expected,
      variance,
      value: varianceValue(variance, item.priceAmount),
      countedAt: undefined,
      countedBy: undefined,
      uncounted: true,
      outOfScope: false,
      far: false,
    });
  }
  return rows;
}

/**
 * Review order: the largest absolute variance value first, then the largest absolute variance
 * in units (for items without a price), then by name and SKU so equal rows keep one order.
 */
export function compareReviewRows(a: ReviewRow, b: ReviewRow): number {
  const va = Math.abs(a.value ?? 0);
  const vb = Math.abs(b.value ?? 0);
  if (va !== vb) return vb - va;
  const ua = Math.abs(a.variance);
  const ub = Math.abs(b.variance);
  if (ua !== ub) return ub - ua;
  const names = collator();
  return names.compare(a.item.name, b.item.name) || names.compare(a.item.sku, b.item.sku);
}

// One collator for every comparison (String#localeCompare builds one per call), made on first use:
// building it costs milliseconds that the app's first frame should not pay.
let namesCollator: Intl.Collator | undefined;
const collator = (): Intl.Collator => {
  namesCollator ??= new Intl.Collator("en", { sensitivity: "base", numeric: true });
  return namesCollator;
};

/** The rows sorted for review (a new array). */
export const sortReview = (rows: readonly ReviewRow[]): ReviewRow[] => [...rows].sort(compareReviewRows);

/** A count's totals: lines, units and value over and short, and the net. */
export interface CountTotals {
  /** Rows with a count (uncounted items set to zero included). */
  lines: number;
  /** Uncounted items of the scope (whatever was chosen for them). */
  uncounted: number;
  unitsOver: string;
  unitsShort: string;
  /** In minor units, both positive. */
  valueOver: number;
  valueShort: number;
  /** valueOver − valueShort. */
  valueNet: number;
  /** Rows whose variance has no value (no fixed price). */
  unpriced: number;
  /** Counted rows whose expected quantity is still being read: not in the sums above. */
  expectedPending: number;
  /** Counted rows of items outside the count's scope. */
  outOfScope: number;
}

/** Sums the review's rows. */
export function countTotals(rows: readonly ReviewRow[]): CountTotals {
  let lines = 0;
  let uncounted = 0;
  let over = 0;
  let short = 0;
  let valueOver = 0;
  let valueShort = 0;
  let unpriced = 0;
  let expectedPending = 0;
  let outOfScope = 0;
  for (const r of rows) {
    if (r.uncounted) uncounted++;
    if (r.counted !== undefined) lines++;
    if (r.outOfScope) outOfScope++;
    if (r.expected === undefined) {
      expectedPending++;
      continue;
    }
    if (r.variance > 0) over += r.variance;
    else short -= r.variance;
    if (r.value === undefined) {
      if (r.variance !== 0) unpriced++;
    } else if (r.value > 0) valueOver += r.value;
    else valueShort -= r.value;
  }
  return {
    lines,
    uncounted,
    unitsOver: formatQuantity(over),
    unitsShort: formatQuantity(short),
    valueOver,
    valueShort,
    valueNet: valueOver - valueShort,
    unpriced,
    expectedPending,
    outOfScope,
  };
}

/** A variance with its sign: "+3", "-0.5", "0". */
export function formatVariance(units: QuantityUnits): string {
  return units > 0 ? `+${formatQuantity(units)}` : formatQuantity(units);
}

/** How a code typed or scanned on the counting line is matched: SKU first, then UPC, exactly. */
export function findByCode(
  code: string,
  bySku: ReadonlyMap<string, StockItem>,
  byUpc: ReadonlyMap<string, StockItem>,
): StockItem | undefined {
  const t = code.trim();
  return bySku.get(t) ?? bySku.get(t.toUpperCase()) ?? byUpc.get(t) ?? byUpc.get(normalizeUpc(t));
}

/**
 * Whether text that matched no SKU or UPC is itself a code (kept as an unknown code) rather than
 * words to search by: one token with a digit in it ("0123456789012", "HT-9999-1").
 */
export function looksLikeCode(text: string): boolean {
  const t = text.trim();
  return t !== "" && !/\s/.test(t) && /\d/.test(t);
}

/**
 * A scanned barcode in the catalog's spelling: scanners often send a UPC-A as 13 digits with a
 * leading zero (EAN-13); the catalog keeps 12.
 */
export function normalizeUpc(code: string): string {
  return /^0\d{12}$/.test(code) ? code.slice(1) : code;
}
