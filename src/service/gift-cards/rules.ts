import { type ReasonedKind, WRITE_ACTIVITY, WRITE_REASONS } from "../../domain/gift-cards.js";
import type {
  Currency,
  GiftCardActivity,
  GiftCardActivityType,
  GiftCardStatus,
  Money,
} from "../../spec/generated/types.js";
import { badRequest, invalid } from "../errors.js";

/** What an activity may change on a card. */
export interface CardBalance {
  state: GiftCardStatus;
  balance: number;
  currency: Currency;
}

/** The details object each activity type carries, by type. */
export const DETAILS_FIELD: Readonly<Record<GiftCardActivityType, keyof GiftCardActivity>> = {
  ACTIVATE: "activate_activity_details",
  LOAD: "load_activity_details",
  REDEEM: "redeem_activity_details",
  CLEAR_BALANCE: "clear_balance_activity_details",
  DEACTIVATE: "deactivate_activity_details",
  ADJUST_INCREMENT: "adjust_increment_activity_details",
  ADJUST_DECREMENT: "adjust_decrement_activity_details",
  REFUND: "refund_activity_details",
  UNLINKED_ACTIVITY_REFUND: "unlinked_activity_refund_activity_details",
  IMPORT: "import_activity_details",
  BLOCK: "block_activity_details",
  UNBLOCK: "unblock_activity_details",
  IMPORT_REVERSAL: "import_reversal_activity_details",
  TRANSFER_BALANCE_FROM: "transfer_balance_from_activity_details",
  TRANSFER_BALANCE_TO: "transfer_balance_to_activity_details",
};

/** Types only the service itself records (imports of third-party cards, balance transfers). */
const SERVICE_ONLY: ReadonlySet<GiftCardActivityType> = new Set([
  "IMPORT",
  "IMPORT_REVERSAL",
  "TRANSFER_BALANCE_FROM",
  "TRANSFER_BALANCE_TO",
]);

/** What a BLOCKED card still accepts: it can be released, emptied or retired, not spent or loaded. */
const ALLOWED_WHEN_BLOCKED: ReadonlySet<GiftCardActivityType> = new Set(["UNBLOCK", "CLEAR_BALANCE", "DEACTIVATE"]);

/** A REDEEM that a REFUND names, with what has already been given back against it. */
export interface RedeemRecord {
  giftCardId: string;
  amount: number;
  refunded: number;
}

/** The outcome of an activity: the card after it and the details to record. */
export interface ActivityOutcome {
  state: GiftCardStatus;
  balance: number;
  details: Record<string, unknown>;
}

const FIELD = "gift_card_activity";

/** A new activity's details object (a copy), refusing a service-only type or missing details. */
function detailsOf(activity: GiftCardActivity): { details: Record<string, unknown>; at: string } {
  const type = activity.type;
  if (SERVICE_ONLY.has(type)) {
    throw badRequest(
      `${type} activities are recorded by the service itself, not created by applications.`,
      `${FIELD}.type`,
    );
  }
  const detailsField = DETAILS_FIELD[type];
  const raw = activity[detailsField];
  if (raw === undefined || raw === null) {
    throw invalid(
      "MISSING_REQUIRED_PARAMETER",
      `A ${type} activity needs ${detailsField}.`,
      `${FIELD}.${detailsField}`,
    );
  }
  return { details: { ...(raw as Record<string, unknown>) }, at: `${FIELD}.${detailsField}` };
}

/** Refuses an activity the card's state does not allow. */
function checkCardState(card: CardBalance, type: GiftCardActivityType): void {
  if (card.state === "DEACTIVATED") throw badRequest("The gift card is deactivated and accepts no further activity.");
  if (card.state === "PENDING" && type !== "ACTIVATE") {
    throw badRequest(`The gift card has not been activated; ${type} needs an ACTIVE card.`);
  }
  if (type === "ACTIVATE" && card.state !== "PENDING") throw badRequest("The gift card has already been activated.");
  if (card.state === "BLOCKED" && !ALLOWED_WHEN_BLOCKED.has(type)) {
    throw badRequest(`The gift card is blocked; ${type} is not allowed until it is unblocked.`);
  }
}

/**
 * The gift card state machine. A card is created PENDING; ACTIVATE (with an amount) makes it
 * ACTIVE; any other activity on a card never activated is refused. LOAD, REFUND, ADJUST_INCREMENT
 * and UNLINKED_ACTIVITY_REFUND add; REDEEM and ADJUST_DECREMENT subtract, never below zero;
 * CLEAR_BALANCE empties; BLOCK/UNBLOCK toggle BLOCKED; DEACTIVATE is final. Pure: the caller
 * looks up the card (and a named REDEEM) and stores the outcome.
 */
