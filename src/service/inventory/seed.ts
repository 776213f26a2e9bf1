import { formatQuantity } from "../../domain/quantity.js";
import type { InventoryAdjustment, InventoryChange, InventoryState } from "../../spec/generated/types.js";
import type { SeededVariation } from "../catalog/seed.js";
import { stmt } from "../db.js";
import { bulkLoad, type SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import type { Rng } from "../seed/random.js";
import type { PlannedChange } from "./changes.js";
import { deltasOf } from "./ledger.js";

const UNIT = 100_000;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** A count being built in memory while the history is laid out in time order. */
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

/** The wire change of a seeded move; written out field by field, as this runs for every seeded change. */
function wireOf(m: SeedMove, id: string, occurredAt: string, createdAt: string): InventoryChange {
  const quantity = formatQuantity(m.units);
  if (m.type === "PHYSICAL_COUNT") {
    return {
      type: m.type,
      physical_count: {
        id,
        catalog_object_id: m.objectId,
        catalog_object_type: "ITEM_VARIATION",
        state: m.state as InventoryState,
        location_id: m.locationId,
        quantity,
        occurred_at: occurredAt,
        created_at: createdAt,
      },
    };
  }
  if (m.type === "ADJUSTMENT") {
    const adjustment: InventoryAdjustment = {
      id,
      from_state: m.state as InventoryState,
      to_state: m.toState as InventoryState,
      location_id: m.locationId,
      catalog_object_id: m.objectId,
      catalog_object_type: "ITEM_VARIATION",
      quantity,
      occurred_at: occurredAt,
      created_at: createdAt,
    };
    if (m.total !== undefined) adjustment.total_price_money = { amount: m.total, currency: DEMO.currency };
    return { type: m.type, adjustment };
  }
  return {
    type: m.type,
    transfer: {
      id,
      state: m.state as InventoryState,
      from_location_id: m.locationId,
      to_location_id: m.toLocationId ?? "",
      catalog_object_id: m.objectId,
      catalog_object_type: "ITEM_VARIATION",
      quantity,
      occurred_at: occurredAt,
      created_at: createdAt,
    },
  };
}

/**
 * A count being added up, by its key's name (object, location, state): small, as there are
 * 180,000 at scale 200 (times as epoch milliseconds, written out only when the count is stored).
 */
interface Tally {
  units: number;
  anchorAtMs: number | null;
  anchorSeq: number | null;
  calculatedAtMs: number;
}

const KEY_SEPARATOR = "\u0000";

/**
 * Lays out a month of stock history for every variation at both locations: a physical count a
 * month ago, then till sales (IN_STOCK → SOLD), deliveries (NONE → IN_STOCK), some waste, a few
 * transfers from Main Street to Harbour Dock, and recounts a week ago. Counts are computed here
 * in time order (the same rule as the engine: a count sets, later moves add) and written once.
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

/** Stores the planned moves in time order with the counts they add up to, each table loaded in bulk. */
function storeHistory(s: SeedContext, planned: SeedMove[]): void {
  const { db, merchantId } = s;
  // Stored in the order they happened, so arrival order and time order agree.
  planned.sort((a, b) => a.at - b.at);
  const tallies = new Map<string, Tally>();
  const tally = (objectId: string, locationId: string, state: string) => {
    const name = [objectId, locationId, state].join(KEY_SEPARATOR);
    let t = tallies.get(name);
    if (!t) {
      t = { units: 0, anchorAtMs: null, anchorSeq: null, calculatedAtMs: 0 };
      tallies.set(name, t);
    }
    return t;
  };
  const insert = stmt(
    db,
    `INSERT INTO inventory_changes (id, merchant_id, type, catalog_object_id, location_id, to_location_id, state, to_state, units, occurred_at, created_at, data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Each count once, into an empty table: a plain insert (the engine's upsert needs the key's index).
  const insertCount = stmt(
    db,
    `INSERT INTO inventory_counts (merchant_id, catalog_object_id, catalog_object_type, location_id, state, units, anchor_at, anchor_seq, calculated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  bulkLoad(db, ["inventory_changes", "inventory_counts"], () => {
    storeMoves(s, planned, insert, tally);
    for (const [name, t] of tallies) {
      const [objectId, locationId, state] = name.split(KEY_SEPARATOR);
      insertCount.run(
        merchantId,
        objectId,
        "ITEM_VARIATION",
        locationId,
        state,
        t.units,
        t.anchorAtMs === null ? null : new Date(t.anchorAtMs).toISOString(),
        t.anchorSeq,
        new Date(t.calculatedAtMs).toISOString(),
      );
    }
  });
}

/** The catalog's variations and prices, in catalog order, read from the store. */
function storedVariations(s: SeedContext): SeededVariation[] {
  return stmt(
    s.db,
    "SELECT id, json_extract(data, '$.item_variation_data.price_money.amount') AS price FROM catalog_objects WHERE merchant_id = ? AND type = 'ITEM_VARIATION' ORDER BY seq",
  ).all(s.merchantId) as SeededVariation[];
}

/** Stores the planned moves in time order and adds each into its counts' tallies. */
function storeMoves(
  s: SeedContext,
  planned: readonly SeedMove[],
  insert: ReturnType<typeof stmt>,
  tally: (objectId: string, locationId: string, state: string) => Tally,
): void {
  const { rng, ids, merchantId } = s;
  for (const m of planned) {
    const occurredAt = new Date(m.at).toISOString();
    // Received a little after it happened, as a till syncing or a counter's upload would be.
    const createdMs = m.at + rng.int(1, 90) * 1000;
    const createdAt = new Date(createdMs).toISOString();
    const id = ids.next(26);
    const seq = Number(
      insert.run(
        id,
        merchantId,
        m.type,
        m.objectId,
        m.locationId,
        m.toLocationId ?? null,
        m.state,
        m.toState ?? null,
        m.units,
        occurredAt,
        createdAt,
        JSON.stringify(wireOf(m, id, occurredAt, createdAt)),
      ).lastInsertRowid,
    );
    if (m.type === "PHYSICAL_COUNT") {
      const t = tally(m.objectId, m.locationId, m.state);
      t.units = m.units;
      t.anchorAtMs = m.at;
      t.anchorSeq = seq;
      t.calculatedAtMs = createdMs;
    } else {
      for (const d of deltasOf(m, merchantId)) {
        const t = tally(m.objectId, d.key.locationId, d.key.state);
        t.units += d.units;
        t.calculatedAtMs = createdMs;
      }
    }
  }
}
