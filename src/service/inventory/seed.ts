import type { SeededVariation } from "../catalog/seed.js";
import { stmt } from "../db.js";
import type { SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import type { Rng } from "../seed/random.js";
import { seedLog } from "./book.js";
import type { PlannedChange } from "./changes.js";

const UNIT = 100_000;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** One move of the seeded history, laid out in memory before the history is stored in time order. */
interface SeedMove {
  at: number;
  type: PlannedChange["type"];
  objectId: string;
  locationId: string;
  toLocationId?: string;
  state: string;
  toState?: string;
  units: number;
  /** A sale's total, in cents. */
  total?: number;
}

/**
 * Lays out a month of stock history for every variation at both locations: a physical count a
 * month ago, then till sales (IN_STOCK → SOLD), deliveries (NONE → IN_STOCK), some waste, a few
 * transfers from Main Street to Harbour Dock, and recounts a week ago, stored in time order (the
 * counts they add up to are the inventory book's to work out, by the engine's rule).
 * At `scale` N the catalog has N lots of variations; lots after the first get a lighter history
 * (a count, maybe a sale and some waste) so a benchmark store seeds quickly. `variations` are
 * the catalog's, in catalog order, as the catalog seed returns them (read from the store if not given).
 */
export function seedInventory(s: SeedContext, variations: readonly SeededVariation[] = storedVariations(s)): void {
  if (variations.length === 0) return;
  const lots = Math.max(1, Math.round(s.scale));
  const firstLot = Math.ceil(variations.length / lots);
  const nowMs = s.now.getTime() - 2 * 60 * MINUTE;
  const times = { nowMs, monthAgo: nowMs - 30 * DAY };

  // Laid out first as plain moves with a numeric time, then sorted and stored in one pass.
  const planned: SeedMove[] = [];
  for (const [i, v] of variations.entries()) planVariation(s.rng, v, i < firstLot, times, planned);
  storeHistory(s, planned);
}

/**
 * One variation's month at both locations, appended to `planned`: a full history for the first
 * lot (`full`), a lighter one after it. Draws from `rng` in a fixed order: the seed is the same
 * on every machine.
 */
function planVariation(
  rng: Rng,
  v: SeededVariation,
  full: boolean,
  { nowMs, monthAgo }: { nowMs: number; monthAgo: number },
  planned: SeedMove[],
): void {
  const plan = (m: SeedMove) => planned.push(m);
  const locations = [DEMO.mainLocationId, DEMO.secondLocationId];
  // Cheap fasteners sell by the piece and are stocked by the hundred.
  const bulk = v.price < 100;
  for (const locationId of locations) {
    const stock = (bulk ? rng.int(100, 600) : rng.int(4, 60)) * UNIT;
    plan({
      objectId: v.id,
      locationId,
      type: "PHYSICAL_COUNT",
      state: "IN_STOCK",
      units: stock,
      at: monthAgo + rng.int(0, 120) * MINUTE,
    });
    const sales = full ? rng.int(0, 4) : rng.chance(0.2) ? 1 : 0;
    for (let n = 0; n < sales; n++) {
      const qty = bulk ? rng.int(5, 40) : rng.int(1, 3);
      plan({
        objectId: v.id,
        locationId,
        type: "ADJUSTMENT",
        state: "IN_STOCK",
        toState: "SOLD",
        units: qty * UNIT,
        at: monthAgo + rng.int(1, 29 * 24 * 60) * MINUTE,
        total: qty * v.price,
      });
    }
    if (rng.chance(full ? 0.12 : 0.25)) {
      plan({
        objectId: v.id,
        locationId,
        type: "ADJUSTMENT",
        state: "IN_STOCK",
        toState: "WASTE",
        units: rng.int(1, bulk ? 10 : 2) * UNIT,
        at: monthAgo + rng.int(1, 29 * 24 * 60) * MINUTE,
      });
    }
    if (full && rng.chance(0.15)) {
      plan({
        objectId: v.id,
        locationId,
        type: "ADJUSTMENT",
        state: "NONE",
        toState: "IN_STOCK",
        units: (bulk ? rng.int(100, 300) : rng.int(6, 24)) * UNIT,
        at: monthAgo + rng.int(3, 25) * DAY,
      });
    }
    if (full && rng.chance(0.1)) {
      plan({
        objectId: v.id,
        locationId,
        type: "PHYSICAL_COUNT",
        state: "IN_STOCK",
        units: (bulk ? rng.int(80, 500) : rng.int(2, 50)) * UNIT,
        at: nowMs - 7 * DAY + rng.int(0, 600) * MINUTE,
      });
    }
  }
  if (full && rng.chance(0.06)) {
    plan({
      objectId: v.id,
      locationId: DEMO.mainLocationId,
      toLocationId: DEMO.secondLocationId,
      type: "TRANSFER",
      state: "IN_STOCK",
      units: rng.int(1, 5) * UNIT,
      at: monthAgo + rng.int(2, 28) * DAY,
    });
  }
}

/**
 * Stores the planned moves in the inventory log in the order they happened, so that arrival order
 * and time order agree; the counts they add up to are the book's to work out when it reads them.
 */
function storeHistory(s: SeedContext, planned: SeedMove[]): void {
  const { db, merchantId, rng, ids } = s;
  planned.sort((a, b) => a.at - b.at);
  seedLog(
    db,
    merchantId,
    planned.map((m) => {
      // Received a little after it happened, as a till syncing or a counter's upload would be.
      const createdMs = m.at + rng.int(1, 90) * 1000;
      return {
        id: ids.next(26),
        type: m.type,
        objectId: m.objectId,
        locationId: m.locationId,
        toLocationId: m.toLocationId ?? null,
        state: m.state,
        toState: m.toState ?? null,
        units: m.units,
        occurredMs: m.at,
        createdMs,
        extras: m.total === undefined ? null : { total_price_money: { amount: m.total, currency: DEMO.currency } },
      };
    }),
  );
}

/** The catalog's variations and prices, in catalog order, read from the store. */
function storedVariations(s: SeedContext): SeededVariation[] {
  return stmt(
    s.db,
    "SELECT id, json_extract(data, '$.item_variation_data.price_money.amount') AS price FROM catalog_objects WHERE merchant_id = ? AND type = 'ITEM_VARIATION' ORDER BY seq",
  ).all(s.merchantId) as SeededVariation[];
}