export function applyActivity(card: CardBalance, activity: GiftCardActivity, redeem?: RedeemRecord): ActivityOutcome {
  const type = activity.type;
  const { details, at } = detailsOf(activity);
  checkCardState(card, type);

  const amount = (): number => {
    const n = positiveAmount(details.amount_money, card.currency, `${at}.amount_money`);
    details.amount_money = { amount: n, currency: card.currency };
    return n;
  };
  const add = (n: number): ActivityOutcome => ({ state: card.state, balance: card.balance + n, details });
  const take = (n: number): ActivityOutcome => {
    if (n > card.balance) {
      throw invalid(
        "INSUFFICIENT_FUNDS",
        `The gift card holds ${card.balance} and cannot give ${n}.`,
        `${at}.amount_money`,
      );
    }
    return { state: card.state, balance: card.balance - n, details };
  };

  givenReason(type, details, at);
  switch (type) {
    case "ACTIVATE": {
      paidFor(details, at);
      return { state: "ACTIVE", balance: card.balance + amount(), details };
    }
    case "LOAD":
      paidFor(details, at);
      return add(amount());
    case "REDEEM": {
      const status = details.status ?? "COMPLETED";
      if (status !== "COMPLETED" && status !== "PENDING") {
        throw invalid("INVALID_VALUE", "A new redemption is COMPLETED or PENDING.", `${at}.status`);
      }
      details.status = status;
      return take(amount());
    }
    case "ADJUST_DECREMENT":
      return take(amount());
    case "ADJUST_INCREMENT":
    case "UNLINKED_ACTIVITY_REFUND":
      return add(amount());
    case "REFUND": {
      const n = amount();
      if (details.redeem_activity_id !== undefined) {
        if (!redeem)
          throw invalid(
            "INVALID_VALUE",
            "No REDEEM activity of this gift card has that id.",
            `${at}.redeem_activity_id`,
          );
        if (redeem.refunded + n > redeem.amount) {
          throw invalid(
            "REFUND_AMOUNT_INVALID",
            `Only ${redeem.amount - redeem.refunded} of that redemption is left to refund.`,
            `${at}.amount_money`,
          );
        }
      }
      return add(n);
    }
    case "CLEAR_BALANCE":
      return { state: card.state, balance: 0, details };
    case "DEACTIVATE":
      return { state: "DEACTIVATED", balance: card.balance, details };
    case "BLOCK":
      if (card.state === "BLOCKED") throw badRequest("The gift card is already blocked.");
      return { state: "BLOCKED", balance: card.balance, details };
    case "UNBLOCK":
      if (card.state !== "BLOCKED") throw badRequest("The gift card is not blocked.");
      return { state: "ACTIVE", balance: card.balance, details };
    default:
      throw badRequest(`${type} activities are not supported.`, `${FIELD}.type`);
  }
}

/** An amount that must be given, positive, and in the card's currency. */
function positiveAmount(value: unknown, currency: Currency, field: string): number {
  const m = value as Money | undefined;
  if (!m || typeof m.amount !== "number") {
    throw invalid("MISSING_REQUIRED_PARAMETER", `Field must be set: ${field}.`, field);
  }
  if (m.amount <= 0) throw invalid("VALUE_TOO_LOW", `The amount must be greater than zero: ${field}.`, field);
  if (m.currency !== undefined && m.currency !== currency) {
    throw invalid("CURRENCY_MISMATCH", `The gift card holds ${currency}, not ${m.currency}.`, `${field}.currency`);
  }
  return m.amount;
}

/**
 * A card sold or loaded is paid for one of two ways, as the interface requires: through an order
 * (named by both the order and its gift card line item), or outside one, when the buyer's payment
 * instruments must be listed (Square runs its compliance checks on them).
 */
function paidFor(details: Record<string, unknown>, at: string): void {
  const order = details.order_id;
  const line = details.line_item_uid;
  if (order !== undefined && line === undefined) {
    throw invalid("MISSING_REQUIRED_PARAMETER", "line_item_uid must be set with order_id.", `${at}.line_item_uid`);
  }
  if (line !== undefined && order === undefined) {
    throw invalid("MISSING_REQUIRED_PARAMETER", "order_id must be set with line_item_uid.", `${at}.order_id`);
  }
  const instruments = details.buyer_payment_instrument_ids;
  if (order === undefined && (!Array.isArray(instruments) || instruments.length === 0)) {
    throw invalid(
      "MISSING_REQUIRED_PARAMETER",
      "Without order_id and line_item_uid, buyer_payment_instrument_ids must list how the buyer paid.",
      `${at}.buyer_payment_instrument_ids`,
    );
  }
}

/** The activity type behind each write that takes a reason. */
const REASONED: ReadonlyMap<GiftCardActivityType, ReasonedKind> = new Map(
  (Object.keys(WRITE_REASONS) as ReasonedKind[]).map((k) => [WRITE_ACTIVITY[k], k]),
);

/** Some reasons of the spec's enumerations are recorded by the service only ("read-only"). */
function givenReason(type: GiftCardActivityType, details: Record<string, unknown>, at: string): void {
  const kind = REASONED.get(type);
  if (kind === undefined || typeof details.reason !== "string") return;
  if (!(WRITE_REASONS[kind] as readonly string[]).includes(details.reason)) {
    throw invalid(
      "INVALID_VALUE",
      `${details.reason} is recorded by the service itself; a ${type} activity takes ${WRITE_REASONS[kind].join(", ")}.`,
      `${at}.reason`,
    );
  }
}
