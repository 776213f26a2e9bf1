// Where a bank statement's columns are: the header row (after any summary lines) and which
// column holds the date, the amount (or debit and credit) and the description, found by the
// headers common bank exports use, or named by the command's flags.

/** One record of the file and the line it starts on. */
export interface Row {
  line: number;
  cells: string[];
}

/** The flags that name columns: a header (any case) or a 1-based column number. */
export interface ColumnFlags {
  dateColumn?: string | undefined;
  amountColumn?: string | undefined;
  descriptionColumn?: string | undefined;
  /** How the manager names columns and the date format where the file is read: {@link FLAG_WORDS} unless given. */
  words?: StatementWords | undefined;
}

/**
 * How a manager names what a statement's headers do not say, for the messages: flags on the
 * command line, the form's fields in the app.
 */
export interface StatementWords {
  date: string;
  amount: string;
  description: string;
  /** How the date and amount columns are named, after "Name the columns ". */
  nameColumns: string;
  /** How the date format is given, as a verb phrase. */
  giveFormat: string;
}

/** The command line's words: its flags. */
export const FLAG_WORDS: StatementWords = {
  date: "--date-column",
  amount: "--amount-column",
  description: "--description-column",
  nameColumns: "with --date-column and --amount-column",
  giveFormat: "pass --date-format",
};

/** A cell of a row, trimmed; empty for a column that is not there (-1). */
export const cell = (row: Row, i: number): string => (i >= 0 ? (row.cells[i] ?? "").trim() : "");

/** Header words of each role, best first (a posting date over a transaction date: the money's day). */
const DATE_HEADERS = [
  "posting date",
  "posted date",
  "post date",
  "date posted",
  "booking date",
  "date",
  "transaction date",
  "trans date",
  "value date",
  "effective date",
];
const AMOUNT_HEADERS = ["amount", "transaction amount", "amt"];
const DEBIT_HEADERS = [
  "debit",
  "debits",
  "debit amount",
  "withdrawal",
  "withdrawals",
  "withdrawal amount",
  "money out",
  "paid out",
  "withdrawal amt",
];
const CREDIT_HEADERS = [
  "credit",
  "credits",
  "credit amount",
  "deposit",
  "deposits",
  "deposit amount",
  "money in",
  "paid in",
  "deposit amt",
];
const DESCRIPTION_HEADERS = [
  "description",
  "transaction description",
  "memo",
  "details",
  "transaction details",
  "narrative",
  "payee",
  "name",
  "reference",
  "particulars",
];

