// `backroom stocktake resume|list|export` (and, in stocktake-import.ts, `import`): counts from
// scripts and offline scanners, on the same journal and commit as the app's Stocktake screen.

import { plural } from "../domain/plural.js";
import { describeScope } from "../domain/stocktake.js";
import {
  type CountHeader,
  type CountRecord,
  journalPath,
  openJournal,
  type StocktakeJournal,
} from "../local/stocktake-journal.js";
import type { Location } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";
import { type CommitOutcome, type CommitProgress, planCommit, runCommit } from "../state/stocktake-commit.js";
import { itemsCsvOfRecord, reviewOfRecord, summaryCsvOfRecord } from "../state/stocktake-review.js";
import { readExpected } from "../state/stocktake-source.js";
import { type CommandSpec, readArgs, UsageError } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";
import { activeLocations } from "./listing.js";
import { formatJson, OUT_OPTIONS, outTarget, writeOut } from "./output.js";
import { runCommand } from "./run.js";
import { lineRecord, reviewText, stamp } from "./stocktake-output.js";
import {
  checkTargetFlags,
  dataDir,
  type OpenedClient,
  pickLocation,
  TARGET_OPTIONS,
  type Target,
  type TargetFlagValues,
  targetFlags,
  withTargetClient,
} from "./target.js";

/** Some rows (or lines, at commit) were refused; the others were taken. */
export const EXIT_REFUSED = 3;
/** The commit stopped before the end; `stocktake resume --commit` finishes it. */
export const EXIT_COMMIT_STOPPED = 4;

/** What the exit codes of import and resume mean, for their help. */
export const EXIT_CODES = `Exit codes: 0 every row was counted (and committed, with --commit); 1 nothing was done (see the message); 2 the command line or the file is unusable; ${EXIT_REFUSED} some rows were refused — listed on stderr with their line numbers — and the others are in the count; ${EXIT_COMMIT_STOPPED} the commit stopped before the end: everything is journaled, and \`backroom stocktake resume --location L --commit\` finishes it without counting anything twice.`;

/** The `--location` flag. */
export const LOCATION = {
  type: "string",
  short: "l",
  value: "ID|NAME",
  help: "the location counted, by id or name in any case",
} as const;
/** The `--json` flag of import and resume. */
export const JSON_OPTION = {
  type: "boolean",
  help: "print the count's lines as one JSON array, and nothing else, on stdout",
} as const;

/** `backroom stocktake resume`'s command line. */
export const RESUME_SPEC = {
  name: "backroom stocktake resume",
  summary:
    "Shows the open count at the location (its review, or how far its commit got) and, with --commit, commits it — or finishes a commit that stopped halfway: requests the service already accepted are sent again under their own keys and answer what they did the first time, so nothing is counted twice.",
  options: {
    location: LOCATION,
    commit: { type: "boolean", help: "commit the count, or finish its commit" },
    json: JSON_OPTION,
    ...TARGET_OPTIONS,
  },
  details: EXIT_CODES,
} as const satisfies CommandSpec;

/** `backroom stocktake list`'s command line. */
export const LIST_SPEC = {
  name: "backroom stocktake list",
  summary: "Lists this store's counts in the journal: open ones first, then the most recent.",
  options: {
    limit: { type: "string", value: "N", help: "at most N counts (default 20)" },
    json: { type: "boolean", help: "print the counts as one JSON array, and nothing else, on stdout" },
    ...TARGET_OPTIONS,
  },
} as const satisfies CommandSpec;

/** `backroom stocktake export`'s command line. */
export const EXPORT_SPEC = {
  name: "backroom stocktake export",
  summary:
    "Writes a count as CSV: its items (sku, upc, name, expected, counted, variance, unit price, variance value, counted at, counted by, currency), largest difference first; or with --summary one row (location, kind, scope, counted by, started, committed, lines, uncounted, units and value over and short, net value, currency).",
  positionals: [{ name: "ID", help: "the count's id, as `backroom stocktake list` shows it" }],
  options: {
    summary: { type: "boolean", help: "the summary instead of the items" },
    ...OUT_OPTIONS,
    ...TARGET_OPTIONS,
  },
} as const satisfies CommandSpec;

/** What the stocktake commands build on; each has a real default, tests pass their own. */
export interface StocktakeDeps {
  open?: (target: Target) => Promise<OpenedClient>;
  now?: () => Date;
  newKey?: () => string;
  /** The journal file; default `stocktake.db` in the data folder. */
  journalPath?: string;
  /** Requests in flight during a commit. */
  concurrency?: number;
}

