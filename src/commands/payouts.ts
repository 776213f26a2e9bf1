// `backroom payouts list|get|entries`: when the money arrives and what Square kept, for scripts
// and for people. `payouts reconcile` is in payouts-reconcile.ts.
import { localDateTime } from "../domain/cash-drawers.js";
import { decimalString, formatAmount, formatMoney } from "../domain/money.js";
import {
  checkPayoutNet,
  entryBreakdown,
  entrySource,
  entryWords,
  feeTotal,
  keptWords,
  maskDestination,
  missingPermissionMessage,
  parsePayoutStatus,
  payoutRange,
  payoutStatusWord,
  payoutTotals,
} from "../domain/payouts.js";
import { plural } from "../domain/plural.js";
import { localDate } from "../domain/time.js";
import type { Location, Payout, PayoutEntry, PayoutStatus } from "../spec/generated/types.js";
import { SquareApiError, SquareError } from "../square/errors.js";
import { problemOf } from "../state/errors.js";
import {
  isMissingPayoutsPermission,
  listPayoutsInRange,
  loadPayoutEntries,
  type PayoutsClient,
} from "../state/payouts-load.js";
import { type CommandSpec, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";
import {
  activeLocations,
  isAllLocations,
  type ListingFlags,
  LOCATION_OR_ALL_OPTION,
  type LocationsClient,
  listingFlags,
  type TargetDeps,
} from "./listing.js";
import {
  type CsvColumn,
  FORMAT_OPTIONS,
  formatRecords,
  OUT_OPTIONS,
  outputFormat,
  outTarget,
  writeOut,
} from "./output.js";
import { runCommand } from "./run.js";
import {
  pickLocation,
  TARGET_OPTIONS,
  type Target,
  type TargetFlagValues,
  targetFlags,
  withTargetClient,
} from "./target.js";
import { textColumns } from "./text-columns.js";

/** `backroom payouts list`'s command line. */
export const PAYOUTS_LIST_SPEC = {
  name: "backroom payouts list",
  summary:
    "The payouts of a location (or all) created in a date range, newest first: when each arrives, its status (sent, paid, failed), amount, destination (masked) and the reference the bank statement shows (end_to_end_id); then the range's totals paid, in transit and failed.",
  options: {
    location: LOCATION_OR_ALL_OPTION,
    from: {
      type: "string",
      value: "YYYY-MM-DD",
      help: "the first day payouts were created (default: 29 days before --to)",
    },
    to: { type: "string", value: "YYYY-MM-DD", help: "the last day (default: today in the location's time zone)" },
    status: { type: "string", value: "sent|paid|failed", help: "only payouts of this status" },
    ...FORMAT_OPTIONS,
    ...OUT_OPTIONS,
    ...TARGET_OPTIONS,
  },
  details: [
    "--json and --ndjson print the payouts as the service returns them (amounts in the currency's minor unit); --csv prints one row per payout with decimal amounts. The service keeps payouts from January 2021: an older --from starts there, with a note on stderr.",
    "Exit codes: 0 done, 1 the service failed or this sign-in may not read payouts, 2 a bad flag or an unknown location.",
  ].join("\n"),
} as const satisfies CommandSpec;

/** `backroom payouts get`'s command line. */
export const PAYOUTS_GET_SPEC = {
  name: "backroom payouts get",
  summary:
    "One payout and its entries: grouped by type (charges, refunds, fees, chargebacks, adjustments, …) with gross, fee and net, the fee total, whether the entries add up to the payout, then each entry with its time and the payment or refund it comes from.",
  positionals: [{ name: "PAYOUT_ID", help: "the payout, as `payouts list` shows it" }],
  options: {
    json: {
      type: "boolean",
      help: "print one JSON object {payout, entries, summary} and nothing else on stdout",
    },
    ...TARGET_OPTIONS,
  },
  details:
    "Exit codes: 0 done, 1 no such payout, the service failed or this sign-in may not read payouts, 2 a bad flag.",
} as const satisfies CommandSpec;

/** `backroom payouts entries`'s command line. */
export const PAYOUTS_ENTRIES_SPEC = {
  name: "backroom payouts entries",
  summary: "Every entry of one payout, oldest first: time, type, gross, fee, net and where it comes from.",
  positionals: [{ name: "PAYOUT_ID", help: "the payout, as `payouts list` shows it" }],
  options: { ...FORMAT_OPTIONS, ...OUT_OPTIONS, ...TARGET_OPTIONS },
  details:
    "--json and --ndjson print the entries as the service returns them; --csv one row per entry with decimal amounts. Exit codes: 0 done, 1 no such payout or the service failed, 2 a bad flag.",
} as const satisfies CommandSpec;

/** The checked options of `backroom payouts list`. */
export interface PayoutsListOptions extends ListingFlags {
  from: string | undefined;
  to: string | undefined;
  status: PayoutStatus | undefined;
}

/** Checks `payouts list`'s options (a UsageError names the flag). */
export function payoutsListOptions(
  { values }: ParsedArgs<typeof PAYOUTS_LIST_SPEC.options>,
  env: Readonly<Record<string, string | undefined>>,
): PayoutsListOptions {
  let status: PayoutStatus | undefined;
  if (values.status !== undefined) {
    status = parsePayoutStatus(values.status);
    if (!status) throw new UsageError(`--status must be sent, paid or failed, not ${JSON.stringify(values.status)}`);
  }
  // Only the dates' shape and order are checked here; "today" needs the location's time zone.
  const range = payoutRange({ from: values.from ?? values.to, to: values.to ?? values.from }, "2000-01-01");
  if (!range.ok) throw new UsageError(range.problem.replace(/^The (from|to) date/, "--$1"));
  return { ...listingFlags(values, env), from: values.from, to: values.to, status };
}

/** Reads `PAYOUT_ID` and the target flags of `get` and `entries`. */
export function payoutIdOptions({
  values,
  positionals,
}: {
  values: TargetFlagValues;
  positionals: readonly string[];
}): { payoutId: string; target: TargetFlagValues } {
  const payoutId = (positionals[0] ?? "").trim();
  if (!payoutId) throw new UsageError("PAYOUT_ID is empty");
  return { payoutId, target: targetFlags(values) };
}

/** What `backroom payouts` builds on: how to open a client on the target, and the clock. */
export type PayoutsDeps = TargetDeps<PayoutsClient & LocationsClient>;

/** The locations a `--location` names: one, or every active one for `all`. */
export async function payoutLocations(
  client: LocationsClient,
  wanted: string | undefined,
  defaultLocationId: string | undefined,
): Promise<Location[]> {
  const all = await activeLocations(client);
  if (isAllLocations(wanted)) {
    if (all.length === 0) throw new CommandError("the merchant has no locations");
    return all;
  }
  return [pickLocation(all, wanted, defaultLocationId)];
}

/** A service failure as one line: missing permission and an unknown payout in words. */
export function payoutsProblem(err: unknown, target: Target, notFound?: string): never {
  if (isMissingPayoutsPermission(err)) {
    throw new CommandError(missingPermissionMessage(target.kind === "demo" ? undefined : target.environment));
  }
  if (err instanceof SquareApiError && err.status === 404 && notFound) throw new CommandError(notFound, 1);
  if (err instanceof SquareError) {
    const problem = problemOf(err);
    throw new CommandError(`${problem.headline}${err instanceof SquareApiError ? ` (${err.code})` : ""}`, 1);
  }
  throw err;
}

/** Runs `body` with a client on the resolved target, its default location and the target itself. */
export function withPayoutsClient<T>(
  io: CommandIo,
  target: TargetFlagValues,
  deps: PayoutsDeps,
  body: (client: PayoutsClient & LocationsClient, defaultLocationId: string | undefined, where: Target) => Promise<T>,
): Promise<T> {
  return withTargetClient(io, target, deps.open, (opened, resolved) =>
    body(opened.client, resolved.target.defaultLocationId, resolved.target),
  );
}

/** The CSV columns of `payouts list`. */
export const PAYOUT_CSV: readonly CsvColumn<Payout>[] = [
  { header: "id", cell: (p) => p.id },
  { header: "location_id", cell: (p) => p.location_id },
  { header: "status", cell: (p) => payoutStatusWord(p.status) },
  { header: "created_at", cell: (p) => p.created_at },
  { header: "arrival_date", cell: (p) => p.arrival_date },
  { header: "amount", cell: (p) => money(p.amount_money, decimalString) },
  { header: "currency", cell: (p) => p.amount_money?.currency },
  { header: "destination", cell: (p) => maskDestination(p.destination) },
  { header: "end_to_end_id", cell: (p) => p.end_to_end_id },
  { header: "type", cell: (p) => p.type },
];

/** The CSV columns of `payouts entries`. */
export const ENTRY_CSV: readonly CsvColumn<PayoutEntry>[] = [
  { header: "id", cell: (e) => e.id },
  { header: "effective_at", cell: (e) => e.effective_at },
  { header: "type", cell: (e) => e.type },
  { header: "gross", cell: (e) => money(e.gross_amount_money, decimalString) },
  { header: "fee", cell: (e) => money(e.fee_amount_money, decimalString) },
  { header: "net", cell: (e) => money(e.net_amount_money, decimalString) },
  { header: "currency", cell: (e) => e.net_amount_money?.currency ?? e.gross_amount_money?.currency },
  { header: "from", cell: (e) => entrySource(e) },
];

function money(
  m: { amount?: number; currency?: string } | undefined,
  format: (amount: number, currency: string) => string,
): string {
  return m && typeof m.amount === "number" && m.currency ? format(m.amount, m.currency) : "";
}

/** `backroom payouts list`. */
export async function runPayoutsList(argv: string[], io: CommandIo, deps: PayoutsDeps = {}): Promise<number> {
  const read = readArgs(io, PAYOUTS_LIST_SPEC, argv, (a) => payoutsListOptions(a, io.env));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, PAYOUTS_LIST_SPEC.name, () =>
    withPayoutsClient(io, opts.target, deps, async (client, defaultLocationId, where) => {
      const locations = await payoutLocations(client, opts.location, defaultLocationId).catch((err: unknown) =>
        err instanceof CommandError ? Promise.reject(err) : payoutsProblem(err, where),
      );
      const today = localDate(deps.now?.() ?? new Date(), locations[0]?.timezone ?? "UTC");
      const range = payoutRange({ from: opts.from, to: opts.to }, today);
      if (!range.ok) throw new UsageError(range.problem);
      if (range.note) say(io.stderr, range.note);
      const payouts = range.empty
        ? []
        : await listPayoutsInRange(client, { locations, from: range.from, to: range.to, status: opts.status }).catch(
            (err: unknown) => payoutsProblem(err, where),
          );
      const text =
        opts.format === "text" ? listText(payouts, locations, range) : formatRecords(opts.format, payouts, PAYOUT_CSV);
      await writeOut(opts.out, text, io.stdout);
      if (opts.out.kind === "file") say(io.stderr, `wrote ${plural(payouts.length, "payout")} to ${opts.out.path}`);
      return 0;
    }),
  );
}

