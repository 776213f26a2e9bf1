// `backroom v1 ...`: the old (V1) transactions for scripts and quick look-ups — payments, refunds,
// settlements and online-store orders of a date range, and one record in full. The interface's
// range rules are checked before anything is sent (a bad range exits 2 with the rule in words).

import { plural } from "../domain/plural.js";
import { localDate, parseDate } from "../domain/time.js";
import { checkSettlement } from "../domain/v1-records.js";
import {
  describeV1Range,
  V1_DEFAULT_DAYS,
  V1_EARLIEST_DATE,
  type V1DateRange,
  v1DateRange,
  v1RangeTimes,
} from "../domain/v1-rules.js";
import type { V1ListSettlementsRequestStatus } from "../spec/generated/types.js";
import {
  isRetired,
  LIST_OPERATION,
  listV1,
  type OnPage,
  retiredText,
  retrieveV1Order,
  retrieveV1Payment,
  retrieveV1Settlement,
  type V1Client,
  type V1ListKind,
  type V1ListRecord,
} from "../state/v1-load.js";
import { type CommandSpec, oneOf, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";
import { type ListingFlags, type LocationsClient, listingFlags, type TargetDeps } from "./listing.js";
import { FORMAT_OPTIONS, formatRecords, OUT_OPTIONS, writeOut } from "./output.js";
import { serviceProblem } from "./report.js";
import { runCommand } from "./run.js";
import {
  findLocation,
  pickLocation,
  TARGET_OPTIONS,
  type TargetFlagValues,
  targetFlags,
  withTargetClient,
} from "./target.js";
import { csvColumns, listText, orderText, type Places, paymentText, settlementText } from "./v1-text.js";

const LOCATION_OPTION = {
  type: "string",
  short: "l",
  value: "ID|NAME|me|all",
  help: "the location, by id or name in any case, or `me` (the interface's word; `all` works too) for every location (default: the config's defaultLocationId, else the first)",
} as const;

const LIST_OPTIONS = {
  location: LOCATION_OPTION,
  from: { type: "string", value: "YYYY-MM-DD", help: `the first day (default: ${V1_DEFAULT_DAYS} days before --to)` },
  to: { type: "string", value: "YYYY-MM-DD", help: "the last day (default: today, or a year after --from)" },
  status: {
    type: "string",
    value: "SENT|FAILED",
    help: "settlements only: those sent to the bank, or those that failed",
  },
  "include-partial": {
    type: "boolean",
    help: "payments only: also payments still being taken (their tenders so far, no items yet)",
  },
  ...FORMAT_OPTIONS,
  ...OUT_OPTIONS,
  ...TARGET_OPTIONS,
} as const;

const RANGE_DETAILS = `Dates are the location's own (for \`me\`, the default location's). The interface answers at most one year at a time, and nothing before ${V1_EARLIEST_DATE}: such a range exits 2 before anything is sent. Without dates, the last ${V1_DEFAULT_DAYS} days (the service's own default would be the last year).`;
const OUTPUT_DETAILS =
  "--json prints the records as the interface gives them, each with its location_id; amounts are integers in the currency's minor unit, and V1 writes fees and refunds as negative numbers. Pages are followed to the end; progress goes to stderr when it is a terminal. Exit codes: 0 done, 1 the service failed, refused, or no longer offers the operation, 2 a bad flag, range or location.";

const listSpec = (kind: V1ListKind, summary: string, extra = "") =>
  ({
    name: `backroom v1 ${kind}`,
    summary,
    options: LIST_OPTIONS,
    details: [kind === "orders" ? "" : RANGE_DETAILS, extra, OUTPUT_DETAILS].filter(Boolean).join("\n"),
  }) as const satisfies CommandSpec;

/** The command lines of the four lists. */
export const V1_LIST_SPECS = {
  payments: listSpec(
    "payments",
    "Payments taken in a date range (V1, deprecated by the service): when, tenders, what was collected, fees and refunds. Payments taken offline can reach the service up to 72 hours late and then appear between earlier ones.",
  ),
  refunds: listSpec("refunds", "Refunds made in a date range (V1, deprecated by the service)."),
  settlements: listSpec(
    "settlements",
    "Deposits to and withdrawals from the bank account in a date range (V1, deprecated by the service); `backroom v1 settlement ID` lists one's entries.",
  ),
  orders: listSpec(
    "orders",
    "The online store's orders (V1, deprecated by the service), oldest first.",
    "The interface lists every order; --from and --to keep those placed on those days (no one-year limit: nothing about dates is sent).",
  ),
} as const;

/** The single records `backroom v1 payment|settlement|order ID` shows. */
export type V1GetKind = "payment" | "settlement" | "order";

const getSpec = (kind: V1GetKind, summary: string) =>
  ({
    name: `backroom v1 ${kind}`,
    summary,
    positionals: [{ name: "ID", help: `the ${kind}'s id, as the list prints it` }],
    options: {
      location: LOCATION_OPTION,
      json: { type: "boolean", help: `print the ${kind} as one JSON object, and nothing else, on stdout` },
      ...TARGET_OPTIONS,
    },
    details:
      "Exit codes: 0 done, 1 not found at the location, the service failed, or no longer offers the operation, 2 a bad flag.",
  }) as const satisfies CommandSpec;

/** The command lines of the three single records. */
export const V1_GET_SPECS = {
  payment: getSpec("payment", "One payment in full: tenders, items, totals, fees, and the refunds against it."),
  settlement: getSpec(
    "settlement",
    "One settlement's entries (payments, refunds, adjustments, chargeback holds), and whether they add up to its total.",
  ),
  order: getSpec("order", "One online-store order with its history, and the actions its state allows."),
} as const;

/** The checked options of a list. */
export interface V1ListOptions extends ListingFlags {
  kind: V1ListKind;
  /** Payments, refunds and settlements: the dates asked for (filled in once today is known). */
  dates: { from?: string | undefined; to?: string | undefined };
  status: V1ListSettlementsRequestStatus | undefined;
  includePartial: boolean;
}

/**
 * Checks a list's options. The range rules are checked here, before anything is sent: with both
 * dates given they do not depend on today, and a missing end is filled in within them.
 */
export function v1ListOptions(
  kind: V1ListKind,
  { values }: ParsedArgs<typeof LIST_OPTIONS>,
  env: Readonly<Record<string, string | undefined>>,
  today: string,
): V1ListOptions {
  if (values.status !== undefined && kind !== "settlements") throw new UsageError("--status is for settlements only");
  if (values["include-partial"] && kind !== "payments") throw new UsageError("--include-partial is for payments only");
  const status = oneOf("status", values.status?.toUpperCase(), ["SENT", "FAILED"] as const);
  const dates = { from: values.from, to: values.to };
  if (kind === "orders") checkOrderDates(dates);
  else {
    const range = v1DateRange(dates, today);
    if (!range.ok) throw new UsageError(range.problem);
  }
  return { ...listingFlags(values, env), kind, dates, status, includePartial: values["include-partial"] === true };
}

function checkOrderDates(dates: { from?: string | undefined; to?: string | undefined }): void {
  for (const [flag, value] of Object.entries(dates)) {
    if (value !== undefined && !parseDate(value)) {
      throw new UsageError(`--${flag} "${value}" is not a date (YYYY-MM-DD)`);
    }
  }
  if (dates.from && dates.to && dates.from > dates.to) {
    throw new UsageError(`--from ${dates.from} is after --to ${dates.to}`);
  }
}

/** What the commands build on: how to open a client on the target, and the clock. */
export type V1Deps = TargetDeps<V1Client & LocationsClient>;

/** Where a command reads: one location, or every one (`me`), and the zone its dates are in. */
interface Scope {
  locationIds: string[];
  all: boolean;
  where: string;
  places: Places;
}

async function scopeOf(
  client: LocationsClient,
  wanted: string | undefined,
  defaultId: string | undefined,
): Promise<Scope> {
  const locations = (await client.locations.listLocations()).locations ?? [];
  const names = new Map(locations.map((l) => [l.id ?? "", l.name ?? l.id ?? ""]));
  const zones = new Map(locations.map((l) => [l.id ?? "", l.timezone ?? "UTC"]));
  // `me` is the interface's word for every location; `all` is the other commands'.
  const every = ["me", "all"].includes(wanted?.trim().toLowerCase() ?? "");
  const all = every && !findLocation(locations, wanted ?? "");
  const home = pickLocation(locations, all ? undefined : wanted, defaultId);
  const places = { names, zones, timeZone: home.timezone ?? "UTC" };
  if (all) return { locationIds: locations.map((l) => l.id ?? ""), all, where: "all locations", places };
  return { locationIds: [home.id ?? ""], all, where: home.name ?? home.id ?? "", places };
}

/** A failure of the service in one line: a retired V1 operation named for what it read. */
function v1Problem(err: unknown, what: string, notFound?: string): never {
  if (isRetired(err)) throw new CommandError(`${retiredText(err, what)} (${err.operation})`, 1);
  return serviceProblem(err, notFound);
}

/** Progress on stderr while pages arrive, when stderr is a terminal. */
function progressLine(io: CommandIo, kind: V1ListKind): { onPage: OnPage | undefined; done(): void } {
  if ((io.stderr as { isTTY?: boolean }).isTTY !== true) return { onPage: undefined, done() {} };
  let shown = false;
  return {
    onPage: ({ pages, records }) => {
      shown = true;
      io.stderr.write(`\rreading ${kind}: ${plural(pages, "page")}, ${plural(records, "record")}`);
    },
    done: () => {
      if (shown) io.stderr.write("\n");
    },
  };
}

/** Opens a client on the target, finds where the command reads, and runs `body` there. */
function withScope<T>(
  io: CommandIo,
  opts: { target: TargetFlagValues; location: string | undefined },
  deps: V1Deps,
  body: (client: V1Client, scope: Scope) => Promise<T>,
): Promise<T> {
  return withTargetClient(io, opts.target, deps.open, async ({ client }, resolved) => {
    const scope = await scopeOf(client, opts.location, resolved.target.defaultLocationId).catch((e: unknown) =>
      v1Problem(e, "locations"),
    );
    return body(client, scope);
  });
}

/** `backroom v1 payments|refunds|settlements|orders`: a list, for people or as JSON/NDJSON/CSV. */
export async function runV1List(kind: V1ListKind, argv: string[], io: CommandIo, deps: V1Deps = {}): Promise<number> {
  const spec = V1_LIST_SPECS[kind];
  const now = deps.now ?? (() => new Date());
  const read = readArgs(io, spec, argv, (a) => v1ListOptions(kind, a, io.env, now().toISOString().slice(0, 10)));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, spec.name, () =>
    withScope(io, opts, deps, async (client, scope) => {
      const today = localDate(now(), scope.places.timeZone);
      let range: V1DateRange | undefined;
      if (kind !== "orders") {
        const r = v1DateRange(opts.dates, today);
        if (!r.ok) throw new UsageError(r.problem);
        range = r.value;
      }
      const times = range ? v1RangeTimes(range, scope.places.timeZone) : undefined;
      const progress = progressLine(io, kind);
      const query = {
        locationIds: scope.locationIds,
        all: scope.all,
        ...(times ? { begin: times.begin, end: times.end } : {}),
        status: opts.status,
        includePartial: opts.includePartial,
      };
      let records = await listV1(client, kind, query, progress.onPage)
        .catch((e: unknown) => v1Problem(e, `${kind} (${LIST_OPERATION[kind]})`))
        .finally(() => progress.done());
      if (kind === "orders" && (opts.dates.from || opts.dates.to)) {
        records = (records as V1ListRecord["orders"][]).filter((o) => {
          const day = localDate(
            o.created_at ?? 0,
            scope.places.zones.get(o.location_id ?? "") ?? scope.places.timeZone,
          );
          return (!opts.dates.from || day >= opts.dates.from) && (!opts.dates.to || day <= opts.dates.to);
        });
      }
      const text =
        opts.format === "text"
          ? listText(kind, records, scope.places, {
              where: scope.where,
              range: range ? describeV1Range(range) : ordersRange(opts.dates),
              all: scope.all,
            })
          : formatRecords(opts.format, records, csvColumns(scope.places)[kind] as never);
      await writeOut(opts.out, text, io.stdout);
      if (opts.out.kind === "file") say(io.stderr, `wrote ${records.length} ${kind} to ${opts.out.path}`);
      return 0;
    }),
  );
}

