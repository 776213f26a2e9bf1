import {
  attentionReasons,
  CASH_DRAWER_EVENT_TYPES,
  type DrawerShiftRow,
  type DrawerTotals,
  drawerDayCsv,
  drawerEventsCsv,
  eventTimeline,
  filterTimeline,
  localDateTime,
  parseDateRange,
  reconcileShift,
  type TimelineEntry,
} from "../domain/cash-drawers.js";
import { formatAmount, formatSigned } from "../domain/money.js";
import { localDate, localTime } from "../domain/time.js";
import type { CashDrawerEventType, Currency, Location } from "../spec/generated/types.js";
import { SquareApiError } from "../square/index.js";
import {
  type DrawersClient,
  loadDrawerDay,
  loadShiftEvents,
  retrieveDrawerShift,
  teamNames,
} from "../state/drawers-load.js";
import { type CommandSpec, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";
import {
  FORMAT_OPTIONS,
  OUT_OPTIONS,
  type OutputFormat,
  type OutTarget,
  outputFormat,
  outTarget,
  writeOut,
} from "./output.js";
import { runCommand } from "./run.js";
import {
  checkTargetFlags,
  type OpenedClient,
  pickLocation,
  TARGET_OPTIONS,
  type Target,
  type TargetFlagValues,
  withTargetClient,
} from "./target.js";

const LOCATION_OPTION = {
  type: "string",
  short: "l",
  value: "ID|NAME",
  help: "the location, by id or name in any case (default: the config's defaultLocationId, else the first)",
} as const;

/** `backroom drawers report`'s command line. */
export const DRAWERS_REPORT_SPEC = {
  name: "backroom drawers report",
  summary:
    "The end-of-day cash drawer summary of a location: every drawer shift opened that day (or in the range) with who opened, ended and closed it, its opening cash, cash sales, refunds, paid in and out, expected and counted cash and the over/short, then the day's totals. Shifts still open or not yet counted are flagged, and so is a shift whose events do not add up to its expected cash.",
  options: {
    location: LOCATION_OPTION,
    date: { type: "string", value: "YYYY-MM-DD", help: "the day (default: today in the location's time zone)" },
    from: { type: "string", value: "YYYY-MM-DD", help: "the first day of a range" },
    to: { type: "string", value: "YYYY-MM-DD", help: "the last day of a range (default: --from)" },
    json: FORMAT_OPTIONS.json,
    csv: { type: "boolean", help: "print one CSV row per shift with a header row (the app's day export)" },
    ...OUT_OPTIONS,
    ...TARGET_OPTIONS,
  },
  details: [
    '--json prints one record per shift ("record": "shift"), then the totals of each day ("record": "day-totals"), then for a range of several days its totals ("record": "range-totals"). Amounts are integers in the currency\'s minor unit (cents); over_short is counted − expected, negative when short.',
    "Exit codes: 0 done, 1 the service failed or could not be reached, 2 a bad flag or an unknown location.",
  ].join("\n"),
} as const satisfies CommandSpec;

/** `backroom drawers events`'s command line. */
export const DRAWERS_EVENTS_SPEC = {
  name: "backroom drawers events",
  summary:
    "The events of one drawer shift in the order they happened: time, type, amount, what it did to the cash in the drawer, the drawer after it, the team member and the description. Without --json or --csv the shift's reconciliation comes first.",
  options: {
    location: LOCATION_OPTION,
    type: {
      type: "string",
      short: "t",
      value: "TYPE[,TYPE]",
      help: `only these event types, e.g. PAID_OUT,NO_SALE (${CASH_DRAWER_EVENT_TYPES.join(", ")})`,
    },
    json: FORMAT_OPTIONS.json,
    csv: { type: "boolean", help: "print the events as CSV with a header row (the app's export)" },
    ...OUT_OPTIONS,
    ...TARGET_OPTIONS,
  },
  positionals: [{ name: "SHIFT_ID", help: "the drawer shift, as `drawers report` lists it" }],
  details:
    "--json prints one record per event. Amounts are integers in the currency's minor unit; cash_change is signed (a paid out is negative). Exit codes: 0 done, 1 no such shift at the location or the service failed, 2 a bad flag.",
} as const satisfies CommandSpec;

/** The checked options of `backroom drawers report`. */
export interface DrawersReportOptions {
  location: string | undefined;
  date: string | undefined;
  from: string | undefined;
  to: string | undefined;
  format: Exclude<OutputFormat, "ndjson">;
  out: OutTarget;
  target: TargetFlagValues;
}

/** Checks `drawers report`'s options: dates and the range (a UsageError names the flag). */
export function drawersReportOptions(
  { values }: ParsedArgs<typeof DRAWERS_REPORT_SPEC.options>,
  env: Readonly<Record<string, string | undefined>>,
): DrawersReportOptions {
  if (values.date !== undefined && (values.from !== undefined || values.to !== undefined)) {
    throw new UsageError("--date and --from/--to cannot go together; give one day or a range");
  }
  if (values.to !== undefined && values.from === undefined) throw new UsageError("--to needs --from");
  // Checked against a stand-in today: only the shape and order of the dates are checked here.
  const range = parseDateRange({ date: values.date, from: values.from, to: values.to }, "2000-01-01");
  if (!range.ok) throw new UsageError(range.problem.replace(/^The (date|from|to) /, "--$1 "));
  const target = { env: values.env, "base-url": values["base-url"], db: values.db };
  checkTargetFlags(target);
  return {
    location: values.location,
    date: values.date,
    from: values.from,
    to: values.to,
    format: outputFormat(values) as Exclude<OutputFormat, "ndjson">,
    out: outTarget(values, env),
    target,
  };
}

/** The checked options of `backroom drawers events`. */
export interface DrawersEventsOptions {
  shiftId: string;
  location: string | undefined;
  types: Set<CashDrawerEventType>;
  format: Exclude<OutputFormat, "ndjson">;
  out: OutTarget;
  target: TargetFlagValues;
}

/** Reads `--type PAID_OUT,no_sale` into event types; an unknown one is a UsageError listing them. */
export function eventTypesOption(value: string | undefined): Set<CashDrawerEventType> {
  const types = new Set<CashDrawerEventType>();
  if (value === undefined) return types;
  for (const word of value.split(",").map((w) => w.trim().toUpperCase())) {
    if (!word) continue;
    if (!(CASH_DRAWER_EVENT_TYPES as readonly string[]).includes(word)) {
      throw new UsageError(
        `--type ${JSON.stringify(word)} is not an event type; use ${CASH_DRAWER_EVENT_TYPES.join(", ")}`,
      );
    }
    types.add(word as CashDrawerEventType);
  }
  if (types.size === 0) throw new UsageError("--type needs at least one event type");
  return types;
}

/** Checks `drawers events`'s options. */
export function drawersEventsOptions(
  { values, positionals }: ParsedArgs<typeof DRAWERS_EVENTS_SPEC.options>,
  env: Readonly<Record<string, string | undefined>>,
): DrawersEventsOptions {
  const shiftId = (positionals[0] ?? "").trim();
  if (!shiftId) throw new UsageError("SHIFT_ID is empty");
  const target = { env: values.env, "base-url": values["base-url"], db: values.db };
  checkTargetFlags(target);
  return {
    shiftId,
    location: values.location,
    types: eventTypesOption(values.type),
    format: outputFormat(values) as Exclude<OutputFormat, "ndjson">,
    out: outTarget(values, env),
    target,
  };
}

/** One shift as `--json` prints it. */
export interface ShiftRecord {
  record: "shift";
  date: string;
  shift_id: string;
  state: string | null;
  needs_attention: string[];
  opened_at: string | null;
  ended_at: string | null;
  closed_at: string | null;
  opened_by_id: string | null;
  opened_by: string | null;
  ended_by_id: string | null;
  ended_by: string | null;
  closed_by_id: string | null;
  closed_by: string | null;
  description: string;
  device: string;
  currency: Currency;
  opening_cash: number;
  cash_sales: number;
  cash_refunds: number;
  paid_in: number;
  paid_out: number;
  expected_cash: number;
  counted_cash: number | null;
  over_short: number | null;
  /** The expected cash the events add up to; null when they agree or were not read. */
  expected_from_events: number | null;
  events_checked: boolean;
}

/** Totals as `--json` prints them: of one day, or of the whole range. */
export type TotalsRecord = {
  record: "day-totals" | "range-totals";
  date: string | null;
  from: string;
  to: string;
  currency: Currency;
  shifts: number;
  counted_shifts: number;
  needs_attention: number;
  events_disagree: number;
  opening_cash: number;
  cash_sales: number;
  cash_refunds: number;
  paid_in: number;
  paid_out: number;
  expected_cash: number;
  counted_cash: number;
  expected_of_counted: number;
  over: number;
  short: number;
  over_short: number;
};

const nameOr = (names: ReadonlyMap<string, string>, id: string | undefined) =>
  id === undefined ? null : (names.get(id) ?? null);

/** A day-view row as its JSON record. */
export function shiftRecord(
  r: DrawerShiftRow,
  names: ReadonlyMap<string, string>,
  eventsChecked: boolean,
): ShiftRecord {
  return {
    record: "shift",
    date: r.date,
    shift_id: r.id,
    state: r.state ?? null,
    needs_attention: attentionReasons(r),
    opened_at: r.openedAt ?? null,
    ended_at: r.endedAt ?? null,
    closed_at: r.closedAt ?? null,
    opened_by_id: r.openedBy ?? null,
    opened_by: nameOr(names, r.openedBy),
    ended_by_id: r.endedBy ?? null,
    ended_by: nameOr(names, r.endedBy),
    closed_by_id: r.closedBy ?? null,
    closed_by: nameOr(names, r.closedBy),
    description: r.description,
    device: r.device,
    currency: r.currency,
    opening_cash: r.opened,
    cash_sales: r.cashSales,
    cash_refunds: r.cashRefunds,
    paid_in: r.paidIn,
    paid_out: r.paidOut,
    expected_cash: r.expected,
    counted_cash: r.counted ?? null,
    over_short: r.overShort ?? null,
    expected_from_events: r.mismatch ? r.mismatch.fromEvents : null,
    events_checked: eventsChecked,
  };
}

/** Totals as their JSON record. */
export function totalsRecord(
  t: DrawerTotals,
  kind: TotalsRecord["record"],
  span: { date?: string; from: string; to: string },
): TotalsRecord {
  return {
    record: kind,
    date: span.date ?? null,
    from: span.from,
    to: span.to,
    currency: t.currency,
    shifts: t.shifts,
    counted_shifts: t.countedShifts,
    needs_attention: t.attention,
    events_disagree: t.mismatches,
    opening_cash: t.opened,
    cash_sales: t.cashSales,
    cash_refunds: t.cashRefunds,
    paid_in: t.paidIn,
    paid_out: t.paidOut,
    expected_cash: t.expected,
    counted_cash: t.counted,
    expected_of_counted: t.expectedOfCounted,
    over: t.over,
    short: t.short,
    over_short: t.net,
  };
}

/** One event as `--json` prints it. */
export interface EventRecord {
  event_id: string;
  time: string | null;
  local_time: string;
  event_type: string | null;
  event: string;
  currency: Currency;
  amount: number;
  cash_change: number;
  drawer_after: number;
  team_member_id: string | null;
  team_member: string | null;
  description: string;
}

/** A timeline entry as its JSON record. */
export function eventRecord(
  e: TimelineEntry,
  names: ReadonlyMap<string, string>,
  timeZone: string,
  currency: Currency,
): EventRecord {
  return {
    event_id: e.id,
    time: e.at ?? null,
    local_time: localDateTime(e.at, timeZone),
    event_type: e.type ?? null,
    event: e.label,
    currency,
    amount: e.amount,
    cash_change: e.change,
    drawer_after: e.balance,
    team_member_id: e.teamMemberId ?? null,
    team_member: nameOr(names, e.teamMemberId),
    description: e.description,
  };
}

/** Lays out rows of cells as aligned columns; `right` columns are aligned right. */
function columns(rows: readonly string[][], right: ReadonlySet<number>): string[] {
  const widths: number[] = [];
  for (const r of rows) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return rows.map((r) =>
    r
      .map((c, i) => (right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

const FLAG_TEXT: Record<string, string> = { open: "OPEN", "not counted": "NOT COUNTED", "events disagree": "EVENTS≠" };

/** The report for people: one line per shift, then the totals. */
export function reportText(
  day: Awaited<ReturnType<typeof loadDrawerDay>>,
  names: ReadonlyMap<string, string>,
  locationName: string,
): string {
  const oneDay = day.from === day.to;
  const money = (n: number | undefined, c: Currency) => (n === undefined ? "—" : formatAmount(n, c));
  const who = (id: string | undefined) => (id === undefined ? "—" : (names.get(id) ?? id));
  const header = [
    ...(oneDay ? [] : ["date"]),
    "opened",
    "state",
    "device",
    "opened by",
    "closed by",
    "opening",
    "cash sales",
    "refunds",
    "paid in",
    "paid out",
    "expected",
    "counted",
    "over/short",
    "attention",
  ];
  const lines = day.rows.map((r) => [
    ...(oneDay ? [] : [r.date]),
    r.openedAt ? localTime(r.openedAt, day.timeZone) : "",
    r.state ?? "",
    r.device || r.description,
    who(r.openedBy),
    who(r.closedBy),
    money(r.opened, r.currency),
    money(r.cashSales, r.currency),
    money(r.cashRefunds, r.currency),
    money(r.paidIn, r.currency),
    money(r.paidOut, r.currency),
    money(r.expected, r.currency),
    money(r.counted, r.currency),
    r.overShort === undefined ? "—" : formatSigned(r.overShort, r.currency),
    attentionReasons(r)
      .map((a) => FLAG_TEXT[a] ?? a)
      .join(" "),
  ]);
  const first = oneDay ? 0 : 1;
  const right = new Set([5, 6, 7, 8, 9, 10, 11, 12].map((i) => i + first));
  const t = day.totals;
  const c = t.currency;
  const out = [
    `Cash drawers at ${locationName}, ${oneDay ? day.from : `${day.from} to ${day.to}`} (${day.timeZone})`,
    "",
    ...(day.rows.length ? columns([header, ...lines], right) : ["No drawer shifts were opened."]),
    "",
    `Totals: ${t.shifts} shifts, ${t.countedShifts} counted. Opening ${formatAmount(t.opened, c)}, cash sales ${formatAmount(t.cashSales, c)}, refunds ${formatAmount(t.cashRefunds, c)}, paid in ${formatAmount(t.paidIn, c)}, paid out ${formatAmount(t.paidOut, c)}, expected ${formatAmount(t.expected, c)}.`,
    `Counted ${formatAmount(t.counted, c)} against ${formatAmount(t.expectedOfCounted, c)} expected: over ${formatSigned(t.over, c)}, short ${formatAmount(t.short, c)}, net ${formatSigned(t.net, c)} ${c}.`,
  ];
  if (t.attention) out.push(`${t.attention} shift(s) need attention: still open, or ended and not counted.`);
  if (t.mismatches) out.push(`${t.mismatches} shift(s) have events that do not add up to their expected cash.`);
  if (!day.eventsChecked) out.push("Expected cash was not checked against the events: the range has too many shifts.");
  return `${out.join("\n")}\n`;
}

/** What `backroom drawers` builds on: how to open a client on the target, and the clock. */
export interface DrawersDeps {
  open?: (target: Target) => Promise<Pick<OpenedClient, "close"> & { client: DrawersClient & LocationsClient }>;
  now?: () => Date;
}

/** The call that finds the location. */
interface LocationsClient {
  locations: { listLocations(): PromiseLike<{ locations?: Location[] }> };
}

/** A service failure as a one-line CommandError: the manager's words, the code after. */
function serviceProblem(err: unknown, notFound: string): never {
  if (err instanceof SquareApiError) {
    if (err.status === 404) throw new CommandError(notFound, 1);
    const detail = err.errors[0]?.detail ?? `HTTP ${err.status}`;
    throw new CommandError(`the service refused: ${detail} (${err.code})`, 1);
  }
  throw err;
}

async function withClient<T>(
  io: CommandIo,
  target: TargetFlagValues,
  deps: DrawersDeps,
  body: (client: DrawersClient & LocationsClient, defaultLocationId: string | undefined) => Promise<T>,
): Promise<T> {
  return withTargetClient(io, target, deps.open, (opened, resolved) =>
    body(opened.client, resolved.target.defaultLocationId),
  );
}

/** `backroom drawers report`: the day's (or range's) drawers, for people or as JSON/CSV. */
export async function runDrawersReport(argv: string[], io: CommandIo, deps: DrawersDeps = {}): Promise<number> {
  const read = readArgs(io, DRAWERS_REPORT_SPEC, argv, (a) => drawersReportOptions(a, io.env));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, DRAWERS_REPORT_SPEC.name, () =>
    withClient(io, opts.target, deps, async (client, defaultLocationId) => {
      const locs = await client.locations.listLocations();
      const location = pickLocation(locs.locations ?? [], opts.location, defaultLocationId);
      const locationId = location.id ?? "";
      const timeZone = location.timezone ?? "UTC";
      const today = localDate(deps.now?.() ?? new Date(), timeZone);
      const range = parseDateRange({ date: opts.date, from: opts.from, to: opts.to }, today);
      if (!range.ok) throw new UsageError(range.problem);
      const [day, names] = await Promise.all([
        loadDrawerDay(client, { locationId, timeZone, from: range.from, to: range.to }),
        teamNames(client),
      ]).catch((err: unknown) => serviceProblem(err, `no location ${locationId} at the service`));
      let text: string;
      if (opts.format === "json") {
        const records: (ShiftRecord | TotalsRecord)[] = day.rows.map((r) => shiftRecord(r, names, day.eventsChecked));
        for (const d of day.days) {
          records.push(totalsRecord(d.totals, "day-totals", { date: d.date, from: d.date, to: d.date }));
        }
        if (day.from !== day.to) records.push(totalsRecord(day.totals, "range-totals", day));
        text = `${JSON.stringify(records, null, 2)}\n`;
      } else if (opts.format === "csv") {
        text = drawerDayCsv(day.rows, timeZone, names);
      } else {
        text = reportText(day, names, location.name ?? locationId);
      }
      await writeOut(opts.out, text, io.stdout);
      if (opts.out.kind === "file") say(io.stderr, `wrote ${day.rows.length} drawer shifts to ${opts.out.path}`);
      return 0;
    }),
  );
}

/** `backroom drawers events`: one shift's events, for people or as JSON/CSV. */
export async function runDrawersEvents(argv: string[], io: CommandIo, deps: DrawersDeps = {}): Promise<number> {
  const read = readArgs(io, DRAWERS_EVENTS_SPEC, argv, (a) => drawersEventsOptions(a, io.env));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, DRAWERS_EVENTS_SPEC.name, () =>
    withClient(io, opts.target, deps, async (client, defaultLocationId) => {
      const locs = await client.locations.listLocations();
      const location = pickLocation(locs.locations ?? [], opts.location, defaultLocationId);
      const locationId = location.id ?? "";
      const timeZone = location.timezone ?? "UTC";
      const where = location.name ?? locationId;
      const [shift, events, names] = await Promise.all([
        retrieveDrawerShift(client, opts.shiftId, locationId),
        loadShiftEvents(client, opts.shiftId, locationId),
        teamNames(client),
      ]).catch((err: unknown) => serviceProblem(err, `no drawer shift ${opts.shiftId} at ${where}`));
      const currency = shift.opened_cash_money?.currency ?? "USD";
      const entries = filterTimeline(eventTimeline(shift.opened_cash_money, events), opts.types);
      let text: string;
      if (opts.format === "json") {
        text = `${JSON.stringify(
          entries.map((e) => eventRecord(e, names, timeZone, currency)),
          null,
          2,
        )}\n`;
      } else if (opts.format === "csv") {
        text = drawerEventsCsv(entries, timeZone, names, currency);
      } else {
        text = eventsText(shift, events, entries, names, timeZone, where, opts.types);
      }
      await writeOut(opts.out, text, io.stdout);
      if (opts.out.kind === "file") say(io.stderr, `wrote ${entries.length} events to ${opts.out.path}`);
      return 0;
    }),
  );
}

/** A shift's reconciliation and events, for people. */
function eventsText(
  shift: Awaited<ReturnType<typeof retrieveDrawerShift>>,
  events: Awaited<ReturnType<typeof loadShiftEvents>>,
  entries: readonly TimelineEntry[],
  names: ReadonlyMap<string, string>,
  timeZone: string,
  where: string,
  types: ReadonlySet<CashDrawerEventType>,
): string {
  const rec = reconcileShift(shift, events);
  const c = rec.currency;
  const cell = (n: number | undefined, signed = false) =>
    n === undefined ? "—" : signed ? formatSigned(n, c) : formatAmount(n, c);
  const recRows = rec.lines.map((l) => [
    `${l.op ? `${l.op} ` : "  "}${l.label}`,
    cell(l.shift, l.key === "difference"),
    l.events === undefined ? "" : cell(l.events),
    l.differs ? "≠ differs" : "",
  ]);
  const out = [
    `${shift.description ?? shift.id} at ${where}: ${shift.state ?? ""}, opened ${localDateTime(shift.opened_at, timeZone)}`,
    "",
    ...columns([["", "shift", "events", ""], ...recRows], new Set([1, 2])),
  ];
  if (rec.mismatch) {
    out.push(
      "",
      `The events add up to ${formatAmount(rec.mismatch.fromEvents, c)}, not the ${formatAmount(rec.mismatch.reported, c)} the shift reports as expected (${formatSigned(-rec.mismatch.difference, c)}).`,
    );
  }
  const filter = types.size ? ` (${[...types].join(", ")} only)` : "";
  out.push("", `${entries.length} of ${events.length} events${filter}:`, "");
  const rows = entries.map((e) => [
    e.at ? localTime(e.at, timeZone) : "",
    e.label,
    formatAmount(e.amount, c),
    formatSigned(e.change, c),
    formatAmount(e.balance, c),
    e.teamMemberId ? (names.get(e.teamMemberId) ?? e.teamMemberId) : "",
    e.description,
  ]);
  out.push(
    ...columns([["time", "event", "amount", "cash", "drawer", "by", "description"], ...rows], new Set([2, 3, 4])),
  );
  return `${out.join("\n")}\n`;
}