/** The list for people: one line per payout, then the totals. */
export function listText(
  payouts: readonly Payout[],
  locations: readonly Location[],
  range: { from: string; to: string },
): string {
  const several = locations.length > 1;
  const names = new Map(locations.map((l) => [l.id ?? "", l.name ?? l.id ?? ""]));
  const zone = (p: Payout) => locations.find((l) => l.id === p.location_id)?.timezone ?? "UTC";
  const header = [
    ...(several ? ["location"] : []),
    "created",
    "arrives",
    "status",
    "amount",
    "destination",
    "reference",
    "payout",
  ];
  const rows = payouts.map((p) => [
    ...(several ? [names.get(p.location_id) ?? p.location_id] : []),
    p.created_at ? localDate(p.created_at, zone(p)) : "",
    p.arrival_date ?? "",
    payoutStatusWord(p.status),
    money(p.amount_money, (a, c) => formatAmount(a, c)),
    maskDestination(p.destination, true),
    p.end_to_end_id ?? "",
    p.id,
  ]);
  const where = several ? "all locations" : (locations[0]?.name ?? locations[0]?.id ?? "");
  const t = payoutTotals(payouts);
  const sum = (s: { count: number; amount: number }) =>
    `${s.count}, ${formatMoney({ amount: s.amount, currency: t.currency })}`;
  return `${[
    `Payouts of ${where} created ${range.from} to ${range.to}, newest first`,
    "",
    ...(rows.length ? textColumns([header, ...rows], new Set([header.indexOf("amount")])) : ["No payouts."]),
    "",
    `Paid ${sum(t.paid)} · in transit ${sum(t.inTransit)} · failed ${sum(t.failed)}`,
  ].join("\n")}\n`;
}

