import { writeFile } from "node:fs/promises";
import {
  type CommandIo,
  environmentFlag,
  parseFlags,
  readCommand,
  say,
  stringFlag,
  UsageError,
} from "../auth/cli-support.js";
import { reviewCsv } from "../domain/csv.js";
import { buildReview, reviewShiftSearch } from "../domain/shifts.js";
import { parseDate, workdayOf } from "../domain/time.js";
import type { Shift, TeamMember } from "../spec/generated/types.js";
import type { StoreClient } from "../state/index.js";
import type { TargetFlags } from "./target.js";

const USAGE = `usage: backroom shifts export --from YYYY-MM-DD [--to YYYY-MM-DD] [--location ID|NAME] [--out FILE|-]
                              [--env local|sandbox|production] [--base-url URL] [--db FILE]

Writes the review of those workdays as CSV, one row per shift: member, workday, start, end,
breaks, paid hours, hourly wage, cost, currency. Workdays follow the workweek's start of day in
the location's time zone. --to defaults to --from (today when both are left out), --location to
the first location, --out to standard output. Like the app, it reads the local demo store unless
--env/--base-url name a signed-in environment.`;

const FLAGS = {
  from: "string",
  to: "string",
  location: "string",
  out: "string",
  env: "string",
  "base-url": "string",
  db: "string",
  help: "boolean",
} as const;

/** The checked options of `backroom shifts export`. */
export interface ShiftsExportOptions {
  from: string | undefined;
  to: string | undefined;
  location: string | undefined;
  out: string;
  /** Where to read the shifts from. */
  target: TargetFlags;
}

/** Reads and checks the flags; a bad value is a UsageError naming the flag. */
export function parseShiftsExportFlags(argv: readonly string[]): ShiftsExportOptions | "help" {
  const flags = parseFlags(argv, FLAGS);
  if (flags.help) return "help";
  const from = stringFlag(flags.from);
  const to = stringFlag(flags.to);
  for (const [name, value] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (value !== undefined && !parseDate(value))
      throw new UsageError(`--${name} must be a date YYYY-MM-DD, not ${JSON.stringify(value)}`);
  }
  if (from && to && to < from) throw new UsageError("--to is before --from");
  return {
    from,
    to: to ?? from,
    location: stringFlag(flags.location),
    out: stringFlag(flags.out) ?? "-",
    target: {
      environment: environmentFlag(flags.env),
      baseUrl: stringFlag(flags["base-url"]),
      dbPath: stringFlag(flags.db),
    },
  };
}

/** The review of a location's workdays as CSV, and how many shifts it holds. */
export async function exportShiftsCsv(
  client: StoreClient,
  opts: { from?: string | undefined; to?: string | undefined; location?: string | undefined },
  now: Date = new Date(),
): Promise<{ csv: string; shifts: number; locationName: string; from: string; to: string }> {
  const [locs, weeks] = await Promise.all([client.locations.listLocations(), client.labor.listWorkweekConfigs()]);
  const locations = locs.locations ?? [];
  const wanted = opts.location?.toLowerCase();
  const location = wanted
    ? locations.find((l) => l.id === opts.location || l.name?.toLowerCase() === wanted)
    : locations[0];
  if (!location?.id) {
    throw new UsageError(
      wanted
        ? `no location ${JSON.stringify(opts.location)}; there are: ${locations.map((l) => l.name).join(", ")}`
        : "the merchant has no locations",
    );
  }
  const tz = location.timezone ?? "UTC";
  const workweek = weeks.workweek_configs?.[0];
  const startOfDay = workweek?.start_of_day_local_time ?? "00:00";
  const startOfWeek = workweek?.start_of_week ?? "MON";
  const from = opts.from ?? workdayOf(now, tz, startOfDay);
  const to = opts.to ?? from;
  const [shifts, members] = await Promise.all([
    client.labor.searchShifts(reviewShiftSearch(location.id, { from, to }, { timeZone: tz, startOfWeek })).all(),
    client.team.searchTeamMembers({ query: { filter: { location_ids: [location.id] } }, limit: 200 }).all(),
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
    locationName: location.name ?? location.id,
    from,
    to,
  };
}

/** `backroom shifts export`: writes the CSV to a file or standard output. */
export async function runShiftsExport(
  argv: string[],
  io: CommandIo,
  deps: { client: (target: TargetFlags) => Promise<StoreClient> | StoreClient; now?: () => Date },
): Promise<number> {
  const read = readCommand(io, "backroom shifts export", USAGE, () => parseShiftsExportFlags(argv));
  if ("exit" in read) return read.exit;
  const opts = read.value;
  let result: Awaited<ReturnType<typeof exportShiftsCsv>>;
  try {
    result = await exportShiftsCsv(await deps.client(opts.target), opts, deps.now?.() ?? new Date());
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    say(io.stderr, `backroom shifts export: ${err.message}`);
    return 2;
  }
  if (opts.out === "-") io.stdout.write(result.csv);
  else {
    await writeFile(opts.out, result.csv, "utf8");
    say(
      io.stderr,
      `wrote ${result.shifts} shifts of ${result.locationName}, ${result.from}${result.to === result.from ? "" : ` to ${result.to}`}, to ${opts.out}`,
    );
  }
  return 0;
}
