// Gift cards in the manager's words, and the rules a write must pass before it is sent: what each
// write does to the balance (before → after), which reasons the interface accepts, and what a
// card's state allows. The local service enforces the same reasons and payment rule from here.
import type {
  Currency,
  GiftCard,
  GiftCardActivity,
  GiftCardActivityAdjustDecrementReason,
  GiftCardActivityAdjustIncrementReason,
  GiftCardActivityBlockReason,
  GiftCardActivityClearBalanceReason,
  GiftCardActivityDeactivateReason,
  GiftCardActivityType,
  GiftCardActivityUnblockReason,
  GiftCardStatus,
  GiftCardType,
} from "../spec/generated/types.js";
import { normalizeGan } from "./gan.js";
import { formatAmount, formatMoney, type Money } from "./money.js";

export { shortGan } from "./names.js";

/** A card's state as the manager reads it. */
export function cardStateWords(state: GiftCardStatus | undefined): string {
  switch (state) {
    case "PENDING":
      return "not yet active";
    case "ACTIVE":
      return "active";
    case "DEACTIVATED":
      return "deactivated";
    case "BLOCKED":
      return "blocked";
    default:
      return "unknown";
  }
}

/** A card's type in words. */
export function cardTypeWords(type: GiftCardType | undefined): string {
  return type === "PHYSICAL" ? "physical" : type === "DIGITAL" ? "digital" : "unknown";
}

/** What a manager can do to a card from backroom. */
export type WriteKind =
  | "activate"
  | "load"
  | "adjust-up"
  | "adjust-down"
  | "clear"
  | "deactivate"
  | "block"
  | "unblock";

/** The activity each write records. */
export const WRITE_ACTIVITY: Readonly<Record<WriteKind, GiftCardActivityType>> = {
  activate: "ACTIVATE",
  load: "LOAD",
  "adjust-up": "ADJUST_INCREMENT",
  "adjust-down": "ADJUST_DECREMENT",
  clear: "CLEAR_BALANCE",
  deactivate: "DEACTIVATE",
  block: "BLOCK",
  unblock: "UNBLOCK",
};

/** Each write in words, for menus, prompts and messages. */
export const WRITE_WORDS: Readonly<Record<WriteKind, string>> = {
  activate: "activate",
  load: "load",
  "adjust-up": "adjust up",
  "adjust-down": "adjust down",
  clear: "clear the balance",
  deactivate: "deactivate",
  block: "block",
  unblock: "unblock",
};

/**
 * The reasons an application may give, per write. The spec's enumerations also hold reasons the
 * service records itself and refuses from applications ("read-only": UNKNOWN_REASON for a cleared
 * balance and a deactivation, CHARGEBACK_DEACTIVATE): those are left out here.
 */
export const WRITE_REASONS = {
  "adjust-up": ["COMPLIMENTARY", "SUPPORT_ISSUE", "TRANSACTION_VOIDED"],
  "adjust-down": ["SUSPICIOUS_ACTIVITY", "BALANCE_ACCIDENTALLY_INCREASED", "SUPPORT_ISSUE", "PURCHASE_WAS_REFUNDED"],
  clear: ["SUSPICIOUS_ACTIVITY", "REUSE_GIFTCARD"],
  deactivate: ["SUSPICIOUS_ACTIVITY"],
  block: ["CHARGEBACK_BLOCK"],
  unblock: ["CHARGEBACK_UNBLOCK"],
} as const satisfies {
  "adjust-up": readonly GiftCardActivityAdjustIncrementReason[];
  "adjust-down": readonly GiftCardActivityAdjustDecrementReason[];
  clear: readonly GiftCardActivityClearBalanceReason[];
  deactivate: readonly GiftCardActivityDeactivateReason[];
  block: readonly GiftCardActivityBlockReason[];
  unblock: readonly GiftCardActivityUnblockReason[];
};

