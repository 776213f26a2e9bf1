// Inventory adjustments in a store manager's words. The service records an adjustment as a move
// of quantity from one state to another (IN_STOCK → SOLD is a sale, NONE → IN_STOCK a delivery);
// the dashboard names them as the manager would, and so does backroom.
import type { InventoryState } from "../spec/generated/types.js";

/** Each state in words, for a move no name below fits. */
const STATE_WORDS: Readonly<Record<InventoryState, string>> = {
  CUSTOM: "a custom state",
  IN_STOCK: "in stock",
  SOLD: "sold",
  RETURNED_BY_CUSTOMER: "returned by a customer",
  RESERVED_FOR_SALE: "reserved",
  SOLD_ONLINE: "sold online",
  ORDERED_FROM_VENDOR: "ordered",
  RECEIVED_FROM_VENDOR: "received",
  IN_TRANSIT_TO: "in transit",
  NONE: "nowhere",
  WASTE: "waste",
  UNLINKED_RETURN: "returned",
  COMPOSED: "made into another item",
  DECOMPOSED: "taken apart",
  SUPPORTED_BY_NEWER_VERSION: "a state of a newer version",
  IN_TRANSIT: "in transit",
};

/** The moves a manager has a name for, by `from → to`. */
const MOVE_WORDS: Readonly<Record<string, string>> = {
  "IN_STOCK → SOLD": "sold",
  "RESERVED_FOR_SALE → SOLD": "sold",
  "IN_STOCK → SOLD_ONLINE": "sold online",
  "NONE → IN_STOCK": "received",
  "RECEIVED_FROM_VENDOR → IN_STOCK": "received",
  "ORDERED_FROM_VENDOR → IN_STOCK": "received",
  "IN_STOCK → WASTE": "written off (damaged, lost or stolen)",
  "SOLD → IN_STOCK": "returned to stock",
  "UNLINKED_RETURN → IN_STOCK": "returned to stock",
  "RETURNED_BY_CUSTOMER → IN_STOCK": "returned to stock",
  "IN_STOCK → RESERVED_FOR_SALE": "reserved for a sale",
  "RESERVED_FOR_SALE → IN_STOCK": "back from reserved",
  "IN_STOCK → NONE": "removed from stock",
  "IN_STOCK → COMPOSED": "made into another item",
  "DECOMPOSED → IN_STOCK": "taken from another item",
};

const stateWords = (state: string): string => STATE_WORDS[state as InventoryState] ?? state;

/** An adjustment in words: "sold", "received", or "waste → in stock" for a move with no name. */
export function adjustmentWords(from: string, to: string): string {
  return MOVE_WORDS[`${from} → ${to}`] ?? `${stateWords(from)} → ${stateWords(to)}`;
}

/** An adjustment's quantity with its direction for the stock on hand: -3 out of it, +3 into it. */
export function adjustmentQuantity(from: string, to: string, quantity: string): string {
  if (from === "IN_STOCK" && to !== "IN_STOCK") return `-${quantity}`;
  if (to === "IN_STOCK" && from !== "IN_STOCK") return `+${quantity}`;
  return quantity;
}
