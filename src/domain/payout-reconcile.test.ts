import { describe, expect, it } from "vitest";
import type { Currency, Payout, PayoutStatus } from "../spec/generated/types.js";
import { readStatement, type StatementLine } from "./bank-statement.js";
import {
  addBusinessDays,
  fullyReconciled,
  inPostingWindow,
  type Reconciliation,
  reconcileJson,
  reconcileStatement,
} from "./payout-reconcile.js";

function payout(
  id: string,
  amount: number,
  arrival: string,
  status: PayoutStatus = "PAID",
  extra: Partial<Payout> & { currency?: Currency } = {},
): Payout {
  const { currency = "USD", ...rest } = extra;
  return {
    id,
    location_id: "L1",
    status,
    type: "BATCH",
    amount_money: { amount, currency },
    arrival_date: arrival,
    created_at: `${arrival}T03:00:00Z`,
    ...rest,
  };
}

function lines(csv: string, currency = "USD"): StatementLine[] {
  const r = readStatement(csv, { currency });
  if (!r.ok) throw new Error(r.problem);
  return r.lines;
}

/** Each line's outcome in one word (and the payout or payouts), so a test can list all of them. */
function outcomes(r: Reconciliation): Record<number, string> {
  const out: Record<number, string> = {};
  for (const m of r.matched) out[m.line] = `${m.by} ${m.payoutId}`;
  for (const a of r.ambiguous) out[a.line] = `ambiguous ${a.payoutIds.join(" ")}`;
  for (const u of r.unmatched) out[u.line.line] = "unmatched";
  return out;
}

