import type {
  CashDrawerEventType,
  CashDrawerShift,
  CashDrawerShiftEvent,
  Currency,
  Money,
} from "../spec/generated/types.js";

/** The money columns of a cash drawer shift, each the sum of its events. */
export interface CashDrawerTotals {
  cash_payment_money: Money;
  cash_refunds_money: Money;
  cash_paid_in_money: Money;
  cash_paid_out_money: Money;
  expected_cash_money: Money;
}

/** The shift's money fields that expected cash is made of. */
export type CashShiftMoney = Pick<
  CashDrawerShift,
  "opened_cash_money" | "cash_payment_money" | "cash_refunds_money" | "cash_paid_in_money" | "cash_paid_out_money"
>;

/**
 * How each event moves cash in the drawer: +1 in, −1 out, 0 untouched. A cancelled cash payment
 * hands the customer's cash back, so it takes back what the payment put in; other tenders
 * (card, gift card) and a no-sale open never change the cash count.
 */
export const CASH_EFFECT: Readonly<Record<CashDrawerEventType, -1 | 0 | 1>> = {
  NO_SALE: 0,
  CASH_TENDER_PAYMENT: 1,
  OTHER_TENDER_PAYMENT: 0,
  CASH_TENDER_CANCELLED_PAYMENT: -1,
  OTHER_TENDER_CANCELLED_PAYMENT: 0,
  CASH_TENDER_REFUND: -1,
  OTHER_TENDER_REFUND: 0,
  PAID_IN: 1,
  PAID_OUT: -1,
};

const amountOf = (m: Money | undefined): number => (typeof m?.amount === "number" ? m.amount : 0);

/**
 * Sums a shift's events into its money fields: cash payments net of cancelled cash payments,
 * cash refunds, paid in and paid out (each as a positive amount), and the expected cash
 * `opened + payments − refunds + paid in − paid out`.
 */
export function cashDrawerTotals(
  openedCash: Money | undefined,
  events: readonly CashDrawerShiftEvent[],
  currency: Currency = openedCash?.currency ?? "USD",
): CashDrawerTotals {
  let payments = 0;
  let refunds = 0;
  let paidIn = 0;
  let paidOut = 0;
  for (const e of events) {
    const amount = amountOf(e.event_money);
    switch (e.event_type) {
      case "CASH_TENDER_PAYMENT":
        payments += amount;
        break;
      case "CASH_TENDER_CANCELLED_PAYMENT":
        payments -= amount;
        break;
      case "CASH_TENDER_REFUND":
        refunds += amount;
        break;
      case "PAID_IN":
        paidIn += amount;
        break;
      case "PAID_OUT":
        paidOut += amount;
        break;
      default:
        break;
    }
  }
  const money = (amount: number): Money => ({ amount, currency });
  return {
    cash_payment_money: money(payments),
    cash_refunds_money: money(refunds),
    cash_paid_in_money: money(paidIn),
    cash_paid_out_money: money(paidOut),
    expected_cash_money: money(amountOf(openedCash) + payments - refunds + paidIn - paidOut),
  };
}

/**
 * The cash that should be in the drawer: from the shift's own money fields, or, given the
 * shift's events, recomputed from them (what the drawer screen shows for an open shift).
 */
export function expectedCash(shift: CashShiftMoney, events?: readonly CashDrawerShiftEvent[]): Money {
  const currency = shift.opened_cash_money?.currency ?? "USD";
  if (events) return cashDrawerTotals(shift.opened_cash_money, events, currency).expected_cash_money;
  return {
    amount:
      amountOf(shift.opened_cash_money) +
      amountOf(shift.cash_payment_money) -
      amountOf(shift.cash_refunds_money) +
      amountOf(shift.cash_paid_in_money) -
      amountOf(shift.cash_paid_out_money),
    currency,
  };
}

/**
 * Over (positive) or short (negative) when the drawer was counted: closed cash − expected cash.
 * Undefined while the drawer has not been counted (an OPEN or ENDED shift).
 */
export function overShort(
  shift: Pick<CashDrawerShift, "closed_cash_money" | "expected_cash_money"> & CashShiftMoney,
): Money | undefined {
  if (!shift.closed_cash_money || typeof shift.closed_cash_money.amount !== "number") return undefined;
  const expected = shift.expected_cash_money ?? expectedCash(shift);
  return {
    amount: shift.closed_cash_money.amount - amountOf(expected),
    currency: shift.closed_cash_money.currency ?? expected.currency ?? "USD",
  };
}
