// `backroom payouts reconcile STATEMENT.csv`: a bank statement export against the payouts. Exit 0
// when every line is a payout and every paid payout of its dates has a line, 3 when not, 2 for a
// file or flags that cannot be used, 1 when the service failed.
import { readStatement, type StatementOptions, statementRange } from "../domain/bank-statement.js";
import { MAX_STATEMENT_BYTES } from "../domain/limits.js";
import { formatAmount, formatMoney } from "../domain/money.js";
import {
  dueDate,
  fullyReconciled,
  type Reconciliation,
  reconcileJson,
  reconcileStatement,
} from "../domain/payout-reconcile.js";
import { payoutStatusWord } from "../domain/payouts.js";
import { plural } from "../domain/plural.js";
import type { Location, Payout } from "../spec/generated/types.js";
import { payoutsForStatement, readStatementText, statementCurrency } from "../state/payouts-load.js";
import { type CommandSpec, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { CommandError, type CommandIo, say } from "./io.js";
import { LOCATION_OR_ALL_OPTION } from "./listing.js";
import { type PayoutsDeps, payoutLocations, payoutsProblem, withPayoutsClient } from "./payouts.js";
import { runCommand } from "./run.js";
import { expandPath, TARGET_OPTIONS, type TargetFlagValues, targetFlags } from "./target.js";
import { textColumns } from "./text-columns.js";

/** The exit code when something did not reconcile. */
export const EXIT_NOT_RECONCILED = 3;

/** The flags that say how to read a statement whose headers are unusual. */
export const STATEMENT_OPTIONS = {
  "date-column": { type: "string", value: "NAME|N", help: "the date column, by its header or its number from 1" },
  "amount-column": {
    type: "string",
    value: "NAME|N",
    help: "the signed amount column, by its header or number (instead of Amount, or Debit and Credit)",
  },
  "description-column": { type: "string", value: "NAME|N", help: "the description column, by its header or number" },
  "date-format": { type: "string", value: "PATTERN", help: "how dates are written, e.g. DD/MM/YYYY, D MMM YYYY" },
} as const;

/** `backroom payouts reconcile`'s command line. */
export const PAYOUTS_RECONCILE_SPEC = {
  name: "backroom payouts reconcile",
  summary:
    "Reads a bank statement export (CSV) and matches its deposit and withdrawal lines to payouts: by the payout's statement reference (end_to_end_id) in the description, else by an equal amount posted from the payout's arrival date to three business days after, when exactly one payout fits. Prints a summary and every problem line: ambiguous (several payouts fit), unmatched, missing from the statement (paid payouts of its dates with no line); failed payouts are listed apart.",
  positionals: [
    { name: "STATEMENT.csv", help: "the statement, as the bank's online banking exports it; - reads standard input" },
  ],
  options: {
    location: LOCATION_OR_ALL_OPTION,
    ...STATEMENT_OPTIONS,
    json: {
      type: "boolean",
      help: 'print one JSON object {"matched","ambiguous","unmatched","missing"} and nothing else on stdout',
    },
    ...TARGET_OPTIONS,
  },
  details: [
    "Columns are found by their headers: a date (Posting Date, Date, Transaction Date, …), an Amount or a Debit and a Credit column, a Description (or Memo, Details). Amounts may carry currency symbols, thousands separators, brackets for withdrawals and a decimal comma; the separator may be `,` or `;`. In --json, `line` is the 1-based line number in the file, the header included, and amounts are in the currency's minor unit.",
    "A statement of more than 100,000 lines after its header is refused: export a shorter range of dates.",
    "Exit codes: 0 everything matched, 3 something did not, 2 a file or flag that cannot be used, 1 the service failed or this sign-in may not read payouts.",
  ].join("\n"),
} as const satisfies CommandSpec;

/** The checked options of `payouts reconcile`. */
export interface ReconcileOptions {
  file: string;
  location: string | undefined;
  columns: Omit<StatementOptions, "currency">;
  json: boolean;
  target: TargetFlagValues;
}

/** Checks `payouts reconcile`'s options. */
export function reconcileOptions(
  { values, positionals }: ParsedArgs<typeof PAYOUTS_RECONCILE_SPEC.options>,
  env: Readonly<Record<string, string | undefined>>,
): ReconcileOptions {
  const file = (positionals[0] ?? "").trim();
  if (!file) throw new UsageError("STATEMENT.csv is empty");
  for (const flag of ["date-column", "amount-column", "description-column", "date-format"] as const) {
    if (values[flag] !== undefined && !values[flag]?.trim()) throw new UsageError(`--${flag} needs a value`);
    if (flag !== "date-format" && values[flag] === "0") throw new UsageError(`--${flag} counts columns from 1`);
  }
  const target = targetFlags(values);
  return {
    file: file === "-" ? file : expandPath(file, env),
    location: values.location,
    columns: {
      dateColumn: values["date-column"],
      amountColumn: values["amount-column"],
      descriptionColumn: values["description-column"],
      dateFormat: values["date-format"],
    },
    json: values.json === true,
    target,
  };
}

/** Everything on standard input, as text, up to {@link MAX_STATEMENT_BYTES}. */
async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += b.length;
    if (size > MAX_STATEMENT_BYTES) {
      const most = Math.round(MAX_STATEMENT_BYTES / 1_048_576);
      throw new CommandError(
        `the statement on standard input is over ${most} MB; a statement export is far smaller`,
        2,
      );
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The statement's text, from the file or (`-`) standard input; a file that cannot be read is a
 * {@link CommandError} with exit 2.
 */
export async function readStatementFile(path: string, stdin?: NodeJS.ReadableStream): Promise<string> {
  if (path === "-" && stdin) return readStdin(stdin);
  const read = await readStatementText(path);
  if (!read.ok) throw new CommandError(read.problem.replace(/^There/, "there").replace(/\.$/, ""), 2);
  return read.text;
}

/** `backroom payouts reconcile`. */
export async function runPayoutsReconcile(argv: string[], io: CommandIo, deps: PayoutsDeps = {}): Promise<number> {
  const read = readArgs(io, PAYOUTS_RECONCILE_SPEC, argv, (a) => reconcileOptions(a, io.env));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, PAYOUTS_RECONCILE_SPEC.name, async () => {
    const text = await readStatementFile(opts.file, io.stdin);
    return withPayoutsClient(io, opts.target, deps, async (client, defaultLocationId, where) => {
      const locations = await payoutLocations(client, opts.location, defaultLocationId).catch((err: unknown) =>
        err instanceof CommandError ? Promise.reject(err) : payoutsProblem(err, where),
      );
      const money = statementCurrency(locations);
      if (!money.ok) throw new CommandError(money.problem, 2);
      const currency = money.currency;
      const statement = readStatement(text, { currency, ...opts.columns });
      if (!statement.ok) {
        const lines = statement.problems.slice(0, 20).map((p) => `  line ${p.line}: ${p.problem}`);
        const more = statement.problems.length > 20 ? [`  … and ${statement.problems.length - 20} more`] : [];
        throw new CommandError([`${opts.file}: ${statement.problem}`, ...lines, ...more].join("\n"), 2);
      }
      for (const note of statement.notes) say(io.stderr, note);
      const range = statementRange(statement.lines);
      const payouts = range
        ? await payoutsForStatement(client, locations, range).catch((err: unknown) => payoutsProblem(err, where))
        : [];
      const r = reconcileStatement(statement.lines, payouts);
      if (opts.json) io.stdout.write(`${JSON.stringify(reconcileJson(r, currency))}\n`);
      else writeLines(io.stdout, reconcileReport(r, payouts, { file: opts.file, locations, statement, currency }));
      return fullyReconciled(r) ? 0 : EXIT_NOT_RECONCILED;
    });
  });
}

/** A payout in one line: id, status, amount, when due, reference. */
export function payoutLine(p: Payout): string {
  return `${p.id} (${payoutStatusWord(p.status)}, ${formatMoney(p.amount_money)}, due ${dueDate(p) ?? "—"}${
    p.end_to_end_id ? `, ref ${p.end_to_end_id}` : ""
  })`;
}

/**
 * Writes lines a thousand at a time: a long statement's report is never one string (400,000
 * unmatched lines made 250 MB of it). Standard output to a file or pipe is written synchronously.
 */
function writeLines(out: NodeJS.WritableStream, lines: Iterable<string>): void {
  let batch: string[] = [];
  for (const line of lines) {
    batch.push(line);
    if (batch.length === 1000) {
      out.write(`${batch.join("\n")}\n`);
      batch = [];
    }
  }
  if (batch.length > 0) out.write(`${batch.join("\n")}\n`);
}

/** The reconciliation for people, line by line: the summary, then every problem line with its candidates. */
export function* reconcileReport(
  r: Reconciliation,
  payouts: readonly Payout[],
  ctx: {
    file: string;
    locations: readonly Location[];
    statement: Extract<ReturnType<typeof readStatement>, { ok: true }>;
    currency: string;
  },
): Generator<string> {
  const { statement, currency } = ctx;
  const byId = new Map(payouts.map((p) => [p.id, p]));
  const lineOf = new Map(statement.lines.map((l) => [l.line, l]));
  const sum = (amounts: number[]) => formatMoney({ amount: amounts.reduce((a, b) => a + b, 0), currency });
  const amountOfLine = (n: number) => lineOf.get(n)?.amount ?? 0;
  const byRef = r.matched.filter((m) => m.by === "end_to_end_id");
  const byAmount = r.matched.filter((m) => m.by === "amount_date");
  const where = ctx.locations.length > 1 ? "all locations" : (ctx.locations[0]?.name ?? "");
  const c = statement.columns;
  yield* [
    `${ctx.file}: ${plural(statement.lines.length, "line")}${r.range ? ` from ${r.range.from} to ${r.range.to}` : ""} against the payouts of ${where}`,
    `(columns: ${[c.date, c.amount ?? `${c.debit} / ${c.credit}`, c.description].filter(Boolean).join(", ")}; dates ${statement.dateFormat}${statement.skipped.length ? `; ${plural(statement.skipped.length, "line")} without an amount or date skipped` : ""})`,
    "",
    ...textColumns(
      [
        ["matched by reference", String(byRef.length), sum(byRef.map((m) => amountOfLine(m.line)))],
        ["matched by amount and date", String(byAmount.length), sum(byAmount.map((m) => amountOfLine(m.line)))],
        ["ambiguous", String(r.ambiguous.length), sum(r.ambiguous.map((a) => amountOfLine(a.line)))],
        ["unmatched", String(r.unmatched.length), sum(r.unmatched.map((u) => u.line.amount))],
        [
          "missing from the statement",
          String(r.missing.length),
          sum(r.missing.map((p) => p.amount_money?.amount ?? 0)),
        ],
        [
          "failed payouts (listed apart)",
          String(r.failed.length),
          sum(r.failed.map((p) => p.amount_money?.amount ?? 0)),
        ],
      ],
      new Set([1, 2]),
    ),
  ];
  const describe = (n: number) => {
    const l = lineOf.get(n);
    // A quoted line break in a description would break the layout: one line each.
    const text = l?.description.replaceAll(/\s*[\r\n]+\s*/g, " ");
    return l ? `line ${n}  ${l.date}  ${formatAmount(l.amount, currency)}  ${text}` : `line ${n}`;
  };
  for (const m of r.matched.filter((x) => x.difference)) {
    yield* [
      "",
      `${describe(m.line)}`,
      `  names ${m.payoutId} by its reference, but the amounts differ by ${formatMoney({ amount: m.difference ?? 0, currency })}`,
    ];
  }
  const payoutOf = (id: string) => {
    const p = byId.get(id);
    return p ? payoutLine(p) : id;
  };
  if (r.ambiguous.length) yield* ["", "Ambiguous lines:"];
  for (const a of r.ambiguous) {
    yield* [`  ${describe(a.line)}`, `    ${a.why === "lines" ? "its one payout fits other lines too" : "fits"}:`];
    for (const id of a.payoutIds) yield `      ${payoutOf(id)}`;
  }
  if (r.unmatched.length) yield* ["", "Unmatched lines:"];
  for (const u of r.unmatched) {
    yield* [`  ${describe(u.line.line)}`, `    ${u.reason}`];
    for (const id of u.nearest) yield `      near: ${payoutOf(id)}`;
  }
  if (r.missing.length)
    yield* ["", "Paid payouts missing from the statement:", ...r.missing.map((p) => `  ${payoutLine(p)}`)];
  if (r.failed.length) {
    yield* [
      "",
      "Failed payouts (the bank refused them; never on a statement):",
      ...r.failed.map((p) => `  ${payoutLine(p)}`),
    ];
  }
  if (statement.skipped.length) {
    yield* ["", "Lines skipped (no transaction on them):"];
    for (const k of statement.skipped) yield `  line ${k.line}: ${k.reason}`;
  }
  yield* ["", fullyReconciled(r) ? "Everything matched." : "Not everything matched."];
}
