// The Gift cards screen as a pure state machine: which view, what the card pane shows, the write
// form being filled in, the write kept with its keys until it is answered, and the activity view's
// days, filter and rows. Every change is an event through `giftCardsReducer`; the slice does the
// I/O and dispatches what it learnt.

import type { Liability } from "../domain/gift-card-activity.js";
import { ACTIVITY_FILTERS } from "../domain/gift-card-activity.js";
import {
  type GiftCardWrite,
  type Payment,
  parseReason,
  type ReasonedKind,
  reasonWords,
  takesAmount,
  WRITE_REASONS,
  type WriteKind,
  type WritePart,
} from "../domain/gift-cards.js";
import { parseMoney } from "../domain/money.js";
import type { GiftCardActivity, GiftCardActivityType } from "../spec/generated/types.js";
import type { KnownCard, LinkedCustomer, LookedUp, PlannedWrite } from "./gift-cards-io.js";

/** The screen's two views: one card, or a location's activity. */
export type GiftCardsView = "card" | "activity";

/** What the card view shows. */
export type CardPane =
  | { kind: "empty" }
  | { kind: "looking"; query: string }
  | { kind: "found"; card: KnownCard; history: GiftCardActivity[]; customers: LinkedCustomer[]; readAt: string }
  /** A number the service does not know: activating registers it first. */
  | { kind: "unknown"; gan: string }
  | { kind: "no-such-id"; id: string }
  | { kind: "failed"; query: string; problem: string };

/** A write's form, as typed. */
export interface WriteForm {
  kind: WriteKind;
  /** The amount as typed (activate, load, adjust). */
  amount: string;
  /** The reason as typed: its words or the interface's name (adjust, clear, block, unblock, deactivate). */
  reason: string;
  /** How the buyer paid, for a card sold or loaded outside an order: ids or a word, comma-separated. */
  paidWith: string;
  /** Or the order and its gift card line item. */
  orderId: string;
  lineItem: string;
  problem: string | undefined;
}

/** The field a form's problem belongs to. */
export type WriteField = "amount" | "reason" | "paidWith" | "orderId" | "lineItem";

/** The form field of each part of a write a problem found against the card can be about. */
export const WRITE_PART_FIELDS: Readonly<Record<WritePart, WriteField>> = {
  amount: "amount",
  instruments: "paidWith",
  orderId: "orderId",
  lineItemUid: "lineItem",
};

/** What is open on the screen. */
export type GiftCardsForm =
  | { kind: "none" }
  | { kind: "write"; form: WriteForm }
  | { kind: "range"; from: string; to: string; problem: string | undefined };

/** A write confirmed: on its way, or not answered (kept with its keys, to be sent again as it is). */
export interface PendingWrite {
  plan: PlannedWrite;
  state: "sending" | "unanswered";
  problem: string | undefined;
}

/** The activity view's data. */
export interface ActivityPane {
  /** Local days, inclusive; empty until the first read. */
  from: string;
  to: string;
  /** The days follow today (the default) rather than days the manager picked. */
  followToday: boolean;
  /** The filter's word (`sold`, `adjusted`, …), or "" for every kind. */
  filter: string;
  rows: GiftCardActivity[];
  liability: Liability | undefined;
  /** Read for this location, these days and this filter. */
  readFor: string | undefined;
  loading: boolean;
}

/** The whole screen. */
export interface GiftCardsState {
  view: GiftCardsView;
  card: CardPane;
  form: GiftCardsForm;
  pending: PendingWrite | undefined;
  activity: ActivityPane;
}

