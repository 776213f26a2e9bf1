// Payouts in a manager's words: when the money arrives, what Square kept, and whether a payout's
// entries add up to it. Amounts are integers in the currency's minor unit (domain/money.ts).
import type { ActivityType, Destination, Payout, PayoutEntry, PayoutStatus } from "../spec/generated/types.js";
import { decimalString, formatMoney, type Money, parseMoney } from "./money.js";
import { addDays, localDate, parseDate, weekStartOf } from "./time.js";

/**
 * The first day the interface keeps payouts for: older ones are only in the Square Dashboard
 * (the Payouts API guide: "doesn't include data that's older than January 2021").
 */
export const PAYOUTS_KEPT_FROM = "2021-01-01";

/** The statuses a payout can have, in the order the screen's filter offers them. */
export const PAYOUT_STATUSES: readonly PayoutStatus[] = ["SENT", "PAID", "FAILED"];

/** A payout's status in words: sent (on its way), paid (arrived), failed (the bank refused it). */
export function payoutStatusWord(status: PayoutStatus | string | undefined): string {
  switch (status) {
    case "SENT":
      return "sent";
    case "PAID":
      return "paid";
    case "FAILED":
      return "failed";
    default:
      return status ? status.toLowerCase() : "unknown";
  }
}

/** Reads a status typed by a person (`paid`, `Sent`, `in transit`); undefined when it is none. */
export function parsePayoutStatus(text: string): PayoutStatus | undefined {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");
  if (t === "sent" || t === "in transit") return "SENT";
  if (t === "paid") return "PAID";
  if (t === "failed") return "FAILED";
  return undefined;
}

const DESTINATION_WORDS: Record<string, string> = {
  BANK_ACCOUNT: "bank account",
  CARD: "card",
  SQUARE_BALANCE: "Square balance",
  SQUARE_STORED_BALANCE: "Square Checking",
};

/**
 * Where a payout went, masked: the kind of destination and the last four characters of its
 * instrument id (`bank account ••a1b2`). The id is Square's, not the account number, but it is
 * still not printed whole: a screen or a file passed around shows only enough to tell two apart.
 */
export function maskDestination(destination: Destination | undefined, short = false): string {
  if (!destination?.type && !destination?.id) return "—";
  const kind = destination.type ? (DESTINATION_WORDS[destination.type] ?? destination.type.toLowerCase()) : "";
  const word = short && destination.type === "BANK_ACCOUNT" ? "bank" : kind;
  const id = (destination.id ?? "").replace(/[^A-Za-z0-9]/g, "");
  const tail = id.length > 4 ? `••${id.slice(-4)}` : "";
  return [word, tail].filter(Boolean).join(" ") || "—";
}

/** Entry types in words, plural, as the detail's groups are titled. */
const TYPE_WORDS: Partial<Record<ActivityType, string>> = {
  CHARGE: "charges",
  REFUND: "refunds",
  FEE: "fees",
  ADJUSTMENT: "adjustments",
  DISPUTE: "chargebacks",
  OPEN_DISPUTE: "chargebacks filed",
  HOLD_ADJUSTMENT: "held payments",
  RELEASE_ADJUSTMENT: "released payments",
  RESERVE_HOLD: "reserve held",
  RESERVE_RELEASE: "reserve released",
  DEPOSIT_FEE: "deposit fees",
  TAX_ON_FEE: "tax on fees",
  FREE_PROCESSING: "free processing",
  THIRD_PARTY_FEE: "third-party fees",
  THIRD_PARTY_FEE_REFUND: "third-party fee refunds",
  APP_FEE_REVENUE: "app fee revenue",
  APP_FEE_REFUND: "app fee refunds",
  AUTOMATIC_SAVINGS: "to savings",
  AUTOMATIC_SAVINGS_REVERSED: "back from savings",
  SUBSCRIPTION_FEE: "subscription fees",
  SUBSCRIPTION_FEE_REFUND: "subscription fee refunds",
  SUBSCRIPTION_FEE_PAID_REFUND: "subscription fees refunded",
  SQUARE_CAPITAL_PAYMENT: "Square Capital payments",
  SQUARE_CAPITAL_REVERSED_PAYMENT: "Square Capital reversals",
  RETURNED_PAYOUT: "returned payouts",
  OTHER_ADJUSTMENT: "other adjustments",
  OTHER: "other",
};

