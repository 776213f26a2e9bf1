import type {
  V1Payment,
  V1PaymentItemization,
  V1Refund,
  V1Settlement,
  V1SettlementEntry,
  V1Tender,
} from "../../spec/generated/types.js";
import { bulkLoad, type SeedContext } from "../seed/context.js";
import { DEMO } from "../seed/demo-ids.js";
import { findPayment, savePayment, saveRefund, saveSettlement } from "./repo.js";
import { refundPayment } from "./rules.js";
import { BRANDS, DAY, HOUR, m, PRODUCTS, TAX_RATE } from "./seed-goods.js";
import { seedOrders } from "./seed-orders.js";

const BANK_ACCOUNT = "BA3Q4N8Y2K7MRC5TB";
const REASONS = ["Returned goods", "Wrong size", "Damaged in store", "Customer changed mind", "Price adjustment"];

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
  /** Its tenders' ids and amounts, and a card tender's processing fee. */
  tenders: { id: string; amount: number; fee: number | undefined }[];
  refunds: { tenderId: string; refund: V1Refund }[];
}

/** The sales tax line of an itemization or a payment. */
const salesTax = (tax: number) => ({
  name: "Sales tax",
  applied_money: m(tax),
  rate: String(TAX_RATE),
  inclusion_type: "ADDITIVE" as const,
  fee_id: "TAXSALES01",
});

/** Who takes the V1 payments: the seller's active team members when the store is laid out. */
export function v1Staff(s: Pick<SeedContext, "db" | "merchantId">): string[] {
  const team = (
    s.db.prepare("SELECT id FROM team_members WHERE merchant_id = ? AND status = 'ACTIVE'").all(s.merchantId) as {
      id: string;
    }[]
  ).map((r) => r.id);
  return team.length > 0 ? team : ["TMDEMOOWNER0001"];
}

/**
 * Seeds a year of V1 history up to `s.now`, taken by `staff` ({@link v1Staff}): payments at both
 * stores (some split between card and cash, some taken offline and arriving hours later, a few
 * still partial), refunds made through the same rule the API uses, daily settlements of the card
 * takings, and the online store's orders. `s.rng` is the history's own generator: the same
 * history whether it is laid out with the store or on its first use (seed/deferred.ts).
 */
export function seedV1(s: SeedContext, staff: readonly string[]): void {
  // The tables are empty: their indexes are built once, after the year is in.
  bulkLoad(s.db, ["v1_payments", "v1_tenders", "v1_refunds", "v1_settlements", "v1_orders"], () => layOutV1(s, staff));
}

/** Payments, then refunds, settlements and online orders, in that order (they draw on one generator). */
function layOutV1(s: SeedContext, staff: readonly string[]): void {
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

/** What a stored payment's refunds and settlements need of it. */
function kept(b: Built): Seeded {
  const { payment, locationId, cardFees } = b;
  return {
    id: payment.id ?? "",
    createdAt: payment.created_at ?? "",
    locationId,
    isPartial: payment.is_partial === true,
    tenders: (payment.tender ?? []).map((t) => ({
      id: t.id ?? "",
      amount: t.total_money?.amount ?? 0,
      fee: cardFees.get(t.id ?? ""),
    })),
    refunds: [],
  };
}

/** Stores a payment as it arrived, and keeps what its refunds and settlements need. */
function keep(s: SeedContext, b: Built): Seeded {
  const { payment, locationId, arrivedAt } = b;
  savePayment(s.db, { payment, merchantId: s.merchantId, locationId, arrivedAt: arrivedAt.toISOString() });
  return kept(b);
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
      const fee = t.fee;
      if (fee === undefined) continue;
      add(p.locationId, p.createdAt, {
        payment_id: p.id,
        type: "CHARGE",
        amount_money: m(t.amount),
        fee_money: m(fee),
      });
    }
    for (const r of p.refunds) {
      if (p.tenders.find((t) => t.id === r.tenderId)?.fee === undefined) continue;
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
