import { describe, expect, it } from "vitest";
import type { CashDrawerEventType, CashDrawerShiftEvent } from "../spec/generated/types.js";
import { cashDrawerTotals, expectedCash, overShort } from "./cash.js";

const usd = (amount: number) => ({ amount, currency: "USD" as const });
const ev = (event_type: CashDrawerEventType, amount: number): CashDrawerShiftEvent => ({
  event_type,
  event_money: usd(amount),
});

describe("cashDrawerTotals", () => {
  it("sums each kind of event into its field and derives expected cash", () => {
    const t = cashDrawerTotals(usd(20_000), [
      ev("CASH_TENDER_PAYMENT", 1_500),
      ev("CASH_TENDER_PAYMENT", 2_500),
      ev("OTHER_TENDER_PAYMENT", 0),
      ev("NO_SALE", 0),
      ev("CASH_TENDER_REFUND", 700),
      ev("OTHER_TENDER_REFUND", 0),
      ev("PAID_IN", 5_000),
      ev("PAID_OUT", 1_200),
    ]);
    expect(t.cash_payment_money).toEqual(usd(4_000));
    expect(t.cash_refunds_money).toEqual(usd(700));
    expect(t.cash_paid_in_money).toEqual(usd(5_000));
    expect(t.cash_paid_out_money).toEqual(usd(1_200));
    expect(t.expected_cash_money).toEqual(usd(20_000 + 4_000 - 700 + 5_000 - 1_200));
  });

  it("takes a cancelled cash payment back out of cash payments", () => {
    const t = cashDrawerTotals(usd(10_000), [
      ev("CASH_TENDER_PAYMENT", 3_000),
      ev("CASH_TENDER_CANCELLED_PAYMENT", 3_000),
    ]);
    expect(t.cash_payment_money).toEqual(usd(0));
    expect(t.expected_cash_money).toEqual(usd(10_000));
  });

  it("ignores the amounts of other tenders, which never touch the drawer", () => {
    const t = cashDrawerTotals(usd(0), [ev("OTHER_TENDER_PAYMENT", 9_999), ev("OTHER_TENDER_CANCELLED_PAYMENT", 50)]);
    expect(t.expected_cash_money).toEqual(usd(0));
  });

  it("may be negative when removals were recorded without the cash to match", () => {
    expect(cashDrawerTotals(usd(100), [ev("PAID_OUT", 500)]).expected_cash_money).toEqual(usd(-400));
  });

  it("keeps the currency of the opening cash", () => {
    const cad = { amount: 100, currency: "CAD" as const };
    expect(cashDrawerTotals(cad, []).expected_cash_money).toEqual({ amount: 100, currency: "CAD" });
  });
});

describe("expectedCash", () => {
  const shift = {
    opened_cash_money: usd(15_000),
    cash_payment_money: usd(8_000),
    cash_refunds_money: usd(1_000),
    cash_paid_in_money: usd(2_000),
    cash_paid_out_money: usd(500),
  };

  it("is opened + payments − refunds + paid in − paid out from the shift's fields", () => {
    expect(expectedCash(shift)).toEqual(usd(15_000 + 8_000 - 1_000 + 2_000 - 500));
  });

  it("recomputes from events when given them, ignoring stale fields", () => {
    expect(expectedCash(shift, [ev("CASH_TENDER_PAYMENT", 100)])).toEqual(usd(15_100));
  });

  it("treats missing fields as zero", () => {
    expect(expectedCash({ opened_cash_money: usd(300) })).toEqual(usd(300));
  });
});

describe("overShort", () => {
  const base = {
    opened_cash_money: usd(10_000),
    cash_payment_money: usd(5_000),
    cash_refunds_money: usd(0),
    cash_paid_in_money: usd(0),
    cash_paid_out_money: usd(0),
  };

  it("is closed − expected: positive when over", () => {
    expect(overShort({ ...base, closed_cash_money: usd(15_250) })).toEqual(usd(250));
  });

  it("is negative when short", () => {
    expect(overShort({ ...base, expected_cash_money: usd(15_000), closed_cash_money: usd(14_000) })).toEqual(
      usd(-1_000),
    );
  });

  it("is zero when the count matches", () => {
    expect(overShort({ ...base, closed_cash_money: usd(15_000) })).toEqual(usd(0));
  });

  it("is undefined before the drawer is counted", () => {
    expect(overShort(base)).toBeUndefined();
  });
});