/** A write that takes a reason. */
export type ReasonedKind = keyof typeof WRITE_REASONS;
/** A reason an application may give for a write of that kind. */
export type ReasonOf<K extends ReasonedKind> = (typeof WRITE_REASONS)[K][number];
/** Any reason of any write (and the read-only ones the service records). */
export type AnyReason =
  | GiftCardActivityAdjustIncrementReason
  | GiftCardActivityAdjustDecrementReason
  | GiftCardActivityClearBalanceReason
  | GiftCardActivityDeactivateReason
  | GiftCardActivityBlockReason
  | GiftCardActivityUnblockReason;

const REASON_WORDS: Readonly<Record<AnyReason, string>> = {
  COMPLIMENTARY: "complimentary",
  SUPPORT_ISSUE: "support issue",
  TRANSACTION_VOIDED: "transaction voided",
  SUSPICIOUS_ACTIVITY: "suspicious activity",
  BALANCE_ACCIDENTALLY_INCREASED: "raised by mistake",
  PURCHASE_WAS_REFUNDED: "purchase refunded",
  REUSE_GIFTCARD: "reuse the card",
  UNKNOWN_REASON: "reason not known",
  CHARGEBACK_BLOCK: "chargeback",
  CHARGEBACK_UNBLOCK: "chargeback decided for the store",
  CHARGEBACK_DEACTIVATE: "chargeback decided for the buyer",
};

/** A reason in words. */
export function reasonWords(reason: string | undefined): string {
  if (reason === undefined) return "";
  return (REASON_WORDS as Record<string, string>)[reason] ?? reason.toLowerCase().replaceAll("_", " ");
}

const fold = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");

/**
 * Reads a reason typed by a person or a script: the interface's name in any case
 * (`support_issue`, `SUPPORT-ISSUE`) or its words (`support issue`). A reason the service would
 * refuse for this write is refused here, listing the ones it takes.
 */
export function parseReason<K extends ReasonedKind>(
  kind: K,
  text: string,
): { ok: true; value: ReasonOf<K> } | { ok: false; problem: string } {
  const wanted = fold(text);
  const reasons = WRITE_REASONS[kind] as readonly ReasonOf<K>[];
  const found = reasons.find((r) => fold(r) === wanted || fold(reasonWords(r)) === wanted);
  if (found) return { ok: true, value: found };
  // The start of one reason's words, or of one of its words, is enough (`sup` for support issue,
  // `mistake` for raised by mistake), when it fits no other reason.
  const fits = (r: ReasonOf<K>) => {
    const words = fold(reasonWords(r));
    return words.startsWith(wanted) || words.split(" ").some((w) => w.startsWith(wanted));
  };
  const started = wanted.length >= 2 ? reasons.filter(fits) : [];
  if (started.length === 1 && started[0]) return { ok: true, value: started[0] };
  const list = reasons.map((r) => `${reasonWords(r)} (${r})`).join(", ");
  return {
    ok: false,
    problem: `${wanted ? `"${text.trim()}" is not a reason to ${WRITE_WORDS[kind]}` : `Give a reason to ${WRITE_WORDS[kind]}`}; the service takes: ${list}.`,
  };
}

/**
 * How a card sold or loaded outside backroom was paid for, as the interface requires: an order and
 * its gift card line item, or (sold outside an order) the buyer's payment instruments — a card or
 * bank account id, or a word the store uses for it ("cash").
 */
export type Payment =
  | { kind: "instruments"; ids: readonly string[] }
  | { kind: "order"; orderId: string; lineItemUid: string };

/** One write to a card, as the manager asked for it. Amounts are in the currency's minor units. */
export type GiftCardWrite =
  | { kind: "activate" | "load"; amount: number; payment: Payment; referenceId?: string }
  | { kind: "adjust-up"; amount: number; reason: ReasonOf<"adjust-up"> }
  | { kind: "adjust-down"; amount: number; reason: ReasonOf<"adjust-down"> }
  | { kind: "clear"; reason: ReasonOf<"clear"> }
  | { kind: "deactivate"; reason: ReasonOf<"deactivate"> }
  | { kind: "block"; reason: ReasonOf<"block"> }
  | { kind: "unblock"; reason: ReasonOf<"unblock"> };

