// What reading a CSV file from outside (a bank statement, a box of gift cards) can say about the
// file as a whole, shared by its readers: whether it is text at all, and csv-parse's complaints
// about quoting in words.

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
