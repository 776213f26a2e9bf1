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