/** `backroom payouts get`. */
export async function runPayoutsGet(argv: string[], io: CommandIo, deps: PayoutsDeps = {}): Promise<number> {
  const read = readArgs(io, PAYOUTS_GET_SPEC, argv, (a) => ({ ...payoutIdOptions(a), json: a.values.json === true }));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, PAYOUTS_GET_SPEC.name, () =>
    withPayoutsClient(io, opts.target, deps, async (client, _default, where) => {
      const notFound = `no payout ${opts.payoutId}`;
      const [payout, entries] = await Promise.all([
        client.payouts.getPayout(opts.payoutId).then((r) => r.payout),
        loadPayoutEntries(client, opts.payoutId),
      ]).catch((err: unknown) => payoutsProblem(err, where, notFound));
      if (!payout) throw new CommandError(notFound);
      const text = opts.json
        ? `${JSON.stringify(getRecord(payout, entries), null, 2)}\n`
        : getText(payout, entries, await zoneOf(client, payout.location_id));
      io.stdout.write(text);
      return 0;
    }),
  );
}

/** The `--json` object of `payouts get`. */
export function getRecord(payout: Payout, entries: readonly PayoutEntry[]) {
  const b = entryBreakdown(entries, payout.amount_money?.currency ?? "USD");
  return {
    payout,
    entries,
    summary: {
      currency: b.currency,
      groups: b.groups.map((g) => ({ type: g.type, count: g.count, gross: g.gross, fee: g.fee, net: g.net })),
      total: b.total,
      fee_total: feeTotal(entries),
      entries_match_amount: checkPayoutNet(payout, entries) === undefined,
      problem: checkPayoutNet(payout, entries) ?? null,
    },
  };
}