/** Everything that changes the screen. */
export type GiftCardsEvent =
  | { type: "show"; view: GiftCardsView }
  | { type: "lookup-started"; query: string }
  | {
      type: "lookup-done";
      result: LookedUp;
      history: GiftCardActivity[];
      customers: LinkedCustomer[];
      at: string;
    }
  | { type: "lookup-failed"; query: string; problem: string }
  | { type: "open-write"; kind: WriteKind }
  | { type: "edit-write"; patch: Partial<Omit<WriteForm, "kind" | "problem">> }
  | { type: "form-problem"; problem: string }
  | { type: "open-range"; from: string; to: string }
  | { type: "edit-range"; from?: string; to?: string }
  | { type: "close-form" }
  | { type: "write-sending"; plan: PlannedWrite }
  | { type: "write-done" }
  | { type: "write-unanswered"; problem: string }
  | { type: "write-refused" }
  | { type: "write-dropped" }
  | { type: "days"; from: string; to: string; followToday: boolean }
  | { type: "filter"; filter: string }
  | { type: "activity-loading" }
  | { type: "activity-loaded"; rows: GiftCardActivity[]; liability: Liability | undefined; readFor: string }
  | { type: "activity-failed" }
  | { type: "location-changed" };

/** The screen before anything is read. */
export const initialGiftCards: GiftCardsState = {
  view: "card",
  card: { kind: "empty" },
  form: { kind: "none" },
  pending: undefined,
  activity: {
    from: "",
    to: "",
    followToday: true,
    filter: "",
    rows: [],
    liability: undefined,
    readFor: undefined,
    loading: false,
  },
};

/** An empty form of a write. */
export function newWriteForm(kind: WriteKind): WriteForm {
  const reasons = reasonsOf(kind);
  // A write with one reason the interface takes has it filled in; with several, the manager picks.
  const reason = reasons.length === 1 ? reasonWords(reasons[0]) : "";
  return { kind, amount: "", reason, paidWith: "", orderId: "", lineItem: "", problem: undefined };
}

/** The screen's one reducer. */
export function giftCardsReducer(s: GiftCardsState, e: GiftCardsEvent): GiftCardsState {
  switch (e.type) {
    case "show":
      return { ...s, view: e.view, form: { kind: "none" } };
    case "lookup-started":
      return { ...s, view: "card", card: { kind: "looking", query: e.query }, form: { kind: "none" } };
    case "lookup-done":
      return lookedUp(s, e);
    case "lookup-failed":
      return { ...s, card: { kind: "failed", query: e.query, problem: e.problem } };
    case "open-write":
      return { ...s, view: "card", form: { kind: "write", form: newWriteForm(e.kind) } };
    case "edit-write":
      if (s.form.kind !== "write") return s;
      return { ...s, form: { kind: "write", form: { ...s.form.form, ...e.patch, problem: undefined } } };
    case "form-problem":
      if (s.form.kind === "write")
        return { ...s, form: { kind: "write", form: { ...s.form.form, problem: e.problem } } };
      if (s.form.kind === "range") return { ...s, form: { ...s.form, problem: e.problem } };
      return s;
    case "open-range":
      return { ...s, view: "activity", form: { kind: "range", from: e.from, to: e.to, problem: undefined } };
    case "edit-range":
      if (s.form.kind !== "range") return s;
      return {
        ...s,
        form: {
          ...s.form,
          ...(e.from === undefined ? {} : { from: e.from }),
          ...(e.to === undefined ? {} : { to: e.to }),
          problem: undefined,
        },
      };
    case "close-form":
      return { ...s, form: { kind: "none" } };
    case "write-sending":
      return { ...s, form: { kind: "none" }, pending: { plan: e.plan, state: "sending", problem: undefined } };
    case "write-done":
    case "write-refused":
    case "write-dropped":
      return { ...s, pending: undefined };
    case "write-unanswered":
      return s.pending ? { ...s, pending: { ...s.pending, state: "unanswered", problem: e.problem } } : s;
    case "days":
      return {
        ...s,
        activity: { ...s.activity, from: e.from, to: e.to, followToday: e.followToday },
        form: { kind: "none" },
      };
    case "filter":
      return { ...s, activity: { ...s.activity, filter: e.filter } };
    case "activity-loading":
      return { ...s, activity: { ...s.activity, loading: true } };
    case "activity-loaded":
      return {
        ...s,
        activity: { ...s.activity, rows: e.rows, liability: e.liability, readFor: e.readFor, loading: false },
      };
    case "activity-failed":
      return { ...s, activity: { ...s.activity, loading: false } };
    case "location-changed":
      return {
        ...s,
        form: { kind: "none" },
        activity: {
          ...s.activity,
          rows: [],
          liability: undefined,
          readFor: undefined,
          ...(s.activity.followToday ? { from: "", to: "" } : {}),
        },
      };
  }
}

