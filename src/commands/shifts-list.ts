import { memberWeeksCsv, shiftsCsv } from "../domain/csv.js";
import { formatMoney } from "../domain/money.js";
import { describeOvertime } from "../domain/overtime.js";
import { plural } from "../domain/plural.js";
import { memberWeeks, type ReviewRow } from "../domain/review.js";
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
import { TARGET_OPTIONS, type TargetFlagValues, targetFlags } from "./target.js";

/** `backroom shifts list`'s command line. */
export const SHIFTS_LIST_SPEC = {
  name: "backroom shifts list",
  summary:
    "Lists a location's shifts of those workdays (or all locations') with their hours, overtime and cost, as the review screen shows them: a table for people, or records for scripts with --json, --ndjson or --csv (the export's columns). Overtime counts a member's hours at every store.",
  options: {
    ...RANGE_OPTIONS,
    summary: {
      type: "boolean",
      help: "one row per member per workweek instead of per shift: hours, regular and overtime hours and cost (with --location all, across stores)",
    },
    ...FORMAT_OPTIONS,
    ...TARGET_OPTIONS,
  },
  details:
    "Records go to stdout and nothing else; messages and errors to stderr, with a non-zero exit code on failure.",
} as const satisfies CommandSpec;

/** The checked options of `backroom shifts list`. */
export interface ShiftsListOptions {
  range: DayRange;
  location: string | undefined;
  format: OutputFormat;
  summary: boolean;
  target: TargetFlagValues;
}

/** Checks the options; a bad value is a UsageError naming the flag. */
export function shiftsListOptions({ values }: ParsedArgs<typeof SHIFTS_LIST_SPEC.options>): ShiftsListOptions {
  const range = dayRange(values);
  const format = outputFormat(values);
  const target = targetFlags(values);
  return { range, location: values.location, format, summary: values.summary === true, target };
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
  /** Overtime hours that are overtime only because of the member's hours at other stores. */
  overtime_from_other_stores_hours: number;
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
    location_id: r.locationId,
    location: loaded.names(r.locationId),
    team_member_id: r.memberId,
    member: r.memberName,
    job_title: r.rate?.title ?? r.shift.wage?.title ?? null,
    start_at: r.shift.start_at,
    end_at: r.shift.end_at ?? null,
    timezone: r.timeZone,
    workday: r.workday,
    status: r.shift.end_at ? "closed" : "open",
    paid_hours: hours(r.totals.paidHours),
    unpaid_break_hours: hours(r.totals.unpaidHours),
    regular_hours: hours(r.regularHours),
    overtime_hours: hours(r.overtimeHours),
    overtime_from_other_stores_hours: hours(r.overtimeFromElsewhereHours),
    rate_source: r.rate?.source ?? null,
    hourly_rate: r.rate?.rate ?? null,
    regular_cost: r.cost?.regular ?? null,
    overtime_cost: r.cost?.overtime ?? null,
    cost: r.cost?.total ?? null,
    flags: r.flags,
  }));
}

