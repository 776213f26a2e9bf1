// `backroom giftcards get|activities|liability`: gift cards for scripts and quick look-ups, on the
// same reads as the app's Gift cards screen. The writes are in giftcards-write.ts, the box of cards
// in giftcards-box.ts; what they share is here.
import { localDateTime } from "../domain/cash-drawers.js";
import {
  ACTIVITY_FILTERS,
  ACTIVITY_WORDS,
  activityAmount,
  activityDays,
  activityNote,
  activityTotals,
  cardHistory,
  dayBounds,
  type HistoryRow,
  onStoreDays,
  parseActivityTypes,
  storesDayBounds,
} from "../domain/gift-card-activity.js";
import { cardStateWords, cardTypeWords, parseCardQuery } from "../domain/gift-cards.js";
import { formatAmount, formatMoney } from "../domain/money.js";
import { plural } from "../domain/plural.js";
import { localDate } from "../domain/time.js";
import type { GiftCardActivity, GiftCardActivityType, Location } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";
import { problemOf } from "../state/errors.js";
import {
  cardActivities,
  type KnownCard,
  linkedCustomers,
  lookUpCard,
  rangeActivities,
  readLiability,
} from "../state/gift-cards-io.js";
import { type CommandSpec, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";
import {
  activeLocations,
  isAllLocations,
  LOCATION_OPTION,
  LOCATION_OR_ALL_OPTION,
  type TargetDeps,
} from "./listing.js";
import { type CsvColumn, FORMAT_OPTIONS, formatRecords, outputFormat } from "./output.js";
import { runCommand } from "./run.js";
import { pickLocation, TARGET_OPTIONS, type TargetFlagValues, targetFlags, withTargetClient } from "./target.js";

/** What the gift card commands build on; each has a real default, tests pass their own. */
export interface GiftCardsDeps extends TargetDeps<SquareClient> {
  /** Mints idempotency keys. */
  newKey?: () => string;
  /** The gift card journal; default `giftcards.db` in the data folder. */
  journalPath?: string;
  /** Cards a box activates at once. */
  concurrency?: number;
}

/** Opens the client on the target; the body gets it and the config's default location. */
export async function withGiftCards<T>(
  io: CommandIo,
  target: TargetFlagValues,
  deps: GiftCardsDeps,
  body: (client: SquareClient, defaultLocationId: string | undefined) => Promise<T>,
): Promise<T> {
  return withTargetClient(io, target, deps.open, (opened, resolved) =>
    body(opened.client, resolved.target.defaultLocationId),
  );
}

/** A failed call as one line for stderr: the manager's words, then the codes. */
export function serviceFailure(err: unknown, what: string): CommandError {
  const p = problemOf(err);
  return new CommandError(`${what}: ${p.headline}${p.details ? ` (${p.details})` : ""}`);
}

/** Where a command works: the location picked, its currency and time zone, and every location by id. */
export interface Where {
  location: Location & { id: string };
  name: string;
  currency: string;
  timeZone: string;
  all: Map<string, Location>;
}

/** Reads the locations and picks one: `--location`, else the config's default, else the first. */
export async function whereOf(
  client: Pick<SquareClient, "locations">,
  wanted: string | undefined,
  defaultLocationId: string | undefined,
): Promise<Where> {
  let locations: Location[];
  try {
    locations = await activeLocations(client);
  } catch (err) {
    throw serviceFailure(err, "reading the locations failed");
  }
  const location = pickLocation(locations, wanted, defaultLocationId);
  const id = location.id ?? "";
  return {
    location: { ...location, id },
    name: location.name ?? id,
    currency: location.currency ?? "USD",
    timeZone: location.timezone ?? "UTC",
    all: new Map(locations.map((l) => [l.id ?? "", l])),
  };
}

/** Finds the card a command names by number or id; no such card is a CommandError. */
export async function cardNamed(client: SquareClient, text: string): Promise<KnownCard> {
  const query = parseCardQuery(text);
  if (!query.ok) throw new CommandError(query.problem, 2);
  let found: Awaited<ReturnType<typeof lookUpCard>>;
  try {
    found = await lookUpCard(client.giftCards, query.value);
  } catch (err) {
    throw serviceFailure(err, "reading the card failed");
  }
  if (found.kind === "found") return found.card;
  throw new CommandError(
    found.kind === "unknown"
      ? `no gift card has the number ${found.gan} (it may not be registered yet: \`backroom giftcards activate ${found.gan}\` registers and activates it)`
      : `no gift card has the id ${found.id}`,
  );
}

/** `backroom giftcards get`'s command line. */
export const GET_SPEC = {
  name: "backroom giftcards get",
  summary:
    "Shows one gift card as it is now — its state in words, balance, type, the customers linked to it — and its whole history, newest first, with what each activity did to the balance, the balance after it, where and when.",
  positionals: [{ name: "GAN|ID", help: "the card's number (spaces and dashes allowed) or its id (gftc:…)" }],
  options: {
    json: { type: "boolean", help: 'print {"gift_card": …, "activities": […]} as JSON, and nothing else, on stdout' },
    ...TARGET_OPTIONS,
  },
  details: "Exit codes: 0 done, 1 no such card or the service failed, 2 a bad flag or a number no card can have.",
} as const satisfies CommandSpec;

/** A history row for people: when, where, what, change, balance after, note. */
function historyLine(r: HistoryRow, places: Map<string, Location>, currency: string): string {
  const a = r.activity;
  const place = places.get(a.location_id);
  const when = localDateTime(a.created_at, place?.timezone ?? "UTC");
  const change = r.change === undefined ? "" : formatAmount(r.change, currency, { sign: "always" });
  const after = r.balanceAfter === undefined ? "" : formatAmount(r.balanceAfter, currency);
  return [
    when.padEnd(16),
    (place?.name ?? a.location_id).slice(0, 16).padEnd(16),
    ACTIVITY_WORDS[a.type].padEnd(20),
    change.padStart(11),
    after.padStart(11),
    activityNote(a),
  ]
    .join("  ")
    .trimEnd();
}

/** `backroom giftcards get GAN|ID [--json]`. */
export async function runGiftCardsGet(argv: string[], io: CommandIo, deps: GiftCardsDeps = {}): Promise<number> {
  const read = readArgs(io, GET_SPEC, argv, ({ values, positionals }) => ({
    query: positionals[0] ?? "",
    json: values.json === true,
    target: targetFlags(values),
  }));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, GET_SPEC.name, () =>
    withGiftCards(io, opts.target, deps, async (client, defaultLocationId) => {
      const card = await cardNamed(client, opts.query);
      const activities = await cardActivities(client.giftCards, card).catch((err) => {
        throw serviceFailure(err, "reading the card's history failed");
      });
      if (opts.json) {
        io.stdout.write(`${JSON.stringify({ gift_card: card, activities }, null, 2)}\n`);
        return 0;
      }
      const where = await whereOf(client, undefined, defaultLocationId);
      const currency = card.balance_money?.currency ?? where.currency;
      const names = (await linkedCustomers(client.customers, card)).map((c) => (c.name ? `${c.name} (${c.id})` : c.id));
      const rows: [string, string][] = [
        ["Card", `${card.gan ?? ""} (${cardTypeWords(card.type)})`],
        ["State", cardStateWords(card.state)],
        ["Balance", formatMoney(card.balance_money)],
        ["Customers", names.join(", ") || "none linked"],
        ["Created", localDateTime(card.created_at, where.timeZone)],
        ["Id", card.id],
      ];
      say(io.stdout, rows.map(([k, v]) => `${k.padEnd(11)}${v}`).join("\n"));
      say(io.stdout, "");
      if (activities.length === 0) {
        say(io.stdout, "No activity yet.");
        return 0;
      }
      const head = [
        "WHEN".padEnd(16),
        "WHERE".padEnd(16),
        "WHAT".padEnd(20),
        "CHANGE".padStart(11),
        "BALANCE".padStart(11),
        "NOTE",
      ];
      say(io.stdout, head.join("  "));
      for (const r of cardHistory(activities)) say(io.stdout, historyLine(r, where.all, currency));
      return 0;
    }),
  );
}

