import { CASH_DRAWER_EVENT_TYPES, eventTimeline, filterTimeline, parseDateRange } from "../domain/cash-drawers.js";
import { drawerDayCsv, drawerEventsCsv } from "../domain/cash-drawers-csv.js";
import { plural } from "../domain/plural.js";
import { localDate } from "../domain/time.js";
import type { CashDrawerEventType } from "../spec/generated/types.js";
import {
  type DrawersClient,
  loadDrawerDay,
  loadShiftEvents,
  loadStillOpen,
  retrieveDrawerShift,
  teamNames,
} from "../state/drawers-load.js";
import { type CommandSpec, type ParsedArgs, readArgs, UsageError } from "./args.js";
import {
  eventRecord,
  eventsText,
  reportText,
  type ShiftRecord,
  shiftRecord,
  stillOpenText,
  type TotalsRecord,
  totalsRecord,
} from "./drawers-output.js";
import { type CommandIo, say } from "./io.js";
import { type ListingFlags, LOCATION_OPTION, type LocationsClient, listingFlags, type TargetDeps } from "./listing.js";
import { FORMAT_OPTIONS, OUT_OPTIONS, type OutputFormat, writeOut } from "./output.js";
import { serviceProblem } from "./report.js";
import { runCommand } from "./run.js";
import { pickLocation, TARGET_OPTIONS, type TargetFlagValues, withTargetClient } from "./target.js";

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
export interface DrawersReportOptions extends ListingFlags {
  date: string | undefined;
  from: string | undefined;
  to: string | undefined;
  format: Exclude<OutputFormat, "ndjson">;
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
  const flags = listingFlags(values, env);
  return {
    ...flags,
    format: flags.format as Exclude<OutputFormat, "ndjson">,
    date: values.date,
    from: values.from,
    to: values.to,
  };
}

/** The checked options of `backroom drawers events`. */
export interface DrawersEventsOptions extends ListingFlags {
  shiftId: string;
  types: Set<CashDrawerEventType>;
  format: Exclude<OutputFormat, "ndjson">;
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
  const flags = listingFlags(values, env);
  return {
    ...flags,
    format: flags.format as Exclude<OutputFormat, "ndjson">,
    shiftId,
    types: eventTypesOption(values.type),
  };
}

/** What `backroom drawers` builds on: how to open a client on the target, and the clock. */
export type DrawersDeps = TargetDeps<DrawersClient & LocationsClient>;

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
      // For people, a report that ends today also names the drawers still open from before it.
      const withStillOpen = opts.format !== "json" && opts.format !== "csv" && range.to === today;
      const [day, names, stillOpen] = await Promise.all([
        loadDrawerDay(client, { locationId, timeZone, from: range.from, to: range.to }),
        teamNames(client),
        withStillOpen ? loadStillOpen(client, { locationId, timeZone, before: range.from }) : [],
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
        text = reportText(day, names, location.name ?? locationId) + stillOpenText(stillOpen);
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
      if (opts.out.kind === "file") say(io.stderr, `wrote ${plural(entries.length, "event")} to ${opts.out.path}`);
      return 0;
    }),
  );
}