/** Lines of cells padded into columns (the `right` ones aligned right), two spaces apart. */
function textTable(table: readonly (readonly string[])[], right: ReadonlySet<number>): string[] {
  const widths = table[0]?.map((_, i) => Math.max(...table.map((line) => line[i]?.length ?? 0))) ?? [];
  return table.map((line) =>
    line
      .map((cell, i) => (right.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

/** The review's heading: where, when, in which zone, under which overtime rules. */
const heading = (loaded: LoadedReview) =>
  `${loaded.locationName} · ${describeRange(loaded.from, loaded.to)} · ${loaded.location ? loaded.timeZone : "each store's time zone"} · ${describeOvertime(loaded.review.overtime)}`;

/** The table for people: one line per shift (with its store for all locations), then the totals with regular and overtime apart. */
export function shiftsTable(loaded: LoadedReview): string {
  const { rows, totals } = loaded.review;
  const all = loaded.location === undefined;
  const when = (r: ReviewRow) => {
    const s = r.shift;
    const tz = r.timeZone;
    const end = s.end_at
      ? localDate(s.end_at, tz) === localDate(s.start_at, tz)
        ? localTime(s.end_at, tz)
        : `${localDate(s.end_at, tz)} ${localTime(s.end_at, tz)}`
      : "open";
    return `${localTime(s.start_at, tz)}–${end}`;
  };
  const where = (cells: string[], store: string) => (all ? [cells[0] ?? "", store, ...cells.slice(1)] : cells);
  const table = [
    where(["member", "workday", "start–end", "paid h", "regular", "overtime", "cost", "flags"], "location"),
    ...rows.map((r) =>
      where(
        [
          r.memberName,
          r.workday,
          when(r),
          formatHours(r.totals.paidHours),
          formatHours(r.regularHours),
          formatHours(r.overtimeHours),
          r.cost ? formatMoney(r.cost.total) : "no wage",
          r.flags.filter((f) => f !== "no wage").join(", "),
        ],
        loaded.names(r.locationId),
      ),
    ),
  ];
  const lines = textTable(table, new Set(all ? [4, 5, 6, 7] : [3, 4, 5, 6]));
  const noWage = totals.noWageShifts ? ` · ${totals.noWageShifts} without wage, not in the cost` : "";
  lines.push(
    "",
    heading(loaded),
    `${plural(totals.shifts, "shift")} · paid ${formatHours(totals.paidHours)} h (regular ${formatHours(totals.regularHours)}, overtime ${formatHours(totals.overtimeHours)}) · cost ${formatMoney(totals.cost)} (regular ${formatMoney(totals.regularCost)}, overtime ${formatMoney(totals.overtimeCost)})${noWage}`,
  );
  return `${lines.join("\n")}\n`;
}

/** One member's workweek as `shifts list --summary --json` prints it: money in the smallest unit. */
export interface WeekRecord {
  team_member_id: string;
  member: string;
  week_start: string;
  week_end: string;
  /** The stores where the week's hours were worked. */
  location_ids: string[];
  locations: string[];
  shifts: number;
  paid_hours: number;
  regular_hours: number;
  overtime_hours: number;
  overtime_from_other_stores_hours: number;
  regular_cost: Money | null;
  overtime_cost: Money | null;
  cost: Money | null;
  /** Shifts without a wage (their hours are in, their cost is not) and shifts still open. */
  no_wage_shifts: number;
  open_shifts: number;
}

/** The per-member per-week records of a loaded review. */
export function weekRecords(loaded: LoadedReview): WeekRecord[] {
  return memberWeeks(loaded.review, loaded.startOfWeek).map((w) => {
    const costed = !(w.paidHours > 0 && w.uncostedHours >= w.paidHours);
    return {
      team_member_id: w.memberId,
      member: w.memberName,
      week_start: w.week,
      week_end: w.weekEnd,
      location_ids: w.locationIds,
      locations: w.locationIds.map(loaded.names),
      shifts: w.shifts,
      paid_hours: hours(w.paidHours),
      regular_hours: hours(w.regularHours),
      overtime_hours: hours(w.overtimeHours),
      overtime_from_other_stores_hours: hours(w.overtimeFromElsewhereHours),
      regular_cost: costed ? w.regularCost : null,
      overtime_cost: costed ? w.overtimeCost : null,
      cost: costed ? w.cost : null,
      no_wage_shifts: w.noWageShifts,
      open_shifts: w.openShifts,
    };
  });
}

/** The summary table for people: one line per member per workweek. */
export function weeksTable(loaded: LoadedReview): string {
  const records = weekRecords(loaded);
  const table = [
    ["member", "week", "locations", "paid h", "regular", "overtime", "cost"],
    ...records.map((w) => [
      w.member,
      `${w.week_start} to ${w.week_end}`,
      w.locations.join(", "),
      formatHours(w.paid_hours),
      formatHours(w.regular_hours),
      formatHours(w.overtime_hours),
      w.cost ? formatMoney(w.cost) : "no wage",
    ]),
  ];
  return `${[...textTable(table, new Set([3, 4, 5, 6])), "", heading(loaded)].join("\n")}\n`;
}

/** `backroom shifts list`: the review's shifts, for people or for scripts. */
export async function runShiftsList(argv: string[], io: CommandIo, deps: ShiftsExportDeps = {}): Promise<number> {
  const read = readArgs(io, SHIFTS_LIST_SPEC, argv, shiftsListOptions);
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, SHIFTS_LIST_SPEC.name, () =>
    withShiftsReview(io, opts, deps, async (loaded) => {
      const records = () => (opts.summary ? weekRecords(loaded) : shiftRecords(loaded));
      const text =
        opts.format === "json"
          ? formatJson(records())
          : opts.format === "ndjson"
            ? formatNdjson(records())
            : opts.format === "csv"
              ? opts.summary
                ? memberWeeksCsv(memberWeeks(loaded.review, loaded.startOfWeek), loaded.names)
                : shiftsCsv(loaded.review.rows, loaded.names)
              : opts.summary
                ? weeksTable(loaded)
                : shiftsTable(loaded);
      io.stdout.write(text);
      return 0;
    }),
  );
}
