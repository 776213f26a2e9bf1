import { describe, expect, it } from "vitest";
import type { Payout, PayoutEntry } from "../spec/generated/types.js";
import { formatMoney } from "./money.js";
import {
  chargeEntriesTotal,
  checkPayoutNet,
  datedEntries,
  entryBreakdown,
  entryFee,
  entrySource,
  entryTypeWords,
  entryWords,
  feeBars,
  feeTotal,
  formatRate,
  keptWords,
  maskDestination,
  parsePayoutStatus,
  payoutMatches,
  payoutRange,
  payoutStatusWord,
  payoutTotals,
  weeklyFees,
} from "./payouts.js";

const usd = (amount: number) => ({ amount, currency: "USD" as const });
let n = 0;
function entry(
  type: NonNullable<PayoutEntry["type"]>,
  gross: number,
  fee: number,
  extra: Partial<PayoutEntry> = {},
): PayoutEntry {
  n += 1;
  return {
    id: `poe_${n}`,
    payout_id: "po_1",
    type,
    effective_at: "2026-03-10T15:00:00Z",
    gross_amount_money: usd(gross),
    fee_amount_money: usd(fee),
    net_amount_money: usd(gross - fee),
    ...extra,
  };
}
const payout = (amount: number, extra: Partial<Payout> = {}): Payout => ({
  id: "po_1",
  location_id: "L1",
  status: "PAID",
  type: "BATCH",
  amount_money: usd(amount),
  ...extra,
});

describe("payout words", () => {
  it("says the status as a manager would", () => {
    expect(payoutStatusWord("SENT")).toBe("sent");
    expect(payoutStatusWord("PAID")).toBe("paid");
    expect(payoutStatusWord("FAILED")).toBe("failed");
    expect(payoutStatusWord(undefined)).toBe("unknown");
    expect(parsePayoutStatus(" In transit ")).toBe("SENT");
    expect(parsePayoutStatus("Paid")).toBe("PAID");
    expect(parsePayoutStatus("lost")).toBeUndefined();
  });

  it("masks the destination to its kind and the last four of its id", () => {
    expect(maskDestination({ type: "BANK_ACCOUNT", id: "bact:Z9Y8X7W6V5" })).toBe("bank account ••W6V5");
    expect(maskDestination({ type: "BANK_ACCOUNT", id: "bact:Z9Y8X7W6V5" }, true)).toBe("bank ••W6V5");
    expect(maskDestination({ type: "CARD", id: "ccof:abcd1234" })).toBe("card ••1234");
    expect(maskDestination({ type: "SQUARE_STORED_BALANCE" })).toBe("Square Checking");
    expect(maskDestination(undefined)).toBe("—");
    // An id too short to hide anything is not shown at all.
    expect(maskDestination({ type: "CARD", id: "1234" })).toBe("card");
  });

  it("names entry types in words and tells where an entry comes from", () => {
    expect(entryTypeWords("DISPUTE")).toBe("chargebacks");
    expect(entryTypeWords("CHARGE")).toBe("charges");
    expect(entryTypeWords("CREDIT_CARD_REPAYMENT")).toBe("credit card repayment");
    // A row of the entries is one entry: in the singular.
    expect(entryWords("CHARGE")).toBe("charge");
    expect(entryWords("DISPUTE")).toBe("chargeback");
    expect(entryWords("TAX_ON_FEE")).toBe("tax on fees");
    expect(entryWords("CREDIT_CARD_REPAYMENT")).toBe("credit card repayment");
    expect(
      entrySource(entry("REFUND", -500, -15, { type_refund_details: { payment_id: "P1", refund_id: "R1" } })),
    ).toBe("payment P1 · refund R1");
    expect(
      entrySource(entry("DISPUTE", -900, 0, { type_dispute_details: { payment_id: "P2", dispute_id: "D2" } })),
    ).toBe("payment P2 · dispute D2");
    expect(entrySource(entry("ADJUSTMENT", 100, 0))).toBe("");
  });
});

