import { adjustmentQuantity, adjustmentWords } from "../../../domain/inventory-words.js";
import { formatAmount } from "../../../domain/money.js";
import {
  type CountLine,
  countVariance,
  describeScope,
  formatVariance,
  type ReviewRow,
  type StockItem,
} from "../../../domain/stocktake.js";
import { localDate, localTime } from "../../../domain/time.js";
import type { InventoryChange } from "../../../spec/generated/types.js";
import { type CountListing, expectedOf, type LoadedCount, type UnknownCode } from "../../../state/screens.js";
import type { Column } from "../../components/columns.js";
import type { Theme } from "../../theme.js";

const varianceColor = (units: number, theme: Theme) => (units > 0 ? theme.good : units < 0 ? theme.bad : theme.muted);

/**
 * The counting view's lines, most recent first: the count's own line records (only the order is
 * new), so a count of 10,000 lines is not held a second time as rows. Lines of items the count
 * does not know are left out.
 */
export function countedRows(count: LoadedCount): CountLine[] {
  const rows: CountLine[] = [];
  for (let i = count.lines.length - 1; i >= 0; i--) {
    const l = count.lines[i];
    if (l && count.items.has(l.variationId)) rows.push(l);
  }
  return rows;
}

/** An item's name, marked when it is not one of the count's scope. */
export const OUT_OF_SCOPE = "not in scope";
const itemName = (r: { item: StockItem; outOfScope: boolean }) =>
  r.outOfScope ? `${r.item.name} · ${OUT_OF_SCOPE}` : r.item.name;

/**
 * The counting view's columns: each line's item and book quantity are read from the count (the
 * books' quantity `…` while it is being read, never 0). A blind count hides the expected quantity
 * and the variance (the review shows them).
 */
export function countedColumns(tz: string, count: LoadedCount): Column<CountLine>[] {
  const item = (l: CountLine) => count.items.get(l.variationId);
  const name = (l: CountLine) => {
    const it = item(l);
    return it ? itemName({ item: it, outOfScope: !count.inScope.has(l.variationId) }) : l.variationId;
  };
  const expected = (l: CountLine) => l.expected ?? expectedOf(count, l.variationId);
  const variance = (l: CountLine) => {
    const e = expected(l);
    return e === undefined ? 0 : countVariance(l.quantity, e);
  };
  const books: Column<CountLine>[] = [
    { header: "Expected", width: 8, align: "right", render: (l) => expected(l) ?? "…" },
    {
      header: "Var",
      width: 6,
      align: "right",
      render: (l) => (expected(l) === undefined ? "" : formatVariance(variance(l))),
      color: (l, theme) => varianceColor(variance(l), theme),
    },
  ];
  return [
    { header: "Item", width: 16, flex: 1, render: name },
    { header: "SKU", width: 12, drop: 2, render: (l) => item(l)?.sku ?? "" },
    { header: "Counted", width: 8, align: "right", render: (l) => l.quantity },
    ...(count.header.blind ? [] : books),
    { header: "At", width: 5, drop: 1, render: (l) => localTime(l.countedAt, tz) },
  ];
}

/** The review's columns. */
export function reviewColumns(currency: string): Column<ReviewRow>[] {
  return [
    { header: "Item", width: 16, flex: 1, render: itemName },
    { header: "SKU", width: 12, drop: 2, render: (r) => r.item.sku },
    { header: "Expected", width: 8, align: "right", render: (r) => r.expected ?? "…" },
    {
      header: "Counted",
      width: 9,
      align: "right",
      render: (r) =>
        r.counted === undefined
          ? "untouched"
          : r.uncounted
            ? `${r.counted} (unc.)`
            : r.far
              ? `! ${r.counted}`
              : r.counted,
      color: (r, theme) => (r.uncounted || r.far ? theme.warn : undefined),
    },
    {
      header: "Var",
      width: 6,
      align: "right",
      render: (r) => (r.counted === undefined || r.expected === undefined ? "" : formatVariance(r.variance)),
      color: (r, theme) => varianceColor(r.variance, theme),
    },
    {
      header: `Value ${currency}`,
      width: 10,
      align: "right",
      render: (r) =>
        r.counted === undefined || r.expected === undefined
          ? ""
          : r.value === undefined
            ? "no price"
            : formatAmount(r.value, currency),
      color: (r, theme) => varianceColor(r.value ?? 0, theme),
    },
  ];
}