/** Whether a write of this kind carries an amount. */
export function takesAmount(kind: WriteKind): kind is "activate" | "load" | "adjust-up" | "adjust-down" {
  return kind === "activate" || kind === "load" || kind === "adjust-up" || kind === "adjust-down";
}

/** What a card is before a write: its state and balance (a card the service does not know is `undefined`). */
export interface CardBefore {
  state: GiftCardStatus;
  balance: number;
  currency: string;
}

/** A card as {@link checkWrite} and {@link balanceChange} read it. */
export function cardBefore(card: GiftCard, currency: string): CardBefore {
  return {
    state: card.state ?? "PENDING",
    balance: card.balance_money?.amount ?? 0,
    currency: card.balance_money?.currency ?? currency,
  };
}

/** The balance and state a write leaves: `before → after`. */
export interface BalanceChange {
  before: Money;
  after: Money;
  stateBefore: GiftCardStatus | undefined;
  stateAfter: GiftCardStatus;
}

/** What a write does to a card (`undefined`: a number the service does not know, created first). */
export function balanceChange(card: CardBefore | undefined, write: GiftCardWrite, currency: string): BalanceChange {
  const cur = card?.currency ?? currency;
  const before = card?.balance ?? 0;
  const state = card?.state;
  const money = (amount: number): Money => ({ amount, currency: cur });
  const keep = (stateAfter: GiftCardStatus): BalanceChange => ({
    before: money(before),
    after: money(before),
    stateBefore: state,
    stateAfter,
  });
  switch (write.kind) {
    case "activate":
      return { before: money(before), after: money(before + write.amount), stateBefore: state, stateAfter: "ACTIVE" };
    case "load":
    case "adjust-up":
      return {
        before: money(before),
        after: money(before + write.amount),
        stateBefore: state,
        stateAfter: state ?? "ACTIVE",
      };
    case "adjust-down":
      return {
        before: money(before),
        after: money(before - write.amount),
        stateBefore: state,
        stateAfter: state ?? "ACTIVE",
      };
    case "clear":
      return { before: money(before), after: money(0), stateBefore: state, stateAfter: state ?? "ACTIVE" };
    case "deactivate":
      return keep("DEACTIVATED");
    case "block":
      return keep("BLOCKED");
    case "unblock":
      return keep("ACTIVE");
  }
}

/** The part of a write a problem is about: its amount, the payment instruments, the order or its line item. */
export type WritePart = "amount" | "instruments" | "orderId" | "lineItemUid";

/** Why a write would be refused, and the part of it that is why when it is one part (a form goes there). */
export interface WriteCheck {
  problem: string;
  part?: WritePart;
}

/** Why a payment cannot go with an activation or a load (and which part is missing), or undefined. */
export function paymentCheck(payment: Payment): WriteCheck | undefined {
  if (payment.kind === "order") {
    if (!payment.orderId.trim() || !payment.lineItemUid.trim()) {
      const part = payment.orderId.trim() ? "lineItemUid" : "orderId";
      return { problem: "Name both the order and its gift card line item.", part };
    }
    return undefined;
  }
  if (payment.ids.length === 0 || payment.ids.some((id) => !id.trim())) {
    return {
      problem:
        "Say how the buyer paid (a payment instrument id, or a word such as cash): the service requires it for a card sold outside an order.",
      part: "instruments",
    };
  }
  return undefined;
}

/** Why the card's state does not allow this kind of write, or undefined (a menu greys it out with this). */
export function checkCardState(card: CardBefore | undefined, kind: WriteKind): string | undefined {
  if (kind === "activate") {
    if (!card || card.state === "PENDING") return undefined;
    return card.state === "ACTIVE"
      ? "This card is already active; load it instead."
      : `This card is ${cardStateWords(card.state)} and cannot be activated.`;
  }
  if (!card) return "The service does not know this card number; activate it first.";
  switch (card.state) {
    case "PENDING":
      return "This card is not yet active; activate it first.";
    case "DEACTIVATED":
      return "This card is deactivated: nothing can be done to it any more.";
    case "BLOCKED":
      return kind === "unblock" || kind === "clear" || kind === "deactivate"
        ? undefined
        : `This card is blocked; unblock it before you ${WRITE_WORDS[kind]} it.`;
    default:
      return kind === "unblock" ? "This card is not blocked." : undefined;
  }
}

