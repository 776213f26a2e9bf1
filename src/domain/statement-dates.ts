// Dates as bank exports write them: ISO, month first (US), day first (UK, most of Europe), with
// month names, two-digit years. A format is a pattern of YYYY, YY, MM/M, DD/D and MMM (a month's
// name) between separators; `--date-format` takes the same patterns.
import { parseDate } from "./time.js";

/** A date pattern compiled for reading. */
export interface DateFormat {
  /** The pattern as written: `MM/DD/YYYY`. */
  pattern: string;
  read(text: string): string | undefined;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

type Part = "year4" | "year2" | "month" | "monthName" | "day";

const TOKENS: readonly [string, Part, string][] = [
  ["YYYY", "year4", "(\\d{4})"],
  ["YY", "year2", "(\\d{2})"],
  ["MMM", "monthName", "([A-Za-z]{3,9})\\.?"],
  ["MM", "month", "(\\d{1,2})"],
  ["M", "month", "(\\d{1,2})"],
  ["DD", "day", "(\\d{1,2})"],
  ["D", "day", "(\\d{1,2})"],
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Compiles a pattern such as `DD.MM.YYYY` or `D MMM YYYY`; returns the problem in words when it
 * lacks a year, a month or a day, or names one twice. A time after the date (`2026-01-15 10:32`,
 * `2026-01-15T10:32:00Z`) is allowed and ignored.
 */
export function compileDateFormat(pattern: string): DateFormat | { problem: string } {
  const parts: Part[] = [];
  let source = "";
  let rest = pattern.trim();
  if (!rest) return { problem: "The date format is empty; write it like YYYY-MM-DD or DD/MM/YYYY." };
  while (rest) {
    const token = TOKENS.find(([t]) => rest.toUpperCase().startsWith(t));
    if (token) {
      parts.push(token[1]);
      source += token[2];
      rest = rest.slice(token[0].length);
    } else {
      const ch = rest[0] ?? "";
      if (/[A-Za-z0-9]/.test(ch)) {
        return { problem: `The date format "${pattern}" has "${ch}"; use YYYY, YY, MM, M, DD, D and MMM.` };
      }
      source += ch === " " ? "\\s+" : escapeRe(ch);
      rest = rest.slice(1);
    }
  }
  const years = parts.filter((p) => p === "year4" || p === "year2").length;
  const months = parts.filter((p) => p === "month" || p === "monthName").length;
  const days = parts.filter((p) => p === "day").length;
  if (years !== 1 || months !== 1 || days !== 1) {
    return { problem: `The date format "${pattern}" needs one year, one month and one day (like DD/MM/YYYY).` };
  }
  const re = new RegExp(`^${source}(?:[T\\s].*)?$`);
  return {
    pattern: pattern.trim(),
    read(text: string) {
      const m = re.exec(text.trim());
      if (!m) return undefined;
      let year = 0;
      let month = 0;
      let day = 0;
      parts.forEach((p, i) => {
        const v = m[i + 1] ?? "";
        if (p === "year4") year = Number(v);
        else if (p === "year2") year = 2000 + Number(v);
        else if (p === "month") month = Number(v);
        else if (p === "monthName") month = MONTHS.indexOf(v.slice(0, 3).toLowerCase()) + 1;
        else day = Number(v);
      });
      const iso = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
      return parseDate(iso) ? iso : undefined;
    },
  };
}

/** The patterns tried when no `--date-format` is given, the unambiguous ones first. */
const KNOWN = [
  "YYYY-MM-DD",
  "YYYY/MM/DD",
  "YYYYMMDD",
  "MM/DD/YYYY",
  "DD/MM/YYYY",
  "DD.MM.YYYY",
  "MM-DD-YYYY",
  "DD-MM-YYYY",
  "MM/DD/YY",
  "DD/MM/YY",
  "DD.MM.YY",
  "D MMM YYYY",
  "DD-MMM-YYYY",
  "DD-MMM-YY",
  "MMM D, YYYY",
  "MMM D YYYY",
].map((p) => compileDateFormat(p) as DateFormat);

/** The format that reads a file's dates, and why it was chosen when the dates left a choice. */
export type DateFormatGuess = { ok: true; format: DateFormat; note?: string } | { ok: false; problem: string };

/**
 * Finds the known format that reads the most of the dates given (all of them, in a sound file;
 * the ones it cannot read are then the file's problems, line by line). When both month-first and
 * day-first read as many (every day is 12 or less), US dollars mean month first and any other
 * currency day first, and the note says so: `--date-format` settles it.
 */
export function guessDateFormat(
  samples: readonly string[],
  currency: string,
  giveFormat = "pass --date-format",
): DateFormatGuess {
  const dates = samples.map((s) => s.trim()).filter(Boolean);
  if (dates.length === 0) return { ok: false, problem: "There are no dates to read." };
  const scores = KNOWN.map((f) => score(f, dates));
  const best = Math.max(...scores);
  if (best === 0) {
    return {
      ok: false,
      problem: `The date "${dates[0]}" is in no format backroom knows; ${giveFormat} (like DD/MM/YYYY).`,
    };
  }
  const fitting = KNOWN.filter((_, i) => scores[i] === best);
  const first = fitting[0] as DateFormat;
  const monthFirst = fitting.find((f) => f.pattern.startsWith("MM"));
  const dayFirst = fitting.find((f) => f.pattern.startsWith("DD"));
  if (monthFirst && dayFirst && !first.pattern.startsWith("YYYY")) {
    const chosen = currency.toUpperCase() === "USD" ? monthFirst : dayFirst;
    return {
      ok: true,
      format: chosen,
      note: `The dates could be month first or day first; read as ${chosen.pattern}. ${giveFormat.charAt(0).toUpperCase()}${giveFormat.slice(1)} if that is wrong.`,
    };
  }
  return { ok: true, format: first };
}

const score = (f: DateFormat, dates: readonly string[]) => dates.filter((d) => f.read(d) !== undefined).length;
