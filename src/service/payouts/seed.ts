import { addDays, localDate } from "../../domain/time.js";
import type { ActivityType, Currency, Payout, PayoutEntry, PayoutStatus } from "../../spec/generated/types.js";
import { localClock, type SeedLocation, seedLocations } from "../cash-drawers/seed.js";
import { bulkLoad, type SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { savePayoutEntries, savePayouts } from "./repo.js";

const HOUR = 3_600_000;
/** A little more than a year, so the default window (the last year) leaves the oldest out. */
const DAYS = 380;

/** A lower-case hex id shaped like a UUID, from the seeded generator. */
function seededUuid(s: SeedContext): string {
  let hex = "";
  for (let i = 0; i < 32; i++) hex += Math.floor(s.rng() * 16).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** The next weekday on or after `date`; banks do not credit at weekends. */
function businessDay(date: string): string {
  let d = date;
  for (;;) {
    const day = new Date(`${d}T12:00:00Z`).getUTCDay();
    if (day !== 0 && day !== 6) return d;
    d = addDays(d, 1);
  }
}

/**
 * A year of daily payouts per location (the dock location is closed on Sundays), each the sum of
 * its entries' net amounts: card charges less fees, refunds, now and then an adjustment or a fee.
 * Recent payouts are still SENT; the rest PAID, a few FAILED.
 */
export function seedPayouts(s: SeedContext, locations: readonly SeedLocation[] = seedLocations(s)): void {
  // The tables are empty: their indexes are built once, after the year is in.
  bulkLoad(s.db, ["payouts", "payout_entries"], () => layOutPayouts(s, locations));
}

/** Each location's payouts, a day at a time, then their entries. */
function layOutPayouts(s: SeedContext, locations: readonly SeedLocation[]): void {
  const currency = DEMO.currency as Currency;
  const money = (amount: number) => ({ amount, currency });
  const now = s.now.getTime();
  const payouts: (Payout & { created_at: string; status: string })[] = [];
  const allEntries: (PayoutEntry & { effective_at: string })[] = [];
  for (const loc of locations) {
    const bankAccount = `bact:${s.ids.next(20)}`;
    const today = localDate(s.now, loc.timezone);
    const at = localClock(loc.timezone);
    for (let d = DAYS; d >= 1; d--) {
      const businessDate = addDays(today, -d);
      if (!loc.main && new Date(`${businessDate}T12:00:00Z`).getUTCDay() === 0) continue;
      const payoutDate = addDays(businessDate, 1);
      const createdAt = at(payoutDate, "03:00") + s.rng.int(0, 30) * 60_000;
      if (createdAt > now) continue;
      const payoutId = `po_${seededUuid(s)}`;
      const dayStart = at(businessDate, "08:00");
      const entries = dayEntries(s, payoutId, dayStart, loc.main ? 1 : 0.6, currency);
      const amount = entries.reduce((sum, e) => sum + (e.net_amount_money?.amount ?? 0), 0);
      const arrival = businessDay(addDays(payoutDate, 1));
      const arrivedAt = at(arrival, "09:00");
      const status: PayoutStatus = arrivedAt > now ? "SENT" : s.rng.chance(0.02) ? "FAILED" : "PAID";
      const updatedAt = status === "SENT" ? createdAt : status === "PAID" ? arrivedAt : createdAt + 20 * HOUR;
      const payout: Payout & { created_at: string; status: string } = {
        id: payoutId,
        status,
        location_id: loc.id,
        created_at: new Date(createdAt).toISOString(),
        updated_at: new Date(updatedAt).toISOString(),
        amount_money: money(amount),
        destination: { type: "BANK_ACCOUNT", id: bankAccount },
        version: status === "SENT" ? 1 : 2,
        type: "BATCH",
        arrival_date: arrival,
        end_to_end_id: `L${payoutDate.replaceAll("-", "")}${s.ids.next(8)}`,
      };
      payouts.push(payout);
      allEntries.push(...entries);
    }
  }
  savePayouts(s.db, s.merchantId, payouts);
  savePayoutEntries(s.db, allEntries);
}

/** One business day's balance activity, with a positive total. */
function dayEntries(
  s: SeedContext,
  payoutId: string,
  dayStart: number,
  busyness: number,
  currency: Currency,
): (PayoutEntry & { effective_at: string })[] {
  const money = (amount: number) => ({ amount, currency });
  const out: (PayoutEntry & { effective_at: string })[] = [];
  const add = (type: ActivityType, gross: number, fee: number, details: Partial<PayoutEntry>) => {
    out.push({
      id: `poe_${s.ids.next(24)}`,
      payout_id: payoutId,
      effective_at: new Date(dayStart + Math.floor(s.rng() * 12 * HOUR)).toISOString(),
      type,
      gross_amount_money: money(gross),
      fee_amount_money: money(fee),
      // The interface's own convention: net = gross − fee (a refund's fee is negative, given back).
      net_amount_money: money(gross - fee),
      ...details,
    });
  };
  const charges = Math.max(1, Math.round(s.rng.int(3, 10) * busyness * Math.max(1, s.scale)));
  for (let i = 0; i < charges; i++) {
    const gross = s.rng.int(4, 250) * 100 + s.rng.pick([0, 49, 95, 99]);
    add("CHARGE", gross, Math.round(gross * 0.026) + 10, { type_charge_details: { payment_id: s.ids.next(22) } });
  }
  const refunds = s.rng.chance(0.35) ? s.rng.int(1, 2) : 0;
  for (let i = 0; i < refunds; i++) {
    const gross = s.rng.int(3, 60) * 100;
    const paymentId = s.ids.next(22);
    add("REFUND", -gross, -Math.round(gross * 0.026), {
      type_refund_details: { payment_id: paymentId, refund_id: `${paymentId}_${s.ids.next(10)}` },
    });
  }
  if (s.rng.chance(0.05)) add("ADJUSTMENT", s.rng.pick([-500, -250, 300, 1_000]), 0, {});
  if (s.rng.chance(0.03)) add("FEE", -1_500, 0, { type_fee_details: { payment_id: s.ids.next(22) } });
  const total = out.reduce((sum, e) => sum + (e.net_amount_money?.amount ?? 0), 0);
  // A payout is never zero or negative here; a slow day gets one more sale to keep it a deposit.
  if (total <= 0) {
    const gross = -total + 2_000;
    add("CHARGE", gross, Math.round(gross * 0.026) + 10, { type_charge_details: { payment_id: s.ids.next(22) } });
  }
  return out.sort((a, b) => (a.effective_at < b.effective_at ? -1 : a.effective_at > b.effective_at ? 1 : 0));
}
