// The fees chart: one vertical bar per week, its height the week's fees against the largest, with
// eighth blocks on top so a small difference still shows.

const EIGHTHS = ["", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];

/** How wide each week's cell is: a bar and a gap, as wide as the room allows (1 to 6 cells). */
export function barCellWidth(weeks: number, room: number): number {
  if (weeks <= 0) return 1;
  return Math.max(1, Math.min(6, Math.floor(room / weeks)));
}

/**
 * The chart's lines, top first: `rows` lines of `values.length` cells of `cellWidth` (the bar
 * fills all but one cell of gap when the cell is wider than one). A positive value is never
 * drawn as nothing: at least the lowest eighth shows.
 */
export function feeChartLines(values: readonly number[], rows: number, cellWidth: number): string[] {
  const max = Math.max(0, ...values);
  const heights = values.map((v) => (max > 0 && v > 0 ? Math.max(1, Math.round((v / max) * rows * 8)) : 0));
  const bar = Math.max(1, cellWidth > 1 ? cellWidth - 1 : 1);
  const gap = cellWidth - bar;
  const lines: string[] = [];
  for (let r = rows - 1; r >= 0; r--) {
    let line = "";
    for (const h of heights) {
      const level = Math.max(0, Math.min(8, h - r * 8));
      const glyph = EIGHTHS[level] || " ";
      line += glyph.repeat(bar) + " ".repeat(gap);
    }
    lines.push(line);
  }
  return lines;
}

/** The dates under the bars: each week's `MM-DD` where it fits, else every few weeks. */
export function weekLabels(weeks: readonly string[], cellWidth: number): string {
  const every = Math.max(1, Math.ceil(6 / cellWidth));
  let out = "";
  weeks.forEach((w, i) => {
    if (out.length > i * cellWidth) return;
    out = out.padEnd(i * cellWidth);
    if (i % every === 0) out += w.slice(5);
  });
  return out;
}
