import { V1_REFUND_WINDOW_DAYS as REFUND_WINDOW_DAYS } from "../../domain/limits.js";
import { V1_ORDER_TRANSITIONS } from "../../domain/v1-rules.js";
import type {
  Currency,
  V1CreateRefundRequest,
  V1Money,
  V1Order,
  V1OrderHistoryEntryAction,
  V1OrderState,
  V1Payment,
  V1Refund,
  V1Tender,
  V1UpdateOrderRequest,
} from "../../spec/generated/types.js";
import { badRequest, invalid, ServiceError } from "../errors.js";

/** V1 money in the seller's currency. */
export const v1Money = (amount: number, currency = "USD"): V1Money => ({
  amount,
  currency_code: currency as Currency,
});

const amountOf = (m: V1Money | undefined): number => m?.amount ?? 0;

function refundError(code: string, detail: string, field?: string): ServiceError {
  return new ServiceError(400, [{ category: "REFUND_ERROR", code, detail, ...(field === undefined ? {} : { field }) }]);
}

/** What a tender can still give back; refunded_money is negative on the wire. */
const remainingOf = (t: V1Tender): number => amountOf(t.total_money) + amountOf(t.refunded_money);

/** The result of a refund: the payment as it now stands, each tender's refund, and the answer. */
export interface RefundOutcome {
  payment: V1Payment;
  /** One refund per tender refunded, each with its tender's id. */
  refunds: { tenderId: string; refund: V1Refund }[];
  /** What V1CreateRefund answers: the one refund, or for several tenders their sum. */
  response: V1Refund;
}

type RefundRequest = Pick<V1CreateRefundRequest, "type" | "reason" | "refunded_money">;

/** What a refund takes from which tender. */
type RefundPlan = { tender: V1Tender; amount: number }[];

/** Refuses a refund of a payment that cannot be refunded at all: an unknown type, an incomplete or too old payment. */
function checkRefundable(payment: V1Payment, req: RefundRequest, now: Date): void {
  if (req.type !== "FULL" && req.type !== "PARTIAL") {
    throw invalid("INVALID_ENUM_VALUE", "type must be FULL or PARTIAL.", "type");
  }
  if (payment.is_partial) {
    throw refundError(
      "PAYMENT_NOT_REFUNDABLE",
      "The payment is not complete yet; it cannot be refunded.",
      "payment_id",
    );
  }
  const age = now.getTime() - Date.parse(payment.created_at ?? "");
  if (age > REFUND_WINDOW_DAYS * 86_400_000) {
    throw refundError(
      "PAYMENT_NOT_REFUNDABLE",
      `Refunds must be issued within ${REFUND_WINDOW_DAYS} days of the payment.`,
      "payment_id",
    );
  }
}

/** A FULL refund: what remains of the named tender, or of every tender. */
function planFull(tenders: readonly V1Tender[], named: V1Tender | undefined): RefundPlan {
  const pool = named ? [named] : tenders;
  const plan = pool.filter((t) => remainingOf(t) > 0).map((t) => ({ tender: t, amount: remainingOf(t) }));
  if (plan.length === 0) {
    throw refundError("PAYMENT_NOT_REFUNDABLE", "The payment has already been refunded in full.", "payment_id");
  }
  return plan;
}

