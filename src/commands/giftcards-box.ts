// `backroom giftcards activate --file CARDS.csv` (a box of cards) or `activate GAN` (one card), and
// `backroom giftcards resume`: a box is journaled on this machine like a stocktake's commit, so a
// run killed halfway and run again (or resumed) finishes without activating any card twice.
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { localDateTime } from "../domain/cash-drawers.js";
import { parseCardFile } from "../domain/gift-card-file.js";
import type { Payment } from "../domain/gift-cards.js";
import { MAX_CARD_FILE_BYTES, MAX_CARD_FILE_LINES } from "../domain/limits.js";
import { formatMoney, parseMoney } from "../domain/money.js";
import { plural } from "../domain/plural.js";
import {
  type BoxCard,
  type BoxRun,
  type GiftCardJournal,
  giftCardJournalPath,
  openGiftCardJournal,
} from "../local/gift-card-journal.js";
import type { SquareClient } from "../square/index.js";
import { type BoxOutcome, runBox } from "../state/gift-card-box.js";
import { type CommandSpec, readArgs, UsageError } from "./args.js";
import { readNamedFile } from "./file-problem.js";
import { type GiftCardsDeps, type Where, whereOf, withGiftCards } from "./giftcards.js";
import { checkWriteScope, confirmed, PAYMENT_OPTIONS, paymentOf, runGiftCardWrite } from "./giftcards-write.js";
import { CommandError, type CommandIo, say } from "./io.js";
import { LOCATION_OPTION } from "./listing.js";
import { runCommand } from "./run.js";
import { dataDir, expandPath, TARGET_OPTIONS, type TargetFlagValues, targetFlags } from "./target.js";

/** Some cards were refused; the others were activated. */
export const EXIT_REFUSED = 3;
/** The run stopped before the end; running it again (or `giftcards resume`) finishes it. */
export const EXIT_STOPPED = 4;

const EXIT_CODES = `Exit codes: 0 every card is active (activated now, or already active and left alone); 1 nothing was done (see the message); 2 the command line or the file is unusable; ${EXIT_REFUSED} some cards were refused (each is listed with why) and the others activated; ${EXIT_STOPPED} the run stopped before the end (the service stopped answering): everything is journaled on this machine, and running the same command again, or \`backroom giftcards resume\`, finishes it without activating any card twice.`;

/** `backroom giftcards activate`'s command line. */
export const ACTIVATE_SPEC = {
  name: "backroom giftcards activate",
  summary:
    "Activates a box of gift cards (--file: one card number a line, or a CSV with a gan column) or one card (GAN), each with the same starting balance. A number the service does not know yet is registered first as a physical card with that number. Prints what it did per card: activated, already active — left alone, or refused — why.",
  positionals: [{ name: "GAN", optional: true, help: "one card's number (or give --file)" }],
  options: {
    file: { type: "string", short: "f", value: "CARDS.csv", help: "the box: one card number a line, or a gan column" },
    amount: { type: "string", value: "A", help: "each card's starting balance, in the location's currency (25.00)" },
    ...PAYMENT_OPTIONS,
    location: LOCATION_OPTION,
    yes: { type: "boolean", short: "y", help: "do it without asking (needed when not on a terminal)" },
    json: { type: "boolean", help: "print one record per card as a JSON array, and nothing else, on stdout" },
    ...TARGET_OPTIONS,
  },
  details: EXIT_CODES,
} as const satisfies CommandSpec;

/** `backroom giftcards resume`'s command line. */
export const RESUME_SPEC = {
  name: "backroom giftcards resume",
  summary:
    "Finishes every box of cards on this machine whose run stopped before the end: cards already settled are listed as they ended, requests that went out are sent again under their own keys (the service answers what it did the first time), and the rest are done.",
  options: {
    json: ACTIVATE_SPEC.options.json,
    ...TARGET_OPTIONS,
  },
  details: EXIT_CODES,
} as const satisfies CommandSpec;

/** How a card ended, in words. */
export function outcomeWords(card: Pick<BoxCard, "state" | "problem">): string {
  switch (card.state) {
    case "activated":
      return "activated";
    case "left-alone":
      return "already active — left alone";
    case "refused":
      return `refused — ${card.problem ?? "the service refused it"}`;
    default:
      return "not done yet";
  }
}

const cardLine = (c: Pick<BoxCard, "line" | "gan" | "state" | "problem">, earlier = false) =>
  `line ${String(c.line).padEnd(5)} ${c.gan.padEnd(20)} ${outcomeWords(c)}${earlier ? " (earlier run)" : ""}`;

/** One card of `--json`. */
const cardRecord = (c: Pick<BoxCard, "line" | "gan" | "state" | "problem" | "cardId">) => ({
  line: c.line,
  gan: c.gan,
  outcome: c.state,
  problem: c.problem ?? null,
  card_id: c.cardId ?? null,
});

