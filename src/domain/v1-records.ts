// V1 records as a manager reads them: a payment's tenders, items, totals, fees and refunds; a
// settlement's entries and whether they add up to its total; an order's history. Amounts stay
// integers in the currency's minor unit; V1 writes decreases (fees, refunds, discounts) as
// negative numbers, and these shapes say which sign each field has.
import type {
  V1Money,
  V1Order,
  V1OrderHistoryEntryAction,
  V1Payment,
  V1Refund,
  V1Settlement,
  V1SettlementEntryType,
} from "../spec/generated/types.js";
import { V1_OFFLINE_DELAY_HOURS } from "./limits.js";
import { formatMoney } from "./money.js";
import { isSplitTender, paymentCurrency, paymentLeft, tenderLabel, tenderLeft } from "./v1-rules.js";

const amountOf = (m: V1Money | undefined): number => m?.amount ?? 0;

/** Said beside every list of payments: offline payments arrive late and land between earlier ones. */
export const OFFLINE_NOTE = `Payments taken offline can reach the service up to ${V1_OFFLINE_DELAY_HOURS} hours later; they are listed by when they were taken, so one may appear between payments read earlier.`;

/** Said of a partial payment: why it has tenders but no items. */
export const PARTIAL_NOTE =
  "Partial payment: still being taken. It has the tenders collected so far; its items are empty until the payment is complete.";

/** One tender of a payment, as the breakdown shows it. */
export interface TenderLine {
  id: string;
  label: string;
  /** The tender's amount applied to the payment. */
  total: number;
  /** Refunded from it so far (positive). */
  refunded: number;
  /** What can still be refunded from it. */
  left: number;
  /** Cash handed over, and the change given back (cash tenders). */
  tendered: number | undefined;
  change: number | undefined;
}

/** One item line of a payment. */
export interface ItemLine {
  name: string;
  variation: string;
  sku: string;
  quantity: number;
  /** Including its taxes. */
  total: number;
}

/** One refund against a payment. */
export interface RefundLine {
  at: string;
  type: string;
  reason: string;
  /** Refunded (positive). */
  amount: number;
  /** The tender it went back to, when the payment was split. */
  tender: string | undefined;
}

/** A payment as the manager reads it. */
export interface PaymentBreakdown {
  id: string;
  createdAt: string;
  currency: string;
  partial: boolean;
  split: boolean;
  device: string;
  tenders: TenderLine[];
  items: ItemLine[];
  refunds: RefundLine[];
  gross: number;
  discount: number;
  tax: number;
  tip: number;
  /** What the customer paid. */
  collected: number;
  /** The processing fees (a cost: shown positive). */
  fees: number;
  /** Refunded so far (positive). */
  refunded: number;
  /** What is still refundable. */
  left: number;
  /** The deposit after fees and refunds, as the service reports it (net_total_money). */
  net: number;
}

/** Breaks a payment down into its tenders, items, totals, fees and refunds. */
export function paymentBreakdown(p: V1Payment): PaymentBreakdown {
  const tenders = p.tender ?? [];
  const byTender = new Map(tenders.map((t) => [t.id ?? "", tenderLabel(t)]));
  const refunds = (p.refunds ?? []).map((r: V1Refund) => ({
    at: r.created_at ?? "",
    type: r.type ?? "",
    reason: r.reason ?? "",
    amount: Math.abs(amountOf(r.refunded_money)),
    tender: r.payment_id && r.payment_id !== p.id ? byTender.get(r.payment_id) : undefined,
  }));
  return {
    id: p.id ?? "",
    createdAt: p.created_at ?? "",
    currency: paymentCurrency(p),
    partial: p.is_partial === true,
    split: isSplitTender(p),
    device: p.device?.name ?? "",
    tenders: tenders.map((t) => ({
      id: t.id ?? "",
      label: tenderLabel(t),
      total: amountOf(t.total_money),
      refunded: Math.abs(amountOf(t.refunded_money)),
      left: tenderLeft(t),
      tendered: t.type === "CASH" ? amountOf(t.tendered_money) : undefined,
      change: t.type === "CASH" ? amountOf(t.change_back_money) : undefined,
    })),
    items: (p.itemizations ?? []).map((i) => ({
      name: i.name ?? "",
      variation: i.item_variation_name ?? "",
      sku: i.item_detail?.sku ?? "",
      quantity: Number(i.quantity ?? 0),
      total: amountOf(i.total_money),
    })),
    refunds,
    gross: amountOf(p.gross_sales_money),
    discount: Math.abs(amountOf(p.discount_money)),
    tax: amountOf(p.tax_money),
    tip: amountOf(p.tip_money),
    collected: amountOf(p.total_collected_money),
    fees: Math.abs(amountOf(p.processing_fee_money)),
    refunded: Math.abs(amountOf(p.refunded_money)),
    left: paymentLeft(p),
    net: amountOf(p.net_total_money),
  };
}

