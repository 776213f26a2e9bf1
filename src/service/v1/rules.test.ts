import { describe, expect, it } from "vitest";
import type { V1Order, V1OrderState, V1Payment } from "../../spec/generated/types.js";
import { refusalCode } from "../refusal.js";
import { v1Range } from "./paging.js";
import { refundPayment, updateOrder, v1Money } from "./rules.js";

const now = new Date("2024-06-01T12:00:00Z");
const payment = (tenders: number[], createdDaysAgo = 1): V1Payment => ({
  id: "PAY1",
  merchant_id: "L1",
  created_at: new Date(now.getTime() - createdDaysAgo * 86_400_000).toISOString(),
  total_collected_money: v1Money(tenders.reduce((a, b) => a + b, 0)),
  tax_money: v1Money(80),
  additive_tax_money: v1Money(80),
  processing_fee_money: v1Money(-30),
  refunded_money: v1Money(0),
  tender: tenders.map((amount, i) => ({ id: `T${i}`, total_money: v1Money(amount), refunded_money: v1Money(0) })),
  refunds: [],
});

describe("refundPayment", () => {
  it("refunds within the window and refuses one day past 60", () => {
    expect(
      refundPayment(payment([1000], 60), { type: "FULL", reason: "r" }, "PAY1", now).response.refunded_money,
    ).toEqual(v1Money(-1000));
    expect(refusalCode(() => refundPayment(payment([1000], 61), { type: "FULL", reason: "r" }, "PAY1", now))).toBe(
      "PAYMENT_NOT_REFUNDABLE",
    );
  });

  it("FULL on a split payment refunds each tender and sums the answer; a second FULL is refused", () => {
    const out = refundPayment(payment([600, 400]), { type: "FULL", reason: "r" }, "PAY1", now);
    expect(out.refunds.map((r) => [r.tenderId, r.refund.refunded_money?.amount, r.refund.payment_id])).toEqual([
      ["T0", -600, "T0"],
      ["T1", -400, "T1"],
    ]);
    expect(out.response.refunded_money?.amount).toBe(-1000);
    expect(out.response.payment_id).toBe("PAY1");
    expect(out.payment.refunded_money?.amount).toBe(-1000);
    expect(refusalCode(() => refundPayment(out.payment, { type: "FULL", reason: "r" }, "PAY1", now))).toBe(
      "PAYMENT_NOT_REFUNDABLE",
    );
  });

  it("PARTIAL takes either sign, stays within what remains, and names the tender of a split payment", () => {
    const one = refundPayment(
      payment([1000]),
      { type: "PARTIAL", reason: "r", refunded_money: v1Money(-250) },
      "PAY1",
      now,
    );
    expect(one.payment.tender?.[0]?.refunded_money?.amount).toBe(-250);
    expect(
      refusalCode(() =>
        refundPayment(one.payment, { type: "PARTIAL", reason: "r", refunded_money: v1Money(751) }, "PAY1", now),
      ),
    ).toBe("REFUND_AMOUNT_INVALID");
    expect(
      refusalCode(() =>
        refundPayment(payment([600, 400]), { type: "PARTIAL", reason: "r", refunded_money: v1Money(10) }, "PAY1", now),
      ),
    ).toBe("INVALID_VALUE");
    const split = refundPayment(
      payment([600, 400]),
      { type: "PARTIAL", reason: "r", refunded_money: v1Money(10) },
      "T1",
      now,
    );
    expect(split.payment.tender?.map((t) => t.refunded_money?.amount)).toEqual([0, -10]);
    expect(
      refusalCode(() =>
        refundPayment(
          payment([1000]),
          { type: "PARTIAL", reason: "r", refunded_money: v1Money(10, "CAD") },
          "PAY1",
          now,
        ),
      ),
    ).toBe("CURRENCY_MISMATCH");
  });

  it("refunds taxes and fees in proportion", () => {
    const out = refundPayment(
      payment([1000]),
      { type: "PARTIAL", reason: "r", refunded_money: v1Money(500) },
      "PAY1",
      now,
    );
    expect(out.response.refunded_tax_money?.amount).toBe(-40);
    expect(out.response.refunded_processing_fee_money?.amount).toBe(15);
  });
});

describe("updateOrder", () => {
  const order = (state: V1OrderState): V1Order => ({ id: "O1", state, order_history: [] });
  it("allows COMPLETE from OPEN, CANCEL from PENDING or OPEN, REFUND from COMPLETED only", () => {
    const table: [V1OrderState, "COMPLETE" | "CANCEL" | "REFUND", boolean][] = [
      ["OPEN", "COMPLETE", true],
      ["PENDING", "COMPLETE", false],
      ["COMPLETED", "COMPLETE", false],
      ["PENDING", "CANCEL", true],
      ["OPEN", "CANCEL", true],
      ["COMPLETED", "CANCEL", false],
      ["CANCELED", "CANCEL", false],
      ["COMPLETED", "REFUND", true],
      ["OPEN", "REFUND", false],
      ["REFUNDED", "REFUND", false],
      ["REJECTED", "CANCEL", false],
    ];
    for (const [state, action, ok] of table) {
      const result = refusalCode(() => updateOrder(order(state), { action }, now));
      expect([state, action, result === undefined]).toEqual([state, action, ok]);
    }
  });

  it("records the step in the history and keeps only the action's own note", () => {
    const done = updateOrder(order("OPEN"), { action: "COMPLETE", completed_note: "Sent" }, now);
    expect(done).toMatchObject({ state: "COMPLETED", completed_note: "Sent", updated_at: now.toISOString() });
    expect(done.order_history).toEqual([{ action: "COMPLETED", created_at: now.toISOString() }]);
    expect(refusalCode(() => updateOrder(order("OPEN"), { action: "COMPLETE", refunded_note: "x" }, now))).toBe(
      "BAD_REQUEST",
    );
    expect(
      refusalCode(() => updateOrder(order("OPEN"), { action: "CANCEL", shipped_tracking_number: "1Z" }, now)),
    ).toBe("BAD_REQUEST");
  });
});

describe("v1Range", () => {
  it("defaults to the year up to now", () => {
    expect(v1Range({}, now)).toEqual({ begin: new Date("2023-06-01T12:00:00Z"), end: now });
  });
  it("reads the first year after an old begin, and the year before a lone end", () => {
    expect(v1Range({ begin_time: "2020-03-01T00:00:00Z" }, now).end).toEqual(new Date("2021-03-01T00:00:00Z"));
    expect(v1Range({ end_time: "2020-03-01T00:00:00Z" }, now).begin).toEqual(new Date("2019-03-01T00:00:00Z"));
  });
  it("refuses a begin before 2013 and a range over a year", () => {
    expect(refusalCode(() => v1Range({ begin_time: "2012-12-31T23:59:59Z" }, now))).toBe("INVALID_TIME");
    expect(refusalCode(() => v1Range({ begin_time: "2013-01-01T00:00:00Z" }, now))).toBeUndefined();
    expect(
      refusalCode(() => v1Range({ begin_time: "2020-01-01T00:00:00Z", end_time: "2021-01-01T00:00:00.001Z" }, now)),
    ).toBe("INVALID_TIME_RANGE");
  });
});
