import { describe, expect, it } from "vitest";
import type { V1Payment, V1Tender } from "../spec/generated/types.js";
import {
  allowedOrderActions,
  checkOrderAction,
  checkV1Range,
  checkV1Refund,
  checkV1RefundParts,
  describeV1Range,
  lastDateOfRange,
  paymentLeft,
  refundConfirmation,
  tenderLabel,
  v1DateRange,
  v1RangeTimes,
  v1RefundRequest,
} from "./v1-rules.js";

const usd = (amount: number) => ({ amount, currency_code: "USD" as const });
const NOW = new Date("2026-06-15T16:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();
const card = (id: string, total: number, refunded = 0): V1Tender => ({
  id,
  type: "CREDIT_CARD",
  card_brand: "VISA",
  pan_suffix: "4242",
  total_money: usd(total),
  refunded_money: usd(-refunded),
});
const cash = (id: string, total: number, refunded = 0): V1Tender => ({
  id,
  type: "CASH",
  total_money: usd(total),
  refunded_money: usd(-refunded),
});
const payment = (tenders: V1Tender[], ageDays = 1, extra: Partial<V1Payment> = {}): V1Payment => ({
  id: "PAY1",
  created_at: daysAgo(ageDays),
  total_collected_money: usd(tenders.reduce((s, t) => s + (t.total_money?.amount ?? 0), 0)),
  tender: tenders,
  ...extra,
});
const TZ = "America/New_York";

describe("the V1 date range", () => {
  it("defaults to the last 30 days and says the service's own default is a year", () => {
    const r = v1DateRange({}, "2026-06-15");
    expect(r).toEqual({ ok: true, value: { from: "2026-05-17", to: "2026-06-15", source: "default" } });
    if (r.ok) expect(describeV1Range(r.value)).toMatch(/last 30 days.*service's own.*last year/);
  });

  it("takes one year at most: up to the day before the same date a year on", () => {
    expect(v1DateRange({ from: "2025-01-01", to: "2025-12-31" }, "2026-06-15").ok).toBe(true);
    const over = v1DateRange({ from: "2025-01-01", to: "2026-01-01" }, "2026-06-15");
    expect(over).toEqual({
      ok: false,
      problem:
        "2025-01-01 to 2026-01-01 is longer than one year: the service answers at most one year at a time (from 2025-01-01, up to 2025-12-31).",
    });
    expect(lastDateOfRange("2024-02-29")).toBe("2025-02-28");
  });

  it("refuses a start before 2013-01-01, a backwards range, and what is not a date", () => {
    expect(checkV1Range("2012-12-31", "2013-06-01")).toMatch(/no V1 records before 2013-01-01/);
    expect(checkV1Range("2013-01-01", "2013-06-01")).toBeUndefined();
    expect(checkV1Range("2026-06-02", "2026-06-01")).toMatch(/starts on 2026-06-02, after it ends/);
    expect(v1DateRange({ from: "2026-02-30" }, "2026-06-15")).toMatchObject({
      ok: false,
      problem: /not a date/,
      field: "from",
    });
  });

  it("fills one missing end: from-only runs to today or a year on, to-only is the 30 days before", () => {
    expect(v1DateRange({ from: "2026-06-01" }, "2026-06-15")).toMatchObject({
      ok: true,
      value: { from: "2026-06-01", to: "2026-06-15", source: "from-only" },
    });
    expect(v1DateRange({ from: "2020-03-01" }, "2026-06-15")).toMatchObject({ value: { to: "2021-02-28" } });
    expect(v1DateRange({ to: "2026-01-30" }, "2026-06-15")).toMatchObject({ value: { from: "2026-01-01" } });
  });

  it("sends local midnights, never before 2013 in a zone east of UTC, and never more than a year apart", () => {
    expect(v1RangeTimes({ from: "2026-06-01", to: "2026-06-01" }, TZ)).toEqual({
      begin: "2026-06-01T04:00:00.000Z",
      end: "2026-06-02T04:00:00.000Z",
    });
    const paris = v1RangeTimes({ from: "2013-01-01", to: "2013-12-31" }, "Europe/Paris");
    expect(paris.begin).toBe("2013-01-01T00:00:00.000Z");
    expect(paris.end).toBe("2013-12-31T23:00:00.000Z");
    const year = v1RangeTimes({ from: "2025-03-01", to: "2026-02-28" }, TZ);
    expect(Date.parse(year.end) - Date.parse(year.begin)).toBe(365 * 86_400_000);
  });
});

describe("the refund rules", () => {
  const full = { kind: "full" as const, reason: "Returned" };
  const part = (amount: number, tenderId?: string) => ({
    kind: "partial" as const,
    reason: "Scratched",
    tenderId,
    amount,
  });

  it("refuses a payment more than 60 days old, naming the day it was taken", () => {
    expect(checkV1Refund(payment([card("T1", 1000)], 60), full, NOW, TZ)).toBeUndefined();
    expect(checkV1Refund(payment([card("T1", 1000)], 61), full, NOW, TZ)).toBe(
      "This payment was taken on 2026-04-15, 61 days ago: the service refunds a payment only within 60 days of when it was taken.",
    );
  });

  it("refuses a partial refund of a split-tender payment without a tender, listing the tenders", () => {
    const split = payment([card("T1", 4000), cash("T2", 2000)]);
    expect(checkV1Refund(split, part(500), NOW, TZ)).toBe(
      "This payment was split (Visa •••• 4242 40.00 USD, Cash 20.00 USD): a partial refund comes out of one tender — choose which.",
    );
    expect(checkV1Refund(split, part(500, "T2"), NOW, TZ)).toBeUndefined();
    expect(checkV1Refund(split, part(500, "NOPE"), NOW, TZ)).toMatch(/not one of this payment's/);
    // A full refund of a split payment needs no tender: every tender is refunded.
    expect(checkV1Refund(split, full, NOW, TZ)).toBeUndefined();
  });

  it("refuses an amount over what is left on the tender, and zero", () => {
    const p = payment([card("T1", 4000, 2750), cash("T2", 2000)]);
    expect(checkV1Refund(p, part(1300, "T1"), NOW, TZ)).toBe(
      "Only 12.50 USD is left to refund on Visa •••• 4242 (40.00 USD taken, 27.50 USD refunded); 13.00 USD is more than that.",
    );
    expect(checkV1Refund(p, part(1250, "T1"), NOW, TZ)).toBeUndefined();
    expect(checkV1Refund(p, part(0, "T1"), NOW, TZ)).toMatch(/more than 0/);
    expect(checkV1Refund(payment([cash("T1", 500)]), part(501), NOW, TZ)).toMatch(/Only 5.00 USD is left/);
  });

  it("refuses a partial payment, one refunded in full, and a missing reason", () => {
    expect(checkV1Refund(payment([card("T1", 500)], 0, { is_partial: true }), full, NOW, TZ)).toMatch(
      /still being taken/,
    );
    expect(checkV1Refund(payment([card("T1", 500, 500)]), full, NOW, TZ)).toMatch(/refunded in full already/);
    expect(checkV1Refund(payment([card("T1", 500)]), { kind: "full", reason: "  " }, NOW, TZ)).toMatch(/reason/);
  });

  it("names the part of the refund a rule is about: the tender, the amount, the reason; none for the payment's own", () => {
    const partOf = (p: ReturnType<typeof payment>, draft: Parameters<typeof checkV1RefundParts>[1]) =>
      checkV1RefundParts(p, draft, NOW, TZ)?.part;
    const split = payment([card("T1", 4000, 2750), cash("T2", 2000)]);
    expect(partOf(split, part(500))).toBe("tender");
    expect(partOf(split, part(500, "NOPE"))).toBe("tender");
    expect(partOf(split, part(1300, "T1"))).toBe("amount");
    expect(partOf(split, part(0, "T1"))).toBe("amount");
    expect(partOf(payment([card("T1", 500)]), { kind: "full", reason: "" })).toBe("reason");
    expect(checkV1RefundParts(payment([card("T1", 500)], 61), full, NOW, TZ)).toEqual({
      problem: expect.stringMatching(/61 days ago/),
    });
    expect(checkV1RefundParts(payment([card("T1", 500, 500)]), full, NOW, TZ)).not.toHaveProperty("part");
  });

  it("builds the request: full names the payment; partial names the tender of a split payment", () => {
    const split = payment([card("T1", 4000), cash("T2", 2000)]);
    expect(v1RefundRequest(split, full, "K1")).toEqual({
      payment_id: "PAY1",
      type: "FULL",
      reason: "Returned",
      request_idempotence_key: "K1",
    });
    expect(v1RefundRequest(split, part(500, "T2"), "K2")).toEqual({
      payment_id: "T2",
      type: "PARTIAL",
      reason: "Scratched",
      refunded_money: usd(500),
      request_idempotence_key: "K2",
    });
    expect(v1RefundRequest(payment([card("T1", 900)]), part(100), "K3").payment_id).toBe("PAY1");
  });

  it("confirms with the amount and that a card refund cannot be reversed", () => {
    const p = payment([card("T1", 4000, 1000), cash("T2", 2000)]);
    expect(paymentLeft(p)).toBe(5000);
    expect(refundConfirmation(p, full)).toBe(
      "Refund 50.00 USD (everything left on this payment) to Visa •••• 4242 and Cash? A refund to a card cannot be reversed once it is sent.",
    );
    expect(refundConfirmation(p, part(300, "T2"))).toMatch(
      /^Refund 3.00 USD \(part of this payment\) to Cash\? A refund cannot be undone/,
    );
    expect(tenderLabel({ type: "SQUARE_GIFT_CARD" })).toBe("Gift card");
  });
});

describe("the order actions", () => {
  it("allows complete only when open, cancel when pending or open, refund only when completed", () => {
    expect(allowedOrderActions({ state: "PENDING" })).toEqual(["CANCEL"]);
    expect(allowedOrderActions({ state: "OPEN" })).toEqual(["COMPLETE", "CANCEL"]);
    expect(allowedOrderActions({ state: "COMPLETED" })).toEqual(["REFUND"]);
    for (const state of ["CANCELED", "REFUNDED", "REJECTED"] as const)
      expect(allowedOrderActions({ state })).toEqual([]);
    expect(checkOrderAction({ state: "COMPLETED" }, "CANCEL")).toBe(
      "Only a pending or open order can be canceled; this one is completed.",
    );
    expect(checkOrderAction({ state: "PENDING" }, "COMPLETE")).toBe(
      "Only an open order can be completed; this one is pending.",
    );
  });
});
