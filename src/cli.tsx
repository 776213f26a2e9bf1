import pkg from "../package.json" with { type: "json" };
import { type CommandGroup, groupUsage, type OptionSpec } from "./commands/args.js";
import { fileProblem } from "./commands/file-problem.js";
import type { CommandIo } from "./commands/io.js";

type Run = (argv: string[], io: CommandIo) => Promise<number>;

/** A command: one line for the help, and how to run it; or a group of subcommands. */
type Entry = { summary: string; run: Run } | { summary: string; group: CommandGroup; subcommands: Record<string, Run> };

// Each command is imported when it runs: the app's first frame does not wait for the parsing of
// the local service, SQLite or sign-in code it does not need yet.
const COMMANDS: Record<string, Entry> = {
  serve: {
    summary: "run the local service alone, as an emulator of the service's interface",
    run: async (argv, io) => (await import("./commands/serve.js")).runServe(argv, io),
  },
  login: {
    summary: "sign in (OAuth with PKCE, or --token for a personal access token)",
    run: async (argv, io) => (await import("./commands/login.js")).runLogin(argv, io),
  },
  logout: {
    summary: "revoke the token and remove it from the keychain",
    run: async (argv, io) => (await import("./commands/logout.js")).runLogout(argv, io),
  },
  status: {
    summary: "where backroom works, who is signed in, until when, where the token is kept",
    run: async (argv, io) => (await import("./commands/status.js")).runStatus(argv, io),
  },
  shifts: {
    summary: "shifts for scripts: `shifts list` prints them, `shifts export` writes the review as CSV",
    group: {
      name: "backroom shifts",
      summary: "Shifts, for scripts and spreadsheets.",
      subcommands: {
        list: "a location's shifts of some workdays, with hours, overtime and cost (--json, --csv)",
        export: "the review of a location's workdays as CSV files (--summary: per member per week)",
      },
    },
    subcommands: {
      list: async (argv, io) => (await import("./commands/shifts-list.js")).runShiftsList(argv, io),
      export: async (argv, io) => (await import("./commands/shifts-export.js")).runShiftsExport(argv, io),
    },
  },
  drawers: {
    summary: "cash drawers: `drawers report` (the end-of-day over/short), `drawers events SHIFT_ID`",
    group: {
      name: "backroom drawers",
      summary: "Cash drawer shifts: the end-of-day summary of a location, and one shift's events.",
      subcommands: {
        report: "every drawer shift of a day (or range) with its expected and counted cash, and the totals",
        events: "one drawer shift's events, with its reconciliation",
      },
    },
    subcommands: {
      report: async (argv, io) => (await import("./commands/drawers.js")).runDrawersReport(argv, io),
      events: async (argv, io) => (await import("./commands/drawers.js")).runDrawersEvents(argv, io),
    },
  },
  stocktake: {
    summary: "stock counts for scripts and offline scanners: `stocktake import|resume|list|export`",
    group: {
      name: "backroom stocktake",
      summary:
        "Stock counts from files and scripts, journaled on this machine like the app's counts, committed as physical counts.",
      subcommands: {
        import: "read a count file (sku or upc, quantity) into an open count; --commit commits it",
        resume: "continue the open count at a location, including a commit that stopped halfway",
        list: "the open and recent counts of this store",
        export: "a count's items (or summary) as CSV",
      },
    },
    subcommands: {
      import: async (argv, io) => (await import("./commands/stocktake-import.js")).runStocktakeImport(argv, io),
      resume: async (argv, io) => (await import("./commands/stocktake.js")).runStocktakeResume(argv, io),
      list: async (argv, io) => (await import("./commands/stocktake.js")).runStocktakeList(argv, io),
      export: async (argv, io) => (await import("./commands/stocktake.js")).runStocktakeExport(argv, io),
    },
  },
  outbox: {
    summary: "changes kept on this machine while the service did not answer: `outbox list`, `outbox send`",
    group: {
      name: "backroom outbox",
      summary:
        "The changes the app kept on this machine while the service did not answer (clock-ins, breaks, shift and customer edits, gift card loads), sent in the order made, once.",
      subcommands: {
        list: "the kept changes for where backroom works, in the order they are sent, and those refused",
        send: "send them now, each with its own key (exit 3: some refused, 4: the service did not answer)",
      },
    },
    subcommands: {
      list: async (argv, io) => (await import("./commands/outbox.js")).runOutboxList(argv, io),
      send: async (argv, io) => (await import("./commands/outbox.js")).runOutboxSend(argv, io),
    },
  },
  customers: {
    summary: "customer profiles for scripts: `customers search`, `customers get`",
    group: {
      name: "backroom customers",
      summary: "Customer profiles, for scripts and quick look-ups.",
      subcommands: {
        search: "find profiles by email, phone, reference id or name, with filters",
        get: "one profile as it is now",
      },
    },
    subcommands: {
      search: async (argv, io) => (await import("./commands/customers.js")).runCustomersSearch(argv, io),
      get: async (argv, io) => (await import("./commands/customers.js")).runCustomersGet(argv, io),
    },
  },
  payouts: {
    summary: "payouts: `payouts list|get|entries`, and `payouts reconcile STATEMENT.csv` against the bank",
    group: {
      name: "backroom payouts",
      summary:
        "Payouts: when the money arrives at the bank, what Square kept in fees, and a bank statement reconciled against them.",
      subcommands: {
        list: "a location's (or all locations') payouts of a date range, with the totals paid, in transit and failed",
        get: "one payout and its entries by type: gross, fees, net, and whether they add up",
        entries: "one payout's entries (--json, --ndjson, --csv)",
        reconcile: "match a bank statement export's lines to payouts; list what does not match",
      },
    },
    subcommands: {
      list: async (argv, io) => (await import("./commands/payouts.js")).runPayoutsList(argv, io),
      get: async (argv, io) => (await import("./commands/payouts.js")).runPayoutsGet(argv, io),
      entries: async (argv, io) => (await import("./commands/payouts.js")).runPayoutsEntries(argv, io),
      reconcile: async (argv, io) => (await import("./commands/payouts-reconcile.js")).runPayoutsReconcile(argv, io),
    },
  },
  giftcards: {
    summary:
      "gift cards: `giftcards get|activities|liability`, `load|adjust|clear|block|unblock|deactivate`, a box `activate`",
    group: {
      name: "backroom giftcards",
      summary:
        "Gift cards, for scripts and the counter: look one up, the activity of a day and the liability; change one card; activate a box of them, journaled on this machine.",
      subcommands: {
        get: "one card as it is now, with its whole history",
        activities: "a location's (or a card's) activity over some days, with totals per kind",
        liability: "the outstanding balance of active cards",
        activate: "a box of cards from a file (--file), or one card; registers numbers the service does not know yet",
        resume: "finish a box whose run stopped before the end",
        load: "add money to a card",
        adjust: "correct a card's balance up or down, with a reason",
        clear: "empty a card's balance",
        block: "block a card",
        unblock: "unblock a card",
        deactivate: "deactivate a card for good",
      },
    },
    subcommands: {
      get: async (argv, io) => (await import("./commands/giftcards.js")).runGiftCardsGet(argv, io),
      activities: async (argv, io) => (await import("./commands/giftcards.js")).runGiftCardsActivities(argv, io),
      liability: async (argv, io) => (await import("./commands/giftcards.js")).runGiftCardsLiability(argv, io),
      activate: async (argv, io) => (await import("./commands/giftcards-box.js")).runGiftCardsActivate(argv, io),
      resume: async (argv, io) => (await import("./commands/giftcards-box.js")).runGiftCardsResume(argv, io),
      ...Object.fromEntries(
        (["load", "adjust", "clear", "block", "unblock", "deactivate"] as const).map((which) => [
          which,
          async (argv: string[], io: CommandIo) => {
            const m = await import("./commands/giftcards-write.js");
            return m.runGiftCardWrite(which, m.WRITE_SPECS[which], argv, io);
          },
        ]),
      ),
    },
  },
  v1: {
    summary: "old transactions (V1, deprecated by the service): `v1 payments|refunds|settlements|orders`, one by id",
    group: {
      name: "backroom v1",
      summary:
        "Old transactions through the service's V1 interface, which it has deprecated: payments, refunds, settlements and online-store orders of a date range, and one record in full.",
      subcommands: {
        payments: "payments of a date range: tenders, collected, fees, refunds (--include-partial)",
        refunds: "refunds of a date range",
        settlements: "deposits and withdrawals of a date range (--status SENT|FAILED)",
        orders: "the online store's orders",
        payment: "one payment in full",
        settlement: "one settlement's entries, and whether they add up to its total",
        order: "one online-store order with its history",
      },
    },
    subcommands: {
      payments: async (argv, io) => (await import("./commands/v1.js")).runV1List("payments", argv, io),
      refunds: async (argv, io) => (await import("./commands/v1.js")).runV1List("refunds", argv, io),
      settlements: async (argv, io) => (await import("./commands/v1.js")).runV1List("settlements", argv, io),
      orders: async (argv, io) => (await import("./commands/v1.js")).runV1List("orders", argv, io),
      payment: async (argv, io) => (await import("./commands/v1.js")).runV1Get("payment", argv, io),
      settlement: async (argv, io) => (await import("./commands/v1.js")).runV1Get("settlement", argv, io),
      order: async (argv, io) => (await import("./commands/v1.js")).runV1Get("order", argv, io),
    },
  },
  webhooks: {
    summary: "webhook subscriptions: `webhooks list|event-types|test`, and `webhooks listen`, a local receiver",
    group: {
      name: "backroom webhooks",
      summary:
        "The application's webhook subscriptions, and a receiver on this machine that verifies each notification's signature.",
      subcommands: {
        listen:
          "receive notifications on 127.0.0.1, verify their signatures, print one line each (--forward passes them on)",
        list: "the subscriptions: name, URL, event types, API version, enabled (--include-disabled)",
        "event-types": "the event types one can subscribe to (--api-version)",
        test: "send a test notification to a subscription and say what its receiver answered",
      },
    },
    subcommands: {
      listen: async (argv, io) => (await import("./commands/webhooks.js")).runWebhooksListen(argv, io),
      list: async (argv, io) => (await import("./commands/webhooks.js")).runWebhooksList(argv, io),
      "event-types": async (argv, io) => (await import("./commands/webhooks.js")).runWebhooksEventTypes(argv, io),
      test: async (argv, io) => (await import("./commands/webhooks.js")).runWebhooksTest(argv, io),
    },
  },
  demo: {
    summary: "the demo store: `demo reset` starts it over",
    group: {
      name: "backroom demo",
      summary: "The demo store backroom opens by default, kept in a file between runs.",
      subcommands: { reset: "start the demo store over (every change made on it is gone)" },
    },
    subcommands: {
      reset: async (argv, io) => (await import("./commands/demo.js")).runDemoReset(argv, io),
    },
  },
};