/** A PARTIAL refund: an amount of one tender (the named one; a split payment must name one). */
function planPartial(
  tenders: readonly V1Tender[],
  named: V1Tender | undefined,
  req: RefundRequest,
  currency: string,
): RefundPlan {
  if (!named && tenders.length > 1) {
    throw invalid(
      "INVALID_VALUE",
      "A partial refund of a split-tender payment names one tender: send the tender's id as payment_id.",
      "payment_id",
    );
  }
  const tender = named ?? tenders[0];
  if (!tender) throw refundError("PAYMENT_NOT_REFUNDABLE", "The payment has no tender to refund.", "payment_id");
  if (!req.refunded_money || req.refunded_money.amount === undefined) {
    throw invalid("MISSING_REQUIRED_PARAMETER", "A PARTIAL refund needs refunded_money.", "refunded_money");
  }
  if (req.refunded_money.currency_code !== undefined && req.refunded_money.currency_code !== currency) {
    throw refundError("CURRENCY_MISMATCH", `The payment is in ${currency}.`, "refunded_money.currency_code");
  }
  // V1 writes refunded amounts as negative numbers; either sign names the same amount.
  const amount = Math.abs(req.refunded_money.amount);
  const left = remainingOf(tender);
  if (left <= 0) {
    throw refundError("PAYMENT_NOT_REFUNDABLE", "The tender has already been refunded in full.", "payment_id");
  }
  if (amount === 0 || amount > left) {
    throw refundError(
      "REFUND_AMOUNT_INVALID",
      `The refund must be more than 0 and at most the ${left} that remains.`,
      "refunded_money.amount",
    );
  }
  return [{ tender, amount }];
}

/** The refund of `amount` from one tender, with its share of the payment's tax, tip, fee and discount. */
function refundOfTender(
  payment: V1Payment,
  req: RefundRequest,
  { tender, amount }: RefundPlan[number],
  currency: string,
  at: string,
): V1Refund {
  const collected = amountOf(payment.total_collected_money) || 1;
  const share = (m: V1Money | undefined) => Math.round((Math.abs(amountOf(m)) * amount) / collected);
  const split = (payment.tender ?? []).length > 1;
  return {
    type: req.type,
    reason: req.reason,
    refunded_money: v1Money(-amount, currency),
    refunded_processing_fee_money: v1Money(share(payment.processing_fee_money), currency),
    refunded_tax_money: v1Money(-share(payment.tax_money), currency),
    refunded_additive_tax_money: v1Money(-share(payment.additive_tax_money), currency),
    refunded_additive_tax: [],
    refunded_inclusive_tax_money: v1Money(-share(payment.inclusive_tax_money), currency),
    refunded_inclusive_tax: [],
    refunded_tip_money: v1Money(-share(payment.tip_money), currency),
    refunded_discount_money: v1Money(share(payment.discount_money), currency),
    refunded_surcharge_money: v1Money(0, currency),
    refunded_surcharges: [],
    created_at: at,
    processed_at: at,
    // For a split-tender payment the refund names the tender; otherwise the payment.
    payment_id: split ? (tender.id ?? "") : (payment.id ?? ""),
    ...(payment.merchant_id === undefined ? {} : { merchant_id: payment.merchant_id }),
    is_exchange: false,
  };
}

/** What V1CreateRefund answers: the one refund, or for several tenders their sum, naming the payment. */
function refundResponse(payment: V1Payment, refunds: readonly { refund: V1Refund }[], currency: string): V1Refund {
  const sum = (pick: (r: V1Refund) => V1Money | undefined) =>
    v1Money(
      refunds.reduce((s, r) => s + amountOf(pick(r.refund)), 0),
      currency,
    );
  const first = refunds[0]?.refund as V1Refund;
  return refunds.length === 1
    ? first
    : {
        ...first,
        refunded_money: sum((r) => r.refunded_money),
        refunded_processing_fee_money: sum((r) => r.refunded_processing_fee_money),
        refunded_tax_money: sum((r) => r.refunded_tax_money),
        refunded_additive_tax_money: sum((r) => r.refunded_additive_tax_money),
        refunded_inclusive_tax_money: sum((r) => r.refunded_inclusive_tax_money),
        refunded_tip_money: sum((r) => r.refunded_tip_money),
        refunded_discount_money: sum((r) => r.refunded_discount_money),
        payment_id: payment.id ?? "",
      };
}

