// A bank statement export read into dated, signed amounts. Banks agree on little: the header may
// follow a few summary lines (Bank of America), the date column is "Date", "Posting Date" or
// "Transaction Date", money is one signed "Amount" or two columns, "Debit" and "Credit" (Lloyds,
// Capital One), withdrawals may be in accountants' brackets, the separator may be `;` with a
// decimal comma (most of Europe), and the file may start with a byte-order mark. Columns are found
// by their headers; flags name them when the headers are unusual.
import { notText, readCsv } from "./csv-read.js";
import { MAX_STATEMENT_LINES } from "./limits.js";
import { parseMoney } from "./money.js";
import { plural } from "./plural.js";
import {
  type ColumnFlags,
  type ColumnLayout,
  cell,
  FLAG_WORDS,
  HEADER_SEARCH_ROWS,
  layoutOf,
  type Row,
  type StatementOption,
} from "./statement-columns.js";
import { compileDateFormat, type DateFormat, guessDateFormat } from "./statement-dates.js";

/** One transaction line of a statement. */
export interface StatementLine {
  /** The 1-based line number in the file, the header and any lines before it included. */
  line: number;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Signed, in minor units: a deposit positive, a withdrawal negative. */
  amount: number;
  currency: string;
  /** The description as the statement shows it. */
  description: string;
  /** Every descriptive cell of the line (description, memo, details, reference), for references. */
  text: string;
}

/** A line that is not a transaction (a balance or summary line), and why. */
export interface SkippedLine {
  line: number;
  reason: string;
}

/** A line that could not be read, and why, in words. */
export interface LineProblem {
  line: number;
  problem: string;
}

/** How to read a statement: its currency, and the flags that name columns or the date format. */
export interface StatementOptions extends ColumnFlags {
  currency: string;
  dateFormat?: string | undefined;
  /** The most lines after the header: {@link MAX_STATEMENT_LINES} unless given. */
  maxLines?: number;
}

/** The columns used, by their headers as the file writes them. */
export interface ColumnsUsed {
  date: string;
  amount?: string;
  debit?: string;
  credit?: string;
  description?: string;
}

/** A statement read, or why it cannot be used. */
export type StatementRead =
  | {
      ok: true;
      lines: StatementLine[];
      skipped: SkippedLine[];
      columns: ColumnsUsed;
      /** 1-based line of the header; 0 when the file has none (columns named by number). */
      headerLine: number;
      dateFormat: string;
      delimiter: string;
      decimalMark: "." | ",";
      notes: string[];
    }
  | {
      ok: false;
      problem: string;
      problems: LineProblem[];
      /** The file as a whole cannot be used (empty, not text, not CSV, too long): naming columns will not help. */
      whole?: true;
      /** The column or date format that naming would solve it, when the problem says one. */
      option?: StatementOption;
    };

const notCsv = (read: { what: string; line?: number }) => ({
  problem: `The file is not CSV that can be read: ${read.what}.`,
  ...(read.line ? { line: read.line } : {}),
  whole: true as const,
});

/**
 * The separator the file uses (the one that yields a usable header) and where its columns are,
 * found from the first rows alone: a statement of 400,000 lines is not split four ways to read its
 * header.
 */
function findLayout(text: string, o: StatementOptions): { delimiter: string; layout: ColumnLayout } | Unreadable {
  let brokenQuotes: { problem: string; line?: number; whole: true } | undefined;
  // Of the separators that split the file but found no usable header, the one that split the
  // header into most cells is the file's: its words say which headers the file has.
  let noLayout: { problem: string; option: StatementOption; cells: number } | undefined;
  for (const delimiter of [",", ";", "\t", "|"]) {
    const read = readCsv(text, { delimiter, records: HEADER_SEARCH_ROWS });
    if (!read.ok) {
      brokenQuotes ??= notCsv(read);
      continue;
    }
    const layout = layoutOf(read.records, o);
    if (layout.ok) return { delimiter, layout };
    const cells = read.records[0]?.cells.length ?? 0;
    if (!noLayout || cells > noLayout.cells) noLayout = { problem: layout.problem, option: layout.option, cells };
  }
  if (noLayout && (noLayout.cells > 1 || !brokenQuotes)) return { problem: noLayout.problem, option: noLayout.option };
  return brokenQuotes ?? { problem: "The file is empty.", whole: true };
}

/**
 * The rows after the header, each cut to the columns the layout uses as it is read, and the layout
 * over those cut rows: the other columns (a balance, a type, a check number) are never held.
 */
