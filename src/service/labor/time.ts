import { addDays, offsetAt, parseClockTime, parseDate, zonedInstant } from "../../domain/time.js";
import { invalid } from "../errors.js";

const MINUTE = 60_000;
const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0");

/** Drops seconds and milliseconds: the interface keeps shift and break times to the minute. */
export const truncateToMinute = (ms: number): number => Math.floor(ms / MINUTE) * MINUTE;

/** The instant the wall clock in `timeZone` reads `date` (`YYYY-MM-DD`) plus `minutes` after midnight. */
export function wallClockMs(date: string, minutes: number, timeZone: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d) + minutes * MINUTE;
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}

/** `00` to `99`: the two-digit fields of {@link zonedRfc3339}, looked up rather than padded. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const two = (n: number): string => TWO_DIGITS[n] ?? pad(n);

/** RFC 3339 at the wall clock of `timeZone` with its offset (`2024-01-18T09:05:00-05:00`), as shifts are written. */
export function zonedRfc3339(ms: number, timeZone: string): string {
  const offset = offsetAt(ms, timeZone);
  const wall = new Date(ms + offset);
  const sign = offset < 0 ? "-" : "+";
  const offMin = Math.round(Math.abs(offset) / MINUTE);
  return (
    `${pad(wall.getUTCFullYear(), 4)}-${two(wall.getUTCMonth() + 1)}-${two(wall.getUTCDate())}` +
    `T${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}` +
    `${sign}${two(Math.floor(offMin / 60))}:${two(offMin % 60)}`
  );
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** `HH:MM` or `HH:MM:SS` (seconds truncated) → `HH:MM`; anything else → INVALID_VALUE on `field`. */
export function normalizeLocalTime(text: string, field: string): string {
  const t = /^\d{2}:\d{2}(:\d{2})?$/.test(text) ? parseClockTime(text) : undefined;
  if (!t) throw invalid("INVALID_VALUE", `${field} must be a local time in HH:MM format.`, field);
  return `${pad(t.hour)}:${pad(t.minute)}`;
}

/** A `YYYY-MM-DD` date or INVALID_DATE on `field`. */
export function checkDate(text: string, field: string): string {
  if (!parseDate(text)) throw invalid("INVALID_DATE", `${field} must be a date in YYYY-MM-DD format.`, field);
  return text;
}

/**
 * The instants a range of workdays covers at one time zone: from the start of day (the workweek's
 * `start_of_day_local_time`) of the first date to the start of day after the last date, half-open.
 * A missing end of the range leaves that side open.
 */
export function workdayWindow(
  range: { start_date?: string; end_date?: string },
  timeZone: string,
  startOfDay: string,
): { from: number; to: number } {
  const from = range.start_date ? zonedInstant(range.start_date, startOfDay, timeZone).getTime() : -8.64e15;
  const to = range.end_date ? zonedInstant(addDays(range.end_date, 1), startOfDay, timeZone).getTime() : 8.64e15;
  return { from, to };
}
