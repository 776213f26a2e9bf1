// A card's history and a location's gift card activity in the manager's words: what each activity
// did to the balance, totals per kind (sold, loaded, redeemed, adjusted) and the liability — the
// balance still owed on active cards.
import type { GiftCard, GiftCardActivity, GiftCardActivityType } from "../spec/generated/types.js";
import { reasonWords } from "./gift-cards.js";
import type { Money } from "./money.js";
import { addDays, localDate, parseDate, zonedInstant } from "./time.js";

/** Each activity type in words. */
export const ACTIVITY_WORDS: Readonly<Record<GiftCardActivityType, string>> = {
  ACTIVATE: "sold",
  LOAD: "loaded",
  REDEEM: "redeemed",
  CLEAR_BALANCE: "balance cleared",
  DEACTIVATE: "deactivated",
  ADJUST_INCREMENT: "adjusted up",
  ADJUST_DECREMENT: "adjusted down",
  REFUND: "refunded to the card",
  UNLINKED_ACTIVITY_REFUND: "refunded to the card",
  IMPORT: "imported",
  BLOCK: "blocked",
  UNBLOCK: "unblocked",
  IMPORT_REVERSAL: "import reversed",
  TRANSFER_BALANCE_FROM: "moved to another card",
  TRANSFER_BALANCE_TO: "moved from another card",
};

/** The same in fewer words, for a narrow column: what "refunded to the card" is when it must be short. */
const ACTIVITY_SHORT_WORDS: Readonly<Partial<Record<GiftCardActivityType, string>>> = {
  CLEAR_BALANCE: "cleared",
  REFUND: "refunded",
  UNLINKED_ACTIVITY_REFUND: "refunded",
  IMPORT_REVERSAL: "unimported",
  TRANSFER_BALANCE_FROM: "moved out",
  TRANSFER_BALANCE_TO: "moved in",
};

/** An activity type in fewer words where there are (a column's `narrow`), else in its words. */
export const activityShortWords = (type: GiftCardActivityType): string =>
  ACTIVITY_SHORT_WORDS[type] ?? ACTIVITY_WORDS[type];

/** Types that add to the balance by their amount. */
const ADDS: ReadonlySet<GiftCardActivityType> = new Set([
  "ACTIVATE",
  "LOAD",
  "ADJUST_INCREMENT",
  "REFUND",
  "UNLINKED_ACTIVITY_REFUND",
  "IMPORT",
  "TRANSFER_BALANCE_TO",
]);
/** Types that take their amount off the balance. */
const TAKES: ReadonlySet<GiftCardActivityType> = new Set([
  "REDEEM",
  "ADJUST_DECREMENT",
  "IMPORT_REVERSAL",
  "TRANSFER_BALANCE_FROM",
]);

/** The details object of an activity (whatever its type), or undefined. */
function detailsOf(a: GiftCardActivity): Record<string, unknown> | undefined {
  const key = Object.keys(a).find((k) => k.endsWith("_activity_details"));
  return key ? (a[key as keyof GiftCardActivity] as Record<string, unknown> | undefined) : undefined;
}

/** The amount an activity carries (loads, redemptions, adjustments, …), or undefined. */
export function activityAmount(a: GiftCardActivity): Money | undefined {
  const m = detailsOf(a)?.amount_money as { amount?: number; currency?: string } | undefined;
  return m && typeof m.amount === "number" ? { amount: m.amount, currency: m.currency ?? "" } : undefined;
}

/**
 * What an activity did to the balance, signed, in minor units; undefined for those that carry no
 * amount — except a cleared balance, which took what was on the card when the balance before it
 * is known (the balance after the activity before it).
 */
export function activityChange(a: GiftCardActivity, balanceBefore?: number): number | undefined {
  if (a.type === "CLEAR_BALANCE") return balanceBefore === undefined ? undefined : -balanceBefore;
  const amount = activityAmount(a)?.amount;
  if (amount === undefined) return undefined;
  if (ADDS.has(a.type)) return amount;
  if (TAKES.has(a.type)) return -amount;
  return undefined;
}

