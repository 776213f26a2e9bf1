/**
 * Limits of the service's interface that both sides must agree on: the local service enforces
 * them and the app explains them before anything is sent. One copy, so the two cannot drift.
 * Below them, the limits of the files a manager hands backroom.
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

// Files from outside. Each is refused with its size, in words, before it is read whole: a file far
// larger than any store sends is a wrong file (a database dump, a year of exports) and would hold
// hundreds of megabytes while it is read.

/** A bank statement's most lines after its header: a busy store's account has a few thousand a month. */
export const MAX_STATEMENT_LINES = 100_000;

/** A bank statement's most bytes: 100,000 lines of a wide export come to about 15 MB. */
export const MAX_STATEMENT_BYTES = 20 * 1024 * 1024;

/**
 * A count file's most rows after its header: a large store's catalog (200,000 items, one row
 * each) with room for rows of the same item from several shelves.
 */
export const MAX_COUNT_FILE_LINES = 300_000;

/** A count file's most bytes: 300,000 rows with a name and a note column come to about 13 MB. */
export const MAX_COUNT_FILE_BYTES = 30 * 1024 * 1024;

/**
 * The most card numbers a box of gift cards read from one file holds: each card is a request or
 * two, so 10,000 take the better part of an hour; a larger order is a few files.
 */
export const MAX_CARD_FILE_LINES = 10_000;

/** A gift card file's most bytes: 10,000 lines with a few columns beside the number come to under 1 MB. */
export const MAX_CARD_FILE_BYTES = 2 * 1024 * 1024;
