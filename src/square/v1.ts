import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Query of the V1 lists that take a time range. */
export interface V1RangeQuery {
  order?: T.SortOrder;
  /** RFC 3339; the range may be at most one year. */
  begin_time?: string;
  end_time?: string;
  /** At most 200. */
  limit?: number;
}

/**
 * V1 transactions: orders, payments, refunds and settlements of one location. The lists answer a
 * bare array and name the next page in a `Link` header. Payments, refunds and settlements have
 * been retired by the real service; a 404/410 for them raises `SquareRetiredError`.
 */
export function v1Api(t: Transport) {
  return {
    /** @deprecated Use the Orders API (`searchOrders`). Lists a location's online-store orders. */
    v1ListOrders: (locationId: string, query: { order?: T.SortOrder; limit?: number } = {}, o?: RequestOptions) =>
      t.v1Page<T.V1Order>(op.V1ListOrders, { path: { location_id: locationId }, query }, o),
    /** @deprecated Use the Orders API (`retrieveOrder`). Returns one order. */
    v1RetrieveOrder: (locationId: string, orderId: string, o?: RequestOptions) =>
      t.call<T.V1Order>(op.V1RetrieveOrder, { path: { location_id: locationId, order_id: orderId } }, o),
    /** @deprecated Use the Orders API (`updateOrder`). Completes, cancels or refunds an order. */
    v1UpdateOrder: (locationId: string, orderId: string, body: T.V1UpdateOrderRequest, o?: RequestOptions) =>
      t.call<T.V1Order>(op.V1UpdateOrder, { path: { location_id: locationId, order_id: orderId }, body }, o),
    /** @deprecated Use the Payments API (`listPayments`). Lists a location's payments. */
    v1ListPayments: (
      locationId: string,
      query: V1RangeQuery & { include_partial?: boolean } = {},
      o?: RequestOptions,
    ) => t.v1Page<T.V1Payment>(op.V1ListPayments, { path: { location_id: locationId }, query }, o),
    /** @deprecated Use the Payments API (`getPayment`). Returns one payment. */
    v1RetrievePayment: (locationId: string, paymentId: string, o?: RequestOptions) =>
      t.call<T.V1Payment>(op.V1RetrievePayment, { path: { location_id: locationId, payment_id: paymentId } }, o),
    /** @deprecated Use the Refunds API (`listPaymentRefunds`). Lists a location's refunds. */
    v1ListRefunds: (locationId: string, query: V1RangeQuery = {}, o?: RequestOptions) =>
      t.v1Page<T.V1Refund>(op.V1ListRefunds, { path: { location_id: locationId }, query }, o),
    /**
     * @deprecated Use the Refunds API (`refundPayment`). Refunds a payment; the transport mints
     * `request_idempotence_key` when it is left out, so a retry never refunds twice.
     */
    v1CreateRefund: (locationId: string, body: T.V1CreateRefundRequest, o?: RequestOptions) =>
      t.call<T.V1Refund>(op.V1CreateRefund, { path: { location_id: locationId }, body }, o),
    /** @deprecated Use the Payouts API ({@link payoutsApi} `listPayouts`). Lists settlements. */
    v1ListSettlements: (
      locationId: string,
      query: V1RangeQuery & { status?: T.V1ListSettlementsRequestStatus } = {},
      o?: RequestOptions,
    ) => t.v1Page<T.V1Settlement>(op.V1ListSettlements, { path: { location_id: locationId }, query }, o),
    /** @deprecated Use the Payouts API ({@link payoutsApi} `getPayout`). Returns one settlement. */
    v1RetrieveSettlement: (locationId: string, settlementId: string, o?: RequestOptions) =>
      t.call<T.V1Settlement>(
        op.V1RetrieveSettlement,
        { path: { location_id: locationId, settlement_id: settlementId } },
        o,
      ),
  };
}
