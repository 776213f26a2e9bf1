// The state of the screens loaded on first use (src/ui/screens/registry.ts): what their slices
// export for the UI. Only those screens import from here; the shell and the first frame's screen
// import from ./index.ts, so the first frame does not compile this (test/first-frame.test.ts).

export type { CountHeader, CountListing, UnknownCode } from "../local/stocktake-journal.js";
export { describeIndexSync, type IndexSync } from "./customer-index-sync.js";
export {
  CUSTOMER_LIST,
  type CustomerFilterInput,
  type CustomerResults,
  type CustomersView,
  customerIds,
  filterInputOf,
} from "./customers-slice.js";
export type { KnownCard, LinkedCustomer, PlannedWrite } from "./gift-cards-io.js";
export {
  type CardPane,
  FILTER_CYCLE,
  type GiftCardsForm,
  type GiftCardsState,
  type GiftCardsView,
  newWriteForm,
  reasonsOf,
  type WriteField,
  type WriteForm,
  writeFields,
} from "./gift-cards-machine.js";
export {
  cardAsItWillBe,
  GIFTCARDS_WRITE,
  giftCardWritesUnavailable,
  giftCardWriteUnavailable,
  type WriteFormValues,
} from "./gift-cards-slice.js";
export * from "./payouts-machine.js";
export { type ReviewScope, reviewShiftPages } from "./review-read.js";
export { type ReviewConflict, type ReviewForm, type ReviewSpanKind, zoneOfShift } from "./review-slice.js";
export { reviewOfRecord } from "./stocktake-review.js";
export * from "./stocktake-slice.js";
export * from "./webhooks-machine.js";
