// A long statement against many payouts: the indexed matcher must give what reading every line
// against every payout gives (the matcher before it was indexed, restated plainly here).
import { describe, expect, it } from "vitest";
import type { Payout, PayoutStatus } from "../spec/generated/types.js";
import type { StatementLine } from "./bank-statement.js";
import { dueDate, inPostingWindow, type Reconciliation, reconcileStatement } from "./payout-reconcile.js";
import { addDays } from "./time.js";

const amountOf = (p: Payout) => p.amount_money?.amount ?? 0;

/** The rules of reconcileStatement read literally: each line against each payout. */
function everyLineAgainstEveryPayout(lines: readonly StatementLine[], payouts: readonly Payout[]): Reconciliation {
  const taken = new Set<string>();
  const r: Reconciliation = { matched: [], ambiguous: [], unmatched: [], missing: [], failed: [], range: undefined };
  const open = new Map<StatementLine, Payout[]>();
  for (const line of lines) {
    const refs = payouts.filter((p) => {
      const ref = (p.end_to_end_id ?? "").trim().toUpperCase();
      return ref.length >= 6 && line.text.toUpperCase().includes(ref);
    });
    const [first] = refs;
    if (refs.length === 1 && first) {
      const difference = line.amount - amountOf(first);
      r.matched.push({
        line: line.line,
        payoutId: first.id,
        by: "end_to_end_id",
        ...(difference ? { difference } : {}),
      });
      taken.add(first.id);
    } else if (refs.length > 1) r.ambiguous.push({ line: line.line, payoutIds: refs.map((p) => p.id), why: "payouts" });
    else open.set(line, []);
  }
  for (const line of open.keys()) {
    const fits = (p: Payout) =>
      !taken.has(p.id) && p.status !== "FAILED" && amountOf(p) === line.amount && inPostingWindow(p, line.date);
    open.set(line, payouts.filter(fits));
  }
  for (let changed = true; changed; ) {
    changed = false;
    const sole = new Map<string, number>();
    for (const c of open.values()) if (c.length === 1 && c[0]) sole.set(c[0].id, (sole.get(c[0].id) ?? 0) + 1);
    for (const [line, c] of open) {
      const one = c.length === 1 ? c[0] : undefined;
      if (one === undefined || (sole.get(one.id) ?? 0) > 1 || taken.has(one.id)) continue;
      r.matched.push({ line: line.line, payoutId: one.id, by: "amount_date" });
      taken.add(one.id);
      open.delete(line);
      for (const [other, oc] of open)
        open.set(
          other,
          oc.filter((p) => p.id !== one.id),
        );
      changed = true;
    }
  }
  const left: StatementLine[] = [];
  for (const [line, c] of open) {
    if (c.length === 0) left.push(line);
    else r.ambiguous.push({ line: line.line, payoutIds: c.map((p) => p.id), why: c.length > 1 ? "payouts" : "lines" });
  }
  r.matched.sort((a, b) => a.line - b.line);
  r.ambiguous.sort((a, b) => a.line - b.line);
  const dates = lines.map((l) => l.date).sort();
  r.range = dates.length ? { from: dates[0] ?? "", to: dates[dates.length - 1] ?? "" } : undefined;
  const inRange = (p: Payout) => {
    const d = dueDate(p);
    return r.range !== undefined && d !== undefined && d >= r.range.from && d <= r.range.to;
  };
  const claimed = new Set([...taken, ...r.ambiguous.flatMap((a) => a.payoutIds)]);
  const byDue = (a: Payout, b: Payout) => (dueDate(a) ?? "").localeCompare(dueDate(b) ?? "");
  r.missing = payouts.filter((p) => p.status === "PAID" && inRange(p) && !claimed.has(p.id)).sort(byDue);
  r.failed = payouts.filter((p) => p.status === "FAILED" && inRange(p)).sort(byDue);
  const days = (a: string, b: string) => Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 864e5;
  r.unmatched = left.map((line) => {
    const same = payouts.filter((p) => amountOf(p) === line.amount);
    const reason =
      line.date < "2021-01-01"
        ? "Before 2021-01-01: the service keeps no payouts that old."
        : same.length === 0
          ? "No payout has this amount."
          : same.every((p) => p.status === "FAILED")
            ? "Only a failed payout has this amount."
            : same.some((p) => inPostingWindow(p, line.date))
              ? "The payout of this amount and date is already matched to another line."
              : "A payout has this amount, but it was due more than 3 business days from this date.";
    const near = payouts.filter((p) => {
      const d = dueDate(p);
      return (
        !taken.has(p.id) &&
        d !== undefined &&
        days(d, line.date) <= 7 &&
        Math.sign(amountOf(p)) === Math.sign(line.amount)
      );
    });
    near.sort((a, b) => Math.abs(amountOf(a) - line.amount) - Math.abs(amountOf(b) - line.amount));
    return { line, reason, nearest: near.slice(0, 3).map((p) => p.id) };
  });
  return r;
}