/** One payout for people: what it is, its entries by type, the check, then every entry. */
export function getText(payout: Payout, entries: readonly PayoutEntry[], timeZone: string): string {
  const b = entryBreakdown(entries, payout.amount_money?.currency ?? "USD");
  const c = b.currency;
  const amt = (n: number) => formatAmount(n, c);
  const groups = b.groups.map((g) => [g.words, String(g.count), amt(g.gross), amt(g.fee), amt(g.net)]);
  const problem = checkPayoutNet(payout, entries);
  const out = [
    `Payout ${payout.id}: ${payoutStatusWord(payout.status)}, ${formatMoney(payout.amount_money)}`,
    `Created ${localDateTime(payout.created_at, timeZone)} · arrives ${payout.arrival_date ?? "—"} · to ${maskDestination(payout.destination)} · reference ${payout.end_to_end_id ?? "—"}`,
    "",
    ...textColumns(
      [
        ["", "entries", "gross", "fees", "net"],
        ...groups,
        ["total", String(b.total.count), amt(b.total.gross), amt(b.total.fee), amt(b.total.net)],
      ],
      new Set([1, 2, 3, 4]),
    ),
    "",
    problem ?? `The entries add up to the payout's ${formatMoney(payout.amount_money)}. ${keptWords(entries, c)}`,
    "",
  ];
  out.push(...entryTable(entries, timeZone));
  return `${out.join("\n")}\n`;
}

/** `backroom payouts entries`. */
export async function runPayoutsEntries(argv: string[], io: CommandIo, deps: PayoutsDeps = {}): Promise<number> {
  const read = readArgs(io, PAYOUTS_ENTRIES_SPEC, argv, (a) => ({
    ...payoutIdOptions(a),
    format: outputFormat(a.values),
    out: outTarget(a.values, io.env),
  }));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, PAYOUTS_ENTRIES_SPEC.name, () =>
    withPayoutsClient(io, opts.target, deps, async (client, _default, where) => {
      const [payout, entries] = await Promise.all([
        client.payouts.getPayout(opts.payoutId).then((r) => r.payout),
        loadPayoutEntries(client, opts.payoutId),
      ]).catch((err: unknown) => payoutsProblem(err, where, `no payout ${opts.payoutId}`));
      const text =
        opts.format === "text"
          ? `${entryTable(entries, await zoneOf(client, payout?.location_id)).join("\n")}\n`
          : formatRecords(opts.format, entries, ENTRY_CSV);
      await writeOut(opts.out, text, io.stdout);
      if (opts.out.kind === "file")
        say(io.stderr, `wrote ${plural(entries.length, "entry", "entries")} to ${opts.out.path}`);
      return 0;
    }),
  );
}

/** The time zone of a location, for local times; UTC when it cannot be told. */
async function zoneOf(client: LocationsClient, locationId: string | undefined): Promise<string> {
  const locations = await Promise.resolve(client.locations.listLocations()).then(
    (r) => r.locations ?? [],
    () => [] as Location[],
  );
  return locations.find((l) => l.id === locationId)?.timezone ?? "UTC";
}

/** Entries as aligned columns: local time, type, gross, fee, net and where each comes from. */
function entryTable(entries: readonly PayoutEntry[], timeZone: string): string[] {
  const amount = (m: PayoutEntry["net_amount_money"]) => money(m, (a, c) => formatAmount(a, c));
  const rows = entries.map((e) => [
    localDateTime(e.effective_at, timeZone),
    entryWords(e.type),
    amount(e.gross_amount_money),
    amount(e.fee_amount_money),
    amount(e.net_amount_money),
    entrySource(e),
  ]);
  return textColumns([["time", "type", "gross", "fee", "net", "from"], ...rows], new Set([2, 3, 4]));
}
