import type { GiftCard, GiftCardActivity } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { type CardRow, cardOf, findActivity, insertActivity, refundedAgainst, updateCardBalance } from "./repo.js";
import { applyActivity, DETAILS_FIELD, type RedeemRecord } from "./rules.js";

/**
 * Applies one activity to a card and stores both: the rule decides, the card's state and balance
 * change, and the activity is recorded with the balance after it. The service's rules and the
 * demo seed both write through here, so seeded histories obey the same state machine.
 */
export function recordActivity(
  db: Db,
  merchantId: string,
  card: CardRow,
  input: GiftCardActivity,
  meta: { id: string; createdAt: string },
): { activity: GiftCardActivity; card: GiftCard } {
  const outcome = applyActivity(card, input, redeemNamed(db, card.id, input));
  updateCardBalance(db, card.id, outcome.state, outcome.balance);
  const activity: GiftCardActivity & { id: string; created_at: string; gift_card_id: string } = {
    id: meta.id,
    type: input.type,
    location_id: input.location_id,
    created_at: meta.createdAt,
    gift_card_id: card.id,
    gift_card_gan: card.gan,
    gift_card_balance_money: { amount: outcome.balance, currency: card.currency },
    [DETAILS_FIELD[input.type]]: outcome.details,
  };
  insertActivity(db, merchantId, activity);
  return { activity, card: cardOf({ ...card, state: outcome.state, balance: outcome.balance }) };
}

/** The REDEEM a REFUND names, with what was already refunded against it. */
function redeemNamed(db: Db, cardId: string, input: GiftCardActivity): RedeemRecord | undefined {
  const id = input.type === "REFUND" ? input.refund_activity_details?.redeem_activity_id : undefined;
  if (id === undefined) return undefined;
  const redeem = findActivity(db, cardId, id);
  if (redeem?.type !== "REDEEM") return undefined;
  return {
    giftCardId: cardId,
    amount: redeem.redeem_activity_details?.amount_money?.amount ?? 0,
    refunded: refundedAgainst(db, cardId, id),
  };
}
