import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Query of {@link payoutsApi}'s `listPayouts`. */
export interface ListPayoutsQuery {
  location_id?: string;
  status?: T.PayoutStatus;
  begin_time?: string;
  end_time?: string;
  sort_order?: T.SortOrder;
  limit?: number;
}

/** Payouts: transfers to the seller's bank and the entries that make them up. */
export function payoutsApi(t: Transport) {
  return {
    /** Lists payouts; paged by query cursor. */
    listPayouts: (query: ListPayoutsQuery = {}, o?: RequestOptions) =>
      t.page<T.ListPayoutsResponse, T.Payout>(op.ListPayouts, { query }, (p) => p.payouts, o),
    /** Returns one payout. */
    getPayout: (payoutId: string, o?: RequestOptions) =>
      t.call<T.GetPayoutResponse>(op.GetPayout, { path: { payout_id: payoutId } }, o),
    /** Lists the entries of one payout; paged by query cursor. */
    listPayoutEntries: (
      payoutId: string,
      query: { sort_order?: T.SortOrder; limit?: number } = {},
      o?: RequestOptions,
    ) =>
      t.page<T.ListPayoutEntriesResponse, T.PayoutEntry>(
        op.ListPayoutEntries,
        { path: { payout_id: payoutId }, query },
        (p) => p.payout_entries,
        o,
      ),
  };
}