/**
 * Applies a refund request to a payment. `target` is the request's payment_id: the payment, or
 * for a split-tender payment one tender. FULL refunds what remains (of every tender when the
 * payment is named); PARTIAL needs an amount within what the tender has left. A payment more
 * than 60 days old, an incomplete (partial) payment, and one with nothing left are refused.
 */
export function refundPayment(payment: V1Payment, req: RefundRequest, target: string, now: Date): RefundOutcome {
  const currency = payment.total_collected_money?.currency_code ?? "USD";
  checkRefundable(payment, req, now);
  const tenders = payment.tender ?? [];
  const named = tenders.find((t) => t.id === target);
  const plan = req.type === "FULL" ? planFull(tenders, named) : planPartial(tenders, named, req, currency);
  const at = now.toISOString();
  const refunds = plan.map((p) => ({
    tenderId: p.tender.id ?? "",
    refund: refundOfTender(payment, req, p, currency, at),
  }));
  const total = plan.reduce((s, p) => s + p.amount, 0);
  const updated: V1Payment = {
    ...payment,
    refunded_money: v1Money(amountOf(payment.refunded_money) - total, currency),
    tender: tenders.map((t) => {
      const p = plan.find((x) => x.tender.id === t.id);
      return p ? { ...t, refunded_money: v1Money(amountOf(t.refunded_money) - p.amount, currency) } : t;
    }),
    refunds: [...(payment.refunds ?? []), ...refunds.map((r) => r.refund)],
  };
  return { payment: updated, refunds, response: refundResponse(payment, refunds, currency) };
}

/**
 * Which states each order action may start from and where it leads (the domain's table, which
 * the app checks before sending), and what history and note each writes.
 */
const ORDER_ACTIONS: Partial<
  Record<
    V1UpdateOrderRequest["action"],
    { from: readonly V1OrderState[]; to: V1OrderState; history: V1OrderHistoryEntryAction; note: string }
  >
> = {
  COMPLETE: { ...V1_ORDER_TRANSITIONS.COMPLETE, history: "COMPLETED", note: "completed_note" },
  CANCEL: { ...V1_ORDER_TRANSITIONS.CANCEL, history: "CANCELED", note: "canceled_note" },
  REFUND: { ...V1_ORDER_TRANSITIONS.REFUND, history: "REFUNDED", note: "refunded_note" },
};

const NOTES = ["completed_note", "canceled_note", "refunded_note"] as const;

/**
 * Completes, cancels or refunds an online-store order: COMPLETE only from OPEN, CANCEL from
 * PENDING or OPEN, REFUND only from COMPLETED. Each note (and the tracking number, for
 * COMPLETE) belongs to its own action; another action's note is refused.
 */
export function updateOrder(order: V1Order, req: V1UpdateOrderRequest, now: Date): V1Order {
  const rule = ORDER_ACTIONS[req.action];
  if (!rule) throw invalid("INVALID_ENUM_VALUE", "action must be COMPLETE, CANCEL or REFUND.", "action");
  for (const note of NOTES) {
    if (req[note] !== undefined && note !== rule.note) {
      throw badRequest(`${note} is only valid with its own action, not ${req.action}.`, note);
    }
  }
  if (req.shipped_tracking_number !== undefined && req.action !== "COMPLETE") {
    throw badRequest("shipped_tracking_number is only valid with COMPLETE.", "shipped_tracking_number");
  }
  const state = order.state ?? "PENDING";
  if (!rule.from.includes(state)) {
    throw badRequest(
      `An order in state ${state} cannot take ${req.action}; it needs ${rule.from.join(" or ")}.`,
      "action",
    );
  }
  const at = now.toISOString();
  const note = req[rule.note as (typeof NOTES)[number]];
  return {
    ...order,
    state: rule.to,
    updated_at: at,
    ...(note === undefined ? {} : { [rule.note]: note }),
    order_history: [...(order.order_history ?? []), { action: rule.history, created_at: at }],
  };
}