function bodyRows(
  text: string,
  { delimiter, layout, maxLines }: { delimiter: string; layout: ColumnLayout; maxLines: number },
): { rows: Row[]; layout: ColumnLayout } | { problem: string; line?: number; whole?: true } {
  const { date, amount, debit, credit, description, texts } = layout;
  const used = [...new Set([date, amount, debit, credit, description, ...texts].filter((i) => i >= 0))];
  const at = (i: number) => (i < 0 ? -1 : used.indexOf(i));
  const after = layout.header?.line ?? 0;
  // Read no further than one line past the most a statement may have: enough to know it has more.
  const enough = maxLines + HEADER_SEARCH_ROWS + 1;
  const read = readCsv(text, { delimiter, records: enough }, (r): Row | undefined =>
    r.line > after ? { line: r.line, cells: used.map((i) => r.cells[i] ?? "") } : undefined,
  );
  if (!read.ok) return notCsv(read);
  if (read.records.length > maxLines) {
    const most = maxLines.toLocaleString("en-US");
    return {
      problem: `The statement has more than ${most} lines; backroom reconciles up to ${most} at a time. Export a shorter range of dates.`,
      whole: true,
    };
  }
  const cut: ColumnLayout = {
    ...layout,
    date: at(date),
    amount: at(amount),
    debit: at(debit),
    credit: at(credit),
    description: at(description),
    texts: texts.map(at),
  };
  return { rows: read.records, layout: cut };
}

/** The decimal mark the amounts use: a comma when amounts end in `,dd` and none in `.dd`. */
function decimalMarkOf(rows: readonly Row[], l: ColumnLayout): "." | "," {
  let comma = 0;
  let dot = 0;
  for (const r of rows) {
    for (const i of [l.amount, l.debit, l.credit]) {
      const digits = cell(r, i).replace(/[^\d.,]/g, "");
      if (/,\d{1,2}$/.test(digits)) comma++;
      else if (/\.\d{1,2}$/.test(digits)) dot++;
    }
  }
  return comma > dot ? "," : ".";
}

/**
 * Reads a bank statement export. Every line after the header is a transaction, a skipped line (no
 * amount: a balance or summary line; no date at all) or a problem (a date or amount that cannot
 * be read). Any problem makes the statement unusable, each one named by its line: nothing is
 * guessed and nothing dropped silently.
 */
export function readStatement(text: string, options: StatementOptions): StatementRead {
  const normalized = text.replace(/\r\n?/g, "\n");
  if (!normalized.replace(/^\ufeff/, "").trim())
    return { ok: false, problem: "The file is empty.", problems: [], whole: true };
  if (notText(normalized))
    return {
      ok: false,
      problem: "The file is not text (a spreadsheet or PDF?); export the statement as CSV.",
      problems: [],
      whole: true,
    };
  let explicit: DateFormat | undefined;
  if (options.dateFormat !== undefined) {
    const f = compileDateFormat(options.dateFormat);
    if ("problem" in f) return { ok: false, problem: f.problem, problems: [], option: "dateFormat" };
    explicit = f;
  }
  const found = findLayout(normalized, options);
  if ("problem" in found) return unreadable(found);
  const split = bodyRows(normalized, { ...found, maxLines: options.maxLines ?? MAX_STATEMENT_LINES });
  if ("problem" in split) return unreadable(split);
  const { rows: body, layout } = split;
  const decimalMark = decimalMarkOf(body, layout);
  const dated = body.filter((r) => /\d/.test(cell(r, layout.date)) && hasAmount(r, layout));
  let format = explicit;
  const notes: string[] = [];
  if (!format) {
    const guess = guessDateFormat(
      dated.map((r) => cell(r, layout.date)),
      options.currency,
      (options.words ?? FLAG_WORDS).giveFormat,
    );
    if (!guess.ok) {
      const problems = dated.map((r) => ({
        line: r.line,
        problem: `"${cell(r, layout.date)}" is not a date backroom can read.`,
      }));
      return { ok: false, problem: guess.problem, problems, option: "dateFormat" };
    }
    format = guess.format;
    if (guess.note) notes.push(guess.note);
  }
  const read = readLines(body, layout, { format, decimalMark, currency: options.currency });
  if (read.problems.length) {
    const n = read.problems.length;
    return {
      ok: false,
      problem: `${plural(n, "line")} of the statement cannot be read.`,
      problems: read.problems,
    };
  }
  return {
    ok: true,
    lines: read.lines,
    skipped: read.skipped,
    columns: columnsUsed(found.layout),
    headerLine: layout.header?.line ?? 0,
    dateFormat: format.pattern,
    delimiter: found.delimiter,
    decimalMark,
    notes,
  };
}

