import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { RequestOptions, Transport } from "./transport.js";

/** Query of {@link cashDrawersApi}'s `listCashDrawerShifts`. */
export interface ListCashDrawerShiftsQuery {
  location_id: string;
  sort_order?: T.SortOrder;
  /** RFC 3339; shifts that opened at or after it. */
  begin_time?: string;
  /** RFC 3339; shifts that opened before it. */
  end_time?: string;
  limit?: number;
}

/** Cash drawers: shifts of a till and their events. */
export function cashDrawersApi(t: Transport) {
  return {
    /** Lists a location's cash drawer shifts; paged by query cursor. */
    listCashDrawerShifts: (query: ListCashDrawerShiftsQuery, o?: RequestOptions) =>
      t.page<T.ListCashDrawerShiftsResponse, T.CashDrawerShiftSummary>(
        op.ListCashDrawerShifts,
        { query },
        (p) => p.cash_drawer_shifts,
        o,
      ),
    /** Returns one cash drawer shift with its totals. */
    retrieveCashDrawerShift: (shiftId: string, query: { location_id: string }, o?: RequestOptions) =>
      t.call<T.RetrieveCashDrawerShiftResponse>(op.RetrieveCashDrawerShift, { path: { shift_id: shiftId }, query }, o),
    /** Lists the events (paid in/out, sales, no-sale opens) of one shift; paged by query cursor. */
    listCashDrawerShiftEvents: (shiftId: string, query: { location_id: string; limit?: number }, o?: RequestOptions) =>
      t.page<T.ListCashDrawerShiftEventsResponse, T.CashDrawerShiftEvent>(
        op.ListCashDrawerShiftEvents,
        { path: { shift_id: shiftId }, query },
        (p) => p.cash_drawer_shift_events,
        o,
      ),
  };
}
