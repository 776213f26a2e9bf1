import { stat } from "node:fs/promises";
import { join } from "node:path";
import { exportFileName, summaryFileName } from "../domain/csv.js";
import { plural } from "../domain/plural.js";
import { exportsFolder } from "../state/export-csv.js";
import { reviewExportFiles } from "../state/review-export.js";
import { type CommandSpec, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { type CommandIo, say } from "./io.js";
import { OUT_OPTIONS, writeFiles, writeOut } from "./output.js";
import { runCommand } from "./run.js";
import {
  type DayRange,
  dayRange,
  describeRange,
  RANGE_OPTIONS,
  type ShiftsDeps,
  withShiftsReview,
} from "./shifts-review.js";
import { dataDir, expandPath, TARGET_OPTIONS, type TargetFlagValues, targetFlags } from "./target.js";

/** `backroom shifts export`'s command line. */
export const SHIFTS_EXPORT_SPEC = {
  name: "backroom shifts export",
  summary:
    "Writes the review of a location's workdays (or of all locations) as CSV, one row per shift: location, member, job title, start and end (each with its date), time zone, workday, status, paid and unpaid break hours, regular and overtime hours, hourly rate, cost, currency and flags (no wage, open, over 8 h, overtime from other stores). Workdays follow the workweek's start of day in each store's time zone; overtime follows the config file's overtime rules (40 h a week at 1.5× unless set) and counts a member's hours at every store, its cost falling where the hours past the limit were worked.",
  options: {
    ...RANGE_OPTIONS,
    out: {
      type: "string",
      short: "o",
      value: "FILE|FOLDER|-",
      help: "where to write (~ is your home folder); a folder gets the default name; - is stdout (default: shifts-<location>-<dates>.csv in the data folder's exports/, $XDG_DATA_HOME/backroom/exports)",
    },
    force: OUT_OPTIONS.force,
    summary: {
      type: "boolean",
      help: "also write one row per member per workweek to <file>-summary.csv (hours, regular and overtime cost; with --location all, across stores)",
    },
    ...TARGET_OPTIONS,
  },
  details:
    "An existing file is never overwritten without --force. Like every command, it works where `backroom status` says: see README's configuration section.",
} as const satisfies CommandSpec;

/** Where the CSV goes: standard output, a file named by the user, or the default name in a folder. */
export type ExportOut = { kind: "stdout" } | { kind: "file"; path: string } | { kind: "folder"; path: string };

/** The checked options of `backroom shifts export`. */
export interface ShiftsExportOptions {
  range: DayRange;
  location: string | undefined;
  out: ExportOut;
  force: boolean;
  summary: boolean;
  /** Where to read the shifts from, before the environment variables and the config file. */
  target: TargetFlagValues;
}

/** Checks the options; a bad value is a UsageError naming the flag. */
export function shiftsExportOptions(
  { values }: ParsedArgs<typeof SHIFTS_EXPORT_SPEC.options>,
  env: Readonly<Record<string, string | undefined>>,
): ShiftsExportOptions {
  const range = dayRange(values);
  const target = targetFlags(values);
  const out: ExportOut =
    values.out === "-"
      ? { kind: "stdout" }
      : values.out === undefined
        ? { kind: "folder", path: exportsFolder(dataDir(env)) }
        : /[/\\]$/.test(values.out)
          ? { kind: "folder", path: expandPath(values.out.replace(/[/\\]+$/, "") || "/", env) }
          : { kind: "file", path: expandPath(values.out, env) };
  if (out.kind === "stdout" && values.force) throw new UsageError("--force only applies to a file");
  if (out.kind === "stdout" && values.summary) {
    throw new UsageError("--summary writes a second file next to the first; give --out FILE or a folder, not -");
  }
  return {
    range,
    location: values.location,
    out,
    force: values.force === true,
    summary: values.summary === true,
    target,
  };
}

/** What `backroom shifts export` builds on: how to open a client on the target, and the clock. */
export type ShiftsExportDeps = ShiftsDeps;

/** `backroom shifts export`: writes the CSV (and with --summary the weekly summary) to files or stdout. */
export async function runShiftsExport(argv: string[], io: CommandIo, deps: ShiftsExportDeps = {}): Promise<number> {
  const read = readArgs(io, SHIFTS_EXPORT_SPEC, argv, (a) => shiftsExportOptions(a, io.env));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, SHIFTS_EXPORT_SPEC.name, () =>
    withShiftsReview(io, opts, deps, async (loaded) => {
      const { rows } = loaded.review;
      const what = `${plural(rows.length, "shift")} of ${loaded.locationName}, ${describeRange(loaded.from, loaded.to)}`;
      if (opts.out.kind === "stdout") {
        const [shifts] = reviewExportFiles(loaded.review, loaded, "-", false);
        await writeOut({ kind: "stdout" }, shifts?.text ?? "", io.stdout);
        if (!rows.length)
          say(io.stderr, `no shifts of ${loaded.locationName}, ${describeRange(loaded.from, loaded.to)}`);
        return 0;
      }
      let path = opts.out.path;
      if (
        opts.out.kind === "folder" ||
        (await stat(path).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      ) {
        const name = exportFileName(loaded.locationName, loaded.location?.id ?? "all", loaded.from, loaded.to);
        path = join(opts.out.kind === "folder" ? expandPath(opts.out.path, io.env) : path, name);
      }
      await writeFiles(reviewExportFiles(loaded.review, loaded, path, opts.summary), opts.force, dataDir(io.env));
      say(io.stderr, `wrote ${what}, to ${path}`);
      if (opts.summary) say(io.stderr, `wrote the weekly summary per member to ${summaryFileName(path)}`);
      if (!rows.length) say(io.stderr, "there were no shifts in those workdays: the file has the header only");
      return 0;
    }),
  );
}