/** `backroom giftcards activities`'s command line. */
export const ACTIVITIES_SPEC = {
  name: "backroom giftcards activities",
  summary:
    "Gift card activity of a location, of every location (--location all) or of one card over a range of days, newest first, with totals per kind: sold, loaded, redeemed, adjusted (net), refunded. Days are each location's own.",
  options: {
    gan: { type: "string", value: "GAN|ID", help: "only this card (at every location unless --location is given)" },
    type: {
      type: "string",
      short: "t",
      value: "KIND",
      help: `only one kind: ${Object.keys(ACTIVITY_FILTERS).join(", ")}, or a type such as LOAD or ADJUST_DECREMENT`,
    },
    location: LOCATION_OR_ALL_OPTION,
    from: { type: "string", value: "YYYY-MM-DD", help: "the first day (default: today)" },
    to: { type: "string", value: "YYYY-MM-DD", help: "the last day (default: --from)" },
    ...FORMAT_OPTIONS,
    ...TARGET_OPTIONS,
  },
  details:
    "--json, --ndjson and --csv print the activities only (amounts in the currency's minor unit in JSON, as the interface gives them; decimals in CSV). Exit codes: 0 done, 1 the service failed, 2 a bad flag, date or kind.",
} as const satisfies CommandSpec;

/** Checks `activities`' options. */
export function activitiesOptions({ values }: ParsedArgs<typeof ACTIVITIES_SPEC.options>) {
  // Checked against a stand-in today: only the shape and order of the dates are checked here.
  const range = activityDays({ from: values.from, to: values.to }, "2000-01-01");
  if (!range.ok) throw new UsageError(range.problem.replace(/^The (from|to) /, "--$1 "));
  if (values.to !== undefined && values.from === undefined) throw new UsageError("--to needs --from");
  let types: readonly GiftCardActivityType[] = [];
  if (values.type !== undefined) {
    const parsed = parseActivityTypes(values.type);
    if (!parsed.ok) throw new UsageError(`--type: ${parsed.problem}`);
    types = parsed.value;
  }
  return {
    gan: values.gan,
    types,
    location: values.location,
    from: values.from,
    to: values.to,
    format: outputFormat(values),
    target: targetFlags(values),
  };
}

