import { CASH_EFFECT, cashDrawerTotals } from "../../domain/cash.js";
import { addDays, localDate, zonedInstant, zoneOffsetMs } from "../../domain/time.js";
import type {
  CashDrawerEventType,
  CashDrawerShift,
  CashDrawerShiftEvent,
  CashDrawerShiftState,
  Currency,
} from "../../spec/generated/types.js";
import { type IdSource, seededIds } from "../ids.js";
import type { SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { type Rng, rng } from "../seed/random.js";
import { saveShift, saveShiftEvents } from "./repo.js";

/** A location of the demo store as the later seeds need it. */
export interface SeedLocation {
  id: string;
  timezone: string;
  main: boolean;
}

/**
 * The seller's active locations from the directory's table (seeded before this area), main
 * first; the two demo locations when the directory has none.
 */
export function seedLocations(s: SeedContext): SeedLocation[] {
  const rows = s.db
    .prepare("SELECT id, timezone FROM locations WHERE merchant_id = ? AND status = 'ACTIVE' ORDER BY created_at, id")
    .all(s.merchantId) as { id: string; timezone: string }[];
  const main = (
    s.db.prepare("SELECT main_location_id AS id FROM merchants WHERE id = ?").get(s.merchantId) as
      | { id: string | null }
      | undefined
  )?.id;
  const found = rows.map((r) => ({ id: r.id, timezone: r.timezone, main: r.id === main }));
  if (found.length === 0) {
    return [
      { id: DEMO.mainLocationId, timezone: DEMO.mainTimezone, main: true },
      { id: DEMO.secondLocationId, timezone: DEMO.secondTimezone, main: false },
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

/** The day's two till sessions of each drawer, in local wall time. */
const SESSIONS = [
  { name: "morning", open: "07:00", close: "13:00" },
  { name: "afternoon", open: "13:00", close: "19:30" },
] as const;

/** Days of closed history before today: the trend's 30 days and a day to spare. */
const HISTORY_DAYS = 30;

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

/** Today's morning and afternoon of one drawer: real opening hours, or squeezed into the hours so far. */
interface TodaySlots {
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
export function seedCashDrawers(s: SeedContext): void {
  const r = rng(0xca5d7a3);
  const ids = seededIds(r);
  const now = s.now.getTime();
  const currency = DEMO.currency as Currency;
  for (const loc of seedLocations(s)) {
    const staff = staffAt(s, loc.id);
    const names = loc.main ? ["Front counter", "Paint desk", "Garden centre"] : ["Dock till"];
    const devices = names.map((name) => ({ id: ids.next(), name }));
    const today = localDate(s.now, loc.timezone);
    const at = localClock(loc.timezone);
    // Who is short more often: the same team member every time, so the trend shows them.
    const shortProne = staff.length > 1 ? staff[5 % staff.length] : undefined;
    const plans: Plan[] = [];
    devices.forEach((device, deviceIndex) => {
      for (let d = HISTORY_DAYS; d >= 1; d--) {
        const date = addDays(today, -d);
        for (const session of SESSIONS) {
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
          if (loc.main && deviceIndex === 0 && d === 1 && session.name === "afternoon") {
            plan.state = "ENDED";
            delete plan.closeAt;
          }
          if (loc.main && deviceIndex === 1 && d === 12 && session.name === "afternoon") {
            plan.unsynced = { type: "CASH_TENDER_PAYMENT", amount: 3_500 };
            plan.count = "exact";
          }
          plans.push(plan);
        }
      }
      const slots = todaySlots(r, now, zonedInstant(today, "00:00", loc.timezone).getTime(), at, today, deviceIndex);
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
      plans.push(morning, {
        device,
        session: "afternoon",
        openAt: slots.afternoonOpenAt,
        endAt: slots.afternoonEndAt,
        state: "OPEN",
        count: "exact",
      });
    });
    for (const plan of plans) seedShift(s, r, ids, loc.id, plan, staff, shortProne, currency);
  }
}

/**
 * Today's times of one drawer. After 14:00 they are the real opening hours; earlier in the day
 * they are squeezed into the hours since midnight, so that a store started at any hour has a
 * morning already ended and an afternoon open — and nothing happens after now.
 */
function todaySlots(
  r: Rng,
  now: number,
  midnight: number,
  at: (date: string, time: string) => number,
  today: string,
  deviceIndex: number,
): TodaySlots {
  if (now >= at(today, "14:00")) {
    const openAt = at(today, "07:00") + r.int(0, 20) * MINUTE;
    const endAt = at(today, "13:00") - r.int(0, 15) * MINUTE;
    return {
      morning: { openAt, endAt, closeAt: endAt + r.int(5, 40) * MINUTE },
      afternoonOpenAt: at(today, "13:00") + r.int(0, 20) * MINUTE,
      afternoonEndAt: at(today, "19:30"),
    };
  }
  const elapsed = Math.max(0, now - midnight);
  const part = (fraction: number) => midnight + Math.floor(elapsed * fraction);
  const shift = deviceIndex * 0.02;
  return {
    morning: { openAt: part(0.1 + shift), endAt: part(0.45 + shift), closeAt: part(0.5 + shift) },
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
  if (!r.chance(shortProne ? 0.65 : 0.3)) return 0;
  return r.chance(shortProne ? 0.85 : 0.55) ? -size() : size();
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