/** A payment's tenders in a few words: `Visa •••• 4242 + Cash`. */
export function tendersSummary(p: V1Payment): string {
  return (p.tender ?? []).map(tenderLabel).join(" + ") || "—";
}

/** Sums of a list of payments, for the foot of a list. */
export interface PaymentTotals {
  count: number;
  partial: number;
  collected: number;
  fees: number;
  refunded: number;
}

/** Sums what a list of payments collected, paid in fees and refunded (partial payments counted apart). */
export function paymentTotals(list: readonly V1Payment[]): PaymentTotals {
  const t: PaymentTotals = { count: 0, partial: 0, collected: 0, fees: 0, refunded: 0 };
  for (const p of list) {
    if (p.is_partial) {
      t.partial++;
      continue;
    }
    t.count++;
    t.collected += amountOf(p.total_collected_money);
    t.fees += Math.abs(amountOf(p.processing_fee_money));
    t.refunded += Math.abs(amountOf(p.refunded_money));
  }
  return t;
}

// ---- Settlements --------------------------------------------------------------------------------

/** A settlement entry's kind in words: payments, refunds, adjustments, chargeback holds, fees, ... */
export const SETTLEMENT_ENTRY_LABELS: Readonly<Record<V1SettlementEntryType, string>> = {
  CHARGE: "Payment",
  REFUND: "Refund",
  ADJUSTMENT: "Adjustment",
  HOLD_ADJUSTMENT: "Chargeback hold",
  BALANCE_CHARGE: "Balance charge",
  FREE_PROCESSING: "Free processing",
  PAID_SERVICE_FEE: "Service fee",
  PAID_SERVICE_FEE_REFUND: "Service fee refund",
  REDEMPTION_CODE: "Redemption code",
  RETURNED_PAYOUT: "Returned deposit",
  SQUARE_CAPITAL_ADVANCE: "Capital advance",
  SQUARE_CAPITAL_PAYMENT: "Capital repayment",
  SQUARE_CAPITAL_REVERSED_PAYMENT: "Capital repayment reversed",
  SUBSCRIPTION_FEE: "Subscription fee",
  SUBSCRIPTION_FEE_REFUND: "Subscription fee refund",
  OTHER: "Other",
  INCENTED_PAYMENT: "Incentive",
  RETURNED_ACH_ENTRY: "Returned bank transfer",
  RETURNED_SQUARE_275: "Returned instant transfer",
  SQUARE_275: "Instant transfer",
  SQUARE_CARD: "Square Card",
};

/** One entry of a settlement: its amount, its fee (negative or zero), and what it adds. */
export interface SettlementLine {
  type: string;
  label: string;
  paymentId: string;
  amount: number;
  fee: number;
  net: number;
}

