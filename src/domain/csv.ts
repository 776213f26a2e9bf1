import type { ReviewRow } from "./shifts.js";
import { breakMinutes } from "./shifts.js";
import { formatHours, localDate, localTime } from "./time.js";

/** Quotes one CSV field when it holds a comma, quote, or line break (RFC 4180). */
export function csvField(value: string | number): string {
  const text = String(value);
  // A leading = + - @ makes spreadsheets evaluate the cell; prefix a quote so names stay text.
  const safe = /^[=+\-@]/.test(text) && Number.isNaN(Number(text)) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Lines joined with CRLF, each a row of quoted fields, ending with a line break. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((r) => r.map(csvField).join(",")).join("\r\n") + (rows.length ? "\r\n" : "");
}

/** Header of the review export. */
export const REVIEW_CSV_HEADER = ["member", "date", "start", "end", "breaks", "paid hours", "wage", "cost", "currency"];

const cents = (amount: number | undefined) => (typeof amount === "number" ? (amount / 100).toFixed(2) : "");

/**
 * The review as CSV, one row per shift: the workday, local start/end times (`open` while
 * running), breaks as `name minutes (paid|unpaid)` joined by `; `, paid hours, hourly wage, cost.
 */
export function reviewCsv(rows: readonly ReviewRow[], timeZone: string, now: Date): string {
  const lines: (string | number)[][] = [REVIEW_CSV_HEADER];
  for (const r of rows) {
    const s = r.shift;
    const end = s.end_at ? new Date(s.end_at) : now;
    const breaks = (s.breaks ?? [])
      .map((b) => `${b.name} ${Math.round(breakMinutes(b, end))}m (${b.is_paid ? "paid" : "unpaid"})`)
      .join("; ");
    const endText = s.end_at
      ? localDate(s.end_at, timeZone) === localDate(s.start_at, timeZone)
        ? localTime(s.end_at, timeZone)
        : `${localDate(s.end_at, timeZone)} ${localTime(s.end_at, timeZone)}`
      : "open";
    lines.push([
      r.memberName,
      r.workday,
      localTime(s.start_at, timeZone),
      endText,
      breaks,
      formatHours(r.totals.paidHours),
      cents(s.wage?.hourly_rate?.amount),
      cents(r.totals.cost?.amount),
      r.totals.cost?.currency ?? s.wage?.hourly_rate?.currency ?? "",
    ]);
  }
  return toCsv(lines);
}
