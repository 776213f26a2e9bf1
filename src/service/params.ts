import { enums } from "../spec/generated/schemas.js";
import type { QueryValue } from "./context.js";
import { invalid } from "./errors.js";

/**
 * A page size: absent → `def`; out of range → VALUE_TOO_LOW / VALUE_TOO_HIGH, or, where the
 * interface says so (`clamp`), treated as the default.
 */
export function pageLimit(
  value: unknown,
  opts: { min?: number; max: number; def: number; clamp?: boolean; field?: string },
): number {
  const field = opts.field ?? "limit";
  if (value === undefined || value === null) return opts.def;
  if (typeof value !== "number" || !Number.isInteger(value))
    throw invalid("EXPECTED_INTEGER", `Expected an integer for ${field}.`, field);
  const min = opts.min ?? 1;
  if (value > opts.max) {
    if (opts.clamp) return opts.def;
    throw invalid("VALUE_TOO_HIGH", `${field} must be at most ${opts.max}.`, field);
  }
  if (value < min) {
    if (opts.clamp) return opts.def;
    throw invalid("VALUE_TOO_LOW", `${field} must be at least ${min}.`, field);
  }
  return value;
}

/** `ASC` or `DESC` (default `def`); anything else → INVALID_SORT_ORDER. */
export function sortOrder(value: unknown, def: "ASC" | "DESC" = "ASC", field = "sort_order"): "ASC" | "DESC" {
  if (value === undefined || value === null || value === "") return def;
  if (value === "ASC" || value === "DESC") return value;
  throw invalid("INVALID_SORT_ORDER", `${field} must be ASC or DESC.`, field);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/;

/** Days in a month of the proleptic Gregorian calendar. */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * An RFC 3339 timestamp, or INVALID_TIME naming the field. Every part is checked against the
 * calendar and the clock: 2023-02-29, 24:00, a 61st second or an offset of +25:00 are refused,
 * never rolled over into another instant.
 */
export function parseTime(value: QueryValue | unknown, field: string): Date {
  const m = typeof value === "string" ? RFC3339.exec(value) : null;
  if (!m) throw invalid("INVALID_TIME", `${field} must be an RFC 3339 timestamp.`, field);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const offsetHours = m[9] === undefined ? 0 : Number(m[9]);
  const offsetMinutes = m[10] === undefined ? 0 : Number(m[10]);
  if (
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  ) {
    throw invalid("INVALID_TIME", `${field} is not a real point in time: ${JSON.stringify(value)}.`, field);
  }
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0${m[7]}`) * 1000);
  const sign = m[8] === "-" ? -1 : 1;
  const d = new Date(wallClockUtc(year, month, day, hour, minute, second, millis));
  d.setTime(d.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
  if (Number.isNaN(d.getTime())) throw invalid("INVALID_TIME", `${field} is out of range.`, field);
  return d;
}

/**
 * Epoch milliseconds of a checked calendar date and clock time read as UTC. Date.UTC reads the
 * years 0–99 as 1900–1999, so those few go through setUTCFullYear (a third of the speed).
 */
function wallClockUtc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millis: number,
): number {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.setUTCHours(hour, minute, second, millis);
}

/** An optional RFC 3339 timestamp. */
export function optionalTime(value: unknown, field: string): Date | undefined {
  return value === undefined || value === null || value === "" ? undefined : parseTime(value, field);
}

/** The same instant `years` calendar years later (earlier when negative). */
export function addYears(d: Date, years: number): Date {
  const out = new Date(d.getTime());
  out.setUTCFullYear(out.getUTCFullYear() + years);
  return out;
}

/**
 * A listing's reporting window from `begin_time` and `end_time`: by default the year up to now.
 * A begin after the end → INVALID_TIME_RANGE.
 */
export function timeWindow(query: Readonly<Record<string, unknown>>, now: Date): { begin: Date; end: Date } {
  const end = optionalTime(query.end_time, "end_time") ?? now;
  const begin = optionalTime(query.begin_time, "begin_time") ?? addYears(now, -1);
  if (begin.getTime() > end.getTime()) {
    throw invalid("INVALID_TIME_RANGE", "begin_time must not be after end_time.", "begin_time");
  }
  return { begin, end };
}

/** An optional value that must be one of an enumeration's values, or INVALID_ENUM_VALUE on `field`. */
export function enumValue<T extends string = string>(value: unknown, enumName: string, field: string): T | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const s = String(value);
  if (!enums[enumName]?.includes(s)) {
    throw invalid("INVALID_ENUM_VALUE", `${JSON.stringify(s)} is not a valid ${enumName} for ${field}.`, field);
  }
  return s as T;
}
