// The V1 interface's rules, checked before anything is sent: the date range of the lists, the
// refund of a payment, and the update actions an online-store order allows in its state. The
// local service enforces the same rules with the same limits (`limits.ts`, and the order
// transitions below, which it imports).
import type {
  Currency,
  V1CreateRefundRequest,
  V1Order,
  V1OrderState,
  V1Payment,
  V1Tender,
  V1UpdateOrderRequestAction,
} from "../spec/generated/types.js";
import { V1_EARLIEST_BEGIN, V1_MAX_RANGE_YEARS, V1_REFUND_WINDOW_DAYS } from "./limits.js";
import { formatMoney } from "./money.js";
import { addDays, localDate, parseDate, zonedInstant } from "./time.js";

/** A rule a request would break, explained in words; undefined if none. */
export type RuleProblem = string | undefined;

/** The earliest date a V1 range may start on (the local date of {@link V1_EARLIEST_BEGIN}). */
export const V1_EARLIEST_DATE = V1_EARLIEST_BEGIN.slice(0, 10);

/** Days the app reads when no dates are given: the last 30, today included. */
export const V1_DEFAULT_DAYS = 30;

/** How the range's dates were chosen: both given, one of them, or neither (the app's default). */
export type V1RangeSource = "given" | "from-only" | "to-only" | "default";

/** Local dates `from`..`to`, both included, and how they were chosen. */
export interface V1DateRange {
  from: string;
  to: string;
  source: V1RangeSource;
}

/** A range, or the rule it breaks in words. */
/** The range, or what is wrong with it (`field`: the input a date that is not one was typed in). */
export type V1RangeResult = { ok: true; value: V1DateRange } | { ok: false; problem: string; field?: "from" | "to" };

/** The same calendar date `years` later (29 February rolls to 1 March, as the service counts). */
export function addYearsToDate(date: string, years: number): string {
  const d = parseDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  const t = new Date(Date.UTC(d.year + years, d.month - 1, d.day));
  return t.toISOString().slice(0, 10);
}

/** The last date a range starting on `from` may end on: the day before the same date a year on. */
export function lastDateOfRange(from: string): string {
  return addDays(addYearsToDate(from, V1_MAX_RANGE_YEARS), -1);
}

/**
 * The dates a V1 list reads. Neither given: the last {@link V1_DEFAULT_DAYS} days up to today
 * (the interface's own default, when no dates are sent, is the last year: the app sends dates
 * always, so the manager sees which). Only `from`: up to today, or a year on when that is sooner.
 * Only `to`: the 30 days ending then. Refused: a date that is not one, a range that ends before
 * it starts, starts before 2013-01-01, or is longer than one year.
 */
export function v1DateRange(
  input: { from?: string | undefined; to?: string | undefined },
  today: string,
): V1RangeResult {
  for (const [name, value] of [
    ["from", input.from],
    ["to", input.to],
  ] as const) {
    if (value !== undefined && !parseDate(value)) {
      return { ok: false, problem: `The ${name} date "${value}" is not a date; write it as YYYY-MM-DD.`, field: name };
    }
  }
  const given = { from: input.from?.trim(), to: input.to?.trim() };
  let range: V1DateRange;
  if (given.from && given.to) range = { from: given.from, to: given.to, source: "given" };
  else if (given.from) {
    const last = lastDateOfRange(given.from);
    range = { from: given.from, to: today < last ? today : last, source: "from-only" };
    if (range.to < range.from) range.to = range.from;
  } else if (given.to) range = { from: addDays(given.to, -(V1_DEFAULT_DAYS - 1)), to: given.to, source: "to-only" };
  else range = { from: addDays(today, -(V1_DEFAULT_DAYS - 1)), to: today, source: "default" };
  const problem = checkV1Range(range.from, range.to);
  return problem ? { ok: false, problem } : { ok: true, value: range };
}

/** The interface's range rules over local dates `from`..`to` (both included), in words. */
export function checkV1Range(from: string, to: string): RuleProblem {
  if (from > to) return `The range starts on ${from}, after it ends on ${to}.`;
  if (from < V1_EARLIEST_DATE) {
    return `The range starts on ${from}: the service keeps no V1 records before ${V1_EARLIEST_DATE}, and refuses a range that starts earlier.`;
  }
  const last = lastDateOfRange(from);
  if (to > last) {
    return `${from} to ${to} is longer than one year: the service answers at most one year at a time (from ${from}, up to ${last}).`;
  }
  return undefined;
}