/**
 * Why a write would be refused, before anything is sent, and the part of the write that is why
 * when it is one (the amount, the payment); undefined when it may be sent. The same rules as the
 * service's: the card's state, an amount above zero in the card's currency, no decrement past the
 * balance, a payment for a card sold outside an order. The card's state or currency is no part.
 */
export function writeCheck(
  card: CardBefore | undefined,
  write: GiftCardWrite,
  currency: string,
): WriteCheck | undefined {
  const state = checkCardState(card, write.kind);
  if (state) return { problem: state };
  if (card && card.currency !== currency) {
    return { problem: `This card holds ${card.currency}; amounts here are in ${currency}.` };
  }
  if ("amount" in write) {
    if (!Number.isSafeInteger(write.amount) || write.amount <= 0) {
      return { problem: "Type an amount greater than zero.", part: "amount" };
    }
    if (write.kind === "adjust-down" && write.amount > (card?.balance ?? 0)) {
      const held = formatMoney({ amount: card?.balance ?? 0, currency });
      const off = formatMoney({ amount: write.amount, currency });
      return { problem: `The card holds ${held}; ${off} cannot be taken off it.`, part: "amount" };
    }
  }
  if (write.kind === "activate" || write.kind === "load") return paymentCheck(write.payment);
  if (write.kind === "clear" && card?.balance === 0) return { problem: "The card's balance is already zero." };
  return undefined;
}

/** Why a write would be refused, in words, before anything is sent; undefined when it may be sent. */
export function checkWrite(card: CardBefore | undefined, write: GiftCardWrite, currency: string): string | undefined {
  return writeCheck(card, write, currency)?.problem;
}

/** Which card an activity names: by id when known, else by its number. */
export type CardRef = { id: string } | { gan: string };

/** The activity a write records, as the interface takes it (the caller adds the idempotency key). */
export function activityFor(
  write: GiftCardWrite,
  card: CardRef,
  locationId: string,
  currency: string,
): GiftCardActivity {
  const base = {
    location_id: locationId,
    ...("id" in card ? { gift_card_id: card.id } : { gift_card_gan: card.gan }),
  };
  const money = (amount: number) => ({ amount, currency: currency as Currency });
  switch (write.kind) {
    case "activate":
    case "load": {
      const details = {
        amount_money: money(write.amount),
        ...(write.payment.kind === "order"
          ? { order_id: write.payment.orderId, line_item_uid: write.payment.lineItemUid }
          : { buyer_payment_instrument_ids: [...write.payment.ids] }),
        ...(write.referenceId ? { reference_id: write.referenceId } : {}),
      };
      return write.kind === "activate"
        ? { ...base, type: "ACTIVATE", activate_activity_details: details }
        : { ...base, type: "LOAD", load_activity_details: details };
    }
    case "adjust-up":
      return {
        ...base,
        type: "ADJUST_INCREMENT",
        adjust_increment_activity_details: { amount_money: money(write.amount), reason: write.reason },
      };
    case "adjust-down":
      return {
        ...base,
        type: "ADJUST_DECREMENT",
        adjust_decrement_activity_details: { amount_money: money(write.amount), reason: write.reason },
      };
    case "clear":
      return { ...base, type: "CLEAR_BALANCE", clear_balance_activity_details: { reason: write.reason } };
    case "deactivate":
      return { ...base, type: "DEACTIVATE", deactivate_activity_details: { reason: write.reason } };
    case "block":
      return { ...base, type: "BLOCK", block_activity_details: { reason: write.reason } };
    case "unblock":
      return { ...base, type: "UNBLOCK", unblock_activity_details: { reason: write.reason } };
  }
}