function lookedUp(s: GiftCardsState, e: Extract<GiftCardsEvent, { type: "lookup-done" }>): GiftCardsState {
  const r = e.result;
  const card: CardPane =
    r.kind === "found"
      ? { kind: "found", card: r.card, history: e.history, customers: e.customers, readAt: e.at }
      : r.kind === "unknown"
        ? { kind: "unknown", gan: r.gan }
        : { kind: "no-such-id", id: r.id };
  return { ...s, card };
}

/** The activity types a filter word reads; every type for "". */
export function filterTypes(filter: string): readonly GiftCardActivityType[] {
  return ACTIVITY_FILTERS[filter] ?? [];
}

/** The filter words, in the order the view cycles through them ("" is every kind). */
export const FILTER_CYCLE: readonly string[] = ["", ...Object.keys(ACTIVITY_FILTERS)];

/** The fields a write's form shows, in order. */
export function writeFields(kind: WriteKind): readonly WriteField[] {
  if (kind === "activate" || kind === "load") return ["amount", "paidWith", "orderId", "lineItem"];
  if (kind === "adjust-up" || kind === "adjust-down") return ["amount", "reason"];
  return ["reason"];
}

/** The reasons a write's form offers, in the interface's words' order. */
export function reasonsOf(kind: WriteKind): readonly string[] {
  return kind in WRITE_REASONS ? WRITE_REASONS[kind as ReasonedKind] : [];
}

/** Reads the form's payment: the order when one is named, else the instruments typed. */
function paymentOf(f: WriteForm): Payment {
  if (f.orderId.trim() || f.lineItem.trim()) {
    return { kind: "order", orderId: f.orderId.trim(), lineItemUid: f.lineItem.trim() };
  }
  const ids = f.paidWith
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  return { kind: "instruments", ids };
}

/**
 * Reads a filled-in form into the write it asks for, amounts in the location's currency; the
 * problem in words (and its field) when it cannot be read. The card's rules are checked after,
 * when the write is planned against the card.
 */
export function readWriteForm(
  f: WriteForm,
  currency: string,
): { ok: true; write: GiftCardWrite } | { ok: false; problem: string; field: WriteField } {
  let amount = 0;
  if (takesAmount(f.kind)) {
    const m = parseMoney(f.amount, currency, { allowNegative: false });
    if (!m.ok) return { ok: false, problem: m.problem, field: "amount" };
    if (m.value <= 0) return { ok: false, problem: "Type an amount greater than zero.", field: "amount" };
    amount = m.value;
  }
  const reason = <K extends ReasonedKind>(kind: K) => parseReason(kind, f.reason);
  switch (f.kind) {
    case "activate":
    case "load":
      return { ok: true, write: { kind: f.kind, amount, payment: paymentOf(f) } };
    case "adjust-up":
    case "adjust-down":
    case "clear":
    case "deactivate":
    case "block":
    case "unblock": {
      const r = reason(f.kind);
      if (!r.ok) return { ok: false, problem: r.problem, field: "reason" };
      return {
        ok: true,
        write: { kind: f.kind, ...(takesAmount(f.kind) ? { amount } : {}), reason: r.value } as GiftCardWrite,
      };
    }
  }
}
