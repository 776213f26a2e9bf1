/** A stocktake as CSV (the items and the summary), and a count read from a CSV file. */
import { toCsv } from "./csv.js";
import { notText, readCsv } from "./csv-read.js";
import { MAX_COUNT_FILE_LINES } from "./limits.js";
import { formatAmount } from "./money.js";
import { formatQuantity } from "./quantity.js";
import type { CountTotals, ReviewRow } from "./stocktake.js";

/** Amounts in files other programs read: no thousands separators. */
const PLAIN = { grouping: false } as const;

import { localDate, localTime } from "./time.js";

/** Header of the items export. */
export const STOCKTAKE_ITEMS_HEADER = [
  "sku",
  "upc",
  "name",
  "expected",
  "counted",
  "variance",
  "unit price",
  "variance value",
  "counted at",
  "counted by",
  "currency",
  "in scope",
];

/** Header of the summary export. */
export const STOCKTAKE_SUMMARY_HEADER = [
  "location",
  "kind",
  "scope",
  "counted by",
  "started",
  "committed",
  "lines",
  "uncounted",
  "units over",
  "units short",
  "value over",
  "value short",
  "net value",
  "currency",
];

const localStamp = (iso: string | undefined, timeZone: string) =>
  iso ? `${localDate(iso, timeZone)} ${localTime(iso, timeZone)}` : "";

/**
 * The items of a count as CSV, one row per review row in the order given: codes, name, expected
 * (empty while it is being read), counted (empty for an uncounted item left untouched), variance,
 * unit price and variance value (two decimals), local time counted, who counted, and whether the
 * item is of the count's scope ("no" for one scanned from outside it).
 */
export function stocktakeItemsCsv(
  rows: readonly ReviewRow[],
  ctx: { timeZone: string; memberName: (id: string) => string },
): string {
  const lines: (string | number)[][] = [STOCKTAKE_ITEMS_HEADER];
  for (const r of rows) {
    lines.push([
      r.item.sku,
      r.item.upc,
      r.item.name,
      r.expected ?? "",
      r.counted ?? "",
      r.counted === undefined || r.expected === undefined ? "" : formatQuantity(r.variance),
      r.item.priceAmount === undefined ? "" : formatAmount(r.item.priceAmount, r.item.currency, PLAIN),
      r.counted === undefined || r.value === undefined ? "" : formatAmount(r.value, r.item.currency, PLAIN),
      localStamp(r.countedAt, ctx.timeZone),
      r.countedBy ? ctx.memberName(r.countedBy) : "",
      r.item.currency,
      r.outOfScope ? "no" : "yes",
    ]);
  }
  return toCsv(lines);
}

/** What the summary export says about one count. */
export interface StocktakeSummary {
  locationName: string;
  kind: "full" | "cycle";
  scope: string;
  countedBy: string;
  startedAt: string;
  committedAt: string | undefined;
  totals: CountTotals;
  currency: string;
}

/** One count's summary as CSV: a header and one row. */
export function stocktakeSummaryCsv(s: StocktakeSummary, timeZone: string): string {
  return toCsv([
    STOCKTAKE_SUMMARY_HEADER,
    [
      s.locationName,
      s.kind,
      s.scope,
      s.countedBy,
      localStamp(s.startedAt, timeZone),
      s.committedAt ? localStamp(s.committedAt, timeZone) : "not committed",
      s.totals.lines,
      s.totals.uncounted,
      s.totals.unitsOver,
      s.totals.unitsShort,
      formatAmount(s.totals.valueOver, s.currency, PLAIN),
      formatAmount(s.totals.valueShort, s.currency, PLAIN),
      formatAmount(s.totals.valueNet, s.currency, PLAIN),
      s.currency,
    ],
  ]);
}

/** What stands between a count file's columns. */
export type Delimiter = "," | ";" | "\t";

/** Tried in this order; the first that splits the header into the columns needed is the file's. */
const DELIMITERS: readonly Delimiter[] = [",", ";", "\t"];

/** Where a count file's sku, upc and quantity columns are (-1 when absent). */
interface Columns {
  skuAt: number;
  upcAt: number;
  qtyAt: number;
}

/** Where a header's columns are, or undefined without sku (or upc) and quantity. */
function columnsOf(fields: readonly string[]): Columns | undefined {
  const names = fields.map((f) => f.trim().toLowerCase());
  const at = { skuAt: names.indexOf("sku"), upcAt: names.indexOf("upc"), qtyAt: names.indexOf("quantity") };
  return (at.skuAt < 0 && at.upcAt < 0) || at.qtyAt < 0 ? undefined : at;
}