/** Words for how the dates were chosen, naming the interface's own default. */
export function describeV1Range(r: V1DateRange): string {
  switch (r.source) {
    case "default":
      return `the last ${V1_DEFAULT_DAYS} days, ${r.from} to ${r.to} (the app's default; the service's own, when no dates are sent, is the last year)`;
    case "from-only":
      return `${r.from} to ${r.to} (to today, or at most a year)`;
    case "to-only":
      return `${r.from} to ${r.to} (the ${V1_DEFAULT_DAYS} days up to ${r.to})`;
    case "given":
      return `${r.from} to ${r.to}`;
  }
}

/**
 * `begin_time` (inclusive) and `end_time` (exclusive) of local dates `from`..`to`. The begin is
 * never before {@link V1_EARLIEST_BEGIN} (in a zone east of UTC, midnight of 2013-01-01 is still
 * 2012 there), and the end never more than a year after the begin (a change of the zone's rules
 * between the two dates could make local midnights a year apart a little more than a year).
 */
export function v1RangeTimes(r: Pick<V1DateRange, "from" | "to">, timeZone: string): { begin: string; end: string } {
  const earliest = Date.parse(V1_EARLIEST_BEGIN);
  const begin = new Date(Math.max(zonedInstant(r.from, "00:00", timeZone).getTime(), earliest));
  const yearOn = new Date(begin.getTime());
  yearOn.setUTCFullYear(yearOn.getUTCFullYear() + V1_MAX_RANGE_YEARS);
  const end = new Date(Math.min(zonedInstant(addDays(r.to, 1), "00:00", timeZone).getTime(), yearOn.getTime()));
  return { begin: begin.toISOString(), end: end.toISOString() };
}

// ---- Refunds ------------------------------------------------------------------------------------

const amountOf = (m: { amount?: number } | undefined): number => m?.amount ?? 0;

/** What a tender can still give back: its total less what was refunded (negative on the wire). */
export function tenderLeft(t: V1Tender): number {
  return Math.max(0, amountOf(t.total_money) - Math.abs(amountOf(t.refunded_money)));
}

/** What the whole payment can still give back: the sum of its tenders' remainders. */
export function paymentLeft(p: V1Payment): number {
  return (p.tender ?? []).reduce((s, t) => s + tenderLeft(t), 0);
}

/** A payment's currency (its collected money's, else its first tender's, else USD). */
export function paymentCurrency(p: V1Payment): string {
  return p.total_collected_money?.currency_code ?? p.tender?.[0]?.total_money?.currency_code ?? "USD";
}

/** Whether a payment was paid with more than one tender (card and cash, two cards, ...). */
export const isSplitTender = (p: V1Payment): boolean => (p.tender?.length ?? 0) > 1;

/** A tender in words: `Visa •••• 4242`, `Cash`, `Gift card`. */
export function tenderLabel(t: V1Tender): string {
  if (t.type === "CASH") return "Cash";
  if (t.type === "SQUARE_GIFT_CARD" || t.card_brand === "SQUARE_GIFT_CARD") return "Gift card";
  if (t.type === "CREDIT_CARD" || t.card_brand) {
    const brand = CARD_BRANDS[t.card_brand ?? "OTHER_BRAND"] ?? "Card";
    return t.pan_suffix ? `${brand} •••• ${t.pan_suffix}` : brand;
  }
  return t.name || TENDER_TYPES[t.type ?? "UNKNOWN"] || "Other";
}

const CARD_BRANDS: Record<string, string> = {
  OTHER_BRAND: "Card",
  VISA: "Visa",
  MASTER_CARD: "Mastercard",
  AMERICAN_EXPRESS: "American Express",
  DISCOVER: "Discover",
  DISCOVER_DINERS: "Diners Club",
  JCB: "JCB",
  CHINA_UNIONPAY: "UnionPay",
};

const TENDER_TYPES: Record<string, string> = {
  THIRD_PARTY_CARD: "Card (other processor)",
  NO_SALE: "No sale",
  SQUARE_WALLET: "Square Wallet",
  UNKNOWN: "Other",
  OTHER: "Other",
};

/** Whether a tender's refund goes back to a card (and so cannot be reversed once sent). */
export const isCardTender = (t: V1Tender): boolean => t.type !== "CASH" && t.type !== "OTHER" && t.type !== "NO_SALE";

/** What the manager asks for: the whole payment, or an amount from one tender (or the only one). */
export type V1RefundDraft =
  | { kind: "full"; reason: string }
  | { kind: "partial"; reason: string; tenderId: string | undefined; amount: number };

/** The part of a refund a rule is about: the tender it comes out of, its amount, its reason. */
export type RefundPart = "tender" | "amount" | "reason";

