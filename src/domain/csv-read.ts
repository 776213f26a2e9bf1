// What reading a CSV file from outside (a count file, a bank statement, a box of gift cards) shares
// among its readers: whether it is text at all, records split by csv-parse with the line each starts
// on, and csv-parse's complaints about quoting in words.
import { CsvError } from "csv-parse";
import { parse } from "csv-parse/sync";

/** Whether the text is no text file at all: a NUL never occurs in text (a spreadsheet's own file, a PDF, an archive). */
export const notText = (text: string): boolean => text.includes("\u0000");

/**
 * csv-parse's complaint about quoting, in words, with the line it names: "a quote on line 3 is
 * never closed", "line 2 has text after a closing quote", "line 2 has a quote inside a field".
 */
export function quotingProblem(e: { code?: string; lines?: number }): { what: string; line?: number } {
  const line = typeof e.lines === "number" ? e.lines : undefined;
  const where = line === undefined ? "a line" : `line ${line}`;
  const what =
    e.code === "CSV_QUOTE_NOT_CLOSED"
      ? `a quote${line === undefined ? "" : ` on line ${line}`} is never closed`
      : e.code === "CSV_INVALID_CLOSING_QUOTE" || e.code === "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE"
        ? `${where} has text after a closing quote`
        : `${where} has a quote inside a field`;
  return line === undefined ? { what } : { what, line };
}

/** One record of a CSV file: its cells (trimmed outside quotes) and the 1-based line it starts on. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** How to split a file into records. */
export interface CsvSplit {
  /** What stands between columns: `,`, `;`, a tab, `|`; or any of several. */
  delimiter: string | readonly string[];
  /** Keep a quote inside an unquoted field (`16" nails`) as text instead of refusing the file. */
  relaxQuotes?: boolean;
  /** Stop after this many records (the header alone: 1). */
  records?: number;
}

/** A file split into records, or its broken quoting in words with the line it names. */
export type CsvRead<T = CsvRecord> = { ok: true; records: T[] } | { ok: false; what: string; line?: number };

/**
 * Splits CSV text into records with csv-parse: a byte-order mark dropped, quotes and doubled
 * quotes, CRLF or LF, blank lines skipped (still counted), rows of any width. Each record carries
 * the line it starts on, so a quoted line break inside a record does not shift the lines after it;
 * a quote never closed is named by the line it opens on, not the file's last line.
 */
export function readCsv(text: string, how: CsvSplit): CsvRead;
/**
 * Splits CSV text as {@link readCsv} does and keeps what `keep` makes of each record (undefined
 * drops it): a large file's records are not all held before they are cut to what is needed.
 */
export function readCsv<T>(text: string, how: CsvSplit, keep: (r: CsvRecord) => T | undefined): CsvRead<T>;
export function readCsv<T>(
  text: string,
  how: CsvSplit,
  keep: (r: CsvRecord) => T | undefined = (r) => r as T,
): CsvRead<T> {
  const records: T[] = [];
  // csv-parse counts the line a record ends on and the blank lines skipped so far; the next record
  // starts on the line after the last one's end, past the blank lines skipped since. It counts a
  // CRLF inside quotes as two lines: those extra lines are taken off.
  let ended = 0;
  let blank = 0;
  let extra = 0;
  const startOf = (skipped: number) => ended + 1 + skipped - blank;
  try {
    parse(text, {
      bom: true,
      delimiter: typeof how.delimiter === "string" ? how.delimiter : [...how.delimiter],
      relax_column_count: true,
      relax_quotes: how.relaxQuotes ?? false,
      skip_empty_lines: true,
      trim: true,
      ...(how.records === undefined ? {} : { to: how.records }),
      on_record: (cells: string[], info) => {
        const kept = keep({ line: startOf(info.empty_lines), cells });
        if (kept !== undefined) records.push(kept);
        for (const c of cells) if (c.includes("\r\n")) extra += c.split("\r\n").length - 1;
        ended = info.lines - extra;
        blank = info.empty_lines;
        // Kept here as it is, so csv-parse keeps no array of its own beside this one.
        return null;
      },
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const e = err as CsvError & { lines?: number; empty_lines?: number };
    const lines =
      e.code === "CSV_QUOTE_NOT_CLOSED" && typeof e.empty_lines === "number"
        ? startOf(e.empty_lines)
        : e.lines === undefined
          ? undefined
          : e.lines - extra;
    return { ok: false, ...quotingProblem({ code: e.code, ...(lines === undefined ? {} : { lines }) }) };
  }
  return { ok: true, records };
}
