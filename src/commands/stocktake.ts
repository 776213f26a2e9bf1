// `backroom stocktake import|resume|list|export`: counts from scripts and offline scanners, on the
// same journal and commit as the app's Stocktake screen.
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { formatMoney, plainMoney } from "../domain/money.js";
import { memberName } from "../domain/shifts.js";
import {
  applyCountEntry,
  type CountLine,
  describeScope,
  formatVariance,
  parseCountEntry,
  type ReviewRow,
  type StockItem,
} from "../domain/stocktake.js";
import { parseCountFile } from "../domain/stocktake-csv.js";
import { localDate, localTime } from "../domain/time.js";
import type { Location, TeamMember } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";
import { type CommitOutcome, type CommitProgress, planCommit, runCommit } from "../state/stocktake-commit.js";
import {
  type CountHeader,
  type CountRecord,
  journalPath,
  openJournal,
  type StocktakeJournal,
} from "../state/stocktake-journal.js";
import {
  type CountReview,
  itemsCsvOfRecord,
  personOf,
  reviewOfRecord,
  summaryCsvOfRecord,
  totalsLine,
} from "../state/stocktake-review.js";
import { findCodes, readExpected } from "../state/stocktake-source.js";
import { type CommandSpec, readArgs, UsageError } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";
import { formatJson, OUT_OPTIONS, outTarget, writeOut } from "./output.js";
import { runCommand } from "./run.js";
import {
  checkTargetFlags,
  dataDir,
  expandPath,
  type OpenedClient,
  pickLocation,
  TARGET_OPTIONS,
  type Target,
  type TargetFlagValues,
  withTargetClient,
} from "./target.js";

/** Some rows (or lines, at commit) were refused; the others were taken. */
export const EXIT_REFUSED = 3;
/** The commit stopped before the end; `stocktake resume --commit` finishes it. */
export const EXIT_COMMIT_STOPPED = 4;

const EXIT_CODES = `Exit codes: 0 every row was counted (and committed, with --commit); 1 nothing was done (see the message); 2 the command line or the file is unusable; ${EXIT_REFUSED} some rows were refused — listed on stderr with their line numbers — and the others are in the count; ${EXIT_COMMIT_STOPPED} the commit stopped before the end: everything is journaled, and \`backroom stocktake resume --location L --commit\` finishes it without counting anything twice.`;

const LOCATION = {
  type: "string",
  short: "l",
  value: "ID|NAME",
  help: "the location counted, by id or name in any case",
} as const;
const JSON_OPTION = {
  type: "boolean",
  help: "print the count's lines as one JSON array, and nothing else, on stdout",
} as const;

/** `backroom stocktake import`'s command line. */
export const IMPORT_SPEC = {
  name: "backroom stocktake import",
  summary:
    "Reads a count file into a new open count at the location and prints its review: totals, and the largest differences from the books. The file is CSV with a header naming the columns sku (or upc) and quantity; other columns are ignored. Rows of the same item add up (one row per shelf, or per scan); +N adds and -N takes back. Lines are counted at the file's last modification. Rows that cannot be used (unknown code, bad quantity) are listed with their line numbers and do not stop the rest; unknown codes are kept with the count, to be resolved in the app.",
  positionals: [{ name: "FILE", help: "the count file (CSV)" }],
  options: {
    location: LOCATION,
    commit: { type: "boolean", help: "commit the count once read (physical counts, in requests of 100)" },
    "counted-by": { type: "string", value: "ID|NAME", help: "the team member who counted (default: none named)" },
    json: JSON_OPTION,
    ...TARGET_OPTIONS,
  },
  details: EXIT_CODES,
} as const satisfies CommandSpec;

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

const targetOf = (v: TargetFlagValues): TargetFlagValues => ({ env: v.env, "base-url": v["base-url"], db: v.db });

