import { shiftsCsv } from "../domain/csv.js";
import { formatMoney } from "../domain/money.js";
import { describeOvertime } from "../domain/overtime.js";
import type { ReviewRow } from "../domain/shifts.js";
import { formatHours, localDate, localTime } from "../domain/time.js";
import type { Money } from "../spec/generated/types.js";
import { type CommandSpec, type ParsedArgs, readArgs } from "./args.js";
import type { CommandIo } from "./io.js";
import { FORMAT_OPTIONS, formatJson, formatNdjson, type OutputFormat, outputFormat } from "./output.js";
import { runCommand } from "./run.js";
import type { ShiftsExportDeps } from "./shifts-export.js";
import {
  type DayRange,
  dayRange,
  describeRange,
  type LoadedReview,
  RANGE_OPTIONS,
  withShiftsReview,
} from "./shifts-review.js";
import { checkTargetFlags, TARGET_OPTIONS, type TargetFlagValues } from "./target.js";

/** `backroom shifts list`'s command line. */
export const SHIFTS_LIST_SPEC = {
  name: "backroom shifts list",
  summary:
    "Lists a location's shifts of those workdays with their hours, overtime and cost, as the review screen shows them: a table for people, or records for scripts with --json, --ndjson or --csv (the export's columns).",
  options: { ...RANGE_OPTIONS, ...FORMAT_OPTIONS, ...TARGET_OPTIONS },
  details:
    "Records go to stdout and nothing else; messages and errors to stderr, with a non-zero exit code on failure.",
} as const satisfies CommandSpec;

/** The checked options of `backroom shifts list`. */
export interface ShiftsListOptions {
  range: DayRange;
  location: string | undefined;
  format: OutputFormat;
  target: TargetFlagValues;
}

/** Checks the options; a bad value is a UsageError naming the flag. */
export function shiftsListOptions({ values }: ParsedArgs<typeof SHIFTS_LIST_SPEC.options>): ShiftsListOptions {
  const range = dayRange(values);
  const format = outputFormat(values);
  const target = { env: values.env, "base-url": values["base-url"], db: values.db };
  checkTargetFlags(target);
  return { range, location: values.location, format, target };
}

/** One shift as `shifts list --json` prints it: times as RFC 3339, money in the smallest unit. */
export interface ShiftRecord {
  id: string;
  location_id: string;
  location: string;
  team_member_id: string;
  member: string;
  job_title: string | null;
  start_at: string;
  end_at: string | null;
  timezone: string;
  workday: string;
  status: "open" | "closed";
  paid_hours: number;
  unpaid_break_hours: number;
  regular_hours: number;
  overtime_hours: number;
  /** Where the rate came from: the shift's own wage, or the member's team member wage. */
  rate_source: "shift" | "team-member-wage" | null;
  hourly_rate: Money | null;
  regular_cost: Money | null;
  overtime_cost: Money | null;
  cost: Money | null;
  flags: readonly string[];
}

const hours = (h: number) => Math.round(h * 100) / 100;

/** The records of a loaded review. */
export function shiftRecords(loaded: LoadedReview): ShiftRecord[] {
  return loaded.review.rows.map((r) => ({
    id: r.shift.id ?? "",
    location_id: loaded.location.id ?? "",
    location: loaded.locationName,
    team_member_id: r.memberId,
    member: r.memberName,
    job_title: r.rate?.title ?? r.shift.wage?.title ?? null,
    start_at: r.shift.start_at,
    end_at: r.shift.end_at ?? null,
    timezone: loaded.timeZone,
    workday: r.workday,
    status: r.shift.end_at ? "closed" : "open",
    paid_hours: hours(r.totals.paidHours),
    unpaid_break_hours: hours(r.totals.unpaidHours),
    regular_hours: hours(r.regularHours),
    overtime_hours: hours(r.overtimeHours),
    rate_source: r.rate?.source ?? null,
    hourly_rate: r.rate?.rate ?? null,
    regular_cost: r.cost?.regular ?? null,
    overtime_cost: r.cost?.overtime ?? null,
    cost: r.cost?.total ?? null,
    flags: r.flags,
  }));
}

/** The table for people: one line per shift, then the totals with regular and overtime apart. */
export function shiftsTable(loaded: LoadedReview): string {
  const tz = loaded.timeZone;
  const { rows, totals, overtime } = loaded.review;
  const when = (r: ReviewRow) => {
    const s = r.shift;
    const end = s.end_at
      ? localDate(s.end_at, tz) === localDate(s.start_at, tz)
        ? localTime(s.end_at, tz)
        : `${localDate(s.end_at, tz)} ${localTime(s.end_at, tz)}`
      : "open";
    return `${localTime(s.start_at, tz)}–${end}`;
  };
  const table = [
    ["member", "workday", "start–end", "paid h", "regular", "overtime", "cost", "flags"],
    ...rows.map((r) => [
      r.memberName,
      r.workday,
      when(r),
      formatHours(r.totals.paidHours),
      formatHours(r.regularHours),
      formatHours(r.overtimeHours),
      r.cost ? formatMoney(r.cost.total) : "no wage",
      r.flags.filter((f) => f !== "no wage").join(", "),
    ]),
  ];
  const widths = table[0]?.map((_, i) => Math.max(...table.map((line) => line[i]?.length ?? 0))) ?? [];
  const right = new Set([3, 4, 5, 6]);
  const lines = table.map((line) =>
    line
      .map((cell, i) => (right.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
  const noWage = totals.noWageShifts ? ` · ${totals.noWageShifts} without wage, not in the cost` : "";
  lines.push(
    "",
    `${loaded.locationName} · ${describeRange(loaded.from, loaded.to)} · ${tz} · ${describeOvertime(overtime)}`,
    `${totals.shifts} shifts · paid ${formatHours(totals.paidHours)} h (regular ${formatHours(totals.regularHours)}, overtime ${formatHours(totals.overtimeHours)}) · cost ${formatMoney(totals.cost)} (regular ${formatMoney(totals.regularCost)}, overtime ${formatMoney(totals.overtimeCost)})${noWage}`,
  );
  return `${lines.join("\n")}\n`;
}

/** `backroom shifts list`: the review's shifts, for people or for scripts. */
export async function runShiftsList(argv: string[], io: CommandIo, deps: ShiftsExportDeps = {}): Promise<number> {
  const read = readArgs(io, SHIFTS_LIST_SPEC, argv, shiftsListOptions);
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, SHIFTS_LIST_SPEC.name, () =>
    withShiftsReview(io, opts, deps, async (loaded) => {
      const text =
        opts.format === "json"
          ? formatJson(shiftRecords(loaded))
          : opts.format === "ndjson"
            ? formatNdjson(shiftRecords(loaded))
            : opts.format === "csv"
              ? shiftsCsv(loaded.review.rows, { locationName: loaded.locationName, timeZone: loaded.timeZone })
              : shiftsTable(loaded);
      io.stdout.write(text);
      return 0;
    }),
  );
}
