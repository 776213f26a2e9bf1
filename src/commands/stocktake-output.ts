import { formatMoney, plainMoney } from "../domain/money.js";
import { plural } from "../domain/plural.js";
import { describeScope, formatVariance, type ReviewRow } from "../domain/stocktake.js";
import { localDate, localTime } from "../domain/time.js";
import type { CountRecord } from "../local/stocktake-journal.js";
import { type CountReview, personOf, totalsLine } from "../state/stocktake-review.js";

/** One line of `--json`: a review row in the words of the CSV export. */
export function lineRecord(r: ReviewRow, record: CountRecord) {
  return {
    variation_id: r.item.variationId,
    sku: r.item.sku,
    upc: r.item.upc,
    name: r.item.name,
    expected: r.expected,
    counted: r.counted ?? null,
    variance: r.counted === undefined ? null : formatVariance(r.variance),
    unit_price:
      r.item.priceAmount === undefined ? null : plainMoney({ amount: r.item.priceAmount, currency: r.item.currency }),
    variance_value:
      r.value === undefined || r.counted === undefined
        ? null
        : plainMoney({ amount: r.value, currency: r.item.currency }),
    currency: r.item.currency,
    counted_at: r.countedAt ?? null,
    counted_by: r.countedBy ? personOf(record)(r.countedBy) : null,
  };
}

export const stamp = (iso: string, tz: string) => `${localDate(iso, tz)} ${localTime(iso, tz)}`;

/** The review for people: the count, its totals, the largest differences. */
export function reviewText(record: CountRecord, review: CountReview, top = 10): string {
  const h = record.header;
  const lines = [
    `Count ${h.id} at ${h.locationName} (${describeScope(h.scope)}), started ${stamp(h.startedAt, h.timeZone)}${h.counterName ? ` by ${h.counterName}` : ""}: ${h.status}.`,
    `  ${totalsLine(review)}`,
  ];
  const differing = review.rows.filter((r) => r.counted !== undefined && r.variance !== 0).slice(0, top);
  if (differing.length > 0) {
    lines.push("  Largest differences:");
    const sku = Math.max(...differing.map((r) => r.item.sku.length));
    const name = Math.min(40, Math.max(...differing.map((r) => r.item.name.length)));
    for (const r of differing) {
      const value = r.value === undefined ? "no price" : formatMoney({ amount: r.value, currency: r.item.currency });
      lines.push(
        `    ${r.item.sku.padEnd(sku)}  ${r.item.name.slice(0, name).padEnd(name)}  expected ${r.expected}, counted ${r.counted}: ${formatVariance(r.variance)} (${value})`,
      );
    }
  }
  const unknown = record.unknown.filter((u) => !u.resolvedTo);
  if (unknown.length > 0) {
    lines.push(
      `  ${plural(unknown.length, "unknown code")} kept with the count: ${unknown
        .slice(0, 5)
        .map((u) => u.code)
        .join(", ")}${unknown.length > 5 ? ", …" : ""}`,
    );
  }
  return lines.join("\n");
}