/** Works a run to its end and reports it; returns the exit code. */
async function workRun(
  io: CommandIo,
  client: SquareClient,
  journal: GiftCardJournal,
  run: BoxRun,
  deps: GiftCardsDeps,
  opts: { json: boolean; fileProblems?: readonly { line: number; text: string; problem: string }[] },
): Promise<number> {
  const settled = journal.cards(run.id).filter((c) => c.state !== "planned" && c.state !== "sent");
  if (!opts.json) for (const c of settled) say(io.stdout, cardLine(c, true));
  const outcome: BoxOutcome = await runBox(run, {
    client: client.giftCards,
    journal,
    now: deps.now ?? (() => new Date()),
    ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
    onCard: (c) => {
      if (!opts.json) say(io.stdout, cardLine(c));
    },
  });
  const fileProblems = opts.fileProblems ?? [];
  if (opts.json) {
    const records = [
      ...fileProblems.map((p) => ({
        line: p.line,
        gan: p.text,
        outcome: "refused",
        problem: p.problem,
        card_id: null,
      })),
      ...outcome.cards.map(cardRecord),
    ].sort((a, b) => a.line - b.line);
    io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
  }
  const count = (s: BoxCard["state"]) => outcome.cards.filter((c) => c.state === s).length;
  const refused = count("refused") + fileProblems.length;
  const parts = [
    `${count("activated")} activated`,
    `${count("left-alone")} already active — left alone`,
    `${refused} refused`,
  ];
  const total = outcome.cards.length + fileProblems.length;
  say(
    io.stderr,
    `${run.file} at ${run.locationName}, ${formatMoney({ amount: run.amount, currency: run.currency })} each: ${plural(total, "card")}: ${parts.join(", ")}.`,
  );
  if (outcome.kind === "stopped") {
    const left = count("planned") + count("sent");
    say(io.stderr, `Stopped before the end, ${plural(left, "card")} still to do: ${outcome.problem.headline}`);
    if (outcome.problem.details) say(io.stderr, `  (${outcome.problem.details})`);
    say(io.stderr, "  Everything is journaled: run the same command again, or `backroom giftcards resume`, to finish.");
    return EXIT_STOPPED;
  }
  return refused > 0 ? EXIT_REFUSED : 0;
}

async function withJournal<T>(
  io: CommandIo,
  deps: GiftCardsDeps,
  body: (j: GiftCardJournal) => Promise<T>,
): Promise<T> {
  const journal = await openGiftCardJournal(deps.journalPath ?? giftCardJournalPath(dataDir(io.env)));
  try {
    return await body(journal);
  } finally {
    journal.close();
  }
}

/** The checked options of `activate`. */
interface ActivateOptions {
  file: string;
  amount: string;
  payment: Payment;
  location: string | undefined;
  yes: boolean;
  json: boolean;
  target: TargetFlagValues;
}

/** `backroom giftcards activate --file CARDS.csv …` or `activate GAN …`. */
export async function runGiftCardsActivate(argv: string[], io: CommandIo, deps: GiftCardsDeps = {}): Promise<number> {
  const read = readArgs(io, ACTIVATE_SPEC, argv, ({ values, positionals }) => {
    const target = targetFlags(values);
    if (values.file !== undefined && positionals.length > 0) {
      throw new UsageError("give one card's GAN or --file with a box of them, not both");
    }
    if (values.file === undefined && positionals.length === 0) {
      throw new UsageError("give one card's GAN, or --file CARDS.csv for a box of them");
    }
    if (values.file === undefined) return undefined;
    if (values.amount === undefined) throw new UsageError("--amount is required: each card's starting balance");
    if (values.order !== undefined || values["line-item"] !== undefined) {
      throw new UsageError("a box of cards is not sold in one order line item: use --paid-with");
    }
    return {
      file: values.file,
      amount: values.amount,
      payment: paymentOf(values),
      location: values.location,
      yes: values.yes === true,
      json: values.json === true,
      target,
    } satisfies ActivateOptions;
  });
  if ("exit" in read) return read.exit;
  if (read.value === undefined) return runGiftCardWrite("activate", ACTIVATE_SPEC, argv, io, deps);
  const opts = read.value;
  return runCommand(io, ACTIVATE_SPEC.name, async () => {
    const path = expandPath(opts.file, io.env);
    const lines = MAX_CARD_FILE_LINES.toLocaleString("en-US");
    const read = await readNamedFile(
      path,
      MAX_CARD_FILE_BYTES,
      (size, most) =>
        `${path} is ${size}; a file of gift card numbers may be up to ${most} (${lines} cards). Split the box into smaller files; nothing was activated.`,
    );
    const parsed = parseCardFile(read.text);
    if (!parsed.ok) throw new CommandError(`${path}: ${parsed.problem}`, 2);
    const { cards, problems } = parsed.value;
    if (!opts.json)
      for (const p of problems)
        say(io.stdout, `line ${String(p.line).padEnd(5)} ${p.text.padEnd(20)} refused — ${p.problem}`);
    if (cards.length === 0)
      throw new CommandError(`${path}: no card number to activate`, problems.length > 0 ? EXIT_REFUSED : 2);
    return withGiftCards(io, opts.target, deps, async (client, defaultLocationId) => {
      const where = await whereOf(client, opts.location, defaultLocationId);
      const amount = parseMoney(opts.amount, where.currency, { allowNegative: false });
      if (!amount.ok) throw new CommandError(`--amount: ${amount.problem}`, 2);
      if (amount.value <= 0) throw new CommandError("--amount: each card needs a starting balance above zero", 2);
      const cardsHash = createHash("sha256")
        .update(cards.map((c) => c.gan).join("\n"))
        .digest("hex");
      return withJournal(io, deps, async (journal) => {
        const box = { cards, cardsHash, amount: amount.value, file: basename(path) };
        const run = await findOrStartRun(io, client, journal, where, box, opts, deps);
        return workRun(io, client, journal, run, deps, { json: opts.json, fileProblems: problems });
      });
    });
  });
}