describe("fees as the payouts guide adds them up", () => {
  it("sums the entries' fees with a refund's fee negative, whatever sign it came with", () => {
    const entries = [
      entry("CHARGE", 15_000, 465),
      entry("REFUND", -5_000, -155),
      entry("REFUND", -1_000, 31), // a positive refund fee is still a fee given back
      entry("FEE", -1_500, 0),
    ];
    expect(entries.map(entryFee)).toEqual([465, -155, -31, 0]);
    expect(feeTotal(entries)).toBe(279);
  });

  it("says what Square kept: the fees on entries, and entries that are Square's own charges apart", () => {
    const sales = [entry("CHARGE", 15_000, 465), entry("REFUND", -5_000, -155)];
    expect(keptWords(sales, "USD")).toBe(`Square kept ${formatMoney({ amount: 310, currency: "USD" })} in fees.`);
    // A FEE entry of −15.00 is money Square kept too, though no entry's fee holds it.
    const withCharges = [...sales, entry("FEE", -1_500, 0), entry("THIRD_PARTY_FEE", -200, 0)];
    expect(chargeEntriesTotal(withCharges)).toBe(1_500);
    const text = (amount: number) => formatMoney({ amount, currency: "USD" });
    expect(keptWords(withCharges, "USD")).toBe(
      `Square kept ${text(1_810)}: ${text(310)} in fees, ${text(1_500)} in fee entries.`,
    );
    // A subscription fee given back lowers it.
    expect(chargeEntriesTotal([entry("SUBSCRIPTION_FEE", -1_000, 0), entry("SUBSCRIPTION_FEE_REFUND", 400, 0)])).toBe(
      600,
    );
  });

  it("groups entries by type with gross, fee and net per type and in total, sales first", () => {
    const entries = [
      entry("ADJUSTMENT", 100, 0),
      entry("CHARGE", 10_000, 300),
      entry("REFUND", -2_000, -60),
      entry("CHARGE", 5_000, 155),
      entry("DISPUTE", -4_000, 0),
    ];
    const b = entryBreakdown(entries);
    expect(b.groups.map((g) => [g.words, g.count, g.gross, g.fee, g.net])).toEqual([
      ["charges", 2, 15_000, 455, 14_545],
      ["refunds", 1, -2_000, -60, -1_940],
      ["chargebacks", 1, -4_000, 0, -4_000],
      ["adjustments", 1, 100, 0, 100],
    ]);
    expect(b.total).toEqual({ count: 5, gross: 9_100, fee: 395, net: 8_705 });
    expect(b.currency).toBe("USD");
  });
});

describe("checkPayoutNet", () => {
  const entries = [entry("CHARGE", 10_000, 300), entry("REFUND", -2_000, -60)];
  it("is quiet when the entries' net is the payout's amount", () => {
    expect(checkPayoutNet(payout(7_760), entries)).toBeUndefined();
  });
  it("says by how much they differ", () => {
    expect(checkPayoutNet(payout(7_800), entries)).toBe(
      "The entries add up to 77.60 USD, not the payout's 78.00 USD (0.40 USD unexplained).",
    );
    expect(checkPayoutNet(payout(500), [])).toMatch(/no entries, but its amount is 5.00 USD/);
  });
  it("does not check a SIMPLE payout, which has no entries of its own", () => {
    expect(checkPayoutNet(payout(500, { type: "SIMPLE" }), [])).toBeUndefined();
  });
  it("refuses to add entries of another currency", () => {
    const eur = { ...entry("CHARGE", 100, 0), net_amount_money: { amount: 100, currency: "EUR" as const } };
    expect(checkPayoutNet(payout(100), [eur])).toMatch(/in EUR, the payout in USD/);
  });
});

describe("the list's totals and search", () => {
  const list = [
    payout(10_000, { id: "po_a", status: "PAID", end_to_end_id: "L20260310AB12CD34" }),
    payout(2_550, { id: "po_b", status: "SENT" }),
    payout(700, { id: "po_c", status: "FAILED" }),
    payout(100_000, { id: "po_d", status: "PAID" }),
  ];
  it("adds up paid, in transit and failed", () => {
    expect(payoutTotals(list)).toEqual({
      currency: "USD",
      paid: { count: 2, amount: 110_000 },
      inTransit: { count: 1, amount: 2_550 },
      failed: { count: 1, amount: 700 },
    });
  });
  it("finds a payout by amount in any spelling, or by a piece of its reference", () => {
    const ids = (q: string) => list.filter((p) => payoutMatches(p, q)).map((p) => p.id);
    expect(ids("25.50")).toEqual(["po_b"]);
    expect(ids("$100")).toEqual(["po_a", "po_d"]);
    expect(ids("$100.00")).toEqual(["po_a"]);
    expect(ids("1,000.00")).toEqual(["po_d"]);
    // The start of an amount, as typed so far.
    expect(ids("25")).toEqual(["po_b"]);
    expect(ids("$1,000")).toEqual(["po_d"]);
    expect(ids("7")).toEqual(["po_c"]);
    expect(ids("ab12cd")).toEqual(["po_a"]);
    expect(ids("po_c")).toEqual(["po_c"]);
    expect(ids("")).toHaveLength(4);
    expect(ids("nothing")).toEqual([]);
  });
});

