import { formatQuantity } from "../../domain/quantity.js";
import { stmt } from "../catalog/statements.js";
import type { PlannedChange } from "../inventory/changes.js";
import { toWireChange } from "../inventory/changes.js";
import { type CountKey, deltasOf, isTracked, writeCount } from "../inventory/ledger.js";
import { insertChange } from "../inventory/store.js";
import type { SeedContext } from "./context.js";
import { DEMO } from "./demo-ids.js";

const UNIT = 100_000;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** A count being built in memory while the history is laid out in time order. */
interface Tally {
  key: CountKey;
  units: number;
  anchor: { at: string; seq: number } | null;
  calculatedAt: string;
}

/**
 * Lays out a month of stock history for every variation at both locations: a physical count a
 * month ago, then till sales (IN_STOCK → SOLD), deliveries (NONE → IN_STOCK), some waste, a few
 * transfers from Main Street to Harbour Dock, and recounts a week ago. Counts are computed here
 * in time order (the same rule as the engine: a count sets, later moves add) and written once.
 * At `scale` N the catalog has N lots of variations; lots after the first get a lighter history
 * (a count, maybe a sale and some waste) so a benchmark store seeds quickly.
 */
export function seedInventory(s: SeedContext): void {
  const { db, rng, ids, merchantId } = s;
  const variations = stmt(
    db,
    "SELECT id, json_extract(data, '$.item_variation_data.price_money.amount') AS price FROM catalog_objects WHERE merchant_id = ? AND type = 'ITEM_VARIATION' ORDER BY seq",
  ).all(merchantId) as { id: string; price: number }[];
  if (variations.length === 0) return;
  const lots = Math.max(1, Math.round(s.scale));
  const firstLot = Math.ceil(variations.length / lots);
  const nowMs = s.now.getTime() - 2 * 60 * MINUTE;
  const monthAgo = nowMs - 30 * DAY;
  const locations = [DEMO.mainLocationId, DEMO.secondLocationId];

  const planned: PlannedChange[] = [];
  const plan = (
    p: Omit<PlannedChange, "wire" | "occurredAt"> & { at: number },
    extra: Record<string, unknown> = {},
  ) => {
    const occurredAt = new Date(p.at).toISOString();
    const quantity = formatQuantity(p.units);
    const common = { ...extra, catalog_object_id: p.objectId, catalog_object_type: "ITEM_VARIATION", quantity };
    const wire =
      p.type === "PHYSICAL_COUNT"
        ? { ...common, state: p.state, location_id: p.locationId, occurred_at: occurredAt }
        : p.type === "ADJUSTMENT"
          ? { ...common, from_state: p.state, to_state: p.toState, location_id: p.locationId, occurred_at: occurredAt }
          : {
              ...common,
              state: p.state,
              from_location_id: p.locationId,
              to_location_id: p.toLocationId,
              occurred_at: occurredAt,
            };
    const { at: _at, ...rest } = p;
    planned.push({ ...rest, occurredAt, wire });
  };

  for (const [i, v] of variations.entries()) {
    const full = i < firstLot;
    // Cheap fasteners sell by the piece and are stocked by the hundred.
    const bulk = v.price < 100;
    for (const locationId of locations) {
      const base = { objectId: v.id, locationId };
      const stock = (bulk ? rng.int(100, 600) : rng.int(4, 60)) * UNIT;
      plan({
        ...base,
        type: "PHYSICAL_COUNT",
        state: "IN_STOCK",
        units: stock,
        at: monthAgo + rng.int(0, 120) * MINUTE,
      });
      const sales = full ? rng.int(0, 5) : rng.int(0, 1);
      for (let n = 0; n < sales; n++) {
        const qty = bulk ? rng.int(5, 40) : rng.int(1, 3);
        plan(
          {
            ...base,
            type: "ADJUSTMENT",
            state: "IN_STOCK",
            toState: "SOLD",
            units: qty * UNIT,
            at: monthAgo + rng.int(1, 29 * 24 * 60) * MINUTE,
          },
          { total_price_money: { amount: qty * v.price, currency: DEMO.currency } },
        );
      }
      if (rng.chance(full ? 0.12 : 0.25)) {
        plan({
          ...base,
          type: "ADJUSTMENT",
          state: "IN_STOCK",
          toState: "WASTE",
          units: rng.int(1, bulk ? 10 : 2) * UNIT,
          at: monthAgo + rng.int(1, 29 * 24 * 60) * MINUTE,
        });
      }
      if (full && rng.chance(0.15)) {
        plan({
          ...base,
          type: "ADJUSTMENT",
          state: "NONE",
          toState: "IN_STOCK",
          units: (bulk ? rng.int(100, 300) : rng.int(6, 24)) * UNIT,
          at: monthAgo + rng.int(3, 25) * DAY,
        });
      }
      if (full && rng.chance(0.1)) {
        plan({
          ...base,
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

  // Stored in the order they happened, so arrival order and time order agree.
  planned.sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : a.occurredAt > b.occurredAt ? 1 : 0));
  const tallies = new Map<string, Tally>();
  const tally = (key: CountKey) => {
    const name = `${key.objectId}\u0000${key.locationId}\u0000${key.state}`;
    let t = tallies.get(name);
    if (!t) {
      t = { key, units: 0, anchor: null, calculatedAt: "" };
      tallies.set(name, t);
    }
    return t;
  };
  for (const p of planned) {
    // Received a little after it happened, as a till syncing or a counter's upload would be.
    const createdAt = new Date(Date.parse(p.occurredAt) + rng.int(1, 90) * 1000).toISOString();
    const id = ids.next(26);
    const seq = insertChange(db, merchantId, p, toWireChange(p, id, createdAt), id, createdAt);
    if (p.type === "PHYSICAL_COUNT" && isTracked(p.state)) {
      const key: CountKey = {
        merchantId,
        objectId: p.objectId,
        objectType: "ITEM_VARIATION",
        locationId: p.locationId,
        state: p.state,
      };
      const t = tally(key);
      t.units = p.units;
      t.anchor = { at: p.occurredAt, seq };
      t.calculatedAt = createdAt;
    } else {
      for (const d of deltasOf(p, merchantId)) {
        const t = tally(d.key);
        t.units += d.units;
        t.calculatedAt = createdAt;
      }
    }
  }
  for (const t of tallies.values()) writeCount(db, t.key, t.units, t.anchor, t.calculatedAt);
}