/** One entry of a type in words, as a row of the entries says it. */
const ENTRY_WORDS: Partial<Record<ActivityType, string>> = {
  CHARGE: "charge",
  REFUND: "refund",
  FEE: "fee",
  ADJUSTMENT: "adjustment",
  DISPUTE: "chargeback",
  OPEN_DISPUTE: "chargeback filed",
  HOLD_ADJUSTMENT: "held payment",
  RELEASE_ADJUSTMENT: "released payment",
  RESERVE_HOLD: "reserve held",
  RESERVE_RELEASE: "reserve released",
  DEPOSIT_FEE: "deposit fee",
  TAX_ON_FEE: "tax on fees",
  FREE_PROCESSING: "free processing",
  THIRD_PARTY_FEE: "third-party fee",
  THIRD_PARTY_FEE_REFUND: "third-party fee refund",
  APP_FEE_REVENUE: "app fee revenue",
  APP_FEE_REFUND: "app fee refund",
  AUTOMATIC_SAVINGS: "to savings",
  AUTOMATIC_SAVINGS_REVERSED: "back from savings",
  SUBSCRIPTION_FEE: "subscription fee",
  SUBSCRIPTION_FEE_REFUND: "subscription fee refund",
  SUBSCRIPTION_FEE_PAID_REFUND: "subscription fee refunded",
  SQUARE_CAPITAL_PAYMENT: "Square Capital payment",
  SQUARE_CAPITAL_REVERSED_PAYMENT: "Square Capital reversal",
  RETURNED_PAYOUT: "returned payout",
  OTHER_ADJUSTMENT: "other adjustment",
  OTHER: "other",
};

/** One entry's type in words: `charge`, `refund`, `chargeback`, or the code in lower case. */
export function entryWords(type: string | undefined): string {
  if (!type) return "other";
  return ENTRY_WORDS[type as ActivityType] ?? type.toLowerCase().replaceAll("_", " ");
}

/** The title of an entry type's group: `charges`, `refunds`, `chargebacks`, or the code in lower case. */
export function entryTypeWords(type: string | undefined): string {
  if (!type) return "other";
  return TYPE_WORDS[type as ActivityType] ?? type.toLowerCase().replaceAll("_", " ");
}

/** The order groups are shown in: sales first, then what came off them, then the rest by name. */
const TYPE_ORDER: readonly string[] = ["CHARGE", "REFUND", "FEE", "DISPUTE", "OPEN_DISPUTE", "ADJUSTMENT"];

/**
 * Where an entry comes from, from its `type_*_details`: the payment, refund, dispute or payout it
 * belongs to, as `payment P1 · refund R1`. Empty when the entry carries no details.
 */
export function entrySource(entry: PayoutEntry): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (!key.startsWith("type_") || !key.endsWith("_details") || !value || typeof value !== "object") continue;
    const d = value as Record<string, unknown>;
    for (const [field, word] of [
      ["payment_id", "payment"],
      ["refund_id", "refund"],
      ["dispute_id", "dispute"],
      ["payout_id", "payout"],
      ["tax_rate_description", "tax"],
    ] as const) {
      const v = d[field];
      if (typeof v === "string" && v) parts.push(`${word} ${v}`);
    }
  }
  return parts.join(" · ");
}

const amountOf = (m: Money | { amount?: number } | undefined): number => (typeof m?.amount === "number" ? m.amount : 0);

/**
 * An entry's fee as the payouts guide adds fees up: what Square kept, positive; a refund's fee is
 * what Square gave back, so it counts negative whatever sign the entry carries it with.
 */
export function entryFee(entry: PayoutEntry): number {
  const fee = amountOf(entry.fee_amount_money);
  return entry.type === "REFUND" ? -Math.abs(fee) : fee;
}

/** Gross, fee and net of a set of entries, and how many there are. */
export interface EntrySums {
  count: number;
  gross: number;
  fee: number;
  net: number;
}

/** One type's entries of a payout: its words and its sums. */
export interface EntryGroup extends EntrySums {
  type: string;
  words: string;
}

