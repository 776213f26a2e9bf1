import type { CatalogObject } from "../../spec/generated/types.js";
import { bulkLoad, type SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { insertObject, nextSeq } from "./repo.js";

/**
 * The demo hardware shop's shelves: per category a code (for SKUs) and its items as
 * `name|variation, variation, ...|base price in cents`. 8 categories × 19 items = 152 items.
 */
const AISLES: readonly { code: string; name: string; items: readonly string[] }[] = [
  {
    code: "HT",
    name: "Hand Tools",
    items: [
      "Claw Hammer|13 oz, 16 oz, 20 oz|1899",
      "Ball Peen Hammer|8 oz, 16 oz|1599",
      "Rubber Mallet|16 oz, 24 oz|1299",
      "Screwdriver Set|6-piece, 10-piece|1999",
      "Phillips Screwdriver|#1, #2, #3|699",
      "Flathead Screwdriver|1/8 in, 1/4 in, 5/16 in|649",
      "Adjustable Wrench|6 in, 8 in, 10 in, 12 in|1499",
      "Combination Wrench Set|SAE, Metric|3499",
      "Socket Set|1/4 in drive, 3/8 in drive, 1/2 in drive|4999",
      "Needle-Nose Pliers|6 in, 8 in|1199",
      "Slip-Joint Pliers|6 in, 8 in|999",
      "Locking Pliers|7 in, 10 in|1499",
      "Tape Measure|16 ft, 25 ft, 35 ft|1299",
      "Spirit Level|9 in, 24 in, 48 in|1499",
      "Utility Knife|Standard, Folding|899",
      "Hacksaw|12 in|1599",
      "Hand Saw|15 in, 20 in|2199",
      "Wood Chisel Set|4-piece|2999",
      "Hex Key Set|SAE, Metric|999",
    ],
  },
  {
    code: "PW",
    name: "Power Tools",
    items: [
      "Cordless Drill|12V, 18V, 20V|8999",
      "Impact Driver|18V, 20V|11999",
      "Circular Saw|7-1/4 in|12999",
      "Jigsaw|Corded, Cordless|7999",
      "Random Orbit Sander|5 in|6999",
      "Angle Grinder|4-1/2 in, 5 in|6499",
      "Oscillating Multi-Tool|Corded, Cordless|8999",
      "Drill Bit Set|13-piece, 21-piece, 29-piece|1999",
      "Spade Bit Set|6-piece|1499",
      "Driver Bit Set|32-piece, 60-piece|1799",
      "Lithium Battery Pack|2.0 Ah, 4.0 Ah, 5.0 Ah|5999",
      "Battery Charger|Standard, Rapid|3999",
      "Heat Gun|1500 W|3499",
      "Glue Gun|Mini, Full Size|1499",
      "Shop Vacuum|4 gal, 8 gal, 12 gal|6999",
      "Work Light|1000 lm, 3000 lm|2999",
      "Circular Saw Blade|24T, 40T, 60T|1599",
      "Sanding Discs|80 grit, 120 grit, 220 grit|899",
      "Rotary Tool Kit|Standard|5999",
    ],
  },
  {
    code: "FS",
    name: "Fasteners",
    items: [
      "Wood Screws|#8 x 1 in, #8 x 1-1/2 in, #8 x 2 in, #10 x 3 in|599",
      "Drywall Screws|1-1/4 in, 1-5/8 in, 2 in|799",
      "Deck Screws|2-1/2 in, 3 in|1499",
      "Machine Screws|8-32, 10-24, 1/4-20|449",
      "Hex Bolts|1/4 in, 5/16 in, 3/8 in, 1/2 in|39",
      "Carriage Bolts|1/4 x 2 in, 3/8 x 4 in|59",
      "Hex Nuts|1/4 in, 5/16 in, 3/8 in, 1/2 in|15",
      "Flat Washers|1/4 in, 3/8 in, 1/2 in|10",
      "Lock Washers|1/4 in, 3/8 in|12",
      "Lag Screws|1/4 x 3 in, 3/8 x 4 in|89",
      "Common Nails|8d 1 lb, 16d 1 lb, 16d 5 lb|499",
      "Finish Nails|4d, 6d, 8d|449",
      "Drywall Anchors|25-pack, 50-pack|599",
      "Toggle Bolts|1/8 in, 3/16 in, 1/4 in|399",
      "Concrete Anchors|1/4 in, 3/8 in|699",
      "Cable Ties|4 in, 8 in, 11 in|399",
      "Hose Clamps|1/2 in, 1 in, 2 in|199",
      "Threaded Rod|1/4-20 x 36 in, 3/8-16 x 36 in|399",
      "Eye Bolts|1/4 in, 3/8 in|149",
    ],
  },
  {
    code: "PT",
    name: "Paint & Supplies",
    items: [
      "Interior Latex Paint|Quart, Gallon, 5 Gallon|1799",
      "Exterior Acrylic Paint|Gallon, 5 Gallon|3999",
      "Primer|Quart, Gallon|1299",
      "Spray Paint|Gloss Black, Flat White, Safety Red, Metallic Silver|699",
      "Wood Stain|Natural, Walnut, Ebony|1499",
      "Polyurethane|Satin, Gloss|1699",
      "Paint Brush|1 in, 2 in, 3 in|499",
      "Angled Sash Brush|1-1/2 in, 2-1/2 in|899",
      "Paint Roller Cover|3/8 in nap, 1/2 in nap, 3/4 in nap|599",
      "Roller Frame|9 in|799",
      "Paint Tray|Standard, Deep Well|399",
      "Painter's Tape|0.94 in, 1.41 in, 1.88 in|599",
      "Drop Cloth|Plastic 9x12, Canvas 9x12|499",
      "Putty Knife|1-1/2 in, 3 in|599",
      "Spackling Compound|8 oz, 32 oz|599",
      "Caulk|White, Clear|499",
      "Sandpaper Sheets|80 grit, 150 grit, 220 grit|599",
      "Paint Thinner|Quart, Gallon|899",
      "Wood Filler|6 oz, 16 oz|699",
    ],
  },
  {
    code: "GD",
    name: "Garden & Outdoor",
    items: [
      "Garden Hose|25 ft, 50 ft, 75 ft, 100 ft|2499",
      "Hose Nozzle|7-pattern, 10-pattern|999",
      "Impact Sprinkler|Standard|1499",
      "Pruning Shears|Bypass, Anvil|1899",
      "Loppers|26 in, 32 in|3499",
      "Garden Trowel|Standard|799",
      "Garden Rake|Leaf, Bow|2499",
      "Round Point Shovel|Standard, Long Handle|2999",
      "Wheelbarrow|4 cu ft, 6 cu ft|8999",
      "Potting Mix|8 qt, 1 cu ft, 2 cu ft|699",
      "Mulch|Red, Brown, Black|499",
      "Lawn Fertilizer|5000 sq ft, 15000 sq ft|2499",
      "Grass Seed|3 lb, 7 lb, 20 lb|1999",
      "Garden Gloves|S, M, L, XL|999",
      "Planter Pot|8 in, 12 in, 16 in|999",
      "Bird Feeder|Tube, Platform|1999",
      "Weed Barrier Fabric|3 x 50 ft, 4 x 100 ft|1499",
      "String Trimmer Line|0.065 in, 0.080 in, 0.095 in|999",
      "Leaf Bags|5-pack, 10-pack|599",
    ],
  },
  {
    code: "EL",
    name: "Electrical",
    items: [
      "Extension Cord|25 ft, 50 ft, 100 ft|1999",
      "Power Strip|6-outlet, 8-outlet|1499",
      "LED Light Bulb|A19 60W Eq, A19 100W Eq, BR30 Flood|499",
      "Light Switch|Single Pole, 3-Way|399",
      "Dimmer Switch|Single Pole, 3-Way|1999",
      "Duplex Outlet|15 A, 20 A|299",
      "GFCI Outlet|15 A, 20 A|1799",
      "Wall Plate|1-gang, 2-gang, 3-gang|149",
      "Electrical Box|1-gang, 2-gang|199",
      "Wire Nuts|Small, Medium, Large|499",
      "Electrical Tape|Black, Red, Green, White|299",
      "NM-B Cable|14/2 x 25 ft, 12/2 x 25 ft, 14/2 x 50 ft|2499",
      "Voltage Tester|Non-contact|1999",
      "Digital Multimeter|Basic, Auto-Ranging|2999",
      "Wire Stripper|10-18 AWG, 12-22 AWG|1499",
      "Circuit Breaker|15 A, 20 A, 30 A|899",
      "Batteries|AA 8-pack, AAA 8-pack, 9V 2-pack, D 4-pack|899",
      "Flashlight|Compact, Rechargeable|1499",
      "Smoke Detector|Battery, Hardwired|1999",
    ],
  },
  {
    code: "PL",
    name: "Plumbing",
    items: [
      "PVC Pipe|1/2 in x 10 ft, 3/4 in x 10 ft, 1 in x 10 ft|399",
      "PVC Elbow|1/2 in, 3/4 in, 1 in|89",
      "PVC Cement|4 oz, 8 oz|599",
      "Copper Pipe|1/2 in x 10 ft, 3/4 in x 10 ft|2499",
      "Push-Fit Coupling|1/2 in, 3/4 in|799",
      "Shut-Off Valve|1/2 in, 3/4 in|1299",
      "Faucet Supply Line|12 in, 16 in, 20 in|699",
      "Toilet Flapper|Standard, Universal|699",
      "Toilet Fill Valve|Standard|1299",
      "Wax Ring|Standard, With Flange|499",
      "Plunger|Cup, Flange|999",
      "Drain Snake|15 ft, 25 ft|1999",
      "Teflon Tape|1/2 in, 3/4 in|199",
      "Pipe Wrench|10 in, 14 in, 18 in|2499",
      "Tubing Cutter|Mini, Standard|1499",
      "Sink Strainer|Kitchen, Bath|699",
      "Showerhead|Fixed, Handheld|2999",
      "Water Filter Cartridge|Standard, Carbon|1499",
      "Drain Cleaner|32 oz, 80 oz|899",
    ],
  },
  {
    code: "SF",
    name: "Safety & Storage",
    items: [
      "Safety Glasses|Clear, Tinted|699",
      "Work Gloves|S, M, L, XL|1299",
      "Ear Plugs|10-pair, 50-pair|499",
      "Earmuffs|Standard|1999",
      "Dust Mask|10-pack, 20-pack|999",
      "Respirator|Half Face, Full Face|2999",
      "Hard Hat|White, Yellow, Orange|1999",
      "Hi-Vis Vest|M, L, XL|999",
      "Knee Pads|Standard, Gel|1999",
      "First Aid Kit|50-piece, 150-piece|1999",
      "Fire Extinguisher|2.5 lb, 5 lb, 10 lb|2999",
      "Work Boots|9, 10, 11, 12|8999",
      "Tool Belt|Standard|2999",
      "Tool Box|16 in, 19 in, 22 in|1999",
      "Ladder|4 ft Step, 6 ft Step, 8 ft Step, 24 ft Extension|7999",
      "Tarp|6 x 8 ft, 10 x 12 ft, 20 x 30 ft|999",
      "Bungee Cords|12-piece, 24-piece|999",
      "Ratchet Straps|2-pack, 4-pack|1999",
      "Padlock|40 mm, 50 mm|999",
    ],
  },
];

/** Items in the demo catalog at scale 1. */
export const DEMO_ITEM_COUNT = AISLES.reduce((n, a) => n + a.items.length, 0);

/** The check digit that makes 11 digits a valid UPC-A (GS1 mod-10: odd positions weigh 3). */
export function upcCheckDigit(eleven: string): number {
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(eleven[i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

/** Whether a 12-digit string is a UPC-A with a correct check digit. */
export function isValidUpc(upc: string): boolean {
  return /^\d{12}$/.test(upc) && upcCheckDigit(upc.slice(0, 11)) === Number(upc[11]);
}

/** A seeded variation and its price in cents, in catalog order: what the inventory seed stocks. */
export interface SeededVariation {
  id: string;
  price: number;
}

/**
 * Lays out the demo catalog: 8 categories and 152 items with 1–4 variations each, every
 * variation with a unique SKU (`HT-1001-2`), a valid UPC-A and a price. At `scale` N the shelves
 * are repeated N times (as further "lots") so that inventory volumes grow with it. Returns the
 * variations, so that the stock seed need not read them back.
 */
export function seedCatalog(s: SeedContext): SeededVariation[] {
  const seeded: SeededVariation[] = [];
  bulkLoad(s.db, ["catalog_objects"], () => layOut(s, seeded));
  return seeded;
}

const DAY = 86_400_000;
const BASE = { is_deleted: false, present_at_all_locations: true };
const stamp = (d: Date) => ({ updated_at: d.toISOString(), version: d.getTime() });

type Aisle = (typeof AISLES)[number];

/** Where the layout stands: the next catalog seq, item number and UPC serial. */
interface Cursor {
  seq: number;
  itemNo: number;
  upcNo: number;
}

function layOut(s: SeedContext, seeded: SeededVariation[]): void {
  const cursor: Cursor = { seq: nextSeq(s.db), itemNo: 1000, upcNo: 0 };
  const createdAt = new Date(s.now.getTime() - 400 * DAY);
  const categories = AISLES.map((aisle) => insertCategory(s, aisle, createdAt, cursor));
  const lots = Math.max(1, Math.round(s.scale));
  for (let lot = 0; lot < lots; lot++) {
    for (const [a, aisle] of AISLES.entries()) {
      const categoryId = categories[a] ?? "";
      for (const line of aisle.items) layOutItem(s, cursor, { aisle, categoryId, line, lot, createdAt }, seeded);
    }
  }
}

/** One aisle's category; returns its id. */
function insertCategory(s: SeedContext, aisle: Aisle, createdAt: Date, cursor: Cursor): string {
  const object: CatalogObject = {
    type: "CATEGORY",
    id: s.ids.next(24),
    ...stamp(createdAt),
    ...BASE,
    category_data: { name: aisle.name, category_type: "REGULAR_CATEGORY", is_top_level: true },
  };
  insertObject(
    s.db,
    { object, merchantId: s.merchantId, name: aisle.name, searchText: aisle.name.toLowerCase() },
    cursor.seq++,
  );
  return object.id;
}

/** An item's variations (one per name of `variationText`), each with its SKU, UPC and price. */
function variationsOf(
  s: SeedContext,
  cursor: Cursor,
  item: { aisle: Aisle; itemId: string; variationText: string; basePrice: number; updated: Date },
): CatalogObject[] {
  const { aisle, itemId, basePrice } = item;
  return item.variationText.split(", ").map((vName, ordinal) => {
    cursor.upcNo++;
    const eleven = `0${String(7_126_300_000 + cursor.upcNo)}`;
    const amount = basePrice + ordinal * Math.max(1, Math.round(basePrice * 0.3));
    const lowAlert = s.rng.chance(0.2);
    return {
      type: "ITEM_VARIATION",
      id: s.ids.next(24),
      ...stamp(item.updated),
      ...BASE,
      item_variation_data: {
        item_id: itemId,
        name: vName,
        sku: `${aisle.code}-${cursor.itemNo}-${ordinal + 1}`,
        upc: `${eleven}${upcCheckDigit(eleven)}`,
        ordinal,
        pricing_type: "FIXED_PRICING",
        price_money: { amount, currency: DEMO.currency },
        track_inventory: true,
        ...(lowAlert ? { inventory_alert_type: "LOW_QUANTITY" as const, inventory_alert_threshold: 5 } : {}),
        sellable: true,
        stockable: true,
      },
    };
  });
}

/** One shelf line (`name|variations|price`) of one lot: the item, then its variations. */
function layOutItem(
  s: SeedContext,
  cursor: Cursor,
  at: { aisle: Aisle; categoryId: string; line: string; lot: number; createdAt: Date },
  seeded: SeededVariation[],
): void {
  const { db, rng, ids } = s;
  const { aisle, categoryId, lot, createdAt } = at;
  const [baseName = "", variationText = "", priceText = "0"] = at.line.split("|");
  const name = lot === 0 ? baseName : `${baseName} (Lot ${lot + 1})`;
  cursor.itemNo++;
  const itemId = ids.next(24);
  const updated = new Date(createdAt.getTime() + rng.int(0, 380) * DAY + rng.int(0, DAY - 1));
  const description = `${baseName} from the ${aisle.name} aisle of ${DEMO.businessName}.`;
  const variations = variationsOf(s, cursor, { aisle, itemId, variationText, basePrice: Number(priceText), updated });
  const item: CatalogObject = {
    type: "ITEM",
    id: itemId,
    ...stamp(updated),
    ...BASE,
    item_data: {
      name,
      description,
      description_plaintext: description,
      category_id: categoryId,
      categories: [{ id: categoryId, ordinal: 0 }],
      reporting_category: { id: categoryId, ordinal: 0 },
      variations,
      product_type: "REGULAR",
      is_archived: false,
    },
  };
  const variationWords = variations
    .map((v) => `${v.item_variation_data?.name} ${v.item_variation_data?.sku} ${v.item_variation_data?.upc}`)
    .join(" ");
  insertObject(
    db,
    {
      object: item,
      merchantId: s.merchantId,
      name,
      categoryId,
      productType: "REGULAR",
      searchText: `${name} ${description} ${variationWords}`.toLowerCase(),
    },
    cursor.seq++,
  );
  for (const v of variations) {
    const d = v.item_variation_data;
    seeded.push({ id: v.id, price: d?.price_money?.amount ?? 0 });
    insertObject(
      db,
      {
        object: v,
        merchantId: s.merchantId,
        name: d?.name ?? "",
        itemId,
        ...(d?.sku ? { sku: d.sku } : {}),
        ...(d?.upc ? { upc: d.upc } : {}),
        searchText: `${d?.name} ${d?.sku} ${d?.upc}`.toLowerCase(),
      },
      cursor.seq++,
    );
  }
}