/** Opens the client on the target and the journal; closes both after `body`. */
export async function withStore<T>(
  io: CommandIo,
  flags: TargetFlagValues,
  deps: StocktakeDeps,
  body: (ctx: { client: SquareClient; journal: StocktakeJournal; target: Target }) => Promise<T>,
): Promise<T> {
  return withTargetClient(io, flags, deps.open, async (opened, resolved) => {
    const journal = await openJournal(deps.journalPath ?? journalPath(dataDir(io.env)));
    try {
      return await body({ client: opened.client, journal, target: resolved.target });
    } finally {
      journal.close();
    }
  });
}

/** The location a command line names, by id or name. */
export async function locationOf(client: SquareClient, wanted: string): Promise<Location & { id: string }> {
  const location = pickLocation(await activeLocations(client), wanted, undefined);
  return { ...location, id: location.id ?? "" };
}

/** The seller of the target's locations. */
export async function merchantOf(client: SquareClient): Promise<string> {
  const locations = (await client.locations.listLocations()).locations ?? [];
  return locations[0]?.merchant_id ?? "";
}

/** Commits a count (planning it first when it is still open), with progress on a terminal's stderr. */
async function commit(
  io: CommandIo,
  journal: StocktakeJournal,
  client: SquareClient,
  header: CountHeader,
  deps: StocktakeDeps,
): Promise<CommitOutcome> {
  const now = deps.now ?? (() => new Date());
  const newKey = deps.newKey ?? (() => crypto.randomUUID());
  if (header.status === "open") planCommit(journal, header.id, now(), newKey);
  const tty = (io.stderr as { isTTY?: boolean }).isTTY === true;
  let last = "";
  const onProgress = (p: CommitProgress) => {
    if (!tty) return;
    const text = `\rcommitting: ${p.linesDone.toLocaleString("en-US")} of ${plural(p.linesTotal, "line")} (${p.batchesDone}/${plural(p.batchesTotal, "request")})`;
    if (text !== last) io.stderr.write(text);
    last = text;
  };
  const outcome = await runCommit({
    journal,
    countId: header.id,
    client,
    now,
    newKey,
    onProgress,
    ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
  });
  if (tty && last) io.stderr.write("\n");
  return outcome;
}

/** Says how a commit ended; returns the exit code it means. */
function reportCommit(io: CommandIo, outcome: CommitOutcome, record: CountRecord, location: string): number {
  if (outcome.kind === "stopped") {
    say(io.stderr, `Not finished: ${outcome.problem}`);
    if (outcome.details) say(io.stderr, `  (${outcome.details})`);
    say(io.stderr, `  \`backroom stocktake resume --location ${JSON.stringify(location)} --commit\` finishes it.`);
    return EXIT_COMMIT_STOPPED;
  }
  say(io.stderr, `Committed ${plural(outcome.lines, "line")} of ${record.header.id}.`);
  for (const r of outcome.refused) {
    const item = record.items.get(r.variationId);
    say(io.stderr, `  refused by the service: ${item ? `${item.sku} ${item.name}` : r.variationId}: ${r.problem}`);
  }
  return outcome.refused.length > 0 ? EXIT_REFUSED : 0;
}

/** Prints a count's review (and its lines with --json) and commits it when asked; returns the exit code. */
export async function finish(
  io: CommandIo,
  journal: StocktakeJournal,
  client: SquareClient,
  header: CountHeader,
  opts: { commit?: boolean | undefined; json?: boolean | undefined; location: string },
  deps: StocktakeDeps,
): Promise<number> {
  const record = journal.load(header.id);
  if (!record) throw new CommandError(`the count ${header.id} is missing from the journal`);
  const review = reviewOfRecord(record);
  if (opts.json) io.stdout.write(formatJson(review.rows.map((r) => lineRecord(r, record))));
  say(opts.json ? io.stderr : io.stdout, reviewText(record, review));
  if (record.header.status === "committing") {
    const live = record.batches.filter((b) => b.state !== "superseded");
    const done = live.filter((b) => b.state === "accepted").length;
    say(
      io.stderr,
      `  Its commit stopped halfway: ${done} of ${plural(live.length, "request")} ${done === 1 ? "was" : "were"} accepted.`,
    );
  }
  if (!opts.commit) {
    if (record.header.status !== "committed") {
      say(
        io.stderr,
        `Not committed. \`backroom stocktake resume --location ${JSON.stringify(opts.location)} --commit\` commits it.`,
      );
    }
    return 0;
  }
  const outcome = await commit(io, journal, client, record.header, deps);
  return reportCommit(io, outcome, journal.load(header.id) ?? record, opts.location);
}

