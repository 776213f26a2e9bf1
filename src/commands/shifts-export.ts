import { reviewCsv } from "../domain/csv.js";
import { buildReview, reviewShiftSearch } from "../domain/shifts.js";
import { parseDate, workdayOf } from "../domain/time.js";
import type { Shift, TeamMember } from "../spec/generated/types.js";
import type { StoreClient } from "../state/index.js";
import { type CommandSpec, type ParsedArgs, readArgs, UsageError } from "./args.js";
import { type CommandIo, say } from "./io.js";
import { OUT_OPTIONS, type OutTarget, outTarget, writeOut } from "./output.js";
import { runCommand } from "./run.js";
import {
  checkTargetFlags,
  loadTarget,
  type OpenedClient,
  openTarget,
  pickLocation,
  TARGET_OPTIONS,
  type Target,
  type TargetFlagValues,
} from "./target.js";

/** `backroom shifts export`'s command line. */
export const SHIFTS_EXPORT_SPEC = {
  name: "backroom shifts export",
  summary:
    "Writes the review of those workdays as CSV, one row per shift: member, workday, start, end, breaks, paid hours, hourly wage, cost, currency. Workdays follow the workweek's start of day in the location's time zone.",
  options: {
    from: { type: "string", value: "YYYY-MM-DD", help: "the first workday (default: today)" },
    to: { type: "string", value: "YYYY-MM-DD", help: "the last workday (default: --from)" },
    location: {
      type: "string",
      short: "l",
      value: "ID|NAME",
      help: "the location, by id or name in any case (default: the config's defaultLocationId, else the first)",
    },
    ...OUT_OPTIONS,
    ...TARGET_OPTIONS,
  },
  details: "Like every command, it works where `backroom status` says: see README's configuration section.",
} as const satisfies CommandSpec;

/** The checked options of `backroom shifts export`. */
export interface ShiftsExportOptions {
  from: string | undefined;
  to: string | undefined;
  location: string | undefined;
  out: OutTarget;
  /** Where to read the shifts from, before the environment variables and the config file. */
  target: TargetFlagValues;
}

/** Checks the options; a bad value is a UsageError naming the flag. */
export function shiftsExportOptions(
  { values }: ParsedArgs<typeof SHIFTS_EXPORT_SPEC.options>,
  env: Readonly<Record<string, string | undefined>>,
): ShiftsExportOptions {
  const { from, to } = values;
  for (const [name, value] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (value !== undefined && !parseDate(value))
      throw new UsageError(`--${name} must be a date YYYY-MM-DD, not ${JSON.stringify(value)}`);
  }
  if (from && to && to < from) throw new UsageError("--to is before --from");
  const target = { env: values.env, "base-url": values["base-url"], db: values.db };
  checkTargetFlags(target);
  return { from, to: to ?? from, location: values.location, out: outTarget(values, env), target };
}

/** The review of a location's workdays as CSV, and how many shifts it holds. */
export async function exportShiftsCsv(
  client: StoreClient,
  opts: { from?: string | undefined; to?: string | undefined; location?: string | undefined },
  now: Date = new Date(),
  defaultLocationId?: string,
): Promise<{ csv: string; shifts: number; locationName: string; from: string; to: string }> {
  const [locs, weeks] = await Promise.all([client.locations.listLocations(), client.labor.listWorkweekConfigs()]);
  const location = pickLocation(locs.locations ?? [], opts.location, defaultLocationId);
  const locationId = location.id ?? "";
  const tz = location.timezone ?? "UTC";
  const workweek = weeks.workweek_configs?.[0];
  const startOfDay = workweek?.start_of_day_local_time ?? "00:00";
  const startOfWeek = workweek?.start_of_week ?? "MON";
  const from = opts.from ?? workdayOf(now, tz, startOfDay);
  const to = opts.to ?? from;
  const [shifts, members] = await Promise.all([
    client.labor.searchShifts(reviewShiftSearch(locationId, { from, to }, { timeZone: tz, startOfWeek })).all(),
    client.team.searchTeamMembers({ query: { filter: { location_ids: [locationId] } }, limit: 200 }).all(),
  ]);
  const byId = new Map<string, TeamMember>();
  for (const m of members) if (m.id) byId.set(m.id, m);
  const review = buildReview(shifts as Shift[], {
    members: byId,
    timeZone: tz,
    startOfDay,
    startOfWeek,
    now,
    from,
    to,
  });
  return {
    csv: reviewCsv(review.rows, tz, now),
    shifts: review.rows.length,
    locationName: location.name ?? locationId,
    from,
    to,
  };
}

/** What `backroom shifts export` builds on: how to open a client on the target, and the clock. */
export interface ShiftsExportDeps {
  /** Opens a client on the resolved target; by default {@link openTarget}. */
  open?: (target: Target) => Promise<Pick<OpenedClient, "close"> & { client: StoreClient }>;
  now?: () => Date;
}

/** `backroom shifts export`: writes the CSV to a file or standard output. */
export async function runShiftsExport(argv: string[], io: CommandIo, deps: ShiftsExportDeps = {}): Promise<number> {
  const read = readArgs(io, SHIFTS_EXPORT_SPEC, argv, (a) => shiftsExportOptions(a, io.env));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  return runCommand(io, SHIFTS_EXPORT_SPEC.name, async () => {
    const resolved = await loadTarget(opts.target, io.env);
    for (const w of resolved.warnings) say(io.stderr, `backroom: ${w}`);
    const opened = await (deps.open ?? ((t) => openTarget(t, io.env)))(resolved.target);
    try {
      const now = deps.now?.() ?? new Date();
      const result = await exportShiftsCsv(opened.client, opts, now, resolved.target.defaultLocationId);
      await writeOut(opts.out, result.csv, io.stdout);
      if (opts.out.kind === "file") {
        say(
          io.stderr,
          `wrote ${result.shifts} shifts of ${result.locationName}, ${result.from}${result.to === result.from ? "" : ` to ${result.to}`}, to ${opts.out.path}`,
        );
      }
      return 0;
    } finally {
      await opened.close();
    }
  });
}