/** Why a file's layout or body cannot be read: the words, the line, whether it is the whole file, what naming would solve it. */
type Unreadable = { problem: string; line?: number; whole?: true; option?: StatementOption };

const unreadable = (p: Unreadable): StatementRead => ({
  ok: false,
  problem: p.problem,
  problems: p.line ? [{ line: p.line, problem: p.problem }] : [],
  ...(p.whole ? { whole: true } : {}),
  ...(p.option ? { option: p.option } : {}),
});

/** The columns used, by their headers (or "column N" without a header). */
function columnsUsed(layout: ColumnLayout): ColumnsUsed {
  const name = (i: number) =>
    i < 0 ? undefined : layout.header ? (layout.header.cells[i] ?? `column ${i + 1}`) : `column ${i + 1}`;
  const columns: ColumnsUsed = { date: name(layout.date) ?? "" };
  for (const [key, i] of [
    ["amount", layout.amount],
    ["debit", layout.debit],
    ["credit", layout.credit],
    ["description", layout.description],
  ] as const) {
    const n = name(i);
    if (n !== undefined) columns[key] = n;
  }
  return columns;
}

const hasAmount = (r: Row, l: ColumnLayout) => Boolean(cell(r, l.amount) || cell(r, l.debit) || cell(r, l.credit));

/** Reads each body row into a line, a skipped line or a problem. */
function readLines(
  body: readonly Row[],
  layout: ColumnLayout,
  how: { format: DateFormat; decimalMark: "." | ","; currency: string },
): { lines: StatementLine[]; skipped: SkippedLine[]; problems: LineProblem[] } {
  const lines: StatementLine[] = [];
  const skipped: SkippedLine[] = [];
  const problems: LineProblem[] = [];
  for (const r of body) {
    const dateText = cell(r, layout.date);
    if (!hasAmount(r, layout)) {
      skipped.push({ line: r.line, reason: "no amount (a balance or summary line)" });
      continue;
    }
    if (!/\d/.test(dateText)) {
      skipped.push({ line: r.line, reason: dateText ? `no date ("${dateText}")` : "no date" });
      continue;
    }
    const date = how.format.read(dateText);
    if (!date) {
      problems.push({ line: r.line, problem: `"${dateText}" is not a date in the form ${how.format.pattern}.` });
      continue;
    }
    const amount = amountOf(r, layout, how);
    if (!amount.ok) {
      problems.push({ line: r.line, problem: amount.problem });
      continue;
    }
    const description = cell(r, layout.description);
    const text = layout.texts
      .map((i) => cell(r, i))
      .filter(Boolean)
      .join(" ");
    lines.push({
      line: r.line,
      date,
      amount: amount.value,
      currency: how.currency,
      description,
      text: text || description,
    });
  }
  return { lines, skipped, problems };
}

/** A row's signed amount: the amount column, or credit − debit (each read without its sign). */
function amountOf(
  r: Row,
  layout: ColumnLayout,
  how: { decimalMark: "." | ","; currency: string },
): { ok: true; value: number } | { ok: false; problem: string } {
  const read = (text: string) => parseMoney(text, how.currency, { decimalMark: how.decimalMark });
  if (layout.amount >= 0) {
    const m = read(cell(r, layout.amount));
    return m.ok ? m : { ok: false, problem: `The amount ${m.problem.replace(/^"/, '"')}` };
  }
  const debitText = cell(r, layout.debit);
  const creditText = cell(r, layout.credit);
  let value = 0;
  for (const [t, sign, word] of [
    [debitText, -1, "debit"],
    [creditText, 1, "credit"],
  ] as const) {
    if (!t) continue;
    const m = read(t);
    if (!m.ok) return { ok: false, problem: `The ${word} ${m.problem}` };
    value += sign * Math.abs(m.value);
  }
  return { ok: true, value };
}

/** The first and last date of the statement's lines; undefined when it has none. */
export function statementRange(lines: readonly StatementLine[]): { from: string; to: string } | undefined {
  if (lines.length === 0) return undefined;
  let from = lines[0]?.date ?? "";
  let to = from;
  for (const l of lines) {
    if (l.date < from) from = l.date;
    if (l.date > to) to = l.date;
  }
  return { from, to };
}