/** The columns of `activities --csv`. */
function activityColumns(places: Map<string, Location>): CsvColumn<GiftCardActivity>[] {
  const zone = (a: GiftCardActivity) => places.get(a.location_id)?.timezone ?? "UTC";
  const money = (a: GiftCardActivity) => activityAmount(a);
  return [
    { header: "time", cell: (a) => localDateTime(a.created_at, zone(a)) },
    { header: "location", cell: (a) => places.get(a.location_id)?.name ?? a.location_id },
    { header: "gan", cell: (a) => a.gift_card_gan },
    { header: "type", cell: (a) => a.type },
    { header: "what", cell: (a) => ACTIVITY_WORDS[a.type] },
    {
      header: "amount",
      cell: (a) => {
        const m = money(a);
        return m ? formatAmount(m.amount, m.currency, { grouping: false }) : "";
      },
    },
    {
      header: "balance after",
      cell: (a) => {
        const b = a.gift_card_balance_money;
        return b?.amount === undefined ? "" : formatAmount(b.amount, b.currency ?? "USD", { grouping: false });
      },
    },
    { header: "currency", cell: (a) => a.gift_card_balance_money?.currency },
    { header: "note", cell: (a) => activityNote(a) },
    { header: "activity id", cell: (a) => a.id },
    { header: "card id", cell: (a) => a.gift_card_id },
  ];
}

/** The totals of a range, as lines for people. */
export function totalsText(activities: readonly GiftCardActivity[], currency: string): string {
  const t = activityTotals(activities, currency);
  const line = (label: string, x: { count: number; amount: number }, sign = false) =>
    `${label.padEnd(10)}${String(x.count).padStart(5)}  ${formatAmount(x.amount, currency, sign ? { sign: "always" } : {}).padStart(14)} ${currency}`;
  const lines = [
    line("sold", t.sold),
    line("loaded", t.loaded),
    line("redeemed", t.redeemed),
    line("adjusted", t.adjusted, true),
    line("refunded", t.refunded),
  ];
  if (t.otherCurrency > 0) lines.push(`(${t.otherCurrency} in another currency, not added up)`);
  return lines.join("\n");
}

