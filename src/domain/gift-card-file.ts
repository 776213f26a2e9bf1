// A box of gift cards as a file: one card number a line, or a CSV with a `gan` column (other
// columns ignored). Read with csv-parse: a byte-order mark, quotes, `;` or tab between columns,
// and line numbers for every problem.
import { notText, readCsv } from "./csv-read.js";
import { ganToRegister, normalizeGan } from "./gan.js";
import { MAX_CARD_FILE_LINES } from "./limits.js";

/** A card number of the file, with the line it is on. */
export interface CardLine {
  line: number;
  gan: string;
}

/** A line that cannot be used, and why. */
export interface CardLineProblem {
  line: number;
  text: string;
  problem: string;
}

/** The file read: the card numbers in file order (each once), and the lines left out. */
export interface CardFile {
  cards: CardLine[];
  problems: CardLineProblem[];
}

/**
 * Reads a box's file, or says why the whole file cannot be read: not text, not CSV, or more than
 * `maxLines` lines after any header (read no further than one line past that).
 */
export function parseCardFile(
  text: string,
  { maxLines = MAX_CARD_FILE_LINES }: { maxLines?: number } = {},
): { ok: true; value: CardFile } | { ok: false; problem: string } {
  if (notText(text)) {
    return {
      ok: false,
      problem: "This is not a text file; save the card numbers as CSV (one number a line, or a gan column).",
    };
  }
  const read = readCsv(text, { delimiter: [",", ";", "\t"], records: maxLines + 2 });
  if (!read.ok) return { ok: false, problem: `The file is not readable as CSV: ${read.what}.` };
  const rows = read.records;
  const header = rows[0]?.cells.map((c) => c.trim().toLowerCase());
  const column = header?.indexOf("gan") ?? -1;
  const body = column >= 0 ? rows.slice(1) : rows;
  if (body.length > maxLines) {
    const most = maxLines.toLocaleString("en-US");
    return {
      ok: false,
      problem: `The file has more than ${most} lines; backroom activates up to ${most} cards from one file. Split the box into files of ${most} lines or fewer.`,
    };
  }
  // A first line without a digit is a header, not a card number: a header must name the column.
  if (column < 0 && header && !header.some((c) => /\d/.test(c))) {
    return {
      ok: false,
      problem: `The first line (${header.join(", ")}) looks like column names, but none is gan: call the card number column gan, or give one number a line.`,
    };
  }
  const cards: CardLine[] = [];
  const problems: CardLineProblem[] = [];
  const seen = new Map<string, number>();
  for (const { cells, line } of body) {
    const raw = (column >= 0 ? cells[column] : cells[0]) ?? "";
    if (raw.trim() === "") continue;
    const gan = normalizeGan(raw);
    const problem = cardLineProblem(raw, gan, seen.get(gan));
    if (problem) {
      problems.push({ line, text: raw, problem });
      continue;
    }
    seen.set(gan, line);
    cards.push({ line, gan });
  }
  return { ok: true, value: { cards, problems } };
}

function cardLineProblem(raw: string, gan: string, earlier: number | undefined): string | undefined {
  if (/^\d(\.\d+)?e\+\d+$/i.test(raw.trim())) {
    return "a spreadsheet turned this card number into a rounded number; format the column as text and export again";
  }
  if (earlier !== undefined) return `the same card number as line ${earlier}`;
  const checked = ganToRegister(gan);
  return checked.ok ? undefined : checked.problem.replace(/^./, (c) => c.toLowerCase()).replace(/\.$/, "");
}