/**
 * The delimiter whose header has the columns needed, and where they are: only the header is split,
 * by each delimiter in turn until one makes it (the file is split whole once, after).
 */
function chooseDelimiter(text: string): { ok: true; d: Delimiter; at: Columns } | { ok: false; problem: string } {
  let header: string[] | undefined;
  let broken: string | undefined;
  for (const d of DELIMITERS) {
    const read = readCsv(text, { delimiter: d, relaxQuotes: true, records: 1 });
    if (!read.ok) {
      broken ??= notCsv(read.what);
      continue;
    }
    const cells = read.records[0]?.cells;
    header ??= cells;
    const at = columnsOf(cells ?? []);
    if (at) return { ok: true, d, at };
  }
  if (!header) {
    return { ok: false, problem: broken ?? "The file is empty; it needs a header with sku (or upc) and quantity." };
  }
  const has = header.map(visible).join(", ");
  return {
    ok: false,
    problem: `The header must name the columns sku (or upc) and quantity; it has: ${has || "nothing"}.`,
  };
}

const notCsv = (what: string) => `The file is not CSV that can be read: ${what}.`;

/** A file's text for a message: control characters (a terminal would act on them) shown as `?`. */
const visible = (text: string) => text.replaceAll(/\p{Cc}/gu, "?");

/** One row of a count file: the code, which column it came from, the quantity as typed. */
export interface CountFileRow {
  line: number;
  code: string;
  codeKind: "sku" | "upc";
  quantity: string;
}

/** A row of a count file that cannot be used, with its line number. */
export interface CountFileProblem {
  line: number;
  problem: string;
}

/**
 * Reads a count file: a header naming `sku` (or `upc`) and `quantity`, in any order and case,
 * then one row per counted item. A row without a code or quantity is a problem of its line;
 * blank rows are skipped. A file without those columns is refused as a whole, and so is one that is
 * not text, and one of more than `maxRows` rows after its header (blank rows skipped, rows of empty
 * cells counted): the file is read no further than one row past that. Columns split by `,`, `;` or
 * tabs, whichever splits the header into those columns.
 */
export function parseCountFile(
  text: string,
  { maxRows = MAX_COUNT_FILE_LINES }: { maxRows?: number } = {},
): { ok: true; rows: CountFileRow[]; problems: CountFileProblem[] } | { ok: false; problem: string } {
  if (notText(text)) {
    return { ok: false, problem: "This is not a text file; save the count as CSV (comma-separated values)." };
  }
  const chosen = chooseDelimiter(text);
  if (!chosen.ok) return chosen;
  const { d } = chosen;
  const { skuAt, upcAt, qtyAt } = chosen.at;
  const cell = (cells: readonly string[], at: number) => (at >= 0 ? (cells[at] ?? "").trim() : "");
  // Each row is cut to its code and quantity as it is read; the header and blank rows are left out.
  // A quote inside a field (a name column's 16" nails) is kept as text, as before csv-parse.
  let header = true;
  let body = 0;
  const read = readCsv(text, { delimiter: d, relaxQuotes: true, records: maxRows + 2 }, (r) => {
    if (header) {
      header = false;
      return undefined;
    }
    body++;
    if (r.cells.every((f) => f.trim() === "")) return undefined;
    return { line: r.line, sku: cell(r.cells, skuAt), upc: cell(r.cells, upcAt), typed: cell(r.cells, qtyAt) };
  });
  if (!read.ok) return { ok: false, problem: notCsv(read.what) };
  if (body > maxRows) {
    const most = maxRows.toLocaleString("en-US");
    return {
      ok: false,
      problem: `The file has more than ${most} rows; backroom reads up to ${most} in one count. Add up the rows of each item into one, or check that this is the count file.`,
    };
  }
  const rows: CountFileRow[] = [];
  const problems: CountFileProblem[] = [];
  for (const r of read.records) {
    const { sku, upc, typed } = r;
    // Where columns are split by ; or tabs, a comma in a number is its decimal mark: 1,5 is 1.5.
    const quantity = d !== "," && /^[+-]?\d+,\d+$/.test(typed) ? typed.replace(",", ".") : typed;
    if (!sku && !upc) {
      problems.push({ line: r.line, problem: `no ${skuAt >= 0 ? "sku" : "upc"}` });
      continue;
    }
    if (!quantity) {
      problems.push({ line: r.line, problem: `no quantity for ${sku || upc}` });
      continue;
    }
    rows.push({ line: r.line, code: sku || upc, codeKind: sku ? "sku" : "upc", quantity });
  }
  return { ok: true, rows, problems };
}
