// What commands print for scripts: records as JSON, NDJSON or CSV on stdout (nothing else goes
// there — messages go to stderr), or to a file given with --out that is never overwritten
// without --force.
import type { EnvVars } from "../auth/config.js";
import { toCsv } from "../domain/csv.js";
import { type CsvFile, writeCsvFiles } from "../state/export-csv.js";
import { type OptionSpec, UsageError } from "./args.js";
import { CommandError } from "./io.js";
import { expandPath } from "./target.js";

/** `--json`, `--ndjson`, `--csv`: a command spreads in the ones it offers. */
export const FORMAT_OPTIONS = {
  json: { type: "boolean", help: "print the records as one JSON array, and nothing else, on stdout" },
  ndjson: { type: "boolean", help: "print one JSON record per line (newline-delimited JSON)" },
  csv: { type: "boolean", help: "print the records as CSV with a header row" },
} as const satisfies Record<string, OptionSpec>;

/** `--out FILE` and `--force`. */
export const OUT_OPTIONS = {
  out: { type: "string", short: "o", value: "FILE|-", help: "write to FILE (~ is your home folder); - is stdout" },
  force: { type: "boolean", help: "overwrite FILE when it exists" },
} as const satisfies Record<string, OptionSpec>;

/** How records are printed; `text` is the command's own layout for people. */
export type OutputFormat = "text" | "json" | "ndjson" | "csv";

/** The one format the flags ask for; two at once is a {@link UsageError}. */
export function outputFormat(values: { json?: boolean; ndjson?: boolean; csv?: boolean }): OutputFormat {
  const asked = (["json", "ndjson", "csv"] as const).filter((f) => values[f]);
  if (asked.length > 1) throw new UsageError(`--${asked.join(" and --")} cannot go together; give one`);
  return asked[0] ?? "text";
}

/** The records as one JSON array, then a line break. */
export function formatJson(records: readonly unknown[]): string {
  return `${JSON.stringify(records, null, 2)}\n`;
}

/** One JSON record per line. */
export function formatNdjson(records: readonly unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join("");
}

/** One column of a CSV print: its header and how to read the cell from a record. */
export interface CsvColumn<R> {
  header: string;
  cell: (record: R) => string | number | undefined | null;
}

/** The records as CSV (RFC 4180, CRLF), a header row first. */
export function formatCsv<R>(records: readonly R[], columns: readonly CsvColumn<R>[]): string {
  return toCsv([columns.map((c) => c.header), ...records.map((r) => columns.map((c) => c.cell(r) ?? ""))]);
}

/** The records in the chosen machine format; `text` is not one (the command lays it out). */
export function formatRecords<R>(
  format: Exclude<OutputFormat, "text">,
  records: readonly R[],
  columns: readonly CsvColumn<R>[],
): string {
  return format === "json"
    ? formatJson(records)
    : format === "ndjson"
      ? formatNdjson(records)
      : formatCsv(records, columns);
}

/** Where output goes: stdout, or a file path with `~` expanded. */
export type OutTarget = { kind: "stdout" } | { kind: "file"; path: string; force: boolean };

/** Reads `--out` and `--force`: absent or `-` is stdout; `--force` without a file is refused. */
export function outTarget(values: { out?: string; force?: boolean }, env: EnvVars): OutTarget {
  const out = values.out;
  if (out === undefined || out === "-") {
    if (values.force) throw new UsageError("--force only applies with --out FILE");
    return { kind: "stdout" };
  }
  return { kind: "file", path: expandPath(out, env), force: values.force === true };
}

/**
 * Writes the text to stdout or to the file, through the app's one writer (src/state/export-csv.ts).
 * An existing file is left alone unless `--force` (a {@link CommandError}, exit 2, saying so).
 */
export async function writeOut(target: OutTarget, text: string, stdout: NodeJS.WritableStream): Promise<void> {
  if (target.kind === "stdout") {
    stdout.write(text);
    return;
  }
  await writeFiles([{ path: target.path, text, what: "the records" }], target.force);
}

/**
 * Writes the files of one export, never over an existing one without `force`: every file is
 * checked before any is written, so a refusal leaves nothing half done.
 */
export async function writeFiles(files: readonly CsvFile[], force: boolean, dataDir?: string): Promise<void> {
  // With the data folder, its exports/ folder is made when a file goes there (the default place).
  const result = await writeCsvFiles(files, { overwrite: force, ...(dataDir ? { dataDir } : {}) });
  if (result.ok) return;
  const error = result.error;
  if (error.kind === "exists") {
    throw new CommandError(
      `${error.paths.join(" and ")} already exist${error.paths.length > 1 ? "" : "s"}; pass --force to overwrite it`,
      2,
    );
  }
  if (error.kind !== "failed") throw new CommandError("the file was not written");
  const path = error.problem.details?.split(" · ").at(-1) ?? files[0]?.path ?? "";
  const why = error.problem.headline.replace(/^The file was not written: /, "").replace(/\.$/, "");
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  throw new CommandError(`cannot write ${path}: ${why}`, code === "EISDIR" ? 2 : 1);
}
