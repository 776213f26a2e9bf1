import type {
  V1Order,
  V1OrderHistoryEntry,
  V1OrderState,
  V1Payment,
  V1PaymentItemization,
  V1Refund,
  V1Settlement,
  V1SettlementEntry,
  V1Tender,
  V1TenderCardBrand,
} from "../../spec/generated/types.js";
import type { SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { findPayment, saveOrder, savePayment, saveRefund, saveSettlement } from "./repo.js";
import { refundPayment, v1Money } from "./rules.js";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const TAX_RATE = 0.08875;
const BANK_ACCOUNT = "BA3Q4N8Y2K7MRC5TB";

/** What the counter sells; prices in cents. */
const PRODUCTS = [
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

const BRANDS: readonly V1TenderCardBrand[] = ["VISA", "VISA", "MASTER_CARD", "AMERICAN_EXPRESS", "DISCOVER"];
const REASONS = ["Returned goods", "Wrong size", "Damaged in store", "Customer changed mind", "Price adjustment"];
const BUYERS = [
  ["Ana Souza", "ana.souza@example.com"],
  ["Ben Okafor", "ben.okafor@example.com"],
  ["Chloe Martin", "chloe.martin@example.com"],
  ["Dev Patel", "dev.patel@example.com"],
  ["Emma Larsen", "emma.larsen@example.com"],
  ["Farid Haddad", "farid.haddad@example.com"],
  ["Grace Kim", "grace.kim@example.com"],
] as const;

/** A payment as built, before it is stored. */
interface Built {
  payment: V1Payment;
  locationId: string;
  arrivedAt: Date;
  /** Processing fee per card tender, for the settlement entries. */
  cardFees: Map<string, number>;
}

/**
 * A stored payment, as far as its refunds and settlements need it. The payment itself is stored
 * as soon as it is laid out: a year of payments held whole until the end would be kept alive
 * through every collection of the seed; the few that are refunded are read back.
 */
interface Seeded {
  id: string;
  createdAt: string;
  locationId: string;
  isPartial: boolean;
  /** Its tenders' ids and amounts. */
  tenders: { id: string; amount: number }[];
  refunds: { tenderId: string; refund: V1Refund }[];
  cardFees: Map<string, number>;
}

/** Most money in a payment is zero: one object serves them all (nothing changes one in place). */
const ZERO = v1Money(0, DEMO.currency);
const m = (amount: number) => (amount === 0 ? ZERO : v1Money(amount, DEMO.currency));

/** The sales tax line of an itemization or a payment. */
const salesTax = (tax: number) => ({
  name: "Sales tax",
  applied_money: m(tax),
  rate: String(TAX_RATE),
  inclusion_type: "ADDITIVE" as const,
  fee_id: "TAXSALES01",
});

/**
 * Seeds a year of V1 history: payments at both stores (some split between card and cash, some
 * taken offline and arriving hours later, a few still partial), refunds made through the same
 * rule the API uses, daily settlements of the card takings, and the online store's orders.
 */
export function seedV1(s: SeedContext): void {
  const team = (
    s.db.prepare("SELECT id FROM team_members WHERE merchant_id = ? AND status = 'ACTIVE'").all(s.merchantId) as {
      id: string;
    }[]
  ).map((r) => r.id);
  const staff = team.length > 0 ? team : ["TMDEMOOWNER0001"];
  const seeded = layOutPayments(s, staff);
  seedRefunds(s, seeded);
  storeRefunds(s, seeded);
  seedSettlements(s, seeded);
  seedOrders(s);
}

/** One tender of a payment: cash (handed in round notes, change given) or a card. */
function tenderOf(s: SeedContext, type: "CARD" | "CASH", amount: number, at: string, employee: string): V1Tender {
  const { rng, ids } = s;
  const id = ids.next(22);
  const base = {
    id,
    employee_id: employee,
    receipt_url: `https://squareup.com/receipt/preview/${id}`,
    total_money: m(amount),
    tendered_at: at,
    settled_at: at,
    refunded_money: m(0),
    is_exchange: false,
  };
  if (type === "CASH") {
    const handed = amount % 500 === 0 ? amount : Math.ceil(amount / 500) * 500;
    return {
      ...base,
      type: "CASH",
      name: "Cash",
      tendered_money: m(handed),
      change_back_money: m(handed - amount),
    };
  }
  return {
    ...base,
    type: "CREDIT_CARD",
    name: "Credit Card",
    card_brand: rng.pick(BRANDS),
    pan_suffix: String(rng.int(1000, 9999)),
    entry_method: rng.chance(0.8) ? "SWIPED" : "MANUAL",
    tendered_money: m(amount),
    change_back_money: m(0),
  };
}

/** One to four lines of what the counter sells, taxed. */
function itemLines(s: SeedContext): V1PaymentItemization[] {
  const { rng } = s;
  const lines: V1PaymentItemization[] = [];
  const count = rng.int(1, 4);
  for (let i = 0; i < count; i++) {
    const [name, category, sku, price] = rng.pick(PRODUCTS);
    const qty = rng.chance(0.75) ? 1 : rng.int(2, 4);
    const gross = price * qty;
    const tax = Math.round(gross * TAX_RATE);
    lines.push({
      name,
      quantity: qty,
      itemization_type: "ITEM",
      item_detail: { category_name: category, sku, item_id: `ITEM-${sku}`, item_variation_id: `VAR-${sku}` },
      item_variation_name: "Regular",
      total_money: m(gross + tax),
      single_quantity_money: m(price),
      gross_sales_money: m(gross),
      discount_money: m(0),
      net_sales_money: m(gross),
      taxes: [salesTax(tax)],
      discounts: [],
      modifiers: [],
    });
  }
  return lines;
}

/** A payment's tenders: one (cash or card), or a card and a second tender when `split`. */
function tendersFor(s: SeedContext, total: number, created: string, employee: string, split: boolean): V1Tender[] {
  const { rng } = s;
  const tenders: V1Tender[] = [];
  if (split) {
    const first = Math.max(100, Math.round(total * (0.3 + rng() * 0.4)));
    tenders.push(tenderOf(s, "CARD", first, created, employee));
    tenders.push(tenderOf(s, rng.chance(0.5) ? "CASH" : "CARD", total - first, created, employee));
  } else {
    tenders.push(tenderOf(s, rng.chance(0.35) ? "CASH" : "CARD", total, created, employee));
  }
  return tenders;
}

/** One payment at a store, taken at `at` by one of `staff`; a `partial` one shows its first tender only. */
function buildPayment(
  s: SeedContext,
  staff: readonly string[],
  locationId: string,
  at: Date,
  split: boolean,
  partial: boolean,
): Built {
  const { rng, ids } = s;
  const created = at.toISOString();
  const employee = rng.pick(staff);
  const lines = itemLines(s);
  const gross = lines.reduce((x, l) => x + (l.gross_sales_money?.amount ?? 0), 0);
  const tax = lines.reduce((x, l) => x + (l.taxes?.[0]?.applied_money?.amount ?? 0), 0);
  const tip = locationId === DEMO.secondLocationId && rng.chance(0.1) ? rng.int(1, 4) * 100 : 0;
  const total = gross + tax + tip;
  const tenders = tendersFor(s, total, created, employee, split);
  const cardFees = new Map<string, number>();
  for (const t of tenders) {
    if (t.type === "CREDIT_CARD") cardFees.set(t.id ?? "", -(Math.round((t.total_money?.amount ?? 0) * 0.026) + 10));
  }
  const fee = [...cardFees.values()].reduce((x, f) => x + f, 0);
  const id = ids.next(22);
  const shown = partial ? tenders.slice(0, 1) : tenders;
  const payment: V1Payment = {
    id,
    merchant_id: locationId,
    created_at: created,
    creator_id: employee,
    device: {
      id: `DEVICE-${locationId}-1`,
      name: locationId === DEMO.mainLocationId ? "Front counter" : "Dock register",
    },
    payment_url: `https://squareup.com/dashboard/sales/transactions/${id}`,
    receipt_url: shown[0]?.receipt_url ?? "",
    inclusive_tax_money: m(0),
    additive_tax_money: m(tax),
    tax_money: m(tax),
    tip_money: m(tip),
    discount_money: m(0),
    total_collected_money: m(partial ? (shown[0]?.total_money?.amount ?? 0) : total),
    processing_fee_money: m(fee),
    net_total_money: m(total + fee),
    refunded_money: m(0),
    swedish_rounding_money: m(0),
    gross_sales_money: m(gross),
    net_sales_money: m(gross),
    inclusive_tax: [],
    additive_tax: [salesTax(tax)],
    tender: shown,
    refunds: [],
    // A partial payment carries the tenders so far; its items arrive when it completes.
    itemizations: partial ? [] : lines,
    surcharge_money: m(0),
    surcharges: [],
    is_partial: partial,
  };
  return { payment, locationId, arrivedAt: at, cardFees };
}

/** Stores a payment as it arrived, and keeps what its refunds and settlements need. */
function keep(s: SeedContext, b: Built): Seeded {
  const { payment, locationId, arrivedAt, cardFees } = b;
  savePayment(s.db, { payment, merchantId: s.merchantId, locationId, arrivedAt: arrivedAt.toISOString() });
  return {
    id: payment.id ?? "",
    createdAt: payment.created_at ?? "",
    locationId,
    isPartial: payment.is_partial === true,
    tenders: (payment.tender ?? []).map((t) => ({ id: t.id ?? "", amount: t.total_money?.amount ?? 0 })),
    refunds: [],
    cardFees,
  };
}

/** A year of payments at both stores, this morning's late arrivals, and the ones being taken now. */
function layOutPayments(s: SeedContext, staff: readonly string[]): Seeded[] {
  const { rng, now } = s;
  const seeded: Seeded[] = [];
  const stores = [
    { id: DEMO.mainLocationId, perDay: [2, 5], openUtcHour: 14 },
    { id: DEMO.secondLocationId, perDay: [1, 3], openUtcHour: 17 },
  ] as const;
  const scale = Math.max(1, s.scale);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const store of stores) {
    for (let d = 365; d >= 0; d--) {
      const n = rng.int(store.perDay[0], store.perDay[1]) * scale;
      for (let i = 0; i < n; i++) {
        const at = new Date(today - d * DAY + store.openUtcHour * HOUR + rng.int(0, 10 * 60 - 1) * 60_000);
        if (at >= now) continue;
        const p = buildPayment(s, staff, store.id, at, rng.chance(0.08), false);
        if (rng.chance(0.03)) p.arrivedAt = new Date(at.getTime() + rng.int(1, 70) * HOUR);
        seeded.push(keep(s, p));
      }
    }
  }
  // Two offline payments from this morning that reach the service later: the list shows them
  // at their created_at only once they have arrived.
  for (const [ago, eta] of [
    [20, 4],
    [18, 40],
  ] as const) {
    const p = buildPayment(s, staff, DEMO.mainLocationId, new Date(now.getTime() - ago * HOUR), false, false);
    p.arrivedAt = new Date(now.getTime() + eta * HOUR);
    seeded.push(keep(s, p));
  }
  // Payments being taken right now, one tender in so far.
  for (const ago of [3, 2, 1]) {
    const p = buildPayment(s, staff, DEMO.mainLocationId, new Date(now.getTime() - ago * 600_000), true, true);
    seeded.push(keep(s, p));
  }
  return seeded;
}

/**
 * Refunds, made by the same rule as V1CreateRefund, within its 60-day window; a refunded payment
 * is stored again with its refunds.
 */
function seedRefunds(s: SeedContext, seeded: Seeded[]): void {
  const { rng, now } = s;
  for (const p of seeded) {
    if (p.isPartial || !rng.chance(0.025)) continue;
    const at = new Date(Date.parse(p.createdAt) + rng.int(1, 20 * 24) * HOUR);
    if (at >= now) continue;
    const stored = findPayment(s.db, s.merchantId, p.id);
    if (!stored) throw new Error(`seed: payment ${p.id} was not stored`);
    const tenders = stored.payment.tender ?? [];
    const full = rng.chance(0.6);
    const tender = rng.pick(tenders);
    const amount = Math.max(1, Math.round((tender.total_money?.amount ?? 0) * (0.2 + rng() * 0.5)));
    const out = refundPayment(
      stored.payment,
      full
        ? { type: "FULL", reason: rng.pick(REASONS) }
        : { type: "PARTIAL", reason: rng.pick(REASONS), refunded_money: m(amount) },
      tenders.length > 1 && !full ? (tender.id ?? "") : p.id,
      at,
    );
    savePayment(s.db, {
      payment: out.payment,
      merchantId: s.merchantId,
      locationId: p.locationId,
      arrivedAt: stored.arrivedAt,
    });
    p.refunds = out.refunds;
  }
}

/** The refunds, in the order of their payments. */
function storeRefunds(s: SeedContext, seeded: readonly Seeded[]): void {
  const { ids } = s;
  for (const p of seeded) {
    for (const r of p.refunds) {
      saveRefund(s.db, {
        id: ids.next(),
        merchantId: s.merchantId,
        locationId: p.locationId,
        paymentId: p.id,
        tenderId: r.tenderId,
        refund: r.refund,
      });
    }
  }
}

/** One settlement per store per day of card takings, initiated early the next morning. */
function seedSettlements(s: SeedContext, seeded: readonly Seeded[]): void {
  const { rng, ids, now } = s;
  const byDay = new Map<string, V1SettlementEntry[]>();
  const add = (loc: string, at: string, e: V1SettlementEntry) => {
    const key = `${loc}|${at.slice(0, 10)}`;
    const list = byDay.get(key);
    if (list) list.push(e);
    else byDay.set(key, [e]);
  };
  for (const p of seeded) {
    if (p.isPartial) continue;
    for (const t of p.tenders) {
      const fee = p.cardFees.get(t.id);
      if (fee === undefined) continue;
      add(p.locationId, p.createdAt, {
        payment_id: p.id,
        type: "CHARGE",
        amount_money: m(t.amount),
        fee_money: m(fee),
      });
    }
    for (const r of p.refunds) {
      if (!p.cardFees.has(r.tenderId)) continue;
      add(p.locationId, r.refund.created_at ?? "", {
        payment_id: p.id,
        type: "REFUND",
        amount_money: m(r.refund.refunded_money?.amount ?? 0),
        fee_money: m(r.refund.refunded_processing_fee_money?.amount ?? 0),
      });
    }
  }
  for (const [key, entries] of [...byDay.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [loc = "", day = ""] = key.split("|");
    const initiated = new Date(Date.parse(`${day}T00:00:00Z`) + DAY + 9 * HOUR + rng.int(0, 59) * 60_000);
    if (initiated >= now) continue;
    if (rng.chance(0.05)) {
      entries.push({ type: "ADJUSTMENT", amount_money: m(rng.int(-1500, 1500) || 100), fee_money: m(0) });
    }
    if (rng.chance(0.02)) {
      entries.push({ type: "HOLD_ADJUSTMENT", amount_money: m(-rng.int(2000, 9000)), fee_money: m(0) });
    }
    const total = entries.reduce((x, e) => x + (e.amount_money?.amount ?? 0) + (e.fee_money?.amount ?? 0), 0);
    if (total === 0) continue;
    const settlement: V1Settlement = {
      id: ids.next(22),
      status: rng.chance(0.03) ? "FAILED" : "SENT",
      total_money: m(total),
      initiated_at: initiated.toISOString(),
      bank_account_id: BANK_ACCOUNT,
      entries,
    };
    saveSettlement(s.db, s.merchantId, loc, settlement);
  }
}

/** The online store's orders (Main Street ships them), with the history each state implies. */
function seedOrders(s: SeedContext): void {
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
