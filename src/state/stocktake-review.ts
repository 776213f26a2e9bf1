/** A journaled count as its review and its exports: shared by the screen and the commands. */

import { formatMoney } from "../domain/money.js";
import { plural } from "../domain/plural.js";
import { groupedQuantity } from "../domain/quantity.js";
import {
  buildReview,
  type CountLine,
  type CountTotals,
  countKindOf,
  countTotals,
  describeScope,
  type ExpectedCount,
  type ReviewRow,
  type StockItem,
  sortReview,
  type UncountedChoice,
} from "../domain/stocktake.js";
import { stocktakeItemsCsv, stocktakeSummaryCsv } from "../domain/stocktake-csv.js";
import type { CountRecord } from "../local/stocktake-journal.js";

/** A count's review: its rows sorted by absolute variance value, and the totals. */
export interface CountReview {
  rows: ReviewRow[];
  totals: CountTotals;
  currency: string;
}

/** What a review is made of: a journal record, or the count open on the screen. */
export interface ReviewedCount {
  items: ReadonlyMap<string, StockItem>;
  lines: readonly CountLine[];
  expected: ReadonlyMap<string, ExpectedCount>;
  scope: readonly string[];
  header: { uncounted: UncountedChoice };
}

/** The review of a count, with its uncounted items as the count's setting says. */
export function reviewOfRecord(record: ReviewedCount): CountReview {
  const rows = sortReview(
    buildReview({
      items: record.items,
      lines: record.lines,
      expected: record.expected,
      scope: record.scope,
      uncounted: record.header.uncounted,
    }),
  );
  const currency = rows.find((r) => r.item.currency)?.item.currency ?? "USD";
  return { rows, totals: countTotals(rows), currency };
}

/** A team member's name as the count knows it, or the id. */
export const personOf = (record: CountRecord) => (id: string) => record.people.get(id) ?? id;

/** The items export of a count. */
export function itemsCsvOfRecord(record: CountRecord, review: CountReview = reviewOfRecord(record)): string {
  return stocktakeItemsCsv(review.rows, { timeZone: record.header.timeZone, memberName: personOf(record) });
}

/** Who counted the lines, by name, in order of lines counted (most first). */
export function countedByOf(record: CountRecord): string {
  const tally = new Map<string, number>();
  for (const l of record.lines) if (l.countedBy) tally.set(l.countedBy, (tally.get(l.countedBy) ?? 0) + 1);
  const names = [...tally.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => personOf(record)(id));
  return names.join(", ") || record.header.counterName;
}

/** The summary export of a count. */
export function summaryCsvOfRecord(record: CountRecord, review: CountReview = reviewOfRecord(record)): string {
  const h = record.header;
  return stocktakeSummaryCsv(
    {
      locationName: h.locationName,
      kind: countKindOf(h.scope),
      scope: describeScope(h.scope),
      countedBy: countedByOf(record),
      startedAt: h.startedAt,
      committedAt: h.committedAt,
      totals: review.totals,
      currency: review.currency,
    },
    h.timeZone,
  );
}

/** The review's totals in one line of words: "412 lines · over 31 units (52.10 USD) · short 12 units (80.00 USD) · net -27.90 USD". */
export function totalsLine(review: CountReview): string {
  const t = review.totals;
  const c = review.currency;
  const parts = [
    plural(t.lines, "line"),
    `over ${groupedQuantity(t.unitsOver)} unit${t.unitsOver === "1" ? "" : "s"} (${formatMoney({ amount: t.valueOver, currency: c })})`,
    `short ${groupedQuantity(t.unitsShort)} unit${t.unitsShort === "1" ? "" : "s"} (${formatMoney({ amount: t.valueShort, currency: c })})`,
    `net ${formatMoney({ amount: t.valueNet, currency: c })}`,
  ];
  if (t.uncounted > 0) parts.push(`${t.uncounted.toLocaleString("en-US")} not counted`);
  if (t.unpriced > 0) parts.push(`${t.unpriced.toLocaleString("en-US")} without a price`);
  return parts.join(" · ");
}
