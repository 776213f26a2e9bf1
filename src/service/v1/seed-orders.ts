import type { V1Order, V1OrderHistoryEntry, V1OrderState } from "../../spec/generated/types.js";
import type { SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { saveOrder } from "./repo.js";
import { BRANDS, DAY, m, PRODUCTS, TAX_RATE } from "./seed-goods.js";

/** Who orders from the online store. */
const BUYERS = [
  ["Ana Souza", "ana.souza@example.com"],
  ["Ben Okafor", "ben.okafor@example.com"],
  ["Chloe Martin", "chloe.martin@example.com"],
  ["Dev Patel", "dev.patel@example.com"],
  ["Emma Larsen", "emma.larsen@example.com"],
  ["Farid Haddad", "farid.haddad@example.com"],
  ["Grace Kim", "grace.kim@example.com"],
] as const;

/** The online store's orders (Main Street ships them), with the history each state implies. */
export function seedOrders(s: SeedContext): void {
  const { rng, ids, now } = s;
  const count = 220 * Math.max(1, s.scale);
  for (let i = 0; i < count; i++) {
    // Spread over the year, newest last; the final few are the ones still in progress.
    const created = new Date(now.getTime() - ((count - i) / count) * 365 * DAY + rng.int(0, 6 * 60) * 60_000);
    const age = (now.getTime() - created.getTime()) / DAY;
    const fromEnd = count - i;
    let state: V1OrderState;
    if (fromEnd <= 2) state = fromEnd === 1 ? "PENDING" : "OPEN";
    else if (age < 3) state = rng.chance(0.4) ? "PENDING" : "OPEN";
    else if (age < 14) state = rng.pick(["COMPLETED", "COMPLETED", "OPEN", "CANCELED"] as const);
    else {
      const r = rng();
      state = r < 0.8 ? "COMPLETED" : r < 0.88 ? "CANCELED" : r < 0.95 ? "REFUNDED" : "REJECTED";
    }
    const [name, email] = rng.pick(BUYERS);
    const lines = rng.int(1, 3);
    let subtotal = 0;
    for (let l = 0; l < lines; l++) subtotal += rng.pick(PRODUCTS)[3] * rng.int(1, 2);
    const promo = rng.chance(0.15);
    const discount = promo ? Math.round(subtotal * 0.1) : 0;
    const shipping = subtotal > 5000 ? 0 : 899;
    const tax = Math.round((subtotal - discount) * TAX_RATE);
    const total = subtotal - discount + shipping + tax;
    const at = (minutes: number) => new Date(created.getTime() + minutes * 60_000).toISOString();
    const history: V1OrderHistoryEntry[] = [{ action: "ORDER_PLACED", created_at: at(0) }];
    if (state === "REJECTED") history.push({ action: "DECLINED", created_at: at(30) });
    if (state !== "PENDING" && state !== "REJECTED") history.push({ action: "PAYMENT_RECEIVED", created_at: at(2) });
    if (state === "COMPLETED" || state === "REFUNDED") history.push({ action: "COMPLETED", created_at: at(60 * 26) });
    if (state === "REFUNDED") history.push({ action: "REFUNDED", created_at: at(60 * 24 * 6) });
    if (state === "CANCELED") history.push({ action: "CANCELED", created_at: at(60 * 5) });
    // The latest history step, unless it would lie in the future (a refund still to come).
    const lastMs = Math.min(Date.parse(history[history.length - 1]?.created_at ?? at(0)), now.getTime());
    const paymentId = ids.next(22);
    const tenderId = ids.next(22);
    const order: V1Order = {
      id: ids.next(22),
      buyer_email: email,
      recipient_name: name,
      recipient_phone_number: `+1 212 555 0${rng.int(100, 199)}`,
      state,
      shipping_address: {
        address_line_1: `${rng.int(10, 990)} ${rng.pick(["Elm", "Oak", "Maple", "Cedar", "Harbor"])} St`,
        locality: rng.pick(["Brooklyn", "Hoboken", "Yonkers", "New Rochelle"]),
        administrative_district_level_1: rng.pick(["NY", "NJ"]),
        postal_code: String(rng.int(10001, 11999)),
        country: "US",
      },
      subtotal_money: m(subtotal),
      total_shipping_money: m(shipping),
      total_tax_money: m(tax),
      total_price_money: m(total),
      total_discount_money: m(discount),
      created_at: at(0),
      updated_at: new Date(lastMs).toISOString(),
      ...(state === "PENDING" ? { expires_at: at(60 * 24 * 3) } : {}),
      payment_id: paymentId,
      ...(rng.chance(0.2) ? { buyer_note: "Please leave at the side door." } : {}),
      ...(state === "COMPLETED" && rng.chance(0.3) ? { completed_note: "Shipped by ground." } : {}),
      ...(state === "CANCELED" ? { canceled_note: "Out of stock." } : {}),
      ...(state === "REFUNDED" ? { refunded_note: "Returned by the buyer." } : {}),
      tender: {
        id: tenderId,
        type: "CREDIT_CARD",
        name: "Credit Card",
        card_brand: rng.pick(BRANDS),
        pan_suffix: String(rng.int(1000, 9999)),
        entry_method: "WEB_FORM",
        total_money: m(total),
        tendered_at: at(1),
        receipt_url: `https://squareup.com/receipt/preview/${tenderId}`,
      },
      order_history: history,
      ...(promo ? { promo_code: "SPRING10" } : {}),
    };
    saveOrder(s.db, s.merchantId, DEMO.mainLocationId, order);
  }
}
