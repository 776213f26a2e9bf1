// Reading the cash drawer review from the service: shared by the drawers slice and the
// `backroom drawers` commands, so the screen and the report are the same numbers.
import {
  byCloser,
  type CloserSummary,
  type DayOverShort,
  type DrawerShiftRow,
  type DrawerTotals,
  dailyOverShort,
  drawerRow,
  drawerTotals,
  largestDifferences,
  localDayWindow,
} from "../domain/cash-drawers.js";
import { memberName } from "../domain/shifts.js";
import { addDays } from "../domain/time.js";
import type { CashDrawerShift, CashDrawerShiftEvent, CashDrawerShiftSummary } from "../spec/generated/types.js";
import type { SquareClient } from "../square/index.js";

/** The calls the drawer review makes. */
export interface DrawersClient {
  cashDrawers: Pick<
    SquareClient["cashDrawers"],
    "listCashDrawerShifts" | "retrieveCashDrawerShift" | "listCashDrawerShiftEvents"
  >;
  team: Pick<SquareClient["team"], "searchTeamMembers">;
}

/** Calls in flight at once when a day's shifts are read one by one. */
export const DRAWER_READ_CONCURRENCY = 6;

/**
 * Up to this many shifts, each one's events are read to check its expected cash. A longer range
 * is shown without that check (and says so) rather than making hundreds more calls.
 */
export const EVENT_CHECK_LIMIT = 60;

/** Runs `fn` over the items, at most `limit` at a time, keeping their order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** Every team member's display name by id (every status and location: closers may have left). */
export async function teamNames(client: Pick<DrawersClient, "team">): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for await (const m of client.team.searchTeamMembers({ limit: 200 })) if (m.id) names.set(m.id, memberName(m));
  return names;
}

/** A location's shift summaries opened on local dates `from`..`to`, oldest first. */
export async function listDrawerShifts(
  client: Pick<DrawersClient, "cashDrawers">,
  q: { locationId: string; timeZone: string; from: string; to: string },
): Promise<CashDrawerShiftSummary[]> {
  const { begin, end } = localDayWindow(q.from, q.to, q.timeZone);
  return client.cashDrawers
    .listCashDrawerShifts({
      location_id: q.locationId,
      begin_time: begin,
      end_time: end,
      sort_order: "ASC",
      limit: 1000,
    })
    .all();
}

/** Every event of one shift, page after page, in the order they happened. */
export async function loadShiftEvents(
  client: Pick<DrawersClient, "cashDrawers">,
  shiftId: string,
  locationId: string,
): Promise<CashDrawerShiftEvent[]> {
  return client.cashDrawers.listCashDrawerShiftEvents(shiftId, { location_id: locationId, limit: 1000 }).all();
}

/** One shift in full. */
export async function retrieveDrawerShift(
  client: Pick<DrawersClient, "cashDrawers">,
  shiftId: string,
  locationId: string,
): Promise<CashDrawerShift> {
  const r = await client.cashDrawers.retrieveCashDrawerShift(shiftId, { location_id: locationId });
  return r.cash_drawer_shift ?? { id: shiftId };
}

/** A day (or range) of a location's drawers as the review shows it. */
export interface DrawerDay {
  locationId: string;
  timeZone: string;
  from: string;
  to: string;
  /** The full shifts, oldest first, and their rows. */
  shifts: CashDrawerShift[];
  rows: DrawerShiftRow[];
  totals: DrawerTotals;
  /** Totals of each date of the range. */
  days: { date: string; totals: DrawerTotals }[];
  /** Whether each shift's events were read to check its expected cash. */
  eventsChecked: boolean;
}

/**
 * Reads the shifts opened on local dates `from`..`to`, each in full, and (up to
 * {@link EVENT_CHECK_LIMIT} shifts) each one's events to check its expected cash.
 */
