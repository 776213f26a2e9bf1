import stringWidth from "string-width";
import type { Theme } from "../theme.js";

/** One column of a table: the header and every cell come from it, so they cannot drift apart. */
export interface Column<Row> {
  header: string;
  /** A fixed width in cells; with `flex`, the least width. */
  width?: number;
  /** A share of the room left after fixed columns. */
  flex?: number;
  align?: "left" | "right";
  render: (row: Row, index: number) => string;
  /**
   * What the cell says when `render`'s text is wider than the column: the same essential facts in
   * fewer words, or several such forms (fewest words last; the first that fits is taken). What is
   * cut then is at its end, whole words with digits. Without it the text is cut with `…`.
   */
  narrow?: (row: Row, index: number) => string | readonly string[];
  color?: (row: Row, theme: Theme) => string | undefined;
  /** Columns with a higher number are dropped first when the terminal is narrow (0 never). */
  drop?: number;
}

/** A column with the width it gets. */
export interface PlacedColumn<Row> {
  column: Column<Row>;
  width: number;
}

/** The gap between columns. */
export const GAP = 1;

/**
 * Gives each column its width within `total` cells: fixed columns first, flex columns share what
 * is left. When even the least widths do not fit, droppable columns go, highest `drop` first.
 */
export function layoutColumns<Row>(columns: readonly Column<Row>[], total: number): PlacedColumn<Row>[] {
  let kept = [...columns];
  const least = (c: Column<Row>) => c.width ?? Math.max(4, stringWidth(c.header));
  const need = (cs: Column<Row>[]) => cs.reduce((sum, c) => sum + least(c), 0) + GAP * Math.max(0, cs.length - 1);
  while (need(kept) > total) {
    const victim = kept.reduce<Column<Row> | undefined>((v, c) => ((c.drop ?? 0) > (v?.drop ?? 0) ? c : v), undefined);
    if (!victim) break;
    kept = kept.filter((c) => c !== victim);
  }
  const fixed = kept.filter((c) => !c.flex).reduce((sum, c) => sum + least(c), 0);
  const flexCols = kept.filter((c) => c.flex);
  const flexTotal = flexCols.reduce((sum, c) => sum + (c.flex ?? 0), 0);
  const flexLeast = flexCols.reduce((sum, c) => sum + least(c), 0);
  // Every flex column gets its least width; what is left over is shared by their weights.
  const extra = Math.max(0, total - fixed - flexLeast - GAP * Math.max(0, kept.length - 1));
  let given = 0;
  return kept.map((c) => {
    if (!c.flex) return { column: c, width: least(c) };
    const isLast = c === flexCols[flexCols.length - 1];
    const share = isLast ? extra - given : Math.floor((extra * (c.flex ?? 0)) / Math.max(1, flexTotal));
    given += share;
    return { column: c, width: least(c) + share };
  });
}

/**
 * Replaces control characters (C0, DEL and C1: escape sequences, bells, carriage returns) that
 * would garble the frame; a tab counts as a space.
 */
export function stripControl(text: string, replacement = " "): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code === 0x09) out += " ";
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += replacement;
    else out += ch;
  }
  return out;
}

/** A cell's text within `width`: `render`'s, or the first of `narrow`'s forms that fits (or its last). */
export function cellText<Row>(column: Column<Row>, row: Row, index: number, width: number): string {
  const text = column.render(row, index);
  if (!column.narrow || stringWidth(text) <= width) return text;
  const forms = column.narrow(row, index);
  return typeof forms === "string" ? forms : firstThatFits(forms, width);
}

/**
 * The first of `texts` (most words first, fewest last) that fits in `width` cells, or the last one:
 * a line shortened by priority, where what goes first is the least important wording.
 */
export function firstThatFits(texts: readonly string[], width: number): string {
  return texts.find((t) => stringWidth(t) <= width) ?? texts[texts.length - 1] ?? "";
}

/**
 * Fits text into exactly `width` cells: padded on the side of its alignment, cut with `…`. A
 * figure is never cut (`1.4…` would read as another number): it goes whole, so a cell of one
 * number too wide for its column is only the mark.
 */