/** A refund rule broken, and the part of the refund it is about when it is one (not the payment's own state). */
export interface RefundProblem {
  problem: string;
  part?: RefundPart;
}

/**
 * The interface's refund rules over a payment, in the manager's words, before anything is sent:
 * a payment still being taken, one more than {@link V1_REFUND_WINDOW_DAYS} days old, one with
 * nothing left; a partial refund of a split-tender payment without a tender; an amount of zero
 * or over what is left; and a refund without a reason.
 */
export function checkV1Refund(p: V1Payment, draft: V1RefundDraft, now: Date, timeZone: string): RuleProblem {
  return checkV1RefundParts(p, draft, now, timeZone)?.problem;
}

/** {@link checkV1Refund}, naming the part of the refund a rule is about (the tender, the amount, the reason). */
export function checkV1RefundParts(
  p: V1Payment,
  draft: V1RefundDraft,
  now: Date,
  timeZone: string,
): RefundProblem | undefined {
  const currency = paymentCurrency(p);
  const money = (amount: number) => formatMoney({ amount, currency });
  if (p.is_partial) {
    return {
      problem:
        "This payment is still being taken (only some of its tenders are in); it can be refunded once it is complete.",
    };
  }
  const takenMs = Date.parse(p.created_at ?? "");
  const ageDays = (now.getTime() - takenMs) / 86_400_000;
  if (Number.isFinite(takenMs) && ageDays > V1_REFUND_WINDOW_DAYS) {
    return {
      problem: `This payment was taken on ${localDate(takenMs, timeZone)}, ${Math.floor(ageDays)} days ago: the service refunds a payment only within ${V1_REFUND_WINDOW_DAYS} days of when it was taken.`,
    };
  }
  if (paymentLeft(p) <= 0)
    return { problem: "This payment has been refunded in full already; nothing is left to refund." };
  if (draft.kind === "full") return checkReason(draft.reason);
  const tenders = p.tender ?? [];
  const onTender = (problem: string): RefundProblem => ({ problem, part: "tender" });
  if (draft.tenderId === undefined && isSplitTender(p)) {
    const list = tenders.map((t) => `${tenderLabel(t)} ${money(amountOf(t.total_money))}`).join(", ");
    return onTender(`This payment was split (${list}): a partial refund comes out of one tender — choose which.`);
  }
  const tender = draft.tenderId === undefined ? tenders[0] : tenders.find((t) => t.id === draft.tenderId);
  if (!tender) return onTender("That tender is not one of this payment's.");
  if (!Number.isSafeInteger(draft.amount) || draft.amount <= 0) {
    return { problem: "The amount to refund must be more than 0.", part: "amount" };
  }
  const left = tenderLeft(tender);
  if (left <= 0) return onTender(`The ${tenderLabel(tender)} part has been refunded in full already.`);
  if (draft.amount > left) {
    const refunded = Math.abs(amountOf(tender.refunded_money));
    const history = refunded > 0 ? ` (${money(amountOf(tender.total_money))} taken, ${money(refunded)} refunded)` : "";
    return {
      problem: `Only ${money(left)} is left to refund on ${tenderLabel(tender)}${history}; ${money(draft.amount)} is more than that.`,
      part: "amount",
    };
  }
  return checkReason(draft.reason);
}

const checkReason = (reason: string): RefundProblem | undefined =>
  reason.trim() === ""
    ? { problem: "Type the reason for the refund; it is kept with the refund.", part: "reason" }
    : undefined;

/**
 * The V1CreateRefund body for a checked draft: a full refund names the payment (every tender is
 * refunded); a partial one names the tender of a split-tender payment, else the payment. The
 * amount is sent positive (the service reads either sign as the same amount).
 */
export function v1RefundRequest(p: V1Payment, draft: V1RefundDraft, idempotenceKey: string): V1CreateRefundRequest {
  const base = { reason: draft.reason.trim(), request_idempotence_key: idempotenceKey };
  if (draft.kind === "full") return { ...base, payment_id: p.id ?? "", type: "FULL" };
  const target = isSplitTender(p) && draft.tenderId !== undefined ? draft.tenderId : (p.id ?? "");
  return {
    ...base,
    payment_id: target,
    type: "PARTIAL",
    refunded_money: { amount: draft.amount, currency_code: paymentCurrency(p) as Currency },
  };
}