function help(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length), "(none)".length);
  return [
    `backroom ${pkg.version} — a terminal back office for stores that run on Square`,
    "",
    "usage: backroom [command] [options]",
    "",
    "commands:",
    `  ${"(none)".padEnd(width)}  open the app (on the demo store unless --env, the environment or the config say otherwise)`,
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n]?.summary}`),
    `  ${"help".padEnd(width)}  this text; \`backroom help <command>\` or \`backroom <command> --help\` for a command's options`,
    "",
    "Where backroom works: --env/--base-url/--db, then BACKROOM_ENV/BACKROOM_BASE_URL, then the config file",
    "($XDG_CONFIG_HOME/backroom/config.json), then the demo store ($XDG_DATA_HOME/backroom/demo.db).",
    "other: --version, --help",
  ].join("\n");
}

/** Runs a group's subcommand, or prints the group's usage (with --help, or without a subcommand). */
async function runGroup(entry: Extract<Entry, { group: CommandGroup }>, argv: string[], io: CommandIo) {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h") {
    io.stdout.write(`${groupUsage(entry.group)}\n`);
    return 0;
  }
  const run = sub === undefined ? undefined : entry.subcommands[sub];
  if (!run) {
    const problem = sub === undefined ? "which one?" : `unknown command ${JSON.stringify(sub)}`;
    io.stderr.write(`${entry.group.name}: ${problem}\n\n${groupUsage(entry.group)}\n`);
    return 2;
  }
  return run(rest, io);
}