describe("business days and the posting window", () => {
  it("skips weekends", () => {
    expect(addBusinessDays("2026-01-16", 1)).toBe("2026-01-19"); // Friday → Monday
    expect(addBusinessDays("2026-01-21", 3)).toBe("2026-01-26"); // Wednesday → Monday
    expect(addBusinessDays("2026-01-17", 3)).toBe("2026-01-21"); // a Saturday arrival
  });
  it("runs from the arrival date to three business days after", () => {
    const p = payout("po", 1, "2026-01-16");
    expect(["2026-01-15", "2026-01-16", "2026-01-21", "2026-01-22"].map((d) => inPostingWindow(p, d))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});

describe("a Chase checking statement (references inside longer descriptions)", () => {
  const payouts = [
    payout("po_A", 123_456, "2026-01-16", "PAID", { end_to_end_id: "L20260115AB12CD34" }),
    payout("po_B", 98_000, "2026-01-19", "PAID", { end_to_end_id: "L20260118EF56GH78" }),
    payout("po_C", 98_000, "2026-01-20"),
    payout("po_D", 50_000, "2026-01-21"),
    payout("po_E", 75_000, "2026-01-20", "FAILED"),
    payout("po_F", 30_000, "2026-01-21"),
    payout("po_G", 30_000, "2026-01-21"),
    payout("po_H", 4_500, "2026-01-02"),
    payout("po_W", -2_500, "2026-01-23"),
    payout("po_S", 61_000, "2026-01-27", "SENT"),
  ];
  const csv = [
    "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #",
    'CREDIT,01/16/2026,"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ260115 SEC:CCD IND ID:L20260115AB12CD34 IND NAME:BACKROOM",1234.56,ACH_CREDIT,5678.90,,',
    'CREDIT,01/20/2026,"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ260119 SEC:CCD",980.00,ACH_CREDIT,6658.90,,',
    'CREDIT,01/19/2026,"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ260118 SEC:CCD",980.00,ACH_CREDIT,7638.90,,',
    "DEBIT,01/20/2026,GREEN MOUNTAIN POWER,-185.32,ACH_DEBIT,7453.58,,",
    'CREDIT,01/22/2026,"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ260121",300.00,ACH_CREDIT,7753.58,,',
    'CREDIT,01/27/2026,"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ260120",500.00,ACH_CREDIT,8253.58,,',
    'DEBIT,01/26/2026,"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ DEBIT",-25.00,ACH_DEBIT,8228.58,,',
    'CREDIT,01/28/2026,"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ260126 IND ID:L20260115AB12CD34",1234.56,ACH_CREDIT,9463.14,,',
    'CREDIT,01/27/2026,"ORIG CO NAME:SQUARE INC",610.00,ACH_CREDIT,10073.14,,',
  ].join("\n");
  const r = reconcileStatement(lines(csv), payouts);

  it("gives every line its outcome", () => {
    expect(outcomes(r)).toEqual({
      2: "end_to_end_id po_A",
      // Both $980 payouts fit line 3 until line 4 (a Monday, before po_C arrived) takes po_B.
      3: "amount_date po_C",
      4: "amount_date po_B",
      5: "unmatched",
      6: "ambiguous po_F po_G",
      7: "unmatched",
      8: "amount_date po_W",
      // The same reference twice: a deposit's line found again by its reference (a re-post).
      9: "end_to_end_id po_A",
      // A payout still on its way (SENT) can already be on the statement.
      10: "amount_date po_S",
    });
  });
  it("says why a line matched nothing and which payouts are near it", () => {
    const byLine = new Map(r.unmatched.map((u) => [u.line.line, u]));
    expect(byLine.get(5)?.reason).toBe("No payout has this amount.");
    expect(byLine.get(7)?.reason).toBe(
      "A payout has this amount, but it was due more than 3 business days from this date.",
    );
    expect(byLine.get(7)?.nearest[0]).toBe("po_D");
  });
  it("lists the paid payouts of the statement's dates with no line as missing, and failed ones apart", () => {
    expect(r.range).toEqual({ from: "2026-01-16", to: "2026-01-28" });
    // po_F and po_G are candidates of an ambiguous line, not missing; po_H is before the statement.
    expect(r.missing.map((p) => p.id)).toEqual(["po_D"]);
    expect(r.failed.map((p) => p.id)).toEqual(["po_E"]);
    expect(fullyReconciled(r)).toBe(false);
  });
  it("prints exactly the issue's JSON shape", () => {
    const json = reconcileJson(r, "USD");
    expect(Object.keys(json)).toEqual(["matched", "ambiguous", "unmatched", "missing"]);
    expect(json.matched[0]).toEqual({ line: 2, payout_id: "po_A", by: "end_to_end_id" });
    expect(json.ambiguous).toEqual([{ line: 6, payout_ids: ["po_F", "po_G"] }]);
    expect(json.unmatched[0]).toEqual({
      line: 5,
      date: "2026-01-20",
      amount: { amount: -18_532, currency: "USD" },
      description: "GREEN MOUNTAIN POWER",
    });
    expect(json.missing).toEqual([
      { payout_id: "po_D", arrival_date: "2026-01-21", amount: { amount: 50_000, currency: "USD" } },
    ]);
  });
});

describe("a Lloyds statement (debit and credit columns, day-first dates, pounds)", () => {
  const gbp = { currency: "GBP" as const };
  const payouts = [
    payout("po_L1", 152_000, "2026-08-28", "PAID", gbp),
    payout("po_L2", -6_000, "2026-08-28", "PAID", gbp),
    payout("po_L3", 9_999, "2026-08-31", "PAID", gbp),
  ];
  const csv = [
    "Transaction Date,Transaction Type,Sort Code,Account Number,Transaction Description,Debit Amount,Credit Amount,Balance,",
    "28/08/2026,FPI,'30-91-74,02344812,SQUARE PAYMENTS UK LTD,,1520.00,12004.61",
    "29/08/2026,DD,'30-91-74,02344812,BRITISH GAS,84.10,,11920.51",
    "01/09/2026,DD,'30-91-74,02344812,SQUARE EUROPE LTD,60.00,,11860.51",
    "31/08/2026,FPI,'30-91-74,02344812,J SMITH,,200.00,12060.51",
  ].join("\n");
  const r = reconcileStatement(lines(csv, "GBP"), payouts);
  it("gives every line its outcome", () => {
    expect(outcomes(r)).toEqual({
      2: "amount_date po_L1",
      3: "unmatched",
      // Friday's withdrawal posted the next Tuesday: within three business days.
      4: "amount_date po_L2",
      5: "unmatched",
    });
    expect(r.missing.map((p) => p.id)).toEqual(["po_L3"]);
    expect(reconcileJson(r, "GBP").unmatched.map((u) => u.amount)).toEqual([
      { amount: -8_410, currency: "GBP" },
      { amount: 20_000, currency: "GBP" },
    ]);
  });
});

describe("a credit union's statement (withdrawals in brackets)", () => {
  const payouts = [
    payout("po_1", 40_000, "2026-03-02"),
    payout("po_2", -1_250, "2026-02-27"),
    payout("po_3", 103_025, "2026-03-03", "SENT"),
  ];
  const csv = [
    "Date,Transaction Type,Description,Amount",
    "03/02/2026,Credit,SQUARE INC SQ260301,$400.00",
    "03/02/2026,Debit,CITY WATER,($30.00)",
    "03/03/2026,Debit,SQUARE INC,($12.50)",
    '03/04/2026,Credit,SQUARE INC,"$1,030.25"',
  ].join("\n");
  const r = reconcileStatement(lines(csv), payouts);
  it("gives every line its outcome, and is whole once the one stray line is gone", () => {
    expect(outcomes(r)).toEqual({
      2: "amount_date po_1",
      3: "unmatched",
      4: "amount_date po_2",
      5: "amount_date po_3",
    });
    expect(r.missing).toEqual([]);
    const without = csv.split("\n").filter((l) => !l.includes("CITY WATER"));
    expect(fullyReconciled(reconcileStatement(lines(without.join("\n")), payouts))).toBe(true);
  });
});

describe("edge cases of matching", () => {
  it("one payout that fits two lines matches neither: both are ambiguous", () => {
    const csv = ["Date,Description,Amount", "2026-01-05,SQUARE,77.00", "2026-01-06,SQUARE,77.00"].join("\n");
    const r = reconcileStatement(lines(csv), [payout("po_x", 7_700, "2026-01-05")]);
    expect(r.ambiguous).toEqual([
      { line: 2, payoutIds: ["po_x"], why: "lines" },
      { line: 3, payoutIds: ["po_x"], why: "lines" },
    ]);
    expect(r.missing).toEqual([]);
  });
  it("a line naming two payouts' references is ambiguous; a reference that differs in amount is said", () => {
    const payouts = [
      payout("po_a", 1_000, "2026-01-05", "PAID", { end_to_end_id: "REFAAA111" }),
      payout("po_b", 2_000, "2026-01-05", "PAID", { end_to_end_id: "REFBBB222" }),
    ];
    const csv = ["Date,Description,Amount", "2026-01-05,REFAAA111 REFBBB222,30.00", "2026-01-05,refaaa111,11.00"].join(
      "\n",
    );
    const r = reconcileStatement(lines(csv), payouts);
    expect(r.ambiguous).toEqual([{ line: 2, payoutIds: ["po_a", "po_b"], why: "payouts" }]);
    expect(r.matched).toEqual([{ line: 3, payoutId: "po_a", by: "end_to_end_id", difference: 100 }]);
  });
  it("a line older than the payouts the service keeps is unmatched with that reason", () => {
    const r = reconcileStatement(lines("Date,Description,Amount\n2020-12-30,SQUARE,10.00"), []);
    expect(r.unmatched[0]?.reason).toMatch(/Before 2021-01-01/);
  });
  it("a failed payout is never matched by amount", () => {
    const r = reconcileStatement(lines("Date,Description,Amount\n2026-01-05,SQUARE,10.00"), [
      payout("po_f", 1_000, "2026-01-05", "FAILED"),
    ]);
    expect(r.unmatched[0]?.reason).toBe("Only a failed payout has this amount.");
    expect(r.failed.map((p) => p.id)).toEqual(["po_f"]);
  });
});