/** A header cell folded for comparison: lower case, `Amount (USD)` → `amount`, `Running Bal.` → `running bal`. */
function fold(header: string): string {
  return header
    .toLowerCase()
    .replace(/\((?:[a-z]{3}|[$€£¥])\)/g, " ")
    .replace(/[^a-z0-9#]+/g, " ")
    .trim();
}

const findHeader = (folded: readonly string[], words: readonly string[]): number => {
  for (const w of words) {
    const i = folded.indexOf(w);
    if (i >= 0) return i;
  }
  return -1;
};

/** The columns of each role in a row of headers: indexes, -1 where absent. */
interface Roles {
  date: number;
  amount: number;
  debit: number;
  credit: number;
  description: number;
  texts: number[];
}

function rolesOf(row: readonly string[]): Roles {
  const folded = row.map(fold);
  const texts = folded.flatMap((h, i) => (DESCRIPTION_HEADERS.includes(h) ? [i] : []));
  return {
    date: findHeader(folded, DATE_HEADERS),
    amount: findHeader(folded, AMOUNT_HEADERS),
    debit: findHeader(folded, DEBIT_HEADERS),
    credit: findHeader(folded, CREDIT_HEADERS),
    description: findHeader(folded, DESCRIPTION_HEADERS),
    texts,
  };
}

/** A `--…-column` value: a header (any case) or a 1-based column number. */
function namedColumn(row: readonly string[], wanted: string): number {
  if (/^\d+$/.test(wanted.trim())) return Number(wanted.trim()) - 1;
  const f = fold(wanted);
  return row.findIndex((h) => fold(h) === f || h.trim().toLowerCase() === wanted.trim().toLowerCase());
}

/**
 * What the manager may name when a statement's headers or dates are unusual: a column (by header
 * or number) or the date format. A problem that one of them would solve names it.
 */
export type StatementOption = "dateColumn" | "amountColumn" | "descriptionColumn" | "dateFormat";

/** How many of a file's first rows may come before its header (summary lines). */
export const HEADER_SEARCH_ROWS = 40;

/** Where the columns are: the header row and the index of each role, or why none was found. */
export type Layout = ColumnLayout | { ok: false; problem: string; option: StatementOption };

/** The columns found: the header row (none when columns are given by number) and each role's index. */
export type ColumnLayout = Roles & { ok: true; header: Row | undefined };

const isNumber = (v: string | undefined): v is string => v !== undefined && /^\d+$/.test(v.trim());

/**
 * Finds the header: the first of the first rows that names a date column and an amount column (or
 * a debit and a credit column), the flags' names included. Summary lines before it are passed
 * over. Without a header, flags that give the date and amount columns by number read every row.
 */
export function layoutOf(rows: readonly Row[], o: ColumnFlags): Layout {
  for (const row of rows.slice(0, HEADER_SEARCH_ROWS)) {
    const r = rolesOf(row.cells);
    const pick = (flag: string | undefined, auto: number) => (flag === undefined ? auto : namedColumn(row.cells, flag));
    const date = pick(o.dateColumn, r.date);
    const amount = pick(o.amountColumn, r.amount);
    const description = pick(o.descriptionColumn, r.description);
    const debit = o.amountColumn === undefined ? r.debit : -1;
    const credit = o.amountColumn === undefined ? r.credit : -1;
    // A row is the header when it names some of the columns itself: numbered flags name no row.
    const namesOne =
      (!isNumber(o.dateColumn) && date >= 0) || (!isNumber(o.amountColumn) && (amount >= 0 || debit >= 0));
    if (date >= 0 && (amount >= 0 || (debit >= 0 && credit >= 0)) && namesOne) {
      const texts = o.descriptionColumn === undefined ? r.texts : [description];
      return { ok: true, header: row, date, amount, debit, credit, description, texts: texts.filter((i) => i >= 0) };
    }
  }
  if (isNumber(o.dateColumn) && isNumber(o.amountColumn)) {
    const description = o.descriptionColumn === undefined ? -1 : namedColumn([], o.descriptionColumn);
    return {
      ok: true,
      header: undefined,
      date: namedColumn([], o.dateColumn),
      amount: namedColumn([], o.amountColumn),
      debit: -1,
      credit: -1,
      description,
      texts: description >= 0 ? [description] : [],
    };
  }
  const words = o.words ?? FLAG_WORDS;
  for (const [flag, value, option] of [
    [words.date, o.dateColumn, "dateColumn"],
    [words.amount, o.amountColumn, "amountColumn"],
    [words.description, o.descriptionColumn, "descriptionColumn"],
  ] as const) {
    if (value === undefined || isNumber(value)) continue;
    if (!rows.slice(0, HEADER_SEARCH_ROWS).some((r) => namedColumn(r.cells, value) >= 0)) {
      return {
        ok: false,
        problem: `No column is headed "${value}" (${flag}); give a header the file has, or a column number from 1.`,
        option,
      };
    }
  }
  const first = rows[0]?.cells.filter(Boolean).join(", ");
  // Both the date and the amount columns are to be named: the date's, the first of them, is where to start.
  return {
    ok: false,
    problem: `No header row with a date column and an amount (or debit and credit) column was found${
      first ? ` (the first line has: ${first.slice(0, 120)})` : ""
    }. Name the columns ${words.nameColumns} (a header, or a column number from 1).`,
    option: "dateColumn",
  };
}