/** A payout's entries grouped by type, with the totals over all of them. */
export interface EntryBreakdown {
  currency: string;
  groups: EntryGroup[];
  total: EntrySums;
}

const zero = (): EntrySums => ({ count: 0, gross: 0, fee: 0, net: 0 });

function addEntry(s: EntrySums, e: PayoutEntry): void {
  s.count += 1;
  s.gross += amountOf(e.gross_amount_money);
  s.fee += entryFee(e);
  s.net += amountOf(e.net_amount_money);
}

/** The currency of a set of entries: the first one any of them names, else `fallback`. */
function currencyOf(entries: readonly PayoutEntry[], fallback: string): string {
  for (const e of entries) {
    const c = e.net_amount_money?.currency ?? e.gross_amount_money?.currency;
    if (c) return c;
  }
  return fallback;
}

/**
 * Groups a payout's entries by type (charges, refunds, fees, chargebacks, adjustments, …) with
 * gross, fee and net per type and in total; the fee total is {@link entryFee} summed.
 */
export function entryBreakdown(entries: readonly PayoutEntry[], fallbackCurrency = "USD"): EntryBreakdown {
  const byType = new Map<string, EntrySums>();
  const total = zero();
  for (const e of entries) {
    const type = e.type ?? "OTHER";
    let s = byType.get(type);
    if (!s) {
      s = zero();
      byType.set(type, s);
    }
    addEntry(s, e);
    addEntry(total, e);
  }
  const rank = (t: string) => {
    const i = TYPE_ORDER.indexOf(t);
    return i < 0 ? TYPE_ORDER.length : i;
  };
  const groups = [...byType.entries()]
    .map(([type, s]) => ({ type, words: entryTypeWords(type), ...s }))
    .sort((a, b) => rank(a.type) - rank(b.type) || a.words.localeCompare(b.words));
  return { currency: currencyOf(entries, fallbackCurrency), groups, total };
}

/** The sum of the entries' fees as the payouts guide computes it (refunds' fees negative). */
export function feeTotal(entries: readonly PayoutEntry[]): number {
  let fee = 0;
  for (const e of entries) fee += entryFee(e);
  return fee;
}

/**
 * Entries that are Square's own charges (not a fee on a sale, which is in `fee_amount_money`, but an
 * entry of its own: a fee, a deposit's fee, tax on fees, a subscription), and their refunds. Their
 * net is what Square kept (negative) or gave back (positive). Third parties' fees and app fees are
 * not Square's and stay out.
 */
const SQUARE_CHARGE_TYPES: ReadonlySet<string> = new Set([
  "FEE",
  "DEPOSIT_FEE",
  "TAX_ON_FEE",
  "SUBSCRIPTION_FEE",
  "SUBSCRIPTION_FEE_REFUND",
  "SUBSCRIPTION_FEE_PAID_REFUND",
]);

/** What Square kept through entries of its own charges (a FEE entry of −15.00: 15.00), in minor units. */
export function chargeEntriesTotal(entries: readonly PayoutEntry[]): number {
  let kept = 0;
  for (const e of entries) if (e.type && SQUARE_CHARGE_TYPES.has(e.type)) kept -= amountOf(e.net_amount_money);
  return kept;
}

/**
 * What Square kept of a payout, in words: the fees on its entries, and — when there are any — the
 * entries that are charges of their own, so the sentence agrees with a "fees" row in the same table
 * ("Square kept 43.12 USD: 28.12 USD in fees, 15.00 USD in fee entries.").
 */
export function keptWords(entries: readonly PayoutEntry[], currency: string): string {
  const fees = feeTotal(entries);
  const charges = chargeEntriesTotal(entries);
  const money = (amount: number) => formatMoney({ amount, currency });
  if (charges === 0) return `Square kept ${money(fees)} in fees.`;
  return `Square kept ${money(fees + charges)}: ${money(fees)} in fees, ${money(charges)} in fee entries.`;
}

/**
 * Checks that a payout's entries add up to it: their net against its amount. Returns the problem
 * in words, or undefined when they agree. A SIMPLE payout has no entries of its own (it shows up
 * as an entry of a later BATCH payout), so there is nothing to check.
 */
