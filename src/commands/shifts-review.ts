// What `shifts export` and `shifts list` share: the range flags and how they read, and loading
// the review of one location's workdays the way the review screen builds it.

import { type LocationNames, locationNamesOf } from "../domain/csv.js";
import { DEFAULT_OVERTIME, type OvertimeRules } from "../domain/overtime.js";
import { ALL_LOCATIONS, buildReview, type Review } from "../domain/review.js";
import { addDays, parseDate, workdayOf } from "../domain/time.js";
import type { Location, Shift, TeamMember, TeamMemberWage } from "../spec/generated/types.js";
import type { StoreClient } from "../state/index.js";
import { reviewShiftPages } from "../state/screens.js";
import { type OptionSpec, UsageError } from "./args.js";
import type { CommandIo } from "./io.js";
import { isAllLocations, LOCATION_OR_ALL_OPTION, type TargetDeps } from "./listing.js";
import { pickLocation, type TargetFlagValues, withTargetClient } from "./target.js";

/** What the shifts commands build on: how to open a client on the target, and the clock. */
export type ShiftsDeps = TargetDeps<StoreClient>;

/** Opens the target of a shifts command, loads the review it asks for, and runs `body` on it. */
export function withShiftsReview<T>(
  io: Pick<CommandIo, "env" | "stderr">,
  opts: { target: TargetFlagValues; range: DayRange; location: string | undefined },
  deps: ShiftsDeps,
  body: (loaded: LoadedReview) => Promise<T>,
): Promise<T> {
  return withTargetClient(io, opts.target, deps.open, async (opened, resolved) =>
    body(
      await loadShiftsReview(
        opened.client,
        { range: opts.range, location: opts.location },
        {
          now: deps.now?.() ?? new Date(),
          defaultLocationId: resolved.target.defaultLocationId,
          overtime: resolved.config.overtime,
        },
      ),
    ),
  );
}

/** `--from`, `--to` and `--location`, as both shifts commands take them. */
export const RANGE_OPTIONS = {
  from: { type: "string", value: "YYYY-MM-DD", help: "the first workday (default: --to's week, else today)" },
  to: {
    type: "string",
    value: "YYYY-MM-DD",
    help: "the last workday (default: --from; alone, the week of seven workdays ending that day)",
  },
  location: LOCATION_OR_ALL_OPTION,
} as const satisfies Record<string, OptionSpec>;

/** The workdays asked for: both ends, or none (today, once the location's zone is known). */
export type DayRange = { from: string; to: string } | undefined;

/**
 * Reads `--from`/`--to`: `--from` alone is that one workday; `--to` alone is the week of seven
 * workdays ending on it; neither is today. A malformed date, or an end before the start, is a
 * {@link UsageError} naming the flag.
 */
export function dayRange(values: { from?: string | undefined; to?: string | undefined }): DayRange {
  const { from, to } = values;
  for (const [name, value] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (value !== undefined && !parseDate(value)) {
      throw new UsageError(`--${name} must be a date YYYY-MM-DD, not ${JSON.stringify(value)}`);
    }
  }
  if (from && to && to < from) throw new UsageError(`--to ${to} is before --from ${from}`);
  if (from) return { from, to: to ?? from };
  if (to) return { from: addDays(to, -6), to };
  return undefined;
}

/** A review of one store (or all), and what the files and records say about where and when. */
export interface LoadedReview {
  review: Review;
  /** The store shown; undefined: all locations. */
  location: Location | undefined;
  /** The store's name, or "All locations". */
  locationName: string;
  /** Every store's name by id (a review of all locations names each row's). */
  names: LocationNames;
  /** The zone of the store shown (of the default store for all locations): what "today" is. */
  timeZone: string;
  startOfWeek: string;
  from: string;
  to: string;
}

/**
 * Loads the shifts of a store's workdays (every store's with `--location all`), with its members'
 * shifts at the other stores in the same workweeks — they count toward overtime — and the days
 * before the range in its first workweek; the team's names and wages; and builds the review as
 * the screen does.
 */
export async function loadShiftsReview(
  client: StoreClient,
  ask: { range: DayRange; location: string | undefined },
  ctx: { now: Date; defaultLocationId?: string | undefined; overtime?: OvertimeRules | undefined },
): Promise<LoadedReview> {
  const [locs, weeks] = await Promise.all([client.locations.listLocations(), client.labor.listWorkweekConfigs()]);
  const locations = locs.locations ?? [];
  const all = isAllLocations(ask.location);
  const location = all ? undefined : pickLocation(locations, ask.location, ctx.defaultLocationId);
  const home = location ?? pickLocation(locations, undefined, ctx.defaultLocationId);
  const timeZone = home.timezone ?? "UTC";
  const workweek = weeks.workweek_configs?.[0];
  const startOfDay = workweek?.start_of_day_local_time ?? "00:00";
  const startOfWeek = workweek?.start_of_week ?? "MON";
  const today = workdayOf(ctx.now, timeZone, startOfDay);
  const { from, to } = ask.range ?? { from: today, to: today };
  const scope = { locationId: location?.id, locationIds: locations.flatMap((l) => (l.id ? [l.id] : [])) };
  const readShifts = async () => {
    const out: Shift[] = [];
    for await (const page of reviewShiftPages(client, scope, { range: { from, to }, week: { timeZone, startOfWeek } }))
      out.push(...page);
    return out;
  };
  const [shifts, members, wages] = await Promise.all([
    readShifts(),
    // Everyone, not only who is assigned here now: a shift of someone since moved keeps their name.
    client.team.searchTeamMembers({ limit: 200 }).all(),
    client.labor.listTeamMemberWages({ limit: 200 }).all(),
  ]);
  const byId = new Map<string, TeamMember>();
  for (const m of members) if (m.id) byId.set(m.id, m);
  const wagesOf = new Map<string, TeamMemberWage[]>();
  for (const w of wages) {
    if (!w.team_member_id) continue;
    wagesOf.set(w.team_member_id, [...(wagesOf.get(w.team_member_id) ?? []), w]);
  }
  const review = buildReview(shifts, {
    members: byId,
    wages: wagesOf,
    timeZone,
    startOfDay,
    startOfWeek,
    now: ctx.now,
    from,
    to,
    overtime: ctx.overtime ?? DEFAULT_OVERTIME,
    zones: new Map(locations.flatMap((l) => (l.id && l.timezone ? [[l.id, l.timezone] as const] : []))),
    ...(location?.id ? { locationId: location.id } : {}),
    ...(home.currency ? { currency: home.currency } : {}),
  });
  const locationName = location ? (location.name ?? location.id ?? "") : ALL_LOCATIONS;
  const names = locationNamesOf(locations);
  return { review, location, locationName, names, timeZone, startOfWeek, from, to };
}

/** `2026-05-04` or `2026-05-04 to 2026-05-10`, for messages. */
export function describeRange(from: string, to: string): string {
  return from === to ? from : `${from} to ${to}`;
}