/**
 * The run of these cards: the unfinished one of the same cards (started the same way), or a new
 * one — asked for first, and journaled with every card's keys before anything is sent.
 */
async function findOrStartRun(
  io: CommandIo,
  client: SquareClient,
  journal: GiftCardJournal,
  where: Where,
  box: { cards: readonly { line: number; gan: string }[]; cardsHash: string; amount: number; file: string },
  opts: ActivateOptions,
  deps: GiftCardsDeps,
): Promise<BoxRun> {
  const merchantId = where.location.merchant_id ?? "";
  const open = journal.unfinished(merchantId).find((r) => r.cardsHash === box.cardsHash);
  const started = (r: BoxRun) => localDateTime(r.startedAt, where.timeZone);
  if (open) {
    const same =
      open.locationId === where.location.id && open.amount === box.amount && open.currency === where.currency;
    if (!same) {
      throw new CommandError(
        `the run of these cards started ${started(open)} (${formatMoney({ amount: open.amount, currency: open.currency })} each at ${open.locationName}) is not finished; \`backroom giftcards resume\` finishes it as it was started`,
        2,
      );
    }
    say(io.stderr, `Finishing the run of these cards started ${started(open)}.`);
    return open;
  }
  await checkWriteScope(client);
  const n = box.cards.length;
  const each = formatMoney({ amount: box.amount, currency: where.currency });
  const all = formatMoney({ amount: box.amount * n, currency: where.currency });
  await confirmed(io, `Activate ${plural(n, "card")} at ${each} each (${all} in all) at ${where.name}?`, opts.yes);
  const newKey = deps.newKey ?? (() => crypto.randomUUID());
  return journal.startRun(
    {
      id: newKey(),
      merchantId,
      locationId: where.location.id,
      locationName: where.name,
      currency: where.currency,
      amount: box.amount,
      payment: opts.payment,
      file: box.file,
      cardsHash: box.cardsHash,
      startedAt: (deps.now ?? (() => new Date()))().toISOString(),
    },
    box.cards,
    newKey,
  );
}

/** `backroom giftcards resume`: finishes every unfinished box of this seller. */
export async function runGiftCardsResume(argv: string[], io: CommandIo, deps: GiftCardsDeps = {}): Promise<number> {
  const read = readArgs(io, RESUME_SPEC, argv, ({ values }) => {
    const target = targetFlags(values);
    return { json: values.json === true, target };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, RESUME_SPEC.name, () =>
    withGiftCards(io, opts.target, deps, async (client, defaultLocationId) => {
      const where = await whereOf(client, undefined, defaultLocationId);
      return withJournal(io, deps, async (journal) => {
        const runs = journal.unfinished(where.location.merchant_id ?? "");
        if (runs.length === 0) {
          say(io.stderr, "Nothing to resume: every box of cards on this machine is finished.");
          return 0;
        }
        let worst = 0;
        for (const run of runs) {
          say(
            io.stderr,
            `Finishing ${run.file}, started ${localDateTime(run.startedAt, where.timeZone)} at ${run.locationName}.`,
          );
          const code = await workRun(io, client, journal, run, deps, { json: opts.json });
          worst = Math.max(worst, code);
          if (code === EXIT_STOPPED) break;
        }
        return worst;
      });
    }),
  );
}
