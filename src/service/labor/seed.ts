import { addDays, localDate } from "../../domain/time.js";
import type { Break, Money, ShiftWage } from "../../spec/generated/types.js";
import { DEMO_LOCATIONS, DEMO_TEAM, type DemoMember, seedTeam } from "../directory/seed.js";
import { bulkLoad, type SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import {
  type StoredBreakType,
  type StoredShift,
  type StoredWage,
  saveBreakType,
  saveShift,
  saveWage,
  saveWorkweek,
} from "./repo.js";
import { wallClockMs, zonedRfc3339 } from "./time.js";

const MINUTE = 60_000;
/** Days of closed shifts at scale 1; `scale` multiplies it (history further back). */
export const DEMO_SHIFT_DAYS = 14;
/** The member who is still clocked in, at the main location. */
export const DEMO_CLOCKED_IN_MEMBER = "TMDEMO0003";

const usd = (amount: number): Money => ({ amount, currency: "USD" });

/**
 * Seeds labor: the team and their wages, three break types at the main location, a workweek
 * config, `14 × scale` days of closed shifts with breaks, and one member clocked in since
 * earlier today.
 */
export function seedLabor(s: SeedContext): void {
  seedTeam(s);
  const { db, rng, merchantId } = s;
  const wageOf = seedWages(s);
  const types = seedBreakTypes(s);
  saveWorkweek(db, merchantId, {
    id: s.ids.next(),
    start_of_week: "MON",
    start_of_day_local_time: "04:00",
    version: 1,
    created_at: "2019-04-02T14:10:00.000Z",
    updated_at: "2019-04-02T14:10:00.000Z",
  });

  const tzOf = new Map(DEMO_LOCATIONS.map((l) => [l.id, l.timezone ?? "UTC"]));
  const breakOf = (bt: StoredBreakType, start: number, minutes: number, tz: string): Break => ({
    id: s.ids.next(),
    start_at: zonedRfc3339(start, tz),
    end_at: zonedRfc3339(start + minutes * MINUTE, tz),
    break_type_id: bt.id,
    name: bt.break_name,
    expected_duration: bt.expected_duration,
    is_paid: bt.is_paid,
  });
  const store = (m: DemoMember, locationId: string, startMs: number, endMs: number | null, breaks: Break[]) => {
    const tz = tzOf.get(locationId) ?? "UTC";
    const wage = wageOf.get(m.id) ?? { hourly_rate: usd(0) };
    const tips = endMs !== null && wage.tip_eligible && rng.chance(0.4) ? usd(rng.int(2, 40) * 100) : undefined;
    const updatedMs = endMs === null ? (breaks.length > 0 ? startMs + 150 * MINUTE : startMs) : endMs + MINUTE;
    const shift: StoredShift = {
      shift: {
        id: s.ids.next(),
        employee_id: m.id,
        location_id: locationId,
        timezone: tz,
        start_at: zonedRfc3339(startMs, tz),
        ...(endMs === null ? {} : { end_at: zonedRfc3339(endMs, tz) }),
        wage,
        breaks,
        status: endMs === null ? "OPEN" : "CLOSED",
        version: 1 + breaks.length + (endMs === null ? 0 : 1),
        created_at: new Date(startMs).toISOString(),
        updated_at: new Date(updatedMs).toISOString(),
        team_member_id: m.id,
        ...(tips ? { declared_cash_tip_money: tips } : {}),
      },
      startMs,
      endMs,
      createdMs: startMs,
      updatedMs,
    };
    saveShift(db, merchantId, shift);
  };

  bulkLoad(db, ["shifts"], () => layOutShifts(s, store, breakOf, types, tzOf));
}

/** Each member's wages, one per job; the first job's is the wage their shifts are paid at. */
function seedWages(s: SeedContext): Map<string, ShiftWage> {
  const wageOf = new Map<string, ShiftWage>();
  let seq = 0;
  for (const m of DEMO_TEAM) {
    m.jobs.forEach((job, i) => {
      const w: StoredWage = {
        id: `WGDEMO${m.id.slice(-4)}${i + 1}`,
        team_member_id: m.id,
        title: job.title,
        hourly_rate: usd(job.cents),
        job_id: `JOB${job.title.toUpperCase().replace(/[^A-Z]/g, "")}`,
        tip_eligible: job.tips,
      };
      saveWage(s.db, s.merchantId, w, seq++);
      if (i === 0) {
        wageOf.set(m.id, {
          title: job.title,
          hourly_rate: usd(job.cents),
          job_id: w.job_id as string,
          tip_eligible: job.tips,
        });
      }
    });
  }
  return wageOf;
}

/** The main location's three break types: a paid coffee, an unpaid lunch, a paid rest. */
function seedBreakTypes(s: SeedContext): { coffee: StoredBreakType; lunch: StoredBreakType; rest: StoredBreakType } {
  const typeAt = (name: string, duration: string, paid: boolean, created: string): StoredBreakType => ({
    id: s.ids.next(),
    location_id: DEMO.mainLocationId,
    break_name: name,
    expected_duration: duration,
    is_paid: paid,
    version: 1,
    created_at: created,
    updated_at: created,
  });
  const coffee = typeAt("Coffee", "PT10M", true, "2019-04-03T13:00:00.000Z");
  const lunch = typeAt("Lunch", "PT30M", false, "2019-04-03T13:01:00.000Z");
  const rest = typeAt("Rest", "PT15M", true, "2019-04-03T13:02:00.000Z");
  for (const bt of [coffee, lunch, rest]) saveBreakType(s.db, s.merchantId, bt);
  return { coffee, lunch, rest };
}

/** Closed shifts over the history, with breaks at the main location, and the one still open. */
function layOutShifts(
  s: SeedContext,
  store: (m: DemoMember, locationId: string, startMs: number, endMs: number | null, breaks: Break[]) => void,
  breakOf: (bt: StoredBreakType, start: number, minutes: number, tz: string) => Break,
  types: { coffee: StoredBreakType; lunch: StoredBreakType; rest: StoredBreakType },
  tzOf: ReadonlyMap<string, string>,
): void {
  const { rng } = s;
  const { coffee, lunch, rest } = types;
  const nowMs = s.now.getTime();
  const days = DEMO_SHIFT_DAYS * Math.max(1, Math.round(s.scale));
  for (const m of DEMO_TEAM) {
    if (m.status !== "ACTIVE") continue;
    const home = m.locations[0] ?? DEMO.mainLocationId;
    const tz = tzOf.get(home) ?? "UTC";
    const today = localDate(s.now, tz);
    const atMain = home === DEMO.mainLocationId;
    for (let d = days; d >= 1; d--) {
      if (!rng.chance(0.75)) continue;
      // Members assigned to both stores now and then cover the other one.
      const locationId = m.locations.length > 1 && rng.chance(0.25) ? (m.locations[1] as string) : home;
      const date = addDays(today, -d);
      const startMinute = m.startHour * 60 + rng.int(-10, 20);
      const startMs = wallClockMs(date, startMinute, tzOf.get(locationId) ?? tz);
      const length = atMain ? rng.int(360, 570) : rng.int(300, 480);
      const endMs = Math.min(startMs + length * MINUTE, nowMs - MINUTE);
      const breaks: Break[] = [];
      // Break types belong to the main location, so only shifts there have breaks.
      if (locationId === DEMO.mainLocationId) {
        if (rng.chance(0.45)) breaks.push(breakOf(coffee, startMs + rng.int(90, 140) * MINUTE, rng.int(8, 13), tz));
        if (length >= 330 && rng.chance(0.85)) {
          breaks.push(breakOf(lunch, startMs + rng.int(200, 260) * MINUTE, rng.int(28, 40), tz));
        }
        if (length >= 500 && rng.chance(0.5)) {
          breaks.push(breakOf(rest, startMs + rng.int(380, 420) * MINUTE, rng.int(12, 18), tz));
        }
      }
      store(m, locationId, startMs, endMs, breaks);
    }
  }

  // One member is still clocked in: since about three hours ago, but not before today's midnight.
  const member = DEMO_TEAM.find((m) => m.id === DEMO_CLOCKED_IN_MEMBER);
  if (member) {
    const tz = tzOf.get(DEMO.mainLocationId) ?? "UTC";
    const midnight = wallClockMs(localDate(s.now, tz), 0, tz);
    const startMs = Math.floor(Math.max(midnight, nowMs - 200 * MINUTE) / MINUTE) * MINUTE;
    const breaks = nowMs - startMs >= 150 * MINUTE ? [breakOf(coffee, startMs + 120 * MINUTE, 10, tz)] : [];
    store(member, DEMO.mainLocationId, startMs, null, breaks);
  }
}
