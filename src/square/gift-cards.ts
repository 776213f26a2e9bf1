import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { KeyOptional, RequestOptions, Transport } from "./transport.js";

/** Query of {@link giftCardsApi}'s `listGiftCards`. */
export interface ListGiftCardsQuery {
  type?: T.GiftCardType;
  state?: T.GiftCardStatus;
  limit?: number;
  customer_id?: string;
}

/** Query of {@link giftCardsApi}'s `listGiftCardActivities`. */
export interface ListGiftCardActivitiesQuery {
  gift_card_id?: string;
  type?: T.GiftCardActivityType;
  location_id?: string;
  begin_time?: string;
  end_time?: string;
  limit?: number;
  sort_order?: T.SortOrder;
}

/** Gift cards and their activities (activate, load, redeem, adjust, ...). */
export function giftCardsApi(t: Transport) {
  return {
    /** Lists gift cards; paged by query cursor. */
    listGiftCards: (query: ListGiftCardsQuery = {}, o?: RequestOptions) =>
      t.page<T.ListGiftCardsResponse, T.GiftCard>(op.ListGiftCards, { query }, (p) => p.gift_cards, o),
    /** Creates a gift card (pending until an ACTIVATE activity). */
    createGiftCard: (body: KeyOptional<T.CreateGiftCardRequest, "idempotency_key">, o?: RequestOptions) =>
      t.call<T.CreateGiftCardResponse>(op.CreateGiftCard, { body }, o),
    /** Returns one gift card by id. */
    retrieveGiftCard: (id: string, o?: RequestOptions) =>
      t.call<T.RetrieveGiftCardResponse>(op.RetrieveGiftCard, { path: { id } }, o),
    /** Returns one gift card by its account number (GAN), e.g. a scanned card. */
    retrieveGiftCardFromGAN: (body: T.RetrieveGiftCardFromGANRequest, o?: RequestOptions) =>
      t.call<T.RetrieveGiftCardFromGANResponse>(op.RetrieveGiftCardFromGAN, { body }, o),
    /** Lists gift card activities; paged by query cursor. */
    listGiftCardActivities: (query: ListGiftCardActivitiesQuery = {}, o?: RequestOptions) =>
      t.page<T.ListGiftCardActivitiesResponse, T.GiftCardActivity>(
        op.ListGiftCardActivities,
        { query },
        (p) => p.gift_card_activities,
        o,
      ),
    /** Records an activity on a gift card; the balance changes exactly once however often it is retried. */
    createGiftCardActivity: (
      body: KeyOptional<T.CreateGiftCardActivityRequest, "idempotency_key">,
      o?: RequestOptions,
    ) => t.call<T.CreateGiftCardActivityResponse>(op.CreateGiftCardActivity, { body }, o),
  };
}