/** The one line of details an activity carries: the reason, how it was paid, the order. */
export function activityNote(a: GiftCardActivity): string {
  const d = detailsOf(a) ?? {};
  const parts: string[] = [];
  if (typeof d.reason === "string") parts.push(reasonWords(d.reason));
  if (typeof d.order_id === "string") parts.push(`order ${d.order_id}`);
  const paid = d.buyer_payment_instrument_ids;
  if (Array.isArray(paid) && paid.length > 0) parts.push(`paid: ${paid.join(", ")}`);
  if (typeof d.reference_id === "string") parts.push(`ref ${d.reference_id}`);
  if (typeof d.status === "string" && d.status !== "COMPLETED") parts.push(d.status.toLowerCase());
  return parts.join(" · ");
}

/** A card's history, newest first, each with what it did to the balance. */
export interface HistoryRow {
  activity: GiftCardActivity;
  change: number | undefined;
  balanceAfter: number | undefined;
}

/** Orders a card's activities newest first and works out each one's change from the one before. */
export function cardHistory(activities: readonly GiftCardActivity[]): HistoryRow[] {
  const oldestFirst = [...activities].sort((a, b) => (a.created_at ?? "").localeCompare(b.created_at ?? ""));
  const rows: HistoryRow[] = [];
  let before: number | undefined = 0;
  for (const a of oldestFirst) {
    const after = a.gift_card_balance_money?.amount;
    rows.push({ activity: a, change: activityChange(a, before), balanceAfter: after });
    before = after;
  }
  return rows.reverse();
}

/** The words `--type` and the activity view's filter take, each naming one or more types. */
export const ACTIVITY_FILTERS: Readonly<Record<string, readonly GiftCardActivityType[]>> = {
  sold: ["ACTIVATE"],
  loaded: ["LOAD"],
  redeemed: ["REDEEM"],
  adjusted: ["ADJUST_INCREMENT", "ADJUST_DECREMENT"],
  refunded: ["REFUND", "UNLINKED_ACTIVITY_REFUND"],
  cleared: ["CLEAR_BALANCE"],
  deactivated: ["DEACTIVATE"],
  blocked: ["BLOCK", "UNBLOCK"],
};

const ALL_TYPES = Object.keys(ACTIVITY_WORDS) as GiftCardActivityType[];

/**
 * Reads an activity type: a word of {@link ACTIVITY_FILTERS} (`sold`, `adjusted`: both ways) or
 * the interface's name in any case (`load`, `ADJUST_DECREMENT`).
 */
export function parseActivityTypes(
  text: string,
): { ok: true; value: readonly GiftCardActivityType[] } | { ok: false; problem: string } {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  const words = ACTIVITY_FILTERS[t];
  if (words) return { ok: true, value: words };
  const named = ALL_TYPES.find((x) => x.toLowerCase() === t);
  if (named) return { ok: true, value: [named] };
  return {
    ok: false,
    problem: `"${text.trim()}" is not a kind of activity; use ${Object.keys(ACTIVITY_FILTERS).join(", ")}, or a type such as ADJUST_DECREMENT.`,
  };
}

/** A kind of activity added up: how many, and how much. */
export interface TypeTotal {
  count: number;
  amount: number;
}

/** A range of activity added up per kind, in one currency. */
export interface ActivityTotals {
  currency: string;
  sold: TypeTotal;
  loaded: TypeTotal;
  redeemed: TypeTotal;
  /** Adjustments up minus adjustments down; `count` counts both. */
  adjusted: TypeTotal;
  refunded: TypeTotal;
  /** Every type, by how many. */
  counts: Partial<Record<GiftCardActivityType, number>>;
  /** Activities in another currency, left out of the sums. */
  otherCurrency: number;
}

/** Adds up a range of activity per kind: sold, loaded, redeemed, adjusted (net), refunded. */
export function activityTotals(activities: readonly GiftCardActivity[], currency: string): ActivityTotals {
  const zero = (): TypeTotal => ({ count: 0, amount: 0 });
  const t: ActivityTotals = {
    currency,
    sold: zero(),
    loaded: zero(),
    redeemed: zero(),
    adjusted: zero(),
    refunded: zero(),
    counts: {},
    otherCurrency: 0,
  };
  for (const a of activities) {
    t.counts[a.type] = (t.counts[a.type] ?? 0) + 1;
    const m = activityAmount(a);
    if (!m) continue;
    if (m.currency && m.currency !== currency) {
      t.otherCurrency++;
      continue;
    }
    const bucket =
      a.type === "ACTIVATE"
        ? t.sold
        : a.type === "LOAD"
          ? t.loaded
          : a.type === "REDEEM"
            ? t.redeemed
            : a.type === "ADJUST_INCREMENT" || a.type === "ADJUST_DECREMENT"
              ? t.adjusted
              : a.type === "REFUND" || a.type === "UNLINKED_ACTIVITY_REFUND"
                ? t.refunded
                : undefined;
    if (!bucket) continue;
    bucket.count++;
    bucket.amount += a.type === "ADJUST_DECREMENT" ? -m.amount : m.amount;
  }
  return t;
}

