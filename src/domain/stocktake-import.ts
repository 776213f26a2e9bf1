/**
 * The rows of a count file added up per item: in a file every row adds (the same item on two
 * shelves is two rows, as +N on the counting line), `=N` is refused, and a row that cannot be
 * used is a problem with its line number, never a stop.
 */
import { applyCountEntry, parseCountEntry, type StockItem } from "./stocktake.js";
import type { CountFileProblem, CountFileRow } from "./stocktake-csv.js";

/** Each item's total, and the codes that matched nothing; problems are added to `problems`. */
export function tallyRows(
  rows: readonly CountFileRow[],
  found: ReadonlyMap<string, StockItem>,
  problems: CountFileProblem[],
): { totals: Map<string, string>; unknown: Set<string> } {
  const totals = new Map<string, string>();
  const unknown = new Set<string>();
  const refuse = (line: number, problem: string) => problems.push({ line, problem });
  for (const row of rows) {
    const item = found.get(`${row.codeKind}:${row.code}`);
    if (!item) {
      refuse(row.line, `unknown ${row.codeKind.toUpperCase()} ${JSON.stringify(row.code)}`);
      unknown.add(row.code);
      continue;
    }
    const code = item.sku || row.code;
    const entry = parseCountEntry(row.quantity, item.precision);
    if (!entry.ok) {
      refuse(row.line, `${code}: ${entry.problem}`);
      continue;
    }
    if (entry.value.kind === "set" && entry.value.said) {
      refuse(
        row.line,
        `${code}: ${row.quantity.trim()} replaces, and a file's rows add up: write the quantity without =`,
      );
      continue;
    }
    const next = applyCountEntry(totals.get(item.variationId), { kind: "add", units: entry.value.units });
    if (!next.ok) {
      refuse(row.line, `${code}: ${next.problem}`);
      continue;
    }
    totals.set(item.variationId, next.value);
  }
  return { totals, unknown };
}