/** The flags of the options that take a value (`--env`, `-e`): a word after one is that value. */
function valueFlags(options: Readonly<Record<string, OptionSpec>>): Set<string> {
  const flags = Object.entries(options)
    .filter(([, o]) => o.type === "string")
    .flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
  return new Set(flags);
}

/**
 * A command typed after the app's options (`backroom --env sandbox status`), rearranged with the
 * command (and a group's subcommand) first; undefined when the line has none there.
 */
function misplacedCommand(
  argv: readonly string[],
  appOptions: Readonly<Record<string, OptionSpec>>,
): string[] | undefined {
  if (!argv[0]?.startsWith("-")) return undefined;
  const takesValue = valueFlags(appOptions);
  const at = argv.findIndex((a, i) => i > 0 && Object.hasOwn(COMMANDS, a) && !takesValue.has(argv[i - 1] ?? ""));
  if (at < 0) return undefined;
  const entry = COMMANDS[argv[at] ?? ""];
  const next = argv[at + 1];
  const words = !entry || "run" in entry || next === undefined || !Object.hasOwn(entry.subcommands, next) ? 1 : 2;
  return [...argv.slice(at, at + words), ...argv.slice(0, at), ...argv.slice(at + words)];
}

/** Runs one command line and resolves with the process exit code. */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    io.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  // `backroom help shifts export` is `backroom shifts export --help`.
  if (first === "help" && rest.length > 0) return main([...rest, "--help"], io);
  if (first === "--help" || first === "-h" || first === "help") {
    io.stdout.write(`${help()}\n`);
    return 0;
  }
  // No command, or only options: the app.
  if (first === undefined || first.startsWith("-")) {
    const app = await import("./commands/app.js");
    const late = misplacedCommand(argv, app.APP_SPEC.options);
    if (late) {
      io.stderr.write(`backroom: the command goes first: backroom ${late.join(" ")}\n`);
      return 2;
    }
    return app.runAppCommand(argv, io);
  }
  const entry = COMMANDS[first];
  if (!entry) {
    io.stderr.write(`backroom: unknown command ${JSON.stringify(first)}\n\n${help()}\n`);
    return 2;
  }
  return "run" in entry ? entry.run(rest, io) : runGroup(entry, rest, io);
}

// A reader that stops early (`backroom payouts list --json | head`) closes the pipe: a command
// ends there, quietly and with success, as command-line tools do, not with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    // The app listens too: a terminal that closes (EIO, EPIPE) is its quit, with its own cleanup.
    if (stream.listenerCount("error") > 1) return;
    if (err.code === "EPIPE") process.exit(0);
    // Anything else is what it would have been without this listener: an uncaught error.
    throw err;
  });
}

const io: CommandIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`backroom: ${fileProblem(err) ?? (err instanceof Error ? err.message : String(err))}\n`);
    process.exitCode = 1;
  },
);