/** What the store owes on its gift cards. */
export interface Liability {
  /** The outstanding balance of active cards: the liability. */
  active: Money;
  activeCards: number;
  /** Balances on blocked cards, held until they are unblocked or cleared (not in `active`). */
  blocked: Money;
  blockedCards: number;
  /** Cards in another currency, left out. */
  otherCurrency: number;
}

/** Adds up the balances of active and blocked cards; the liability is the active cards' sum. */
export function liability(cards: readonly GiftCard[], currency: string): Liability {
  const out: Liability = {
    active: { amount: 0, currency },
    activeCards: 0,
    blocked: { amount: 0, currency },
    blockedCards: 0,
    otherCurrency: 0,
  };
  for (const c of cards) {
    if (c.state !== "ACTIVE" && c.state !== "BLOCKED") continue;
    const m = c.balance_money;
    if (m?.currency && m.currency !== currency) {
      out.otherCurrency++;
      continue;
    }
    if (c.state === "ACTIVE") {
      out.activeCards++;
      out.active.amount += m?.amount ?? 0;
    } else {
      out.blockedCards++;
      out.blocked.amount += m?.amount ?? 0;
    }
  }
  return out;
}

/** The longest range of days one activity read covers: a year, for a card's or a location's year. */
export const MAX_ACTIVITY_DAYS = 366;

/**
 * Reads a range of local days (`YYYY-MM-DD`); `to` defaults to `from`, both to `today`. A date
 * that is not one names its input (`field`); a range wrong as a whole names none.
 */
export function activityDays(
  input: { from?: string | undefined; to?: string | undefined },
  today: string,
): { ok: true; from: string; to: string } | { ok: false; problem: string; field?: "from" | "to" } {
  for (const [name, value] of [
    ["from", input.from],
    ["to", input.to],
  ] as const) {
    if (value !== undefined && !parseDate(value)) {
      return { ok: false, problem: `The ${name} "${value}" is not a date; write it as YYYY-MM-DD.`, field: name };
    }
  }
  const from = (input.from ?? input.to ?? today).trim();
  const to = (input.to ?? input.from ?? today).trim();
  if (from > to) return { ok: false, problem: `The range starts (${from}) after it ends (${to}).` };
  if (addDays(from, MAX_ACTIVITY_DAYS - 1) < to) {
    return { ok: false, problem: `That range is longer than ${MAX_ACTIVITY_DAYS} days; pick a shorter one.` };
  }
  return { ok: true, from, to };
}

/** The instants a range of local days covers, both inclusive: from's midnight to the last millisecond of `to`. */
export function dayBounds(from: string, to: string, timeZone: string): { begin: string; end: string } {
  return {
    begin: zonedInstant(from, "00:00", timeZone).toISOString(),
    end: new Date(zonedInstant(addDays(to, 1), "00:00", timeZone).getTime() - 1).toISOString(),
  };
}

/**
 * The same local days at several stores, each on its own clock: the instants that cover all of
 * them (the earliest store's first midnight to the latest store's last millisecond).
 */
export function storesDayBounds(from: string, to: string, zones: readonly string[]): { begin: string; end: string } {
  const each = zones.map((zone) => dayBounds(from, to, zone));
  if (each.length === 0) return dayBounds(from, to, "UTC");
  return {
    begin: each.map((b) => b.begin).reduce((a, b) => (b < a ? b : a)),
    end: each.map((b) => b.end).reduce((a, b) => (b > a ? b : a)),
  };
}

/** The activities that happened on these local days at their own store's clock. */
export function onStoreDays(
  activities: readonly GiftCardActivity[],
  from: string,
  to: string,
  zoneOf: (locationId: string) => string,
): GiftCardActivity[] {
  return activities.filter((a) => {
    if (!a.created_at) return false;
    const day = localDate(a.created_at, zoneOf(a.location_id));
    return day >= from && day <= to;
  });
}