describe("weekly fees", () => {
  const at = (iso: string, e: PayoutEntry) => ({ ...e, effective_at: iso });
  const rows = datedEntries(
    [
      at("2026-03-02T15:00:00Z", entry("CHARGE", 10_000, 290)), // Monday, week of 03-02
      at("2026-03-08T23:30:00Z", entry("CHARGE", 10_000, 290)), // Sunday evening in New York
      at("2026-03-09T02:30:00Z", entry("REFUND", -1_000, -29)), // still Sunday 03-08 in New York
      at("2026-03-10T15:00:00Z", entry("FEE", -1_500, 0)),
      at("2026-03-20T15:00:00Z", entry("CHARGE", 20_000, 500)),
    ],
    "America/New_York",
  );
  it("buckets entries by local week and gives each week's effective rate", () => {
    const weeks = weeklyFees(rows, { from: "2026-03-01", to: "2026-03-21" }, "MON");
    expect(weeks.map((w) => [w.week, w.chargesGross, w.fees, w.entries])).toEqual([
      ["2026-02-23", 0, 0, 0],
      ["2026-03-02", 20_000, 551, 3],
      ["2026-03-09", 0, 0, 1],
      ["2026-03-16", 20_000, 500, 1],
    ]);
    expect(weeks.map((w) => formatRate(w.rate))).toEqual(["—", "2.76%", "—", "2.50%"]);
  });
  it("leaves out entries outside the range, and starts weeks where the workweek does", () => {
    const weeks = weeklyFees(rows, { from: "2026-03-08", to: "2026-03-14" }, "SUN");
    expect(weeks.map((w) => [w.week, w.fees])).toEqual([["2026-03-08", 261]]);
  });
  it("scales bars to the largest week, at least one cell for any fee", () => {
    const weeks = weeklyFees(rows, { from: "2026-03-01", to: "2026-03-21" }, "MON");
    expect(feeBars(weeks, 20)).toEqual([0, 20, 0, 18]);
    expect(feeBars(weeks.slice(0, 1), 20)).toEqual([0]);
  });
});

describe("payoutRange", () => {
  it("is the last 30 days, today included, by default", () => {
    expect(payoutRange({}, "2026-03-31")).toEqual({ ok: true, from: "2026-03-02", to: "2026-03-31" });
    expect(payoutRange({ from: "2026-03-01", to: "2026-03-05" }, "2026-03-31")).toMatchObject({
      from: "2026-03-01",
      to: "2026-03-05",
    });
  });
  it("says what is wrong with a range", () => {
    expect(payoutRange({ from: "2026-02-30" }, "2026-03-31")).toMatchObject({
      ok: false,
      problem: /not a date/,
      field: "from",
    });
    expect(payoutRange({ from: "2026-03-05", to: "2026-03-01" }, "2026-03-31")).toMatchObject({
      ok: false,
      problem: /starts \(2026-03-05\) after it ends/,
    });
  });
  it("starts at January 2021 with a note, not an error, when asked for older payouts", () => {
    expect(payoutRange({ from: "2020-11-01", to: "2021-01-31" }, "2026-03-31")).toEqual({
      ok: true,
      from: "2021-01-01",
      to: "2021-01-31",
      note: expect.stringMatching(/before 2021-01-01 are not kept.*Square Dashboard/),
    });
    expect(payoutRange({ from: "2020-01-01", to: "2020-02-01" }, "2026-03-31")).toMatchObject({
      ok: true,
      empty: true,
    });
  });
});