/** A small random number generator with a seed, so the statement is the same on every run. */
function seeded(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((s / 2_147_483_648) * n);
  };
}

/**
 * A year of payouts (several a day, amounts from a short list so that many share one) and a
 * statement with a line for most of them, posted up to five days late, some by reference; with
 * repeated lines, lines of no payout, withdrawals and lines before 2021.
 */
const ONLY_FAILED = 33_300;

function aYear(seed: number, count: number) {
  const pick = seeded(seed);
  const amounts = [12_500, 98_000, 30_000, -2_500, 45_050, 150_000, 7_700, -12_000];
  const statuses: PayoutStatus[] = ["PAID", "PAID", "PAID", "PAID", "SENT", "FAILED"];
  const payouts: Payout[] = [];
  for (let i = 0; i < count; i++) {
    const due = addDays("2025-06-01", pick(365));
    const ref = pick(4) === 0 ? `L${due.replaceAll("-", "")}R${String(pick(400)).padStart(4, "0")}` : undefined;
    const status = statuses[pick(statuses.length)] ?? "PAID";
    // An amount only failed payouts have: a line of it is unmatched for that reason.
    const amount = status === "FAILED" && pick(3) === 0 ? ONLY_FAILED : (amounts[pick(amounts.length)] ?? 0);
    payouts.push({
      id: `po_${i}`,
      location_id: "L1",
      status,
      type: "BATCH",
      amount_money: { amount, currency: "USD" },
      ...(pick(10) === 0 ? { created_at: `${due}T03:00:00Z` } : { arrival_date: due }),
      ...(ref ? { end_to_end_id: pick(8) === 0 ? ref.slice(0, 5) : ref } : {}),
    });
  }
  const lines: StatementLine[] = [];
  const add = (date: string, amount: number, text: string) =>
    lines.push({ line: lines.length + 2, date, amount, currency: "USD", description: text, text });
  for (const p of payouts) {
    if (pick(5) === 0) continue;
    const date = addDays(dueDate(p) ?? "2025-06-01", pick(6));
    const text = p.end_to_end_id && pick(2) === 0 ? `SQUARE INC ID:${p.end_to_end_id.toLowerCase()} X` : "SQUARE INC";
    add(date, amountOf(p) + (pick(10) === 0 ? 100 : 0), text);
    if (pick(8) === 0) add(date, amountOf(p), text);
  }
  for (let i = 0; i < count / 2; i++) {
    const amount = pick(3) === 0 ? ([...amounts, ONLY_FAILED][pick(amounts.length + 1)] ?? 0) : pick(200_000) - 100_000;
    add(addDays(pick(30) === 0 ? "2020-12-01" : "2025-06-01", pick(370)), amount, `CARD ${i}`);
  }
  return { payouts, lines: lines.sort((a, b) => a.date.localeCompare(b.date) || a.line - b.line) };
}

describe("a long statement against many payouts", () => {
  it("matches as reading every line against every payout does", () => {
    for (const seed of [1, 7, 2026]) {
      const { payouts, lines } = aYear(seed, 600);
      const r = reconcileStatement(lines, payouts);
      expect(r).toEqual(everyLineAgainstEveryPayout(lines, payouts));
      // Every kind of outcome occurs, so the comparison covers each path.
      expect(r.matched.some((m) => m.by === "end_to_end_id" && m.difference)).toBe(true);
      expect(r.matched.some((m) => m.by === "amount_date")).toBe(true);
      expect(new Set(r.ambiguous.map((a) => a.why))).toEqual(new Set(["payouts", "lines"]));
      expect(new Set(r.unmatched.map((u) => u.reason.slice(0, 12))).size).toBe(5);
      expect(r.unmatched.some((u) => u.nearest.length === 3)).toBe(true);
      expect(r.missing.length).toBeGreaterThan(0);
      expect(r.failed.length).toBeGreaterThan(0);
    }
  });
});
