/** What the V1 history's seeds share: the counter's goods, the card brands, the tax, money. */
import type { V1TenderCardBrand } from "../../spec/generated/types.js";
import { DEMO } from "../seed/demo-ids.js";
import { v1Money } from "./rules.js";

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const TAX_RATE = 0.08875;

/** What the counter sells; prices in cents. */
export const PRODUCTS = [
  ["Claw hammer 16 oz", "Hand tools", "HT-HAM-16", 2499],
  ["Tape measure 25 ft", "Hand tools", "HT-TAP-25", 1299],
  ["Screwdriver set (6)", "Hand tools", "HT-SCR-06", 1899],
  ["Wood screws #8 x 1-1/4 (100)", "Fasteners", "FA-WS8-100", 749],
  ["Drywall anchors (50)", "Fasteners", "FA-DRA-50", 599],
  ["Hex bolts 3/8 (25)", "Fasteners", "FA-HB38-25", 899],
  ["Interior paint, eggshell, gallon", "Paint", "PA-INT-EGG-G", 3899],
  ["Paint roller kit", "Paint", "PA-ROL-KIT", 1499],
  ["Painter's tape 1.88 in", "Paint", "PA-TAPE-188", 699],
  ["LED bulb A19 (4)", "Electrical", "EL-LED-A19-4", 1199],
  ["Extension cord 25 ft", "Electrical", "EL-EXT-25", 2299],
  ["Outlet tester", "Electrical", "EL-OUT-TST", 999],
  ["PVC pipe 1/2 in x 10 ft", "Plumbing", "PL-PVC-12-10", 549],
  ["Plumber's tape", "Plumbing", "PL-PTFE", 249],
  ["Garden hose 50 ft", "Garden", "GA-HOSE-50", 3499],
  ["Potting mix 16 qt", "Garden", "GA-POT-16", 1099],
  ["Work gloves", "Safety", "SA-GLOVE-L", 1499],
  ["Safety glasses", "Safety", "SA-GLASS", 899],
  ["Key cut", "Services", "SV-KEY", 399],
  ["Propane exchange", "Outdoor", "OD-PROP-EX", 2199],
] as const;

export const BRANDS: readonly V1TenderCardBrand[] = ["VISA", "VISA", "MASTER_CARD", "AMERICAN_EXPRESS", "DISCOVER"];

/** Most money in a payment is zero: one object serves them all (nothing changes one in place). */
const ZERO = v1Money(0, DEMO.currency);
export const m = (amount: number) => (amount === 0 ? ZERO : v1Money(amount, DEMO.currency));
