/**
 * Lays out rows of cells as aligned columns for people (the text output of the commands): each
 * column as wide as its widest cell, two spaces between, the `right` columns aligned right.
 */
export function textColumns(rows: readonly string[][], right: ReadonlySet<number>): string[] {
  const widths: number[] = [];
  for (const r of rows) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return rows.map((r) =>
    r
      .map((c, i) => (right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}