/** What the confirmation says before a refund is sent: what goes back, and that a card refund is final. */
export function refundConfirmation(p: V1Payment, draft: V1RefundDraft): string {
  const currency = paymentCurrency(p);
  const tenders = p.tender ?? [];
  const picked =
    draft.kind === "full"
      ? tenders.filter((t) => tenderLeft(t) > 0)
      : [draft.tenderId === undefined ? tenders[0] : tenders.find((t) => t.id === draft.tenderId)].filter(
          (t): t is V1Tender => t !== undefined,
        );
  const amount = draft.kind === "full" ? paymentLeft(p) : draft.amount;
  const to = picked.map(tenderLabel).join(" and ") || "the payment";
  const card = picked.some(isCardTender)
    ? " A refund to a card cannot be reversed once it is sent."
    : " A refund cannot be undone once it is sent.";
  const what = draft.kind === "full" ? "everything left on this payment" : "part of this payment";
  return `Refund ${formatMoney({ amount, currency })} (${what}) to ${to}?${card}`;
}

// ---- Online-store orders ------------------------------------------------------------------------

/**
 * Which states each update action may start from and where it leads: COMPLETE (shipped) only an
 * OPEN order, CANCEL a PENDING or OPEN one, REFUND only a COMPLETED one. The local service applies
 * this same table.
 */
export const V1_ORDER_TRANSITIONS: Readonly<
  Record<V1UpdateOrderRequestAction, { from: readonly V1OrderState[]; to: V1OrderState }>
> = {
  COMPLETE: { from: ["OPEN"], to: "COMPLETED" },
  CANCEL: { from: ["PENDING", "OPEN"], to: "CANCELED" },
  REFUND: { from: ["COMPLETED"], to: "REFUNDED" },
};

/** The update actions, in the order a screen offers them. */
export const V1_ORDER_ACTIONS: readonly V1UpdateOrderRequestAction[] = ["COMPLETE", "CANCEL", "REFUND"];

/** An order's state in words. */
export const ORDER_STATE_LABELS: Readonly<Record<V1OrderState, string>> = {
  PENDING: "pending (not paid yet)",
  OPEN: "open (paid, not shipped)",
  COMPLETED: "completed (shipped)",
  CANCELED: "canceled",
  REFUNDED: "refunded",
  REJECTED: "rejected",
};

/** An update action in words. */
export const ORDER_ACTION_LABELS: Readonly<Record<V1UpdateOrderRequestAction, string>> = {
  COMPLETE: "Complete (shipped)",
  CANCEL: "Cancel",
  REFUND: "Refund",
};

/** Whether the order's state allows the action, and why not in words. */
export function checkOrderAction(order: Pick<V1Order, "state">, action: V1UpdateOrderRequestAction): RuleProblem {
  const state = order.state ?? "PENDING";
  const rule = V1_ORDER_TRANSITIONS[action];
  if (rule.from.includes(state)) return undefined;
  const word = (s: V1OrderState) => ORDER_STATE_LABELS[s].split(" (")[0];
  const needs = rule.from.map(word).join(" or ");
  const article = /^[aeiou]/.test(needs) ? "an" : "a";
  return `Only ${article} ${needs} order can be ${PAST[action]}; this one is ${word(state)}.`;
}

const PAST: Record<V1UpdateOrderRequestAction, string> = {
  COMPLETE: "completed",
  CANCEL: "canceled",
  REFUND: "refunded",
};

/** The actions an order allows in its state. */
export function allowedOrderActions(order: Pick<V1Order, "state">): V1UpdateOrderRequestAction[] {
  return V1_ORDER_ACTIONS.filter((a) => checkOrderAction(order, a) === undefined);
}

/** The question asked before an order action is sent, naming the order. */
export function orderActionQuestion(order: V1Order, action: V1UpdateOrderRequestAction): string {
  const total = order.total_price_money;
  const money =
    total?.amount === undefined
      ? ""
      : ` (${formatMoney({ amount: total.amount, currency: total.currency_code ?? "USD" })})`;
  const whose = `the order ${order.recipient_name ? `for ${order.recipient_name}` : (order.id ?? "")}${money}`;
  switch (action) {
    case "COMPLETE":
      return `Mark ${whose} as shipped (completed)?`;
    case "CANCEL":
      return `Cancel ${whose}? A canceled order cannot be reopened.`;
    case "REFUND":
      return `Mark ${whose} as refunded? It cannot be undone.`;
  }
}

/** The note field each action carries (the interface refuses another action's note). */
export const ORDER_NOTE_FIELD = {
  COMPLETE: "completed_note",
  CANCEL: "canceled_note",
  REFUND: "refunded_note",
} as const satisfies Record<V1UpdateOrderRequestAction, string>;
