// A bank statement against the payouts: which line is which payout, which lines are something
// else, and which payouts never showed up. First by the statement reference Square gives each
// payout (`end_to_end_id`), then by amount and date, where the bank may post a payout from its
// arrival date up to three business days later.
import type { Payout } from "../spec/generated/types.js";
import { type StatementLine, statementRange } from "./bank-statement.js";
import { PAYOUTS_KEPT_FROM } from "./payouts.js";
import { addDays, parseDate } from "./time.js";

/** Business days after a payout's arrival date within which the bank may post it. */
export const POSTING_BUSINESS_DAYS = 3;

/** References shorter than this are not searched for in descriptions: too likely by chance. */
const MIN_REFERENCE_LENGTH = 6;

/** A line and the payout it is. */
export interface MatchedLine {
  line: number;
  payoutId: string;
  by: "end_to_end_id" | "amount_date";
  /** Statement amount − payout amount, when a line found by reference disagrees on the amount. */
  difference?: number;
}

/** A line that more than one payout fits, or whose one payout also fits other lines. */
export interface AmbiguousLine {
  line: number;
  payoutIds: string[];
  /** `payouts`: several payouts fit the line; `lines`: its one payout fits other lines too. */
  why: "payouts" | "lines";
}

/** A line that matches no payout, why in words, and the payouts nearest to it. */
export interface UnmatchedLine {
  line: StatementLine;
  reason: string;
  nearest: string[];
}

/** What a statement and the payouts say together. */
export interface Reconciliation {
  matched: MatchedLine[];
  ambiguous: AmbiguousLine[];
  unmatched: UnmatchedLine[];
  /** Paid payouts due in the statement's dates with no line. */
  missing: Payout[];
  /** Failed payouts due in the statement's dates: listed apart, never expected on it. */
  failed: Payout[];
  /** The statement's first and last date. */
  range: { from: string; to: string } | undefined;
}

const isWeekend = (date: string) => {
  const d = parseDate(date);
  if (!d) return false;
  const day = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  return day === 0 || day === 6;
};

/** The date `n` business days (Monday to Friday) after `date`; no bank holidays are known. */
export function addBusinessDays(date: string, n: number): string {
  let d = date;
  let left = n;
  while (left > 0) {
    d = addDays(d, 1);
    if (!isWeekend(d)) left -= 1;
  }
  return d;
}

/** The date a payout is due at the bank: its arrival date, else the date it was created. */
export function dueDate(p: Payout): string | undefined {
  if (p.arrival_date && parseDate(p.arrival_date)) return p.arrival_date;
  return p.created_at ? p.created_at.slice(0, 10) : undefined;
}

/** Whether a statement date falls from the payout's arrival date to three business days after. */
export function inPostingWindow(p: Payout, date: string): boolean {
  const due = dueDate(p);
  return due !== undefined && date >= due && date <= addBusinessDays(due, POSTING_BUSINESS_DAYS);
}

const amountOf = (p: Payout) => p.amount_money?.amount ?? 0;

/** A payout with what lines are matched on worked out once: its place, its posting window. */
interface Indexed {
  payout: Payout;
  /** Its place among the payouts given: ties keep that order, as a filter over them would. */
  at: number;
  /** The posting window, from the due date to three business days after; undefined without a due date. */
  window: { from: string; to: string } | undefined;
}

/**
 * The payouts indexed by what a line is matched on, so that a long statement is not read against
 * every payout for every line: by reference (the first letters of each), by amount, and the
 * payouts due nearest a date, by day.
 */
interface PayoutIndex {
  byReference: Map<string, { ref: string; p: Indexed }[]>;
  byAmount: Map<number, Indexed[]>;
  all: Indexed[];
}