/** `backroom giftcards activities [--gan] [--type] [--location] [--from --to]`. */
export async function runGiftCardsActivities(argv: string[], io: CommandIo, deps: GiftCardsDeps = {}): Promise<number> {
  const read = readArgs(io, ACTIVITIES_SPEC, argv, activitiesOptions);
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, ACTIVITIES_SPEC.name, () =>
    withGiftCards(io, opts.target, deps, async (client, defaultLocationId) => {
      const card = opts.gan === undefined ? undefined : await cardNamed(client, opts.gan);
      const everywhere = isAllLocations(opts.location);
      const where = await whereOf(client, everywhere ? undefined : opts.location, defaultLocationId);
      const today = localDate(deps.now?.() ?? new Date(), where.timeZone);
      const from = opts.from ?? today;
      const to = opts.to ?? from;
      const byLocation = !everywhere && (card === undefined || opts.location !== undefined);
      // Every location's days are its own: one read covers them all, then each row is kept when it
      // falls on those days at its own store's clock (as the screen's All locations does).
      const zoneOf = (id: string) => where.all.get(id)?.timezone ?? where.timeZone;
      const bounds = everywhere
        ? storesDayBounds(
            from,
            to,
            [...where.all.values()].map((l) => l.timezone ?? "UTC"),
          )
        : dayBounds(from, to, where.timeZone);
      const rows = await rangeActivities(client.giftCards, {
        locationId: byLocation ? where.location.id : undefined,
        giftCardId: card?.id,
        ...bounds,
        types: opts.types,
      }).catch((err) => {
        throw serviceFailure(err, "reading the activity failed");
      });
      const activities = everywhere ? onStoreDays(rows, from, to, zoneOf) : rows;
      if (opts.format !== "text") {
        io.stdout.write(formatRecords(opts.format, activities, activityColumns(where.all)));
        return 0;
      }
      const what = card ? `card ${card.gan}` : everywhere ? "every location" : where.name;
      const days = from === to ? from : `${from} – ${to}`;
      say(io.stdout, `Gift card activity, ${what}${byLocation && card ? ` at ${where.name}` : ""}, ${days}:`);
      if (activities.length === 0) say(io.stdout, "none");
      for (const a of activities) {
        const m = activityAmount(a);
        const when = localDateTime(a.created_at, where.all.get(a.location_id)?.timezone ?? where.timeZone);
        const amount = m ? formatAmount(m.amount, m.currency || where.currency) : "";
        say(
          io.stdout,
          `${when}  ${(a.gift_card_gan ?? "").padEnd(16)}  ${ACTIVITY_WORDS[a.type].padEnd(20)}  ${amount.padStart(11)}  ${activityNote(a)}`.trimEnd(),
        );
      }
      say(io.stdout, "");
      say(io.stdout, totalsText(activities, where.currency));
      return 0;
    }),
  );
}

/** `backroom giftcards liability`'s command line. */
export const LIABILITY_SPEC = {
  name: "backroom giftcards liability",
  summary:
    "What the store owes on its gift cards: the outstanding balance of every active card (the liability), and apart from it the balances held on blocked cards. Cards belong to the seller and can be spent at every location, so the figure is the seller's; --location picks the currency it is shown in.",
  options: {
    location: LOCATION_OPTION,
    json: { type: "boolean", help: "print the figures as one JSON object, and nothing else, on stdout" },
    ...TARGET_OPTIONS,
  },
  details:
    'JSON: {"currency", "active": {"cards", "amount"}, "blocked": {"cards", "amount"}, "other_currency_cards", "read_at"}, amounts in the currency\'s minor unit. Exit codes: 0 done, 1 the service failed, 2 a bad flag.',
} as const satisfies CommandSpec;

/** `backroom giftcards liability [--location] [--json]`. */
export async function runGiftCardsLiability(argv: string[], io: CommandIo, deps: GiftCardsDeps = {}): Promise<number> {
  const read = readArgs(io, LIABILITY_SPEC, argv, ({ values }) => ({
    location: values.location,
    json: values.json === true,
    target: targetFlags(values),
  }));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, LIABILITY_SPEC.name, () =>
    withGiftCards(io, opts.target, deps, async (client, defaultLocationId) => {
      const where = await whereOf(client, opts.location, defaultLocationId);
      const owed = await readLiability(client.giftCards, where.currency).catch((err) => {
        throw serviceFailure(err, "reading the gift cards failed");
      });
      const at = deps.now?.() ?? new Date();
      if (opts.json) {
        const record = {
          currency: where.currency,
          active: { cards: owed.activeCards, amount: owed.active.amount },
          blocked: { cards: owed.blockedCards, amount: owed.blocked.amount },
          other_currency_cards: owed.otherCurrency,
          read_at: at.toISOString(),
        };
        io.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
        return 0;
      }
      say(io.stdout, `Outstanding on ${plural(owed.activeCards, "active card")}: ${formatMoney(owed.active)}`);
      if (owed.blockedCards > 0) {
        say(
          io.stdout,
          `Held on ${plural(owed.blockedCards, "blocked card")} (not included): ${formatMoney(owed.blocked)}`,
        );
      }
      if (owed.otherCurrency > 0) {
        say(io.stdout, `${plural(owed.otherCurrency, "card")} in another currency left out`);
      }
      say(io.stdout, `as of ${localDateTime(at.toISOString(), where.timeZone)} (${where.timeZone})`);
      return 0;
    }),
  );
}
