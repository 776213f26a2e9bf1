// The state layer's public face: the UI imports from here.

export { useShallow } from "zustand/react/shallow";
export {
  type BreakTypeForm,
  type BreakTypeInput,
  breakTypeInputOf,
  MAX_BREAK_TYPES_PER_LOCATION,
} from "./break-types-slice.js";
export {
  type CustomerFilterInput,
  type CustomerResults,
  type CustomersView,
  filterInputOf,
} from "./customers-slice.js";
export { deferredClient } from "./deferred-client.js";
export {
  hasErrorCode,
  isUnreachable,
  isVersionConflict,
  type Problem,
  problemOf,
  type WriteError,
  type WriteResult,
  writeProblem,
} from "./errors.js";
export { type AppEvent, createEventBus, type EventBus } from "./events.js";
export type { ReviewForm, ShiftTimesInput } from "./review-slice.js";
export * from "./selectors.js";
export { timeZoneOf } from "./shell-slice.js";
export {
  type AppState,
  type AppStore,
  type CreateStoreOptions,
  createStore,
  defaultDataDir,
  type SliceCreator,
} from "./store.js";
export type { TimeClockForm } from "./timeclock-slice.js";
export * from "./types.js";
export { StoreProvider, useAppStore, useAppStoreApi } from "./use-app-store.js";