/** Opens the client on the target and the journal; closes both after `body`. */
async function withStore<T>(
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

async function locationOf(client: SquareClient, wanted: string): Promise<Location & { id: string }> {
  const locations = ((await client.locations.listLocations()).locations ?? []).filter((l) => l.status !== "INACTIVE");
  const location = pickLocation(locations, wanted, undefined);
  return { ...location, id: location.id ?? "" };
}

async function merchantOf(client: SquareClient): Promise<string> {
  const locations = (await client.locations.listLocations()).locations ?? [];
  return locations[0]?.merchant_id ?? "";
}

async function findMember(client: SquareClient, locationId: string, wanted: string): Promise<TeamMember> {
  const members = await client.team
    .searchTeamMembers({ query: { filter: { location_ids: [locationId], status: "ACTIVE" } }, limit: 200 })
    .all();
  const folded = wanted.trim().toLocaleLowerCase();
  const found =
    members.find((m) => m.id === wanted) ?? members.find((m) => memberName(m).toLocaleLowerCase() === folded);
  if (!found) {
    throw new CommandError(
      `no team member ${JSON.stringify(wanted)} at this location; there are: ${members.map(memberName).join(", ") || "none"}`,
      2,
    );
  }
  return found;
}

/** One line of `--json`: a review row in the words of the CSV export. */
function lineRecord(r: ReviewRow, record: CountRecord) {
  return {
    variation_id: r.item.variationId,
    sku: r.item.sku,
    upc: r.item.upc,
    name: r.item.name,
    expected: r.expected,
    counted: r.counted ?? null,
    variance: r.counted === undefined ? null : formatVariance(r.variance),
    unit_price:
      r.item.priceAmount === undefined ? null : plainMoney({ amount: r.item.priceAmount, currency: r.item.currency }),
    variance_value:
      r.value === undefined || r.counted === undefined
        ? null
        : plainMoney({ amount: r.value, currency: r.item.currency }),
    currency: r.item.currency,
    counted_at: r.countedAt ?? null,
    counted_by: r.countedBy ? personOf(record)(r.countedBy) : null,
  };
}

const stamp = (iso: string, tz: string) => `${localDate(iso, tz)} ${localTime(iso, tz)}`;

/** The review for people: the count, its totals, the largest differences. */
function reviewText(record: CountRecord, review: CountReview, top = 10): string {
  const h = record.header;
  const lines = [
    `Count ${h.id} at ${h.locationName} (${describeScope(h.scope)}), started ${stamp(h.startedAt, h.timeZone)}${h.counterName ? ` by ${h.counterName}` : ""}: ${h.status}.`,
    `  ${totalsLine(review)}`,
  ];
  const differing = review.rows.filter((r) => r.counted !== undefined && r.variance !== 0).slice(0, top);
  if (differing.length > 0) {
    lines.push("  Largest differences:");
    const sku = Math.max(...differing.map((r) => r.item.sku.length));
    const name = Math.min(40, Math.max(...differing.map((r) => r.item.name.length)));
    for (const r of differing) {
      const value = r.value === undefined ? "no price" : formatMoney({ amount: r.value, currency: r.item.currency });
      lines.push(
        `    ${r.item.sku.padEnd(sku)}  ${r.item.name.slice(0, name).padEnd(name)}  expected ${r.expected}, counted ${r.counted}: ${formatVariance(r.variance)} (${value})`,
      );
    }
  }
  const unknown = record.unknown.filter((u) => !u.resolvedTo);
  if (unknown.length > 0) {
    lines.push(
      `  ${unknown.length} unknown code${unknown.length === 1 ? "" : "s"} kept with the count: ${unknown
        .slice(0, 5)
        .map((u) => u.code)
        .join(", ")}${unknown.length > 5 ? ", …" : ""}`,
    );
  }
  return lines.join("\n");
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
    const text = `\rcommitting: ${p.linesDone} of ${p.linesTotal} lines (${p.batchesDone}/${p.batchesTotal} requests)`;
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
  say(io.stderr, `Committed ${outcome.lines} line${outcome.lines === 1 ? "" : "s"} of ${record.header.id}.`);
  for (const r of outcome.refused) {
    const item = record.items.get(r.variationId);
    say(io.stderr, `  refused by the service: ${item ? `${item.sku} ${item.name}` : r.variationId}: ${r.problem}`);
  }
  return outcome.refused.length > 0 ? EXIT_REFUSED : 0;
}

/** `backroom stocktake import FILE --location L [--commit] [--json]`. */
export async function runStocktakeImport(argv: string[], io: CommandIo, deps: StocktakeDeps = {}): Promise<number> {
  const read = readArgs(io, IMPORT_SPEC, argv, ({ values, positionals }) => {
    checkTargetFlags(values);
    if (!values.location) throw new UsageError("--location is required: a count is of one location");
    return { ...values, location: values.location, file: positionals[0] ?? "" };
  });
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, IMPORT_SPEC.name, async () => {
    const path = expandPath(opts.file, io.env);
    let text: string;
    let modified: Date;
    try {
      [text, modified] = await Promise.all([readFile(path, "utf8"), stat(path).then((s) => s.mtime)]);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CommandError(`cannot read ${path}${code === "ENOENT" ? ": there is no such file" : ` (${code})`}`, 2);
    }
    const parsed = parseCountFile(text);
    if (!parsed.ok) throw new CommandError(`${path}: ${parsed.problem}`, 2);
    const problems = [...parsed.problems];

    return withStore(io, targetOf(opts), deps, async ({ client, journal }) => {
      const now = deps.now?.() ?? new Date();
      const location = await locationOf(client, opts.location);
      const merchantId = location.merchant_id ?? (await merchantOf(client));
      const open = journal.openCountAt(merchantId, location.id);
      if (open) {
        throw new CommandError(
          `a count is already open at ${location.name} (${open.id}, started ${stamp(open.startedAt, open.timeZone)}). Commit or discard it first: \`backroom stocktake resume --location ${JSON.stringify(opts.location)}\`.`,
        );
      }
      const counter = opts["counted-by"] ? await findMember(client, location.id, opts["counted-by"]) : undefined;
      const countedBy = counter?.id ?? "";

      // Every code of the file looked up at once, by the column it came from.
      const found = new Map<string, StockItem>();
      for (const kind of ["sku", "upc"] as const) {
        const codes = parsed.rows.filter((r) => r.codeKind === kind).map((r) => r.code);
        if (codes.length === 0) continue;
        const res = await findCodes(client, location.id, kind, codes);
        for (const [code, item] of res.found) found.set(`${kind}:${code}`, item);
      }
      const countedAt = (modified.getTime() > now.getTime() ? now : modified).toISOString();
      const totals = new Map<string, string>();
      const unknown = new Set<string>();
      for (const row of parsed.rows) {
        const item = found.get(`${row.codeKind}:${row.code}`);
        if (!item) {
          problems.push({
            line: row.line,
            problem: `unknown ${row.codeKind.toUpperCase()} ${JSON.stringify(row.code)}`,
          });
          unknown.add(row.code);
          continue;
        }
        const entry = parseCountEntry(row.quantity, item.precision);
        if (!entry.ok) {
          problems.push({ line: row.line, problem: `${item.sku || row.code}: ${entry.problem}` });
          continue;
        }
        // In a file every row adds: the same item on two shelves is two rows.
        const next = applyCountEntry(totals.get(item.variationId), { kind: "add", units: entry.value.units });
        if (!next.ok) {
          problems.push({ line: row.line, problem: `${item.sku || row.code}: ${next.problem}` });
          continue;
        }
        totals.set(item.variationId, next.value);
      }
      problems.sort((a, b) => a.line - b.line);
      for (const p of problems) say(io.stderr, `${basename(path)} line ${p.line}: ${p.problem}`);
      if (totals.size === 0 && unknown.size === 0) {
        throw new CommandError(`${path}: no row could be counted; nothing was imported`, 2);
      }

      const items = [...new Map([...found.values()].map((i) => [i.variationId, i])).values()].filter((i) =>
        totals.has(i.variationId),
      );
      const { counts } = await readExpected(client, location.id);
      const expected = new Map([...counts].filter(([id]) => totals.has(id)));
      const header = journal.startCount(
        {
          merchantId,
          locationId: location.id,
          locationName: location.name ?? location.id,
          timeZone: location.timezone ?? "UTC",
          scope: { kind: "file", file: basename(path) },
          counterId: countedBy,
          counterName: counter ? memberName(counter) : "",
          startedAt: now.toISOString(),
        },
        items,
        expected,
        now,
      );
      const lines: CountLine[] = [...totals].map(([variationId, quantity]) => ({
        variationId,
        quantity,
        countedAt,
        countedBy,
        expected: counts.get(variationId)?.quantity ?? "0",
      }));
      journal.recordLines(header.id, lines);
      for (const code of unknown) journal.recordUnknown(header.id, code, countedAt);

      const code = await finish(io, journal, client, header, opts, deps);
      return problems.length > 0 && code === 0 ? EXIT_REFUSED : code;
    });
  });
}

/** Prints a count's review (and its lines with --json) and commits it when asked; returns the exit code. */
async function finish(
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
    say(io.stderr, `  Its commit stopped halfway: ${done} of ${live.length} requests were accepted.`);
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
    withStore(io, targetOf(opts), deps, async ({ client, journal }) => {
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
    withStore(io, targetOf(opts), deps, async ({ client, journal }) => {
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
            ? `commit stopped at ${c.batchesAccepted}/${c.batches} requests`
            : c.status === "committed" && c.committedAt
              ? `committed ${stamp(c.committedAt, c.timeZone)}`
              : c.status;
        say(
          io.stdout,
          `${c.id}  ${c.locationName}  ${describeScope(c.scope)}  started ${stamp(c.startedAt, c.timeZone)}  ${c.lines} line${c.lines === 1 ? "" : "s"}  ${progress}`,
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
    withStore(io, targetOf(opts), deps, async ({ client, journal }) => {
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
          `wrote ${opts.summary ? "the summary" : `${review.rows.length} items`} of ${record.header.id} to ${opts.out.path}`,
        );
      }
      return 0;
    }),
  );
}