export function checkPayoutNet(payout: Payout, entries: readonly PayoutEntry[]): string | undefined {
  if (payout.type === "SIMPLE") return undefined;
  const currency = payout.amount_money?.currency ?? currencyOf(entries, "USD");
  const foreign = entries.find((e) => e.net_amount_money?.currency && e.net_amount_money.currency !== currency);
  if (foreign) {
    return `An entry is in ${foreign.net_amount_money?.currency}, the payout in ${currency}: they cannot be added up.`;
  }
  const net = entries.reduce((sum, e) => sum + amountOf(e.net_amount_money), 0);
  const amount = amountOf(payout.amount_money);
  if (net === amount) return undefined;
  if (entries.length === 0) return `The payout has no entries, but its amount is ${formatMoney({ amount, currency })}.`;
  return `The entries add up to ${formatMoney({ amount: net, currency })}, not the payout's ${formatMoney({ amount, currency })} (${formatMoney({ amount: amount - net, currency })} unexplained).`;
}

/** One status's payouts in a range: how many, and their sum. */
export interface StatusTotal {
  count: number;
  amount: number;
}

/** A range's payouts by status: paid, in transit (sent), failed. */
export interface PayoutTotals {
  currency: string;
  paid: StatusTotal;
  inTransit: StatusTotal;
  failed: StatusTotal;
}

/** Totals of a list of payouts by status. */
export function payoutTotals(payouts: readonly Payout[], fallbackCurrency = "USD"): PayoutTotals {
  const t: PayoutTotals = {
    currency: payouts.find((p) => p.amount_money?.currency)?.amount_money?.currency ?? fallbackCurrency,
    paid: { count: 0, amount: 0 },
    inTransit: { count: 0, amount: 0 },
    failed: { count: 0, amount: 0 },
  };
  for (const p of payouts) {
    const bucket =
      p.status === "PAID" ? t.paid : p.status === "FAILED" ? t.failed : p.status === "SENT" ? t.inTransit : undefined;
    if (!bucket) continue;
    bucket.count += 1;
    bucket.amount += amountOf(p.amount_money);
  }
  return t;
}

/**
 * Whether a payout answers a search: an amount (`1,234.50`, `$1234.5`) equal to its amount, or
 * the start of it as typed so far (`915` finds 915.64, `1,118` finds 1,118.66), or a piece of its
 * statement reference (`end_to_end_id`) or id, in any case.
 */
export function payoutMatches(payout: Payout, query: string): boolean {
  const q = query.trim();
  if (!q) return true;
  const currency = payout.amount_money?.currency ?? "USD";
  if (/\d/.test(q) && /^[^A-Za-z]*$/.test(q)) {
    const amount = Math.abs(amountOf(payout.amount_money));
    const money = parseMoney(q, currency);
    if (money.ok && Math.abs(money.value) === amount) return true;
    // What is typed so far, without symbols, signs and thousands separators.
    const typed = q.replace(/[^\d.]/g, "");
    if (typed && decimalString(amount, currency).startsWith(typed)) return true;
  }
  const folded = q.toLowerCase();
  return (payout.end_to_end_id ?? "").toLowerCase().includes(folded) || payout.id.toLowerCase().includes(folded);
}

/** One week of fees: gross of charges, the fees (guide's sum) and the effective rate. */
export interface FeeWeek {
  /** The week's first date. */
  week: string;
  chargesGross: number;
  fees: number;
  /** fees ÷ gross of charges; undefined when the week had no charges. */
  rate: number | undefined;
  entries: number;
}

/** An entry with the local date it affected the balance on. */
export interface DatedEntry {
  date: string;
  entry: PayoutEntry;
}

/** Each entry with its local date in the time zone (of the payout's location). */
export function datedEntries(entries: readonly PayoutEntry[], timeZone: string): DatedEntry[] {
  const out: DatedEntry[] = [];
  for (const entry of entries) {
    if (entry.effective_at) out.push({ date: localDate(entry.effective_at, timeZone), entry });
  }
  return out;
}

/**
 * Fees per week over `from`..`to` (local dates, inclusive): every week of the range, in order,
 * even one without entries, so the chart's bars stand where the weeks are. An entry counts to the
 * week it affected the balance in; the effective rate is the week's fees over its charges' gross.
 */
