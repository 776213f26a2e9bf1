import { CASH_EFFECT, cashDrawerTotals } from "../../domain/cash.js";
import { addDays, localDate, zoneOffsetMs } from "../../domain/time.js";
import type {
  BusinessHoursPeriod,
  CashDrawerEventType,
  CashDrawerShift,
  CashDrawerShiftEvent,
  CashDrawerShiftState,
  Currency,
  DayOfWeek,
  Location,
} from "../../spec/generated/types.js";
import { type IdSource, seededIds } from "../ids.js";
import { bulkLoad, type SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { type Rng, rng } from "../seed/random.js";
import { saveShift, saveShiftEvents } from "./repo.js";

/** A location of the demo store as the later seeds need it. */
export interface SeedLocation {
  id: string;
  timezone: string;
  main: boolean;
  /** Its opening hours by day of the week (`HH:MM` local); a day it is closed is missing. Plain JSON. */
  hours: OpeningHours;
}

/** Opening hours by day of the week; a day the store is closed is missing. */
type OpeningHours = Readonly<Partial<Record<DayOfWeek, { open: string; close: string }>>>;

/** Hours for a store that publishes none: 08:00 to 20:00 every day. */
const DEFAULT_HOURS = { open: "08:00", close: "20:00" };
const WEEK: readonly DayOfWeek[] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/** A location's opening hours by day, from its `business_hours` (the first period of each day). */
export function openingHours(periods: readonly BusinessHoursPeriod[] | undefined): OpeningHours {
  const out: Partial<Record<DayOfWeek, { open: string; close: string }>> = {};
  if (!periods?.length) {
    for (const day of WEEK) out[day] = DEFAULT_HOURS;
    return out;
  }
  for (const p of periods) {
    if (!p.day_of_week || !p.start_local_time || !p.end_local_time || out[p.day_of_week]) continue;
    out[p.day_of_week] = { open: p.start_local_time.slice(0, 5), close: p.end_local_time.slice(0, 5) };
  }
  return out;
}

/** The opening hours of a local date at a location, or undefined when it is closed that day. */
export function hoursOn(loc: SeedLocation, date: string): { open: string; close: string } | undefined {
  const day = WEEK[new Date(`${date}T12:00:00Z`).getUTCDay()];
  return day ? loc.hours[day] : undefined;
}

/**
 * The seller's active locations from the directory's table (seeded before this area), main
 * first; the two demo locations when the directory has none.
 */
export function seedLocations(s: SeedContext): SeedLocation[] {
  const rows = s.db
    .prepare(
      "SELECT id, timezone, data FROM locations WHERE merchant_id = ? AND status = 'ACTIVE' ORDER BY created_at, id",
    )
    .all(s.merchantId) as { id: string; timezone: string; data: string }[];
  const main = (
    s.db.prepare("SELECT main_location_id AS id FROM merchants WHERE id = ?").get(s.merchantId) as
      | { id: string | null }
      | undefined
  )?.id;
  const found = rows.map((r) => ({
    id: r.id,
    timezone: r.timezone,
    main: r.id === main,
    hours: openingHours((JSON.parse(r.data) as Location).business_hours?.periods),
  }));
  if (found.length === 0) {
    return [
      { id: DEMO.mainLocationId, timezone: DEMO.mainTimezone, main: true, hours: openingHours(undefined) },
      { id: DEMO.secondLocationId, timezone: DEMO.secondTimezone, main: false, hours: openingHours(undefined) },
    ];
  }
  return found.sort((a, b) => Number(b.main) - Number(a.main));
}

/**
 * Wall-clock time in a zone → instant, for seeding many days quickly. The offset is taken at
 * local noon; zone look-ups are slow, so a week whose ends share an offset is looked up twice,
 * not daily. Exact except inside a DST change, which no seeded time (03:00 and later) falls into.
 */
export function localClock(timeZone: string): (date: string, time: string) => number {
  const DAY_MS = 86_400_000;
  const known = new Map<number, number>();
  const offsetOnDay = (day: number): number => {
    let o = known.get(day);
    if (o === undefined) {
      o = zoneOffsetMs(day * DAY_MS + DAY_MS / 2, timeZone);
      known.set(day, o);
    }
    return o;
  };
  return (date, time) => {
    const wall = Date.parse(`${date}T${time}:00.000Z`);
    const day = Math.floor(wall / DAY_MS);
    const first = day - (day % 7);
    const start = offsetOnDay(first);
    const offset = start === offsetOnDay(first + 7) ? start : offsetOnDay(day);
    return wall - offset;
  };
}

/** Active team members who work at a location (assigned to it, or to every location). */
export function staffAt(s: SeedContext, locationId: string): string[] {
  const rows = s.db
    .prepare(
      `SELECT id FROM team_members tm WHERE merchant_id = ? AND status = 'ACTIVE'
         AND (all_locations = 1 OR EXISTS (SELECT 1 FROM team_member_locations l WHERE l.team_member_id = tm.id AND l.location_id = ?))
       ORDER BY created_at, id`,
    )
    .all(s.merchantId, locationId) as { id: string }[];
  return rows.map((r) => r.id);
}

/** A day's two till sessions: from opening to the middle of the day's hours, and from there to closing. */
function sessionsOf(hours: {
  open: string;
  close: string;
}): { name: "morning" | "afternoon"; open: string; close: string }[] {
  const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const mid = Math.round((minutes(hours.open) + minutes(hours.close)) / 2 / 5) * 5;
  const clock = `${String(Math.floor(mid / 60)).padStart(2, "0")}:${String(mid % 60).padStart(2, "0")}`;
  return [
    { name: "morning", open: hours.open, close: clock },
    { name: "afternoon", open: clock, close: hours.close },
  ];
}

/** Days of closed history before today: the trend's 30 days and a day to spare. */
const HISTORY_DAYS = 30;

const HOUR = 3_600_000;

/**
 * The day the drawers show every state on: today once the store has been open an hour, else the
 * last day before it that the store opened (a store seeded before opening has no drawer open yet).
 */
function showcaseDay(loc: SeedLocation, now: number, at: (date: string, time: string) => number): string {
  const today = localDate(now, loc.timezone);
  const hours = hoursOn(loc, today);
  if (hours && now >= at(today, hours.open) + HOUR) return today;
  for (let d = 1; d <= 7; d++) if (hoursOn(loc, addDays(today, -d))) return addDays(today, -d);
  return today;
}

const PAID_OUT_REASONS = ["Window cleaner", "Postage", "Coffee and milk", "Delivery tip", "Bin bags", "Parking"];
const PAID_IN_REASONS = ["Change from the bank", "Float top-up", "Returned petty cash"];
const REFUND_REASONS = ["Wrong size", "Damaged in box", "Changed mind"];

const MINUTE = 60_000;

/** How the count of a closed shift comes out against what its events say the drawer holds. */
type Count = "exact" | "over" | "short" | "drawn";

/** An event the register recorded after the shift's totals were taken: in the events, not in the totals. */
interface Unsynced {
  type: "PAID_OUT" | "CASH_TENDER_PAYMENT";
  amount: number;
  description?: string;
}

/** A shift as planned: a drawer's session, how far it got, and how its count comes out. */
interface Plan {
  device: { id: string; name: string };
  session: string;
  openAt: number;
  /** When it would end; events stop here (or now, for a shift still open). */
  endAt: number;
  state: CashDrawerShiftState;
  closeAt?: number;
  count: Count;
  unsynced?: Unsynced;
}

/** The shown day's morning and afternoon of one drawer: its real sessions, or squeezed into the hours so far. */
interface ShownSlots {
  morning: { openAt: number; endAt: number; closeAt: number };
  afternoonOpenAt: number;
  afternoonEndAt: number;
}

/**
 * A month of drawer shifts per location (three drawers at the main location, one elsewhere, two
 * sessions a day), laid out so that today shows every state the review knows on first start:
 * at the main location a drawer ended and not counted, drawers still open, one counted over,
 * and one counted short whose events disagree with its expected cash (a paid out recorded after
 * the totals were taken); elsewhere one short and one open. Yesterday the main counter's last
 * shift was never counted; twelve days ago a cash sale missed the totals. The rest is closed,
 * mostly counted exactly; one team member comes up short more often than the others.
 *
 * This area draws from its own generator so the other areas' data does not depend on it.
 */
export function seedCashDrawers(s: SeedContext, input: DrawersInput = drawersInput(s)): void {
  // The tables are empty: their indexes are built once, after the month is in.
  bulkLoad(s.db, ["cash_drawer_shifts", "cash_drawer_shift_events"], () => layOutDrawers(s, input));
}

/** What the drawers take of the store: its locations, and who works at each (by location id). */
export interface DrawersInput {
  locations: SeedLocation[];
  staff: Record<string, string[]>;
}

/** The drawers' input as the store is now (plain JSON: it may be kept until their first use). */
export function drawersInput(s: SeedContext): DrawersInput {
  const locations = seedLocations(s);
  return { locations, staff: Object.fromEntries(locations.map((l) => [l.id, staffAt(s, l.id)])) };
}

/** The drawers of each location and their shifts, day by day. */
function layOutDrawers(s: SeedContext, input: DrawersInput): void {
  const r = rng(0xca5d7a3);
  const ids = seededIds(r);
  const now = s.now.getTime();
  const currency = DEMO.currency as Currency;
  for (const loc of input.locations) {
    const staff = input.staff[loc.id] ?? [];
    const names = loc.main ? ["Front counter", "Paint desk", "Garden centre"] : ["Dock till"];
    const devices = names.map((name) => ({ id: ids.next(), name }));
    const at = localClock(loc.timezone);
    const shown = showcaseDay(loc, now, at);
    // The business days of the trend's month before it, oldest first: the last was never counted
    // at the main counter.
    const first = addDays(localDate(now, loc.timezone), -HISTORY_DAYS);
    const days: string[] = [];
    for (let date = first; date < shown; date = addDays(date, 1)) if (hoursOn(loc, date)) days.push(date);
    const special = { uncounted: days.at(-1), mismatch: days.at(-12) };
    // Who is short more often: the same team member every time, so the trend shows them.
    const shortProne = staff.length > 1 ? staff[5 % staff.length] : undefined;
    const plans: Plan[] = [];
    devices.forEach((device, deviceIndex) => {
      for (const date of days) plans.push(...historyPlans(r, loc, at, date, device, deviceIndex, special));
      plans.push(...shownPlans(r, loc, { now, at, date: shown }, device, deviceIndex));
    });
    for (const plan of plans) seedShift(s, r, ids, loc.id, plan, staff, shortProne, currency);
  }
}

/** A past business day of one drawer: both sessions closed and counted, but for the two seeded cases. */
function historyPlans(
  r: Rng,
  loc: SeedLocation,
  at: (date: string, time: string) => number,
  date: string,
  device: Plan["device"],
  deviceIndex: number,
  special: { uncounted: string | undefined; mismatch: string | undefined },
): Plan[] {
  const hours = hoursOn(loc, date);
  if (!hours) return [];
  return sessionsOf(hours).map((session) => {
    const openAt = at(date, session.open) + r.int(0, 20) * MINUTE;
    const endAt = at(date, session.close) - r.int(0, 15) * MINUTE;
    const plan: Plan = {
      device,
      session: session.name,
      openAt,
      endAt,
      state: "CLOSED",
      closeAt: endAt + r.int(5, 40) * MINUTE,
      count: "drawn",
    };
    const afternoon = session.name === "afternoon";
    if (loc.main && deviceIndex === 0 && date === special.uncounted && afternoon) {
      plan.state = "ENDED";
      delete plan.closeAt;
    }
    if (loc.main && deviceIndex === 1 && date === special.mismatch && afternoon) {
      plan.unsynced = { type: "CASH_TENDER_PAYMENT", amount: 3_500 };
      plan.count = "exact";
    }
    return plan;
  });
}

/**
 * The day that shows every state, of one drawer: a morning ended (not counted at the main
 * counter, over at the paint desk, short by an unsynced paid out in the garden centre, short at
 * the dock) and an afternoon still open.
 */
function shownPlans(
  r: Rng,
  loc: SeedLocation,
  when: { now: number; at: (date: string, time: string) => number; date: string },
  device: Plan["device"],
  deviceIndex: number,
): Plan[] {
  const slots = shownSlots(r, loc, when, deviceIndex);
  const morning: Plan = {
    device,
    session: "morning",
    openAt: slots.morning.openAt,
    endAt: slots.morning.endAt,
    state: "CLOSED",
    closeAt: slots.morning.closeAt,
    count: "exact",
  };
  if (!loc.main) morning.count = "short";
  else if (deviceIndex === 0) {
    morning.state = "ENDED";
    delete morning.closeAt;
  } else if (deviceIndex === 1) morning.count = "over";
  else {
    // Counted exactly what the events say; against the service's total it is short by the paid out.
    morning.unsynced = { type: "PAID_OUT", amount: 2_000, description: "Delivery tip" };
  }
  const afternoon: Plan = {
    device,
    session: "afternoon",
    openAt: slots.afternoonOpenAt,
    endAt: slots.afternoonEndAt,
    state: "OPEN",
    count: "exact",
  };
  return [morning, afternoon];
}

/**
 * The times of the day that shows every state, inside the store's opening hours in its zone.
 * Once the afternoon has run an hour they are the day's real sessions (on a day before today,
 * the afternoon drawer was left open); earlier, they are squeezed into the hours since opening,
 * so a store started at any time of its day has a morning ended and an afternoon open — and
 * nothing happens after now.
 */
function shownSlots(
  r: Rng,
  loc: SeedLocation,
  when: { now: number; at: (date: string, time: string) => number; date: string },
  deviceIndex: number,
): ShownSlots {
  const { now, at, date } = when;
  const hours = hoursOn(loc, date) ?? DEFAULT_HOURS;
  const [morning, afternoon] = sessionsOf(hours);
  const opening = at(date, hours.open);
  const middle = at(date, afternoon?.open ?? hours.close);
  if (now >= middle + HOUR) {
    const openAt = opening + r.int(0, 20) * MINUTE;
    const endAt = at(date, morning?.close ?? hours.close) - r.int(0, 15) * MINUTE;
    return {
      morning: { openAt, endAt, closeAt: endAt + r.int(5, 40) * MINUTE },
      afternoonOpenAt: middle + r.int(0, 20) * MINUTE,
      afternoonEndAt: Math.min(now, at(date, hours.close)),
    };
  }
  const elapsed = Math.max(0, now - opening);
  const part = (fraction: number) => opening + Math.floor(elapsed * fraction);
  const shift = deviceIndex * 0.02;
  return {
    morning: { openAt: part(0.05 + shift), endAt: part(0.45 + shift), closeAt: part(0.5 + shift) },
    afternoonOpenAt: part(0.55 + shift),
    afternoonEndAt: now,
  };
}

function seedShift(
  s: SeedContext,
  r: Rng,
  ids: IdSource,
  locationId: string,
  plan: Plan,
  staff: readonly string[],
  shortProne: string | undefined,
  currency: Currency,
): void {
  const money = (amount: number) => ({ amount, currency });
  const member = () => (staff.length > 0 ? r.pick(staff) : undefined);
  const opener = member();
  const ender = r.chance(0.7) ? opener : member();
  const closer = member();
  const crew = [opener, ender, member()].filter((m): m is string => m !== undefined);
  const opened = r.pick([15_000, 20_000, 20_000, 25_000]);
  const shiftId = ids.next();
  const now = s.now.getTime();
  const until = Math.min(plan.endAt, now);

  let count = r.int(10, 26);
  // A shift open for part of its session has had part of its events so far.
  if (plan.state === "OPEN" && plan.endAt > plan.openAt) {
    count = Math.max(2, Math.round((count * (until - plan.openAt)) / (plan.endAt - plan.openAt)));
  }
  const times: number[] = [];
  for (let k = 0; k < count; k++) times.push(plan.openAt + Math.floor(r() * (until - plan.openAt)));
  times.sort((a, b) => a - b);

  let drawer = opened;
  const cashPayments: number[] = [];
  const events: (CashDrawerShiftEvent & { id: string; created_at: string })[] = [];
  for (const at of times) {
    const { type, amount, description } = nextEvent(r, drawer, cashPayments);
    drawer += CASH_EFFECT[type] * amount;
    const by = crew.length > 0 ? r.pick(crew) : undefined;
    events.push({
      id: ids.next(),
      event_type: type,
      event_money: money(amount),
      created_at: new Date(at).toISOString(),
      ...(description ? { description } : {}),
      ...(by ? { team_member_id: by } : {}),
    });
  }

  // The totals are taken before the unsynced event is added to the events.
  const totals = cashDrawerTotals(money(opened), events, currency);
  if (plan.unsynced) {
    const u = plan.unsynced;
    const at = Math.max(plan.openAt, until - r.int(1, 10) * MINUTE);
    const late = {
      id: ids.next(),
      event_type: u.type,
      event_money: money(u.amount),
      created_at: new Date(at).toISOString(),
      ...(u.description ? { description: u.description } : {}),
      ...(ender ? { team_member_id: ender } : {}),
    };
    const index = events.findIndex((e) => e.created_at > late.created_at);
    events.splice(index === -1 ? events.length : index, 0, late);
  }
  const inDrawer = cashDrawerTotals(money(opened), events, currency).expected_cash_money.amount ?? 0;

  const iso = (t: number) => new Date(t).toISOString();
  const openedAt = iso(plan.openAt);
  const shift: CashDrawerShift & { id: string; location_id: string; opened_at: string; state: string } = {
    id: shiftId,
    state: plan.state,
    opened_at: openedAt,
    description: `${plan.device.name}, ${plan.session}`,
    opened_cash_money: money(opened),
    ...totals,
    device: plan.device,
    created_at: openedAt,
    updated_at: events.length > 0 ? (events[events.length - 1]?.created_at ?? openedAt) : openedAt,
    location_id: locationId,
    team_member_ids: [...new Set([...crew, ...events.flatMap((e) => (e.team_member_id ? [e.team_member_id] : []))])],
    ...(opener ? { opening_team_member_id: opener } : {}),
  };
  if (plan.state !== "OPEN") {
    shift.ended_at = iso(plan.endAt);
    shift.updated_at = shift.ended_at;
    if (ender) shift.ending_team_member_id = ender;
  }
  if (plan.state === "CLOSED" && plan.closeAt !== undefined) {
    shift.closed_at = iso(plan.closeAt);
    shift.closed_cash_money = money(Math.max(0, inDrawer + difference(r, plan.count, closer === shortProne)));
    shift.updated_at = shift.closed_at;
    if (closer) {
      shift.closing_team_member_id = closer;
      if (!shift.team_member_ids?.includes(closer)) shift.team_member_ids?.push(closer);
    }
  }
  saveShift(s.db, { merchantId: s.merchantId, shift });
  saveShiftEvents(s.db, shiftId, events);
}

/** What the count comes out at against the drawer: mostly coins, now and then a note or two. */
function difference(r: Rng, count: Count, shortProne: boolean): number {
  const size = () => r.pick([5, 10, 25, 50, 100, 100, 500, 1_000, 2_000]);
  if (count === "exact") return 0;
  if (count === "over") return size();
  if (count === "short") return -size();
  // The short-prone member is short on about two closings in three, the others on one in six.
  if (!r.chance(shortProne ? 0.75 : 0.3)) return 0;
  return r.chance(shortProne ? 0.9 : 0.55) ? -size() : size();
}

/** The next thing that happens at the drawer, never taking out more cash than it holds. */
function nextEvent(
  r: Rng,
  drawer: number,
  cashPayments: number[],
): { type: CashDrawerEventType; amount: number; description?: string } {
  const roll = r();
  if (roll < 0.4) {
    const amount = r.int(1, 300) * 50 + r.pick([0, 25, 49, 99]);
    cashPayments.push(amount);
    return { type: "CASH_TENDER_PAYMENT", amount };
  }
  if (roll < 0.73) return { type: "OTHER_TENDER_PAYMENT", amount: 0 };
  if (roll < 0.78) return { type: "NO_SALE", amount: 0, description: "Change for a customer" };
  if (roll < 0.81) {
    // A cancelled cash payment returns exactly what an earlier one of this shift took.
    const amount = cashPayments.pop();
    if (amount !== undefined && amount <= drawer) return { type: "CASH_TENDER_CANCELLED_PAYMENT", amount };
    return { type: "OTHER_TENDER_CANCELLED_PAYMENT", amount: 0 };
  }
  if (roll < 0.83) return { type: "OTHER_TENDER_CANCELLED_PAYMENT", amount: 0 };
  if (roll < 0.88) {
    const amount = r.int(3, 60) * 100;
    if (amount <= drawer) return { type: "CASH_TENDER_REFUND", amount, description: r.pick(REFUND_REASONS) };
    return { type: "OTHER_TENDER_REFUND", amount: 0 };
  }
  if (roll < 0.92) return { type: "OTHER_TENDER_REFUND", amount: 0 };
  if (roll < 0.96) {
    return { type: "PAID_IN", amount: r.int(2, 20) * 500, description: r.pick(PAID_IN_REASONS) };
  }
  const amount = r.int(2, 50) * 100;
  if (amount <= drawer) return { type: "PAID_OUT", amount, description: r.pick(PAID_OUT_REASONS) };
  return { type: "NO_SALE", amount: 0 };
}
