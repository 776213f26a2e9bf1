// `backroom giftcards load|adjust|clear|block|unblock|deactivate GAN` (and `activate GAN`): one write
// to one card, for scripts. The same checks as the app's screen before anything is sent (the
// card's state, an amount in the location's currency, no decrement past the balance, a reason the
// interface takes), the same question with the balance before → after (asked on a terminal;
// `--yes` answers it for scripts), and one idempotency key per request, reused by every retry.
import {
  doneWords,
  type GiftCardWrite,
  type Payment,
  parseCardQuery,
  parseReason,
  type ReasonedKind,
  WRITE_REASONS,
} from "../domain/gift-cards.js";
import { formatMoney, parseMoney } from "../domain/money.js";
import type { SquareClient } from "../square/index.js";
import { lookUpCard, planWrite, sendWrite } from "../state/gift-cards-io.js";
import { type CommandSpec, type OptionSpec, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { cardNamed, type GiftCardsDeps, serviceFailure, whereOf, withGiftCards } from "./giftcards.js";
import { askYesNo, CommandError, type CommandIo, say } from "./io.js";
import { LOCATION_OPTION } from "./listing.js";
import { runCommand } from "./run.js";
import { TARGET_OPTIONS, type TargetFlagValues, targetFlags } from "./target.js";

/** The permission a gift card write needs, as `backroom login` asks for it. */
export const GIFTCARDS_WRITE = "GIFTCARDS_WRITE";

/** The scripts' writes: each a subcommand. `adjust` goes up or down by the amount's sign. */
export type ScriptWrite = "activate" | "load" | "adjust" | "clear" | "block" | "unblock" | "deactivate";

/** How a card sold or loaded was paid for: `--paid-with`, or `--order` with `--line-item`. */
export const PAYMENT_OPTIONS = {
  "paid-with": {
    type: "string",
    value: "ID[,ID]",
    help: "how the buyer paid, for a card sold outside an order: payment instrument ids (a card or bank account id) or a word your store uses, such as cash",
  },
  order: { type: "string", value: "ORDER_ID", help: "the order the card was sold or loaded in (with --line-item)" },
  "line-item": { type: "string", value: "UID", help: "the gift card line item of --order" },
} as const satisfies Record<string, OptionSpec>;

/** Reads `--paid-with` or `--order`/`--line-item`; one of the two is required. */
export function paymentOf(values: { "paid-with"?: string; order?: string; "line-item"?: string }): Payment {
  const { "paid-with": paid, order, "line-item": line } = values;
  if (paid !== undefined && (order !== undefined || line !== undefined)) {
    throw new UsageError("--paid-with and --order cannot go together: the card was sold in an order or outside one");
  }
  if (order !== undefined || line !== undefined) {
    if (!order || !line)
      throw new UsageError("--order and --line-item go together: the order and its gift card line item");
    return { kind: "order", orderId: order, lineItemUid: line };
  }
  const ids = (paid ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) {
    throw new UsageError(
      "--paid-with is required (or --order with --line-item): the service asks how a card sold outside an order was paid for — a payment id, or a word such as cash",
    );
  }
  return { kind: "instruments", ids };
}

const YES = { type: "boolean", short: "y", help: "do it without asking (needed when not on a terminal)" } as const;
const JSON_OUT = {
  type: "boolean",
  help: 'print {"activity": …, "gift_card": …} as JSON, and nothing else, on stdout',
} as const;
const reasonHelp = (kind: ReasonedKind) => {
  const list = WRITE_REASONS[kind].map((r) => r.toLowerCase()).join(", ");
  return WRITE_REASONS[kind].length === 1 ? `the reason (the one the interface takes: ${list})` : `why: ${list}`;
};

/** The command line of each write. */
export const WRITE_SPECS = {
  load: {
    name: "backroom giftcards load",
    summary: "Adds money to an active card. The question shows the balance before → after.",
    positionals: [{ name: "GAN|ID", help: "the card's number or id" }],
    options: {
      amount: { type: "string", value: "A", help: "how much, in the location's currency (25, 25.00, $25.00)" },
      ...PAYMENT_OPTIONS,
      location: LOCATION_OPTION,
      yes: YES,
      json: JSON_OUT,
      ...TARGET_OPTIONS,
    },
  },
  adjust: {
    name: "backroom giftcards adjust",
    summary:
      "Corrects an active card's balance up (a positive amount) or down (a negative one, -5.00 or (5.00)), with the reason the interface takes. A decrement past the balance is refused before anything is sent.",
    positionals: [{ name: "GAN|ID", help: "the card's number or id" }],
    options: {
      amount: { type: "string", value: "±A", help: "the change: 5.00 adds, -5.00 takes off" },
      reason: {
        type: "string",
        value: "R",
        help: `up: ${WRITE_REASONS["adjust-up"].map((r) => r.toLowerCase()).join(", ")}; down: ${WRITE_REASONS["adjust-down"].map((r) => r.toLowerCase()).join(", ")}`,
      },
      location: LOCATION_OPTION,
      yes: YES,
      json: JSON_OUT,
      ...TARGET_OPTIONS,
    },
  },
  clear: reasonSpec("clear", "Empties a card's balance (active or blocked); the card stays usable."),
  block: reasonSpec("block", "Blocks an active card: nothing can be spent or loaded until it is unblocked."),
  unblock: reasonSpec("unblock", "Unblocks a blocked card."),
  deactivate: reasonSpec(
    "deactivate",
    "Deactivates a card for good: nothing can be done to it afterwards; its balance stays on it.",
  ),
} as const;

function reasonSpec<K extends "clear" | "block" | "unblock" | "deactivate">(kind: K, summary: string) {
  return {
    name: `backroom giftcards ${kind}`,
    summary,
    positionals: [{ name: "GAN|ID", help: "the card's number or id" }],
    options: {
      reason: { type: "string", value: "R", help: reasonHelp(kind) },
      location: LOCATION_OPTION,
      yes: YES,
      json: JSON_OUT,
      ...TARGET_OPTIONS,
    },
  } as const satisfies CommandSpec;
}

/** A write's command line, checked: everything but what needs the location's currency. */
export interface WriteOptions {
  which: ScriptWrite;
  query: string;
  amount: string | undefined;
  reason: string | undefined;
  payment: Payment | undefined;
  location: string | undefined;
  yes: boolean;
  json: boolean;
  target: TargetFlagValues;
}

type AnyWriteValues = {
  amount?: string;
  reason?: string;
  "paid-with"?: string;
  order?: string;
  "line-item"?: string;
  location?: string;
  yes?: boolean;
  json?: boolean;
} & TargetFlagValues;

/** Checks a write's flags (a UsageError names the flag). */
export function writeOptions(which: ScriptWrite, { values, positionals }: ParsedArgs<Record<string, OptionSpec>>) {
  const v = values as AnyWriteValues;
  const target = targetFlags(v);
  const amounted = which === "activate" || which === "load" || which === "adjust";
  if (amounted && v.amount === undefined) throw new UsageError("--amount is required");
  if (which === "adjust" && v.reason === undefined)
    throw new UsageError("--reason is required: why the balance changes");
  const options: WriteOptions = {
    which,
    query: positionals[0] ?? "",
    amount: v.amount,
    reason: v.reason,
    payment: which === "activate" || which === "load" ? paymentOf(v) : undefined,
    location: v.location,
    yes: v.yes === true,
    json: v.json === true,
    target,
  };
  return options;
}

/** The write a checked command line asks for, in the location's currency. */
export function writeOf(o: WriteOptions, currency: string): GiftCardWrite {
  const money = (allowNegative: boolean) => {
    const m = parseMoney(o.amount ?? "", currency, { allowNegative });
    if (!m.ok) throw new CommandError(`--amount: ${m.problem}`, 2);
    return m.value;
  };
  const reason = <K extends ReasonedKind>(kind: K) => {
    const only = WRITE_REASONS[kind].length === 1 ? WRITE_REASONS[kind][0] : undefined;
    const r = parseReason(kind, o.reason ?? only ?? "");
    if (!r.ok) throw new CommandError(`--reason: ${r.problem}`, 2);
    return r.value;
  };
  switch (o.which) {
    case "activate":
    case "load":
      return { kind: o.which, amount: money(false), payment: o.payment ?? { kind: "instruments", ids: [] } };
    case "adjust": {
      const amount = money(true);
      return amount < 0
        ? { kind: "adjust-down", amount: -amount, reason: reason("adjust-down") }
        : { kind: "adjust-up", amount, reason: reason("adjust-up") };
    }
    case "clear":
      return { kind: "clear", reason: reason("clear") };
    case "block":
      return { kind: "block", reason: reason("block") };
    case "unblock":
      return { kind: "unblock", reason: reason("unblock") };
    case "deactivate":
      return { kind: "deactivate", reason: reason("deactivate") };
  }
}

/**
 * Refuses a write the sign-in was not given permission for, before anything is asked or sent.
 * The token's scopes come from the service; when it cannot say, the write goes ahead and the
 * service decides.
 */
export async function checkWriteScope(client: Pick<SquareClient, "oauth">): Promise<void> {
  const scopes = await client.oauth
    .retrieveTokenStatus()
    .then((s) => s.scopes)
    .catch(() => undefined);
  if (scopes && !scopes.includes(GIFTCARDS_WRITE)) {
    throw new CommandError(
      `this sign-in was not given permission to change gift cards (${GIFTCARDS_WRITE}); run \`backroom login\` again to grant it`,
    );
  }
}

/** Asks the question unless `--yes`; refuses where nothing can be asked. */
export async function confirmed(io: CommandIo, question: string, yes: boolean): Promise<void> {
  if (yes) return;
  const answer = await askYesNo(io, question);
  if (answer === undefined) {
    throw new CommandError(`${question}\nnot a terminal, so nothing can be asked: add --yes to do it`, 2);
  }
  if (!answer) throw new CommandError("not done", 1);
}

/** Runs one write subcommand. */
export async function runGiftCardWrite(
  which: ScriptWrite,
  spec: CommandSpec,
  argv: string[],
  io: CommandIo,
  deps: GiftCardsDeps = {},
): Promise<number> {
  const read = readArgs(io, spec, argv, (a) => writeOptions(which, a));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, spec.name, () =>
    withGiftCards(io, opts.target, deps, async (client, defaultLocationId) => {
      const where = await whereOf(client, opts.location, defaultLocationId);
      const write = writeOf(opts, where.currency);
      const found = await foundFor(client, opts);
      const planned = planWrite(found, write, {
        locationId: where.location.id,
        currency: where.currency,
        newKey: deps.newKey ?? (() => crypto.randomUUID()),
      });
      if (!planned.ok) throw new CommandError(`not sent: ${planned.problem}`);
      const plan = planned.plan;
      await checkWriteScope(client);
      await confirmed(io, plan.question, opts.yes);
      const activity = await sendWrite(client.giftCards, plan).catch((err) => {
        throw serviceFailure(err, "not done");
      });
      const card = activity.gift_card_id
        ? await client.giftCards
            .retrieveGiftCard(activity.gift_card_id)
            .then((r) => r.gift_card)
            .catch(() => undefined)
        : undefined;
      if (opts.json) {
        io.stdout.write(`${JSON.stringify({ activity, gift_card: card ?? null }, null, 2)}\n`);
        return 0;
      }
      const after = card?.balance_money ?? activity.gift_card_balance_money ?? plan.change.after;
      const readBack = { amount: after.amount ?? 0, currency: after.currency ?? plan.currency };
      say(io.stdout, doneWords(plan.gan, write, plan.change.before, readBack));
      if (card && card.balance_money?.amount !== plan.change.after.amount) {
        say(io.stderr, `note: the card now holds ${formatMoney(card.balance_money)} (changed elsewhere meanwhile)`);
      }
      return 0;
    }),
  );
}

/** The card a write names: found, or — for an activation only — a number the service does not know yet. */
async function foundFor(client: SquareClient, opts: WriteOptions) {
  if (opts.which !== "activate") return { card: await cardNamed(client, opts.query) };
  const query = parseCardQuery(opts.query);
  if (!query.ok) throw new CommandError(query.problem, 2);
  const found = await lookUpCard(client.giftCards, query.value).catch((err) => {
    throw serviceFailure(err, "reading the card failed");
  });
  if (found.kind === "found") return { card: found.card };
  if (found.kind === "unknown") return { gan: found.gan };
  throw new CommandError(`no gift card has the id ${found.id}`);
}
