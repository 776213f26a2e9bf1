import { CASH_EFFECT, cashDrawerTotals } from "../../domain/cash.js";
import { addDays, localDate, zoneOffsetMs } from "../../domain/time.js";
import type {
  CashDrawerEventType,
  CashDrawerShift,
  CashDrawerShiftEvent,
  CashDrawerShiftState,
  Currency,
} from "../../spec/generated/types.js";
import { saveShift, saveShiftEvents } from "../cash-drawers/repo.js";
import type { SeedContext } from "./context.js";
import { DEMO } from "./demo-ids.js";

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

const PAID_OUT_REASONS = ["Window cleaner", "Postage", "Coffee and milk", "Delivery tip", "Bin bags", "Parking"];
const PAID_IN_REASONS = ["Change from the bank", "Float top-up", "Returned petty cash"];
const REFUND_REASONS = ["Wrong size", "Damaged in box", "Changed mind"];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A shift as planned: a drawer's session on one day. */
interface Plan {
  device: { id: string; name: string };
  session: string;
  openAt: number;
  endAt: number;
}

/**
 * Thirty days of drawer shifts per location (two drawers at the main location, one elsewhere,
 * two sessions a day each). Each drawer's latest shift is still OPEN; shifts that ended in the
 * last day may be ENDED (not yet counted); the rest are CLOSED, most counted exactly, some over
 * or short. The money fields are the sums of the events, by the same rule the app uses.
 */
export function seedCashDrawers(s: SeedContext): void {
  const days = Math.max(1, Math.round(30 * s.scale));
  const now = s.now.getTime();
  const currency = DEMO.currency as Currency;
  for (const loc of seedLocations(s)) {
    const staff = staffAt(s, loc.id);
    const devices = (loc.main ? ["Front counter", "Paint desk"] : ["Dock till"]).map((name) => ({
      id: s.ids.next(),
      name,
    }));
    const today = localDate(s.now, loc.timezone);
    const at = localClock(loc.timezone);
    devices.forEach((device, deviceIndex) => {
      const plans: Plan[] = [];
      for (let d = days - 1; d >= 0; d--) {
        const date = addDays(today, -d);
        for (const session of SESSIONS) {
          const openAt = at(date, session.open) + s.rng.int(0, 20) * MINUTE;
          const endAt = at(date, session.close) - s.rng.int(0, 15) * MINUTE;
          if (openAt <= now) plans.push({ device, session: session.name, openAt, endAt });
        }
      }
      plans.forEach((plan, i) => {
        const latest = i === plans.length - 1;
        // The main counter's last finished shift is always waiting to be counted, so the demo shows one.
        const waiting =
          (loc.main && deviceIndex === 0 && i === plans.length - 2) ||
          (now - plan.endAt < 24 * HOUR && s.rng.chance(0.5));
        const state: CashDrawerShiftState = latest ? "OPEN" : waiting ? "ENDED" : "CLOSED";
        seedShift(s, loc.id, plan, state, staff, currency);
      });
    });
  }
}

function seedShift(
  s: SeedContext,
  locationId: string,
  plan: Plan,
  state: CashDrawerShiftState,
  staff: readonly string[],
  currency: Currency,
): void {
  const money = (amount: number) => ({ amount, currency });
  const member = () => (staff.length > 0 ? s.rng.pick(staff) : undefined);
  const opener = member();
  const ender = s.rng.chance(0.7) ? opener : member();
  const closer = member();
  const crew = [opener, ender, member()].filter((m): m is string => m !== undefined);
  const opened = s.rng.pick([15_000, 20_000, 20_000, 25_000]);
  const shiftId = s.ids.next();
  const now = s.now.getTime();

  const count = Math.round(s.rng.int(10, 26) * Math.max(1, s.scale));
  const times: number[] = [];
  for (let k = 0; k < count; k++) times.push(plan.openAt + Math.floor(s.rng() * (plan.endAt - plan.openAt)));
  times.sort((a, b) => a - b);

  let drawer = opened;
  const cashPayments: number[] = [];
  const events: (CashDrawerShiftEvent & { id: string; created_at: string })[] = [];
  for (const at of times) {
    if (state === "OPEN" && at > now) break;
    const { type, amount, description } = nextEvent(s, drawer, cashPayments);
    drawer += CASH_EFFECT[type] * amount;
    const by = crew.length > 0 ? s.rng.pick(crew) : undefined;
    events.push({
      id: s.ids.next(),
      event_type: type,
      event_money: money(amount),
      created_at: new Date(at).toISOString(),
      ...(description ? { description } : {}),
      ...(by ? { team_member_id: by } : {}),
    });
  }

  const totals = cashDrawerTotals(money(opened), events, currency);
  const iso = (t: number) => new Date(t).toISOString();
  const openedAt = iso(plan.openAt);
  const shift: CashDrawerShift & { id: string; location_id: string; opened_at: string; state: string } = {
    id: shiftId,
    state,
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
  if (state !== "OPEN") {
    shift.ended_at = iso(plan.endAt);
    shift.updated_at = shift.ended_at;
    if (ender) shift.ending_team_member_id = ender;
  }
  if (state === "CLOSED") {
    const closedAt = plan.endAt + s.rng.int(5, 40) * MINUTE;
    const expected = totals.expected_cash_money.amount ?? 0;
    const counted = s.rng.chance(0.7) ? expected : expected + overOrShort(s);
    shift.closed_at = iso(closedAt);
    shift.closed_cash_money = money(Math.max(0, counted));
    shift.updated_at = shift.closed_at;
    if (closer) {
      shift.closing_team_member_id = closer;
      if (!shift.team_member_ids?.includes(closer)) shift.team_member_ids?.push(closer);
    }
  }
  saveShift(s.db, { merchantId: s.merchantId, shift });
  saveShiftEvents(s.db, shiftId, events);
}

/** A counting difference: mostly coins, now and then a note or two. */
function overOrShort(s: SeedContext): number {
  const size = s.rng.pick([5, 10, 25, 50, 100, 100, 500, 1_000, 2_000]);
  return s.rng.chance(0.6) ? -size : size;
}

/** The next thing that happens at the drawer, never taking out more cash than it holds. */
function nextEvent(
  s: SeedContext,
  drawer: number,
  cashPayments: number[],
): { type: CashDrawerEventType; amount: number; description?: string } {
  const roll = s.rng();
  if (roll < 0.4) {
    const amount = s.rng.int(1, 300) * 50 + s.rng.pick([0, 25, 49, 99]);
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
    const amount = s.rng.int(3, 60) * 100;
    if (amount <= drawer) return { type: "CASH_TENDER_REFUND", amount, description: s.rng.pick(REFUND_REASONS) };
    return { type: "OTHER_TENDER_REFUND", amount: 0 };
  }
  if (roll < 0.92) return { type: "OTHER_TENDER_REFUND", amount: 0 };
  if (roll < 0.96) {
    return { type: "PAID_IN", amount: s.rng.int(2, 20) * 500, description: s.rng.pick(PAID_IN_REASONS) };
  }
  const amount = s.rng.int(2, 50) * 100;
  if (amount <= drawer) return { type: "PAID_OUT", amount, description: s.rng.pick(PAID_OUT_REASONS) };
  return { type: "NO_SALE", amount: 0 };
}
