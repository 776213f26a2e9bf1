/** One event type one can subscribe to, with the API version that introduced it. */
export interface EventTypeInfo {
  type: string;
  introduced: string;
  releaseStatus: "PUBLIC" | "BETA";
  /** The notification's `data.type` for this event. */
  dataType: string;
}

const t = (type: string, introduced: string, dataType: string, releaseStatus: "PUBLIC" | "BETA" = "PUBLIC") => ({
  type,
  introduced,
  releaseStatus,
  dataType,
});

/** The event types this service knows, oldest first. */
const EVENT_TYPES: readonly EventTypeInfo[] = [
  t("inventory.count.updated", "2018-07-12", "inventory_counts"),
  t("catalog.version.updated", "2018-07-12", "catalog_version"),
  t("oauth.authorization.revoked", "2019-03-13", "revocation"),
  // https://developer.squareup.com/docs/changelog/services-logs/2019-11-20 (v2 webhooks, beta)
  t("labor.shift.created", "2019-11-20", "shift"),
  t("labor.shift.updated", "2019-11-20", "shift"),
  t("labor.shift.deleted", "2019-11-20", "shift"),
  t("order.created", "2020-02-26", "order_created"),
  t("order.updated", "2020-02-26", "order_updated"),
  t("order.fulfillment.updated", "2020-02-26", "order_fulfillment_updated"),
  t("payment.created", "2020-02-26", "payment"),
  t("payment.updated", "2020-02-26", "payment"),
  t("refund.created", "2020-02-26", "refund"),
  t("refund.updated", "2020-02-26", "refund"),
  t("location.created", "2020-04-22", "location"),
  t("location.updated", "2020-04-22", "location"),
  t("team_member.created", "2020-06-25", "team_member"),
  t("team_member.updated", "2020-06-25", "team_member"),
  t("team_member.wage_setting.updated", "2020-06-25", "wage_setting"),
  t("invoice.created", "2020-06-25", "invoice"),
  t("invoice.updated", "2020-06-25", "invoice"),
  t("invoice.published", "2020-06-25", "invoice"),
  t("invoice.payment_made", "2020-06-25", "invoice"),
  t("invoice.canceled", "2020-06-25", "invoice"),
  t("customer.created", "2021-02-26", "customer"),
  t("customer.updated", "2021-02-26", "customer"),
  t("customer.deleted", "2021-02-26", "customer"),
  t("bank_account.created", "2021-05-13", "bank_account"),
  t("bank_account.verified", "2021-05-13", "bank_account"),
  t("bank_account.disabled", "2021-05-13", "bank_account"),
  t("gift_card.created", "2021-09-15", "gift_card"),
  t("gift_card.updated", "2021-09-15", "gift_card"),
  t("gift_card.customer_linked", "2021-09-15", "gift_card"),
  t("gift_card.customer_unlinked", "2021-09-15", "gift_card"),
  t("gift_card.activity.created", "2021-09-15", "gift_card_activity"),
  t("gift_card.activity.updated", "2022-01-20", "gift_card_activity"),
  t("payout.sent", "2022-03-16", "payout"),
  t("payout.failed", "2022-03-16", "payout"),
  t("payout.paid", "2022-03-16", "payout"),
  t("customer.custom_attribute.updated", "2022-05-12", "custom_attribute", "BETA"),
];

/** The event types an API version offers: those introduced on or before it. */
export function eventTypesFor(apiVersion: string): EventTypeInfo[] {
  return EVENT_TYPES.filter((e) => e.introduced <= apiVersion);
}

/** The notification `data.type` of an event type (the known one, or its middle words). */
export function dataTypeOf(eventType: string): string {
  const known = EVENT_TYPES.find((e) => e.type === eventType);
  if (known) return known.dataType;
  const parts = eventType.split(".");
  return parts.slice(0, -1).join("_") || eventType;
}
