import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Query of {@link webhooksApi}'s `listWebhookSubscriptions`. */
export interface ListWebhookSubscriptionsQuery {
  include_disabled?: boolean;
  sort_order?: T.SortOrder;
  limit?: number;
}

/** Webhook subscriptions: where event notifications go, their event types and signature keys. */
export function webhooksApi(t: Transport) {
  return {
    /** Lists the event types one can subscribe to, optionally for one API version. */
    listWebhookEventTypes: (query: { api_version?: string } = {}, o?: RequestOptions) =>
      t.call<T.ListWebhookEventTypesResponse>(op.ListWebhookEventTypes, { query }, o),
    /** Lists the application's subscriptions; paged by query cursor. */
    listWebhookSubscriptions: (query: ListWebhookSubscriptionsQuery = {}, o?: RequestOptions) =>
      t.page<T.ListWebhookSubscriptionsResponse, T.WebhookSubscription>(
        op.ListWebhookSubscriptions,
        { query },
        (p) => p.subscriptions,
        o,
      ),
    /** Creates a subscription. */
    createWebhookSubscription: (body: T.CreateWebhookSubscriptionRequest, o?: RequestOptions) =>
      t.call<T.CreateWebhookSubscriptionResponse>(op.CreateWebhookSubscription, { body }, o),
    /** Deletes a subscription. */
    deleteWebhookSubscription: (subscriptionId: string, o?: RequestOptions) =>
      t.call<T.DeleteWebhookSubscriptionResponse>(
        op.DeleteWebhookSubscription,
        { path: { subscription_id: subscriptionId } },
        o,
      ),
    /** Returns one subscription. */
    retrieveWebhookSubscription: (subscriptionId: string, o?: RequestOptions) =>
      t.call<T.RetrieveWebhookSubscriptionResponse>(
        op.RetrieveWebhookSubscription,
        { path: { subscription_id: subscriptionId } },
        o,
      ),
    /** Updates a subscription (name, URL, event types, enabled). */
    updateWebhookSubscription: (subscriptionId: string, body: T.UpdateWebhookSubscriptionRequest, o?: RequestOptions) =>
      t.call<T.UpdateWebhookSubscriptionResponse>(
        op.UpdateWebhookSubscription,
        { path: { subscription_id: subscriptionId }, body },
        o,
      ),
    /** Replaces the signature key; notifications are signed with the new key from then on. */
    updateWebhookSubscriptionSignatureKey: (
      subscriptionId: string,
      body: T.UpdateWebhookSubscriptionSignatureKeyRequest = {},
      o?: RequestOptions,
    ) =>
      t.call<T.UpdateWebhookSubscriptionSignatureKeyResponse>(
        op.UpdateWebhookSubscriptionSignatureKey,
        { path: { subscription_id: subscriptionId }, body },
        o,
      ),
    /** Sends a test notification of one event type to the subscription's URL. */
    testWebhookSubscription: (
      subscriptionId: string,
      body: T.TestWebhookSubscriptionRequest = {},
      o?: RequestOptions,
    ) =>
      t.call<T.TestWebhookSubscriptionResponse>(
        op.TestWebhookSubscription,
        { path: { subscription_id: subscriptionId }, body },
        o,
      ),
  };
}