export function weeklyFees(
  rows: readonly DatedEntry[],
  range: { from: string; to: string },
  startOfWeek = "MON",
): FeeWeek[] {
  const weeks = new Map<string, FeeWeek>();
  for (let w = weekStartOf(range.from, startOfWeek); w <= range.to; w = addDays(w, 7)) {
    weeks.set(w, { week: w, chargesGross: 0, fees: 0, rate: undefined, entries: 0 });
  }
  for (const { date, entry } of rows) {
    if (date < range.from || date > range.to) continue;
    const w = weeks.get(weekStartOf(date, startOfWeek));
    if (!w) continue;
    w.entries += 1;
    w.fees += entryFee(entry);
    if (entry.type === "CHARGE") w.chargesGross += amountOf(entry.gross_amount_money);
  }
  const out = [...weeks.values()];
  for (const w of out) w.rate = w.chargesGross > 0 ? w.fees / w.chargesGross : undefined;
  return out;
}

/** A rate as a percentage with two decimals (`2.84%`), or `—` when there is none. */
export function formatRate(rate: number | undefined): string {
  return rate === undefined || !Number.isFinite(rate) ? "—" : `${(rate * 100).toFixed(2)}%`;
}

/** Bar lengths (whole cells, at most `width`) for the weeks' fees, scaled to the largest. */
export function feeBars(weeks: readonly FeeWeek[], width: number): number[] {
  const max = Math.max(0, ...weeks.map((w) => w.fees));
  if (max <= 0 || width <= 0) return weeks.map(() => 0);
  return weeks.map((w) => (w.fees <= 0 ? 0 : Math.max(1, Math.round((w.fees / max) * width))));
}

/** A date range of payouts, or what is wrong with the one asked for, in words. */
export type PayoutRange =
  | {
      ok: true;
      from: string;
      to: string;
      /** Said beside the list: the range reaches back before the payouts the service keeps. */
      note?: string;
      /** The whole range is before {@link PAYOUTS_KEPT_FROM}: nothing to ask the service for. */
      empty?: boolean;
    }
  /** `field`: the input a date that is not one was typed in. */
  | { ok: false; problem: string; field?: "from" | "to" };

/** Days the list covers when no range is given. */
export const DEFAULT_RANGE_DAYS = 30;

/**
 * The local dates a payout list covers: `from`..`to` inclusive, the last 30 days (today included)
 * by default. A range reaching back before {@link PAYOUTS_KEPT_FROM} is not an error: it starts
 * there, with a note that older payouts are only in the Square Dashboard.
 */
export function payoutRange(input: { from?: string | undefined; to?: string | undefined }, today: string): PayoutRange {
  for (const [name, value] of [
    ["from", input.from],
    ["to", input.to],
  ] as const) {
    if (value !== undefined && !parseDate(value.trim())) {
      return { ok: false, problem: `The ${name} date "${value}" is not a date; write it as YYYY-MM-DD.`, field: name };
    }
  }
  const to = input.to?.trim() ?? today;
  let from = input.from?.trim() ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (from > to) return { ok: false, problem: `The range starts (${from}) after it ends (${to}).` };
  if (to < PAYOUTS_KEPT_FROM) return { ok: true, from, to, note: keptNote(), empty: true };
  let note: string | undefined;
  if (from < PAYOUTS_KEPT_FROM) {
    from = PAYOUTS_KEPT_FROM;
    note = keptNote();
  }
  return { ok: true, from, to, ...(note ? { note } : {}) };
}

const keptNote = () =>
  `Payouts before ${PAYOUTS_KEPT_FROM} are not kept by the service; the Square Dashboard has them.`;

/**
 * What the screen and the commands say when the sign-in may not read payouts: which permission
 * is missing and how to sign in with it. `environment` names where to sign in again.
 */
export function missingPermissionMessage(environment: string | undefined): string {
  const env = environment && environment !== "demo" ? ` --env ${environment}` : "";
  return `This sign-in is not allowed to read payouts: it lacks the PAYOUTS_READ permission. Sign in again with \`backroom login${env}\` (it asks for PAYOUTS_READ), or use an access token that has it.`;
}