function indexPayouts(payouts: readonly Payout[]): PayoutIndex {
  const byReference = new Map<string, { ref: string; p: Indexed }[]>();
  const byAmount = new Map<number, Indexed[]>();
  const all = payouts.map((payout, at): Indexed => {
    const due = dueDate(payout);
    const p = {
      payout,
      at,
      window: due === undefined ? undefined : { from: due, to: addBusinessDays(due, POSTING_BUSINESS_DAYS) },
    };
    const ref = (payout.end_to_end_id ?? "").trim().toUpperCase();
    if (ref.length >= MIN_REFERENCE_LENGTH) pushTo(byReference, ref.slice(0, MIN_REFERENCE_LENGTH), { ref, p });
    pushTo(byAmount, amountOf(payout), p);
    return p;
  });
  return { byReference, byAmount, all };
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const inWindow = (p: Indexed, date: string) => p.window !== undefined && date >= p.window.from && date <= p.window.to;

/**
 * The payouts whose reference the line's text contains, in the order given: each place in the
 * text is looked up by its first letters, so the cost is the text's length, not the payouts'.
 */
function referencedBy(line: StatementLine, index: PayoutIndex): Payout[] {
  if (index.byReference.size === 0) return [];
  const text = line.text.toUpperCase();
  const found = new Set<Indexed>();
  for (let i = 0; i + MIN_REFERENCE_LENGTH <= text.length; i++) {
    const here = index.byReference.get(text.slice(i, i + MIN_REFERENCE_LENGTH));
    if (here) for (const { ref, p } of here) if (text.startsWith(ref, i)) found.add(p);
  }
  return [...found].sort((a, b) => a.at - b.at).map((p) => p.payout);
}

/**
 * Reconciles the statement's lines against the payouts.
 *
 * 1. A line whose text holds one payout's `end_to_end_id` is that payout.
 * 2. Otherwise the candidates are the payouts not yet matched, not failed, of the line's amount,
 *    whose posting window holds the line's date. A line with exactly one candidate that no other
 *    line has as its only candidate is matched, and its payout leaves the other lines' candidates;
 *    this repeats until nothing changes, so two equal payouts on different days each find their
 *    line. What is left with two or more candidates (or one shared) is ambiguous; with none,
 *    unmatched.
 * 3. Paid payouts due within the statement's dates that no line matched are missing; failed
 *    payouts due then are listed apart.
 *
 * The payouts are indexed by reference, amount and due date first, so a statement of 100,000
 * lines is matched in about the time it takes to read.
 */
export function reconcileStatement(lines: readonly StatementLine[], payouts: readonly Payout[]): Reconciliation {
  const index = indexPayouts(payouts);
  const matched: MatchedLine[] = [];
  const taken = new Set<string>();
  const open: StatementLine[] = [];
  const ambiguous: AmbiguousLine[] = [];
  for (const line of lines) {
    const refs = referencedBy(line, index);
    const only = refs[0];
    if (refs.length === 1 && only) {
      const difference = line.amount - amountOf(only);
      matched.push({ line: line.line, payoutId: only.id, by: "end_to_end_id", ...(difference ? { difference } : {}) });
      taken.add(only.id);
    } else if (refs.length > 1) {
      ambiguous.push({ line: line.line, payoutIds: refs.map((p) => p.id), why: "payouts" });
    } else open.push(line);
  }
  const byAmount = matchByAmountAndDate(open, index, taken);
  matched.push(...byAmount.matched);
  ambiguous.push(...byAmount.ambiguous);
  matched.sort((a, b) => a.line - b.line);
  ambiguous.sort((a, b) => a.line - b.line);
  const range = statementRange(lines);
  const due = (p: Payout) => {
    const d = dueDate(p);
    return range !== undefined && d !== undefined && d >= range.from && d <= range.to;
  };
  const claimed = new Set([...taken, ...ambiguous.flatMap((a) => a.payoutIds)]);
  const missing = payouts.filter((p) => p.status === "PAID" && due(p) && !claimed.has(p.id));
  const failed = payouts.filter((p) => p.status === "FAILED" && due(p));
  // The payouts still free, by day, found once: not again for each of a long statement's unmatched lines.
  const free = byDay(index.all.filter((p) => !taken.has(p.payout.id)));
  const unmatched = byAmount.unmatched.map((line) => ({
    line,
    reason: unmatchedReason(line, index),
    nearest: nearestPayouts(line, free),
  }));
  return { matched, ambiguous, unmatched, missing: sortByDue(missing), failed: sortByDue(failed), range };
}

/** A line waiting for step 2, with its candidates as they stand. */
interface Waiting {
  line: StatementLine;
  candidates: Payout[];
  done: boolean;
}

/** Step 2 of {@link reconcileStatement}: the lines without a reference, by amount and date. */
function matchByAmountAndDate(
  lines: readonly StatementLine[],
  index: PayoutIndex,
  taken: Set<string>,
): { matched: MatchedLine[]; ambiguous: AmbiguousLine[]; unmatched: StatementLine[] } {
  // Which lines have a payout among their candidates: taking it touches only those.
  const linesOf = new Map<string, Waiting[]>();
  let waiting = lines.map((line): Waiting => {
    const candidates = (index.byAmount.get(line.amount) ?? [])
      .filter((p) => !taken.has(p.payout.id) && p.payout.status !== "FAILED" && inWindow(p, line.date))
      .map((p) => p.payout);
    const w = { line, candidates, done: false };
    for (const p of candidates) pushTo(linesOf, p.id, w);
    return w;
  });
  const matched: MatchedLine[] = [];
  for (let changed = true; changed; ) {
    changed = false;
    const soleOf = new Map<string, number>();
    for (const { candidates: c } of waiting) {
      const only = c.length === 1 ? c[0] : undefined;
      if (only) soleOf.set(only.id, (soleOf.get(only.id) ?? 0) + 1);
    }
    for (const w of waiting) {
      const only = w.candidates.length === 1 ? w.candidates[0] : undefined;
      if (w.done || !only || (soleOf.get(only.id) ?? 0) > 1 || taken.has(only.id)) continue;
      matched.push({ line: w.line.line, payoutId: only.id, by: "amount_date" });
      taken.add(only.id);
      w.done = true;
      for (const other of linesOf.get(only.id) ?? [])
        if (!other.done) other.candidates = other.candidates.filter((p) => p.id !== only.id);
      changed = true;
    }
    waiting = waiting.filter((w) => !w.done);
  }
  const ambiguous: AmbiguousLine[] = [];
  const unmatched: StatementLine[] = [];
  for (const { line, candidates: c } of waiting) {
    if (c.length === 0) unmatched.push(line);
    else ambiguous.push({ line: line.line, payoutIds: c.map((p) => p.id), why: c.length > 1 ? "payouts" : "lines" });
  }
  return { matched, ambiguous, unmatched };
}

/** Why no payout fits a line, in words. */
function unmatchedReason(line: StatementLine, index: PayoutIndex): string {
  if (line.date < PAYOUTS_KEPT_FROM) return `Before ${PAYOUTS_KEPT_FROM}: the service keeps no payouts that old.`;
  const sameAmount = index.byAmount.get(line.amount) ?? [];
  if (sameAmount.length === 0) return "No payout has this amount.";
  if (sameAmount.every((p) => p.payout.status === "FAILED")) return "Only a failed payout has this amount.";
  if (sameAmount.some((p) => inWindow(p, line.date))) {
    return "The payout of this amount and date is already matched to another line.";
  }
  return `A payout has this amount, but it was due more than ${POSTING_BUSINESS_DAYS} business days from this date.`;
}

const DAY_MS = 86_400_000;

/** Midnight UTC of a date, in milliseconds; NaN for what is not a date. */
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Payouts with a due date, in order of it (then as given). */
type ByDay = { day: number; p: Indexed }[];

function byDay(payouts: readonly Indexed[]): ByDay {
  const days: ByDay = [];
  for (const p of payouts) {
    const due = dueDate(p.payout);
    const day = due === undefined ? Number.NaN : dayOf(due);
    if (!Number.isNaN(day)) days.push({ day, p });
  }
  return days.sort((a, b) => a.day - b.day || a.p.at - b.p.at);
}

/** Up to three payouts near a line: due within a week of it, the closest amounts first. */
function nearestPayouts(line: StatementLine, payouts: ByDay): string[] {
  const day = dayOf(line.date);
  if (Number.isNaN(day)) return [];
  // The first payout due a week before the line, found by halving.
  let lo = 0;
  let hi = payouts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((payouts[mid]?.day ?? 0) < day - 7 * DAY_MS) lo = mid + 1;
    else hi = mid;
  }
  const near: Indexed[] = [];
  for (let i = lo; i < payouts.length; i++) {
    const d = payouts[i];
    if (!d || d.day > day + 7 * DAY_MS) break;
    if (Math.sign(amountOf(d.p.payout)) === Math.sign(line.amount)) near.push(d.p);
  }
  const off = (p: Indexed) => Math.abs(amountOf(p.payout) - line.amount);
  return near
    .sort((a, b) => off(a) - off(b) || a.at - b.at)
    .slice(0, 3)
    .map((p) => p.payout.id);
}

