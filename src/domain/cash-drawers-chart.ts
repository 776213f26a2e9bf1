// The over/short trend as a chart of text cells: overs above a zero line, shorts below it.
import type { DayOverShort } from "./cash-drawers.js";

/** The characters a chart is drawn with; over and short differ so it reads without colour. */
export interface ChartGlyphs {
  over: string;
  short: string;
  /** The zero line under a day that was counted, and under one that was not. */
  axis: string;
  noCount: string;
}

/** Unicode blocks by default; the ASCII set for terminals without them. */
export const CHART_GLYPHS: ChartGlyphs = { over: "█", short: "▒", axis: "─", noCount: "·" };
/** The chart drawn in plain ASCII. */
export const ASCII_CHART_GLYPHS: ChartGlyphs = { over: "#", short: "x", axis: "=", noCount: "." };

/**
 * An over/short bar chart with a column per day: overs rise above the zero line, shorts hang
 * below it, each side `rowsPerSide` rows tall.
 */
export interface OverShortChart {
  /** Top to bottom: the over rows, the zero line, the short rows; `cellWidth` characters a day. */
  lines: string[];
  /** The index of the zero line in `lines`. */
  axisLine: number;
  /** Minor units one row stands for (0 when nothing was over or short). */
  unit: number;
  rowsPerSide: number;
  cellWidth: number;
  /** Rows each day fills on each side. */
  cells: { over: number; short: number }[];
}

/**
 * Lays out each day's overs above a zero line and its shorts below it, scaled so the largest
 * fits its side. Any difference at all fills at least one row; a day without a count shows
 * `noCount` on the zero line. Each day takes `cellWidth` characters, the last one a gap when
 * `cellWidth` is 2 or more.
 */
export function overShortChart(
  days: readonly DayOverShort[],
  rowsPerSide: number,
  cellWidth = 1,
  glyphs: ChartGlyphs = CHART_GLYPHS,
): OverShortChart {
  const rows = Math.max(1, Math.floor(rowsPerSide));
  const width = Math.max(1, Math.floor(cellWidth));
  let largest = 0;
  for (const d of days) largest = Math.max(largest, d.over, -d.short);
  // Ceiling division keeps the largest bar within its side, and every non-zero amount visible.
  const unit = largest === 0 ? 0 : Math.ceil(largest / rows);
  const rowsFor = (amount: number) => (amount === 0 || unit === 0 ? 0 : Math.ceil(amount / unit));
  const cells = days.map((d) => ({ over: rowsFor(d.over), short: rowsFor(-d.short) }));
  const cell = (glyph: string) => (width === 1 ? glyph : `${glyph.repeat(width - 1)} `);
  const lines: string[] = [];
  for (let r = rows; r >= 1; r--) lines.push(cells.map((c) => cell(c.over >= r ? glyphs.over : " ")).join(""));
  lines.push(days.map((d) => cell(d.counted > 0 ? glyphs.axis : glyphs.noCount)).join(""));
  for (let r = 1; r <= rows; r++) lines.push(cells.map((c) => cell(c.short >= r ? glyphs.short : " ")).join(""));
  return { lines, axisLine: rows, unit, rowsPerSide: rows, cellWidth: width, cells };
}

/**
 * A line of date labels (`MM-DD`) under a chart's columns, one every `every` days from the
 * first, each starting under its day, left out where it would run into the next or past the end.
 */
export function chartDateLabels(dates: readonly string[], cellWidth: number, every = 7): string {
  const width = dates.length * Math.max(1, cellWidth);
  let line = "";
  for (let i = 0; i < dates.length; i += Math.max(1, every)) {
    const at = i * Math.max(1, cellWidth);
    const label = (dates[i] ?? "").slice(5);
    if (at < line.length || at + label.length > width) continue;
    line = line.padEnd(at) + label;
  }
  return line;
}