/** The home view's recent counts. */
export function countListColumns(tz: string): Column<CountListing>[] {
  return [
    { header: "Count", width: 18, render: (c) => c.id },
    { header: "Scope", width: 14, flex: 1, render: (c) => describeScope(c.scope) },
    {
      header: "Started",
      width: 16,
      drop: 1,
      render: (c) => `${localDate(c.startedAt, tz)} ${localTime(c.startedAt, tz)}`,
    },
    { header: "Lines", width: 6, align: "right", render: (c) => String(c.lines) },
    {
      header: "State",
      width: 12,
      render: (c) => (c.status === "committing" ? `commit ${c.batchesAccepted}/${c.batches}` : c.status),
      color: (c, theme) =>
        c.status === "committed" ? theme.good : c.status === "discarded" ? theme.muted : theme.warn,
    },
  ];
}

/** The unknown codes' columns. */
export function unknownColumns(tz: string): Column<UnknownCode>[] {
  return [
    { header: "Code", width: 16, flex: 1, render: (u) => u.code },
    { header: "Scans", width: 5, align: "right", render: (u) => String(u.times) },
    { header: "First", width: 5, render: (u) => localTime(u.firstSeenAt, tz) },
    { header: "Last", width: 5, render: (u) => localTime(u.lastSeenAt, tz) },
    { header: "Resolved", width: 10, drop: 1, render: (u) => (u.resolvedTo ? "yes" : "") },
  ];
}

/** One change of an item's history, as the history view lists it. */
export function historyColumns(tz: string, countId: string | undefined): Column<InventoryChange>[] {
  const at = (c: InventoryChange) =>
    c.physical_count?.occurred_at ?? c.adjustment?.occurred_at ?? c.transfer?.occurred_at ?? "";
  return [
    { header: "When", width: 16, render: (c) => (at(c) ? `${localDate(at(c), tz)} ${localTime(at(c), tz)}` : "") },
    {
      header: "What",
      width: 22,
      flex: 1,
      render: (c) =>
        c.type === "PHYSICAL_COUNT"
          ? `counted${c.physical_count?.reference_id && c.physical_count.reference_id === countId ? " (this count)" : ""}`
          : c.type === "ADJUSTMENT"
            ? adjustmentWords(c.adjustment?.from_state ?? "", c.adjustment?.to_state ?? "")
            : "transfer",
    },
    {
      header: "Quantity",
      width: 9,
      align: "right",
      render: (c) =>
        c.adjustment
          ? adjustmentQuantity(c.adjustment.from_state ?? "", c.adjustment.to_state ?? "", c.adjustment.quantity ?? "")
          : (c.physical_count?.quantity ?? c.transfer?.quantity ?? ""),
    },
    {
      header: "Reference",
      width: 18,
      drop: 1,
      render: (c) => c.physical_count?.reference_id ?? c.adjustment?.reference_id ?? "",
    },
  ];
}

/** A pick list's columns (name search results). */
/** The picker's columns: an item outside the count's scope is marked, as it is once counted. */
export function pickColumns(inScope: ReadonlySet<string>): Column<StockItem>[] {
  return [
    {
      header: "Item",
      width: 16,
      flex: 1,
      render: (r) => itemName({ item: r, outOfScope: !inScope.has(r.variationId) }),
      narrow: (r) => r.name,
    },
    { header: "SKU", width: 12, render: (r) => r.sku },
    { header: "UPC", width: 13, drop: 1, render: (r) => r.upc },
  ];
}
