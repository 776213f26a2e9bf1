/** Local date and time parts of an instant in one IANA time zone. */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The one Intl formatter of wall clocks in `timeZone` (en-US, 24-hour, two-digit fields), made once. */
export function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock parts of `instant` in `timeZone`, from its offset there (see {@link offsetAt}). */
export function localParts(instant: Date | number, timeZone: string): LocalParts {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  // Intl reports an invalid date or an unknown zone in its own words.
  if (!Number.isFinite(ms)) return intlParts(instant, timeZone);
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offsetAt(ms, timeZone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

/** The text {@link formatterFor}'s formatters write for a year of four digits: `MM/DD/YYYY, HH:MM:SS`. */
const FORMATTED = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

/**
 * The wall-clock parts of `instant` in `timeZone`, as Intl formats them (slow: a few µs a call).
 * Read off the formatted text, a third of the time of the list of parts that formatToParts
 * allocates; a text of any other shape (a year before 1000 or after 9999, an era) is read from
 * that list.
 */
function intlParts(instant: Date | number, timeZone: string): LocalParts {
  const formatter = formatterFor(timeZone);
  const m = FORMATTED.exec(formatter.format(instant));
  if (m) {
    const [, month, day, year, hour, minute, second] = m;
    return {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: Number(hour),
      minute: Number(minute),
      second: Number(second),
    };
  }
  const parts: Record<string, number> = {};
  for (const p of formatter.formatToParts(instant)) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** `YYYY-MM-DD` of `instant` in `timeZone`. */
export function localDate(instant: Date | number | string, timeZone: string): string {
  const p = localParts(new Date(instant), timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** This machine's time zone (its TZ or system setting), for times with no store to take a zone from. */
export const machineTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `HH:MM` of `instant` in `timeZone`. */
export function localTime(instant: Date | number | string, timeZone: string): string {
  const p = localParts(new Date(instant), timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** `HH:MM:SS` of `instant` in `timeZone` (a try every few seconds is told apart by its seconds). */
export function localTimeSeconds(instant: Date | number | string, timeZone: string): string {
  const p = localParts(new Date(instant), timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** Milliseconds that `timeZone` is ahead of UTC at `instant`, asked of Intl. */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const p = intlParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Per zone, per UTC day: the day's one offset, or null when it changes during the day. */
const dayOffsets = new Map<string, Map<number, number | null>>();

/**
 * Milliseconds that `timeZone` is ahead of UTC at `ms`, as {@link zoneOffsetMs} but fast. Intl
 * is slow and allocates, and a review or a seed asks about many thousands of instants, so each
 * UTC day is asked about once: when its two ends agree (no transition that day, as on all but
 * two days a year) the whole day has that offset; otherwise the instant itself is asked.
 */
export function offsetAt(ms: number, timeZone: string): number {
  const day = Math.floor(ms / DAY_MS);
  let ofZone = dayOffsets.get(timeZone);
  if (!ofZone) {
    ofZone = new Map();
    dayOffsets.set(timeZone, ofZone);
  }
  let known = ofZone.get(day);
  if (known === undefined) {
    const start = zoneOffsetMs(day * DAY_MS, timeZone);
    known = start === zoneOffsetMs(day * DAY_MS + DAY_MS - MINUTE_MS, timeZone) ? start : null;
    // Bounded: a day costs a few bytes, and 20,000 days are 55 years.
    if (ofZone.size > 20_000) ofZone.clear();
    ofZone.set(day, known);
  }
  return known ?? zoneOffsetMs(ms, timeZone);
}

/**
 * The instant at which the wall clock in `timeZone` reads `date` (`YYYY-MM-DD`) `time` (`HH:MM`).
 * In a fall-back overlap the first occurrence wins; a time inside a spring-forward gap moves forward.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const d = parseDate(date);
  const t = parseClockTime(time);
  if (!d || !t) throw new RangeError(`not a local date/time: ${date} ${time}`);
  const wall = Date.UTC(d.year, d.month - 1, d.day, t.hour, t.minute);
  // The offsets half a day either side cover any transition near this wall time.
  const candidates = [zoneOffsetMs(wall - 43_200_000, timeZone), zoneOffsetMs(wall + 43_200_000, timeZone)]
    .map((offset) => wall - offset)
    .filter((at) => {
      const p = localParts(at, timeZone);
      return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) === wall;
    })
    .sort((a, b) => a - b);
  return new Date(candidates[0] ?? wall - zoneOffsetMs(wall - 43_200_000, timeZone));
}

/** Parses `YYYY-MM-DD`; undefined when malformed or not a calendar date. */
export function parseDate(text: string): { year: number; month: number; day: number } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    return undefined;
  }
  return { year, month, day };
}

/** Parses `HH:MM` or `HH:MM:SS` (24-hour); undefined when malformed. */
export function parseClockTime(text: string): { hour: number; minute: number } | undefined {
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(text.trim());
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return undefined;
  return { hour, minute };
}

/** The calendar date `days` after `date` (both `YYYY-MM-DD`). */
export function addDays(date: string, days: number): string {
  const d = parseDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Each date from `from` to `to`, inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to && out.length < 3660; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * The workday an instant belongs to: its local date in `timeZone`, except that before the
 * workweek's `startOfDay` (`HH:MM[:SS]`) it still counts to the previous date.
 */
export function workdayOf(instant: Date | number | string, timeZone: string, startOfDay = "00:00"): string {
  const at = typeof instant === "number" ? instant : new Date(instant).getTime();
  const p = localParts(at, timeZone);
  const date = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
  return p.hour * 60 + p.minute < minutesOfDay(startOfDay) ? addDays(date, -1) : date;
}

const startMinutes = new Map<string, number>();
/** `HH:MM[:SS]` as minutes after midnight (0 when malformed), parsed once per distinct text. */
function minutesOfDay(clock: string): number {
  let m = startMinutes.get(clock);
  if (m === undefined) {
    const t = parseClockTime(clock);
    m = t ? t.hour * 60 + t.minute : 0;
    if (startMinutes.size < 64) startMinutes.set(clock, m);
  }
  return m;
}

const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] as const;
const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The weekday of a date, short: `Mon` (empty when the text is not a date). */
export function weekdayName(date: string): string {
  const d = parseDate(date);
  return d ? (DAY_NAMES[new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay()] ?? "") : "";
}

/** A date with its weekday, as a manager reads it: `Mon 2026-06-15` (the text itself when not a date). */
export function dayName(date: string): string {
  const day = weekdayName(date);
  return day ? `${day} ${date}` : date;
}

/** The words for a day to come, which has nothing to show yet: "Sat 2026-11-28 has not come yet (today is Fri 2026-11-27)." */
export function notComeYet(day: string, today: string): string {
  return `${dayName(day)} has not come yet (today is ${dayName(today)}).`;
}

/** The first date of the workweek containing `date`, for a week starting on `startOfWeek`. */
export function weekStartOf(date: string, startOfWeek: string): string {
  const d = parseDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  const dow = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  const start = Math.max(0, WEEKDAYS.indexOf(startOfWeek as (typeof WEEKDAYS)[number]));
  return addDays(date, -((dow - start + 7) % 7));
}

/** Parses the ISO 8601 durations the service uses for breaks (`PT30M`, `PT1H15M`) into minutes. */
export function durationMinutes(iso: string): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(iso.trim());
  if (!m || iso.trim() === "P" || iso.trim().endsWith("T")) return undefined;
  const [, d, h, mi, s] = m;
  return Number(d ?? 0) * 1440 + Number(h ?? 0) * 60 + Number(mi ?? 0) + Number(s ?? 0) / 60;
}

/** Formats minutes as an ISO 8601 duration (`PT30M`, `PT1H`, `PT1H15M`). */
export function isoDuration(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  const h = Math.floor(total / 60);
  const m = total % 60;
  if (total === 0) return "PT0M";
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}`;
}

/** Formats hours with two decimals (`7.50`). */
export function formatHours(hours: number): string {
  return (Math.round(hours * 100) / 100).toFixed(2);
}

/** Whole minutes as `45 min` or `2 h 05 min` (for elapsed time on shift or on break). */
export function formatDuration(minutes: number): string {
  const total = Math.max(0, Math.floor(minutes));
  const h = Math.floor(total / 60);
  const m = total % 60;
  return h ? `${h} h ${pad(m)} min` : `${m} min`;
}

/** How often the store pays: a workweek, two workweeks from a first day, half a month, or a month. */
export type PayPeriodRule =
  | { every: "week" }
  | { every: "two-weeks"; startingOn: string }
  | { every: "half-month" }
  | { every: "month" };

/** Weekly, on the workweek: the rule when the config file names none. */
export const DEFAULT_PAY_PERIOD: PayPeriodRule = { every: "week" };

const PAY_PERIODS = ["week", "two-weeks", "half-month", "month"] as const;

/**
 * Reads the config file's `payPeriod`: `{ "every": "week" | "two-weeks" | "half-month" | "month",
 * "startingOn": "YYYY-MM-DD" }` (`startingOn`, the first day of any one period, only for two weeks).
 */
export function parsePayPeriod(
  raw: unknown,
): { ok: true; value: PayPeriodRule } | { ok: false; field: string; problem: string } {
  if (raw === undefined || raw === null) return { ok: true, value: DEFAULT_PAY_PERIOD };
  const example = '{"every": "two-weeks", "startingOn": "2026-01-05"}';
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, field: "payPeriod", problem: `must be an object such as ${example}` };
  }
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => k !== "every" && k !== "startingOn");
  if (unknown !== undefined) {
    return {
      ok: false,
      field: `payPeriod.${unknown}`,
      problem: "is not a setting; payPeriod takes every and startingOn",
    };
  }
  const every = o.every;
  if (typeof every !== "string" || !(PAY_PERIODS as readonly string[]).includes(every)) {
    return { ok: false, field: "payPeriod.every", problem: `must be one of ${PAY_PERIODS.join(", ")}` };
  }
  if (every === "two-weeks") {
    const start = o.startingOn;
    if (typeof start !== "string" || !parseDate(start)) {
      return {
        ok: false,
        field: "payPeriod.startingOn",
        problem: "must be the first day of one pay period, YYYY-MM-DD, when the period is two weeks",
      };
    }
    return { ok: true, value: { every, startingOn: start } };
  }
  if (o.startingOn !== undefined) {
    return { ok: false, field: "payPeriod.startingOn", problem: `only goes with "every": "two-weeks"` };
  }
  return { ok: true, value: { every: every as "week" | "half-month" | "month" } };
}

const daysBetween = (a: string, b: string) => {
  const x = parseDate(a);
  const y = parseDate(b);
  if (!x || !y) throw new RangeError(`not a date: ${x ? b : a}`);
  return Math.round((Date.UTC(y.year, y.month - 1, y.day) - Date.UTC(x.year, x.month - 1, x.day)) / 86_400_000);
};

/** The pay period (first and last workday) that holds `date` under `rule`. */
export function payPeriodOf(date: string, rule: PayPeriodRule, startOfWeek: string): { from: string; to: string } {
  const d = parseDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  switch (rule.every) {
    case "week": {
      const from = weekStartOf(date, startOfWeek);
      return { from, to: addDays(from, 6) };
    }
    case "two-weeks": {
      const offset = daysBetween(rule.startingOn, date);
      const from = addDays(rule.startingOn, Math.floor(offset / 14) * 14);
      return { from, to: addDays(from, 13) };
    }
    case "half-month": {
      const month = `${pad(d.year, 4)}-${pad(d.month)}`;
      if (d.day <= 15) return { from: `${month}-01`, to: `${month}-15` };
      return {
        from: `${month}-16`,
        to: addDays(`${month}-01`, new Date(Date.UTC(d.year, d.month, 0)).getUTCDate() - 1),
      };
    }
    case "month": {
      const month = `${pad(d.year, 4)}-${pad(d.month)}`;
      return {
        from: `${month}-01`,
        to: addDays(`${month}-01`, new Date(Date.UTC(d.year, d.month, 0)).getUTCDate() - 1),
      };
    }
  }
}

/** In words, for the review header: `pay period: two weeks from 2026-01-05`. */
export function describePayPeriod(rule: PayPeriodRule): string {
  switch (rule.every) {
    case "week":
      return "weekly";
    case "two-weeks":
      return `every two weeks from ${rule.startingOn}`;
    case "half-month":
      return "twice a month (1–15, 16–end)";
    case "month":
      return "monthly";
  }
}