const ordersRange = (d: { from?: string | undefined; to?: string | undefined }) =>
  d.from || d.to ? `placed ${d.from ?? "any day"} to ${d.to ?? "today"}` : undefined;

/** `backroom v1 payment|settlement|order ID`: one record in full. */
export async function runV1Get(kind: V1GetKind, argv: string[], io: CommandIo, deps: V1Deps = {}): Promise<number> {
  const spec = V1_GET_SPECS[kind];
  const read = readArgs(io, spec, argv, ({ values, positionals }) => {
    const id = (positionals[0] ?? "").trim();
    if (!id) throw new UsageError("ID is empty");
    const target = targetFlags(values);
    return { id, location: values.location, json: values.json === true, target };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, spec.name, () =>
    withScope(io, opts, deps, async (client, scope) => {
      const notFound = `no ${kind} ${opts.id} at ${scope.where}`;
      const fail = (e: unknown): never => v1Problem(e, `a ${kind}`, notFound);
      let json: object;
      let text: string;
      if (kind === "payment") {
        const p = await retrieveV1Payment(client, scope, opts.id).catch(fail);
        [json, text] = [p, paymentText(p, scope.places)];
      } else if (kind === "settlement") {
        const s = await retrieveV1Settlement(client, scope, opts.id).catch(fail);
        const c = checkSettlement(s);
        json = { ...s, entries_sum: c.sum, entries_add_up: c.addsUp };
        text = settlementText(s, scope.places);
      } else {
        const o = await retrieveV1Order(client, scope, opts.id).catch(fail);
        [json, text] = [o, orderText(o, scope.places)];
      }
      io.stdout.write(opts.json ? `${JSON.stringify(json, null, 2)}\n` : text);
      return 0;
    }),
  );
}
