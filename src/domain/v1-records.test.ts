import { describe, expect, it } from "vitest";
import type { V1Payment, V1Settlement } from "../spec/generated/types.js";
import { checkSettlement, paymentBreakdown, paymentTotals, settlementVerdict, tendersSummary } from "./v1-records.js";

const usd = (amount: number) => ({ amount, currency_code: "USD" as const });

const split: V1Payment = {
  id: "PAY1",
  created_at: "2026-06-01T15:00:00Z",
  device: { id: "D1", name: "Front counter" },
  gross_sales_money: usd(5000),
  tax_money: usd(444),
  tip_money: usd(0),
  discount_money: usd(0),
  total_collected_money: usd(5444),
  processing_fee_money: usd(-102),
  refunded_money: usd(-500),
  net_total_money: usd(4842),
  tender: [
    {
      id: "T1",
      type: "CREDIT_CARD",
      card_brand: "MASTER_CARD",
      pan_suffix: "1111",
      total_money: usd(3444),
      refunded_money: usd(0),
    },
    {
      id: "T2",
      type: "CASH",
      total_money: usd(2000),
      tendered_money: usd(2000),
      change_back_money: usd(0),
      refunded_money: usd(-500),
    },
  ],
  itemizations: [
    {
      name: "Garden hose 50 ft",
      quantity: 1,
      item_variation_name: "Regular",
      item_detail: { sku: "GA-HOSE-50" },
      total_money: usd(3810),
    },
  ],
  refunds: [
    {
      type: "PARTIAL",
      reason: "Scratched",
      refunded_money: usd(-500),
      created_at: "2026-06-02T10:00:00Z",
      payment_id: "T2",
    },
  ],
};

describe("a payment's breakdown", () => {
  it("lists tenders with what is left, items, refunds against it, fees as a cost", () => {
    const b = paymentBreakdown(split);
    expect(b).toMatchObject({
      split: true,
      partial: false,
      collected: 5444,
      fees: 102,
      refunded: 500,
      left: 4944,
      net: 4842,
      device: "Front counter",
    });
    expect(b.tenders.map((t) => [t.label, t.total, t.refunded, t.left])).toEqual([
      ["Mastercard •••• 1111", 3444, 0, 3444],
      ["Cash", 2000, 500, 1500],
    ]);
    expect(b.items).toEqual([
      { name: "Garden hose 50 ft", variation: "Regular", sku: "GA-HOSE-50", quantity: 1, total: 3810 },
    ]);
    expect(b.refunds).toEqual([
      { at: "2026-06-02T10:00:00Z", type: "PARTIAL", reason: "Scratched", amount: 500, tender: "Cash" },
    ]);
    expect(tendersSummary(split)).toBe("Mastercard •••• 1111 + Cash");
  });

  it("marks a partial payment and counts it apart in the totals", () => {
    const partial: V1Payment = {
      ...split,
      id: "PAY2",
      is_partial: true,
      itemizations: [],
      refunds: [],
      refunded_money: usd(0),
    };
    expect(paymentBreakdown(partial)).toMatchObject({ partial: true, items: [] });
    expect(paymentTotals([split, partial])).toEqual({
      count: 1,
      partial: 1,
      collected: 5444,
      fees: 102,
      refunded: 500,
    });
  });
});

describe("a settlement's entries", () => {
  const settlement = (total: number, entries: NonNullable<V1Settlement["entries"]>): V1Settlement => ({
    id: "S1",
    status: "SENT",
    total_money: usd(total),
    entries,
  });
  const entries: NonNullable<V1Settlement["entries"]> = [
    { type: "CHARGE", payment_id: "P1", amount_money: usd(10_000), fee_money: usd(-270) },
    { type: "CHARGE", payment_id: "P2", amount_money: usd(5_000), fee_money: usd(-140) },
    { type: "REFUND", payment_id: "P1", amount_money: usd(-2_000), fee_money: usd(54) },
    { type: "ADJUSTMENT", amount_money: usd(300), fee_money: usd(0) },
    { type: "HOLD_ADJUSTMENT", amount_money: usd(-4_000), fee_money: usd(0) },
  ];

  it("adds each entry's amount and fee up to the total, by kind", () => {
    const c = checkSettlement(settlement(8_944, entries));
    expect(c).toMatchObject({ addsUp: true, sum: 8_944, difference: 0, amountsAlone: false });
    expect(c.byKind).toEqual([
      { label: "Payment", count: 2, net: 14_590 },
      { label: "Refund", count: 1, net: -1_946 },
      { label: "Adjustment", count: 1, net: 300 },
      { label: "Chargeback hold", count: 1, net: -4_000 },
    ]);
  });

  it("says by how much entries miss the total", () => {
    const c = checkSettlement(settlement(9_000, entries));
    expect(c).toMatchObject({ addsUp: false, sum: 8_944, difference: 56 });
    expect(settlementVerdict(c)).toBe(
      "The entries add up to 89.44 USD, not the total of 90.00 USD: 0.56 USD is not explained by them.",
    );
    expect(settlementVerdict(checkSettlement(settlement(8_944, entries)))).toBe(
      "The entries add up to the total of 89.44 USD.",
    );
  });

  it("accepts amounts already net of fees, and says so", () => {
    const c = checkSettlement(settlement(9_300, entries));
    expect(c).toMatchObject({ addsUp: true, amountsAlone: true, sum: 9_300 });
  });
});