/** Whether a settlement's entries add up to its total, and the sums by kind. */
export interface SettlementCheck {
  id: string;
  currency: string;
  total: number;
  lines: SettlementLine[];
  /** Each entry's amount plus its fee, summed. */
  sum: number;
  addsUp: boolean;
  /** total − sum: what the entries leave unexplained (0 when they add up). */
  difference: number;
  /** The entries' amounts alone already add up to the total (their fees taken off before). */
  amountsAlone: boolean;
  byKind: { label: string; count: number; net: number }[];
}

/**
 * Checks a settlement: each entry contributes its amount plus its fee (fees are negative), and
 * the contributions should add up to the settlement's total. When they do not, but the amounts
 * alone do, the entries' amounts were given net of fees; that counts as adding up, and says so.
 */
export function checkSettlement(s: V1Settlement): SettlementCheck {
  const currency = s.total_money?.currency_code ?? s.entries?.[0]?.amount_money?.currency_code ?? "USD";
  const lines = (s.entries ?? []).map((e) => {
    const amount = amountOf(e.amount_money);
    const fee = amountOf(e.fee_money);
    const type = e.type ?? "OTHER";
    return {
      type,
      label: SETTLEMENT_ENTRY_LABELS[type] ?? type,
      paymentId: e.payment_id ?? "",
      amount,
      fee,
      net: amount + fee,
    };
  });
  const total = amountOf(s.total_money);
  const sum = lines.reduce((x, l) => x + l.net, 0);
  const amounts = lines.reduce((x, l) => x + l.amount, 0);
  const amountsAlone = sum !== total && amounts === total && lines.some((l) => l.fee !== 0);
  const addsUp = sum === total || amountsAlone;
  const kinds = new Map<string, { label: string; count: number; net: number }>();
  for (const l of lines) {
    const k = kinds.get(l.label) ?? { label: l.label, count: 0, net: 0 };
    k.count++;
    k.net += amountsAlone ? l.amount : l.net;
    kinds.set(l.label, k);
  }
  return {
    id: s.id ?? "",
    currency,
    total,
    lines,
    sum: amountsAlone ? amounts : sum,
    addsUp,
    difference: addsUp ? 0 : total - sum,
    amountsAlone,
    byKind: [...kinds.values()],
  };
}

/** Whether a settlement's entries add up to its total, in words. */
export function settlementVerdict(c: SettlementCheck): string {
  const m = (n: number) => formatMoney({ amount: n, currency: c.currency });
  if (!c.addsUp) {
    return `The entries add up to ${m(c.sum)}, not the total of ${m(c.total)}: ${m(c.difference)} is not explained by them.`;
  }
  if (c.amountsAlone)
    return `The entries' amounts add up to the total of ${m(c.total)} (their fees were taken off before).`;
  return `The entries add up to the total of ${m(c.total)}.`;
}

/** A settlement's status in words: sent to the bank, or failed. */
export const SETTLEMENT_STATUS_LABELS: Readonly<Record<string, string>> = {
  SENT: "sent",
  FAILED: "failed",
};

// ---- Orders -------------------------------------------------------------------------------------

/** An order's notes with what each is: the buyer's, and the one of each action taken. */
export function orderNotes(o: V1Order): { label: string; note: string }[] {
  const notes = [
    { label: "Buyer's note", note: o.buyer_note },
    { label: "Completed", note: o.completed_note },
    { label: "Canceled", note: o.canceled_note },
    { label: "Refunded", note: o.refunded_note },
  ];
  return notes.filter((n): n is { label: string; note: string } => Boolean(n.note));
}

/** A step of an order's history in words. */
export const ORDER_HISTORY_LABELS: Readonly<Record<V1OrderHistoryEntryAction, string>> = {
  ORDER_PLACED: "Placed",
  DECLINED: "Declined",
  PAYMENT_RECEIVED: "Payment received",
  CANCELED: "Canceled",
  COMPLETED: "Completed (shipped)",
  REFUNDED: "Refunded",
  EXPIRED: "Expired",
};