/**
 * The question a write asks before it is sent, with the balance before → after:
 * `Load 25.00 USD onto card …0005? Balance 10.00 → 35.00 USD.`
 */
export function describeWrite(
  gan: string,
  card: CardBefore | undefined,
  write: GiftCardWrite,
  currency: string,
): string {
  const change = balanceChange(card, write, currency);
  const cur = change.after.currency;
  const amount = "amount" in write ? formatMoney({ amount: write.amount, currency: cur }) : "";
  const reason = "reason" in write ? ` (${reasonWords(write.reason)})` : "";
  const balance = `Balance ${formatAmount(change.before.amount, cur)} → ${formatAmount(change.after.amount, cur)} ${cur}`;
  const card_ = `card ${gan}`;
  switch (write.kind) {
    case "activate":
      return `${card ? "Activate" : "Register and activate"} ${card_} with ${amount}? ${balance}.`;
    case "load":
      return `Load ${amount} onto ${card_}? ${balance}.`;
    case "adjust-up":
      return `Add ${amount} to ${card_}${reason}? ${balance}.`;
    case "adjust-down":
      return `Take ${amount} off ${card_}${reason}? ${balance}.`;
    case "clear":
      return `Clear the balance of ${card_}${reason}? ${balance}.`;
    case "deactivate":
      return `Deactivate ${card_}${reason}? It can never be used again; its ${formatMoney(change.before)} stays on it.`;
    case "block":
      return `Block ${card_}${reason}? Its ${formatMoney(change.before)} cannot be spent or loaded until it is unblocked.`;
    case "unblock":
      return `Unblock ${card_}${reason}? Its ${formatMoney(change.before)} can be spent again.`;
  }
}

/** What a look-up names: a card's id (`gftc:…`), or its number as typed or scanned. */
export type CardQuery = { kind: "id"; id: string } | { kind: "gan"; gan: string };

/**
 * Reads a look-up: an id starts with `gftc:`; anything else is a card number, spaces and dashes
 * between its groups dropped. A number with characters no card number has is refused.
 */
export function parseCardQuery(text: string): { ok: true; value: CardQuery } | { ok: false; problem: string } {
  const t = text.trim();
  if (t === "") return { ok: false, problem: "Scan a card, or type its number or id." };
  if (/^gftc:/i.test(t)) return { ok: true, value: { kind: "id", id: `gftc:${t.slice(5)}` } };
  const gan = normalizeGan(t);
  if (!/^[A-Za-z0-9]{1,255}$/.test(gan)) {
    return { ok: false, problem: `"${t}" is not a gift card number: they have letters and digits only.` };
  }
  return { ok: true, value: { kind: "gan", gan } };
}

/** What a write did, in a sentence, with the balance read back after it. */
export function doneWords(gan: string, write: GiftCardWrite, before: Money, after: Money): string {
  const cur = after.currency;
  const amount = "amount" in write ? formatMoney({ amount: write.amount, currency: cur }) : "";
  const reason = "reason" in write ? ` (${reasonWords(write.reason)})` : "";
  const balance = `balance ${formatAmount(before.amount, cur)} → ${formatAmount(after.amount, cur)} ${cur}`;
  switch (write.kind) {
    case "activate":
      return `Activated card ${gan} with ${amount}: ${balance}.`;
    case "load":
      return `Loaded ${amount} onto card ${gan}: ${balance}.`;
    case "adjust-up":
      return `Added ${amount} to card ${gan}${reason}: ${balance}.`;
    case "adjust-down":
      return `Took ${amount} off card ${gan}${reason}: ${balance}.`;
    case "clear":
      return `Cleared card ${gan}${reason}: ${balance}.`;
    case "deactivate":
      return `Deactivated card ${gan}${reason}: it holds ${formatMoney(after)} and can no longer be used.`;
    case "block":
      return `Blocked card ${gan}${reason}: ${formatMoney(after)} held until it is unblocked.`;
    case "unblock":
      return `Unblocked card ${gan}${reason}: ${formatMoney(after)} can be spent again.`;
  }
}