/** `backroom stocktake resume --location L [--commit] [--json]`. */
export async function runStocktakeResume(argv: string[], io: CommandIo, deps: StocktakeDeps = {}): Promise<number> {
  const read = readArgs(io, RESUME_SPEC, argv, ({ values }) => {
    checkTargetFlags(values);
    if (!values.location) throw new UsageError("--location is required: a count is of one location");
    return { ...values, location: values.location };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, RESUME_SPEC.name, () =>
    withStore(io, targetFlags(opts), deps, async ({ client, journal }) => {
      const location = await locationOf(client, opts.location);
      const merchantId = location.merchant_id ?? (await merchantOf(client));
      const header = journal.openCountAt(merchantId, location.id);
      if (!header) {
        throw new CommandError(
          `there is no open count at ${location.name}; \`backroom stocktake list\` shows this store's counts`,
        );
      }
      if (header.status === "open") {
        // While a count is open the books move on: bring them up to date from where they were read.
        const fresh = await readExpected(client, location.id, header.expectedSyncedAt);
        if (fresh.counts.size > 0) journal.putExpected(header.id, fresh.counts);
      }
      return finish(io, journal, client, header, opts, deps);
    }),
  );
}

/** `backroom stocktake list [--json]`. */
export async function runStocktakeList(argv: string[], io: CommandIo, deps: StocktakeDeps = {}): Promise<number> {
  const read = readArgs(io, LIST_SPEC, argv, ({ values }) => {
    checkTargetFlags(values);
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new UsageError(`--limit must be a whole number from 1 to 1000, not ${JSON.stringify(values.limit)}`);
    }
    return { ...values, limit };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, LIST_SPEC.name, () =>
    withStore(io, targetFlags(opts), deps, async ({ client, journal }) => {
      const merchantId = await merchantOf(client);
      const counts = journal
        .list(10_000)
        .filter((c) => c.merchantId === merchantId)
        .slice(0, opts.limit);
      if (opts.json) {
        io.stdout.write(
          formatJson(
            counts.map((c) => ({
              id: c.id,
              location_id: c.locationId,
              location: c.locationName,
              status: c.status,
              kind: c.scope.kind === "full" ? "full" : "cycle",
              scope: describeScope(c.scope),
              counted_by: c.counterName || null,
              started_at: c.startedAt,
              committed_at: c.committedAt ?? null,
              lines: c.lines,
              unknown_codes: c.unknownCodes,
              requests: c.batches,
              requests_accepted: c.batchesAccepted,
            })),
          ),
        );
        return 0;
      }
      if (counts.length === 0) {
        say(io.stdout, "No counts yet at this store. Start one in the app, or `backroom stocktake import FILE`.");
        return 0;
      }
      for (const c of counts) {
        const progress =
          c.status === "committing"
            ? `commit stopped at ${c.batchesAccepted}/${plural(c.batches, "request")}`
            : c.status === "committed" && c.committedAt
              ? `committed ${stamp(c.committedAt, c.timeZone)}`
              : c.status;
        say(
          io.stdout,
          `${c.id}  ${c.locationName}  ${describeScope(c.scope)}  started ${stamp(c.startedAt, c.timeZone)}  ${plural(c.lines, "line")}  ${progress}`,
        );
      }
      return 0;
    }),
  );
}

/** `backroom stocktake export ID [--summary] [--out FILE]`. */
export async function runStocktakeExport(argv: string[], io: CommandIo, deps: StocktakeDeps = {}): Promise<number> {
  const read = readArgs(io, EXPORT_SPEC, argv, ({ values, positionals }) => {
    checkTargetFlags(values);
    return { ...values, id: positionals[0] ?? "", out: outTarget(values, io.env) };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, EXPORT_SPEC.name, () =>
    withStore(io, targetFlags(opts), deps, async ({ client, journal }) => {
      const record = journal.load(opts.id.trim());
      const merchantId = await merchantOf(client);
      if (!record || record.header.merchantId !== merchantId) {
        throw new CommandError(
          record
            ? `${opts.id} was counted at another store; give the --env/--base-url it was counted with`
            : `there is no count ${JSON.stringify(opts.id)} in the journal; \`backroom stocktake list\` shows the counts`,
          2,
        );
      }
      const review = reviewOfRecord(record);
      const csv = opts.summary ? summaryCsvOfRecord(record, review) : itemsCsvOfRecord(record, review);
      await writeOut(opts.out, csv, io.stdout);
      if (opts.out.kind === "file") {
        say(
          io.stderr,
          `wrote ${opts.summary ? "the summary" : plural(review.rows.length, "item")} of ${record.header.id} to ${opts.out.path}`,
        );
      }
      return 0;
    }),
  );
}
