/**
 * Limits of the service's interface that both sides must agree on: the local service enforces
 * them and the app explains them before anything is sent. One copy, so the two cannot drift.
 */

/** A location holds at most this many break types. */
export const MAX_BREAK_TYPES_PER_LOCATION = 3;

/** One BatchChangeInventory request carries at most this many changes. */
export const MAX_INVENTORY_CHANGES_PER_BATCH = 100;

/**
 * How far ahead of the service's clock a shift or break may start and still count as "now":
 * the caller's clock need not agree with the service's to the second. A minute, so that a
 * terminal a few seconds fast is never refused, whatever second of the minute it asks in.
 */
export const CLOCK_SKEW_MS = 60_000;

/** The V1 lists refuse a `begin_time` before this instant: the service keeps nothing older. */
export const V1_EARLIEST_BEGIN = "2013-01-01T00:00:00Z";

/** A V1 list's range (`begin_time` to `end_time`) is at most this many calendar years. */
export const V1_MAX_RANGE_YEARS = 1;

/** V1CreateRefund refunds a payment only this many days after it was taken, not later. */
export const V1_REFUND_WINDOW_DAYS = 60;

/** At most this many records on one page of a V1 list (`limit`). */
export const V1_PAGE_LIMIT = 200;

/** A payment taken offline may reach the service up to this many hours after it was taken. */
export const V1_OFFLINE_DELAY_HOURS = 72;