const sortByDue = (ps: Payout[]) => ps.sort((a, b) => (dueDate(a) ?? "").localeCompare(dueDate(b) ?? ""));

/** Whether everything matched: no ambiguous or unmatched line and no missing payout. */
export function fullyReconciled(r: Reconciliation): boolean {
  return r.ambiguous.length === 0 && r.unmatched.length === 0 && r.missing.length === 0;
}

/** The `--json` object of `payouts reconcile`, exactly as the issue names its fields. */
export interface ReconcileJson {
  matched: { line: number; payout_id: string; by: "end_to_end_id" | "amount_date" }[];
  ambiguous: { line: number; payout_ids: string[] }[];
  unmatched: { line: number; date: string; amount: { amount: number; currency: string }; description: string }[];
  missing: { payout_id: string; arrival_date: string; amount: { amount: number; currency: string } }[];
}

/** The reconciliation as the `--json` object. */
export function reconcileJson(r: Reconciliation, currency: string): ReconcileJson {
  return {
    matched: r.matched.map((m) => ({ line: m.line, payout_id: m.payoutId, by: m.by })),
    ambiguous: r.ambiguous.map((a) => ({ line: a.line, payout_ids: a.payoutIds })),
    unmatched: r.unmatched.map((u) => ({
      line: u.line.line,
      date: u.line.date,
      amount: { amount: u.line.amount, currency: u.line.currency },
      description: u.line.description,
    })),
    missing: r.missing.map((p) => ({
      payout_id: p.id,
      arrival_date: dueDate(p) ?? "",
      amount: { amount: amountOf(p), currency: p.amount_money?.currency ?? currency },
    })),
  };
}