export async function loadDrawerDay(
  client: Pick<DrawersClient, "cashDrawers">,
  q: { locationId: string; timeZone: string; from: string; to: string },
): Promise<DrawerDay> {
  const summaries = await listDrawerShifts(client, q);
  const eventsChecked = summaries.length <= EVENT_CHECK_LIMIT;
  const read = await mapLimit(summaries, DRAWER_READ_CONCURRENCY, async (s) => {
    const id = s.id ?? "";
    const [shift, events] = await Promise.all([
      retrieveDrawerShift(client, id, q.locationId),
      eventsChecked ? loadShiftEvents(client, id, q.locationId) : Promise.resolve(undefined),
    ]);
    return { shift, events };
  });
  const shifts = read.map((r) => r.shift);
  const rows = read.map((r) => drawerRow(r.shift, q.timeZone, r.events));
  const days: DrawerDay["days"] = [];
  for (let d = q.from; d <= q.to; d = addDays(d, 1)) {
    days.push({ date: d, totals: drawerTotals(rows.filter((r) => r.date === d)) });
  }
  return { ...q, shifts, rows, totals: drawerTotals(rows), days, eventsChecked };
}

/** Drawers still open that were opened on one earlier date. */
export interface StillOpen {
  date: string;
  count: number;
}

/** How many drawers are still open, from the first date to the last; undefined when none is. */
export function stillOpenSpan(
  stillOpen: readonly StillOpen[],
): { total: number; first: string; last: string } | undefined {
  const first = stillOpen[0];
  const last = stillOpen[stillOpen.length - 1];
  if (!first || !last) return undefined;
  return { total: stillOpen.reduce((n, s) => n + s.count, 0), first: first.date, last: last.date };
}

/** Days before the shown ones in which a drawer still open is looked for. */
export const STILL_OPEN_DAYS = 7;

/**
 * Drawers opened in the {@link STILL_OPEN_DAYS} days before `before` that are still open, by the
 * local date they opened on, oldest first: after midnight the evening's drawers are on yesterday.
 */
export async function loadStillOpen(
  client: Pick<DrawersClient, "cashDrawers">,
  q: { locationId: string; timeZone: string; before: string },
): Promise<StillOpen[]> {
  const summaries = await listDrawerShifts(client, {
    locationId: q.locationId,
    timeZone: q.timeZone,
    from: addDays(q.before, -STILL_OPEN_DAYS),
    to: addDays(q.before, -1),
  });
  const byDate = new Map<string, number>();
  for (const s of summaries) {
    if (s.state !== "OPEN") continue;
    const { date } = drawerRow(s, q.timeZone);
    byDate.set(date, (byDate.get(date) ?? 0) + 1);
  }
  return [...byDate].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count }));
}

/** The trend of a location's last days: over/short per day, the largest differences, per closer. */
export interface DrawerTrend {
  from: string;
  to: string;
  rows: DrawerShiftRow[];
  daily: DayOverShort[];
  largest: DrawerShiftRow[];
  closers: CloserSummary[];
}

/** Days the trend covers, today included. */
export const TREND_DAYS = 30;

/**
 * The last {@link TREND_DAYS} days up to `today`: the list's summaries give each day's counts;
 * the closed shifts are read in full for who closed them.
 */
export async function loadDrawerTrend(
  client: Pick<DrawersClient, "cashDrawers">,
  q: { locationId: string; timeZone: string; today: string; days?: number; largest?: number },
): Promise<DrawerTrend> {
  const from = addDays(q.today, -((q.days ?? TREND_DAYS) - 1));
  const to = q.today;
  const summaries = await listDrawerShifts(client, { locationId: q.locationId, timeZone: q.timeZone, from, to });
  const rows = await mapLimit(summaries, DRAWER_READ_CONCURRENCY, async (s) =>
    s.closed_cash_money
      ? drawerRow(await retrieveDrawerShift(client, s.id ?? "", q.locationId), q.timeZone)
      : drawerRow(s, q.timeZone),
  );
  return {
    from,
    to,
    rows,
    daily: dailyOverShort(rows, from, to),
    largest: largestDifferences(rows, q.largest ?? 10),
    closers: byCloser(rows),
  };
}