export function fitCell(text: string, width: number, align: "left" | "right" = "left"): string {
  if (width <= 0) return "";
  const clean = stripControl(text);
  const out = stringWidth(clean) > width ? `${cutBefore(clean, width - 1)}…` : clean;
  const pad = " ".repeat(Math.max(0, width - stringWidth(out)));
  return align === "right" ? pad + out : out + pad;
}

/** The start of `text` within `room` cells, never ending inside a word that has a digit. */
function cutBefore(text: string, room: number): string {
  let kept = "";
  let w = 0;
  for (const ch of text) {
    const cw = stringWidth(ch);
    if (w + cw > room) break;
    kept += ch;
    w += cw;
  }
  const rest = text.slice(kept.length);
  const tail = /\S*$/.exec(kept)?.[0] ?? "";
  const head = /^\S*/.exec(rest)?.[0] ?? "";
  // The cut falls inside a word (or right after one that goes on): a figure there goes whole.
  if (tail && head && FIGURE.test(tail + head)) return kept.slice(0, kept.length - tail.length).trimEnd();
  return kept;
}

/**
 * A word that reads as a figure: digits with their separators, a sign or mark before, a unit of a
 * few letters after (`>40h`, `1.48h`, `(12.50)`, `+20.00`, `2026-06-15`, `08:00`). An id with digits
 * in it (`pay_7Hk2`, `PL-1104`) is not one: cut, its start still tells it apart.
 */
const FIGURE = /^[^\p{L}\d]*\d[\d.,:/\-–]*[\p{L}%]{0,3}[^\p{L}\d]*$/u;

/**
 * Text laid out in lines of at most `width` cells, broken between words (a word longer than a line
 * is cut); past `maxLines`, the last line shown ends with `…`.
 */
export function wrapLines(text: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  if (width <= 0 || maxLines < 1) return [];
  const lines: string[] = [];
  let line = "";
  const words = stripControl(text)
    .split(" ")
    .filter((w) => w !== "");
  for (const word of words) {
    const joined = line ? `${line} ${word}` : word;
    if (stringWidth(joined) <= width) line = joined;
    else {
      if (line) lines.push(line);
      line = stringWidth(word) > width ? fitCell(word, width) : word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const shown = lines.slice(0, maxLines);
  const last = shown[maxLines - 1] ?? "";
  // The cut line keeps what fits before its `…`; fitCell pads, so the padding is trimmed.
  shown[maxLines - 1] = stringWidth(last) < width ? `${last}…` : fitCell(`${last}…`, width).trimEnd();
  return shown;
}

/** A row's cells (or the header's) laid out as one string. */
export function rowText<Row>(placed: readonly PlacedColumn<Row>[], cell: (c: Column<Row>) => string): string {
  return placed.map((p) => fitCell(cell(p.column), p.width, p.column.align)).join(" ".repeat(GAP));
}

/**
 * Segments (`Totals: 6 shifts`, `expected 5,606.95`, …) on lines of at most `width` cells with
 * ` · ` between them, at most `max` lines: a segment is never cut, the ones that do not fit go
 * whole (so put what matters first). A single segment wider than a line is cut with `…`.
 */
export function wrapSegments(segments: readonly string[], width: number, max = 1): string[] {
  const lines: string[] = [];
  let line = "";
  for (const seg of segments) {
    const next = line ? `${line} · ${seg}` : seg;
    if (line && stringWidth(next) > width) {
      lines.push(line);
      line = seg;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines.slice(0, max).map((l) => (stringWidth(l) > width ? fitCell(l, width).trimEnd() : l));
}

/** How many of the first segments fit on one line of `width` cells, ` · ` between them (at least one). */
export function segmentsThatFit(segments: readonly string[], width: number): number {
  let used = 0;
  let n = 0;
  for (const seg of segments) {
    const w = stringWidth(seg) + (n > 0 ? 3 : 0);
    if (n > 0 && used + w > width) break;
    used += w;
    n += 1;
  }
  return n;
}
