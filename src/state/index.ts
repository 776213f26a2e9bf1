// The state layer's public face: the UI imports from here.

export { useShallow } from "zustand/react/shallow";
export { type ShiftTimesInput, shiftTimesInputOf } from "../domain/clock-rules.js";
export { MAX_BREAK_TYPES_PER_LOCATION } from "../domain/shifts.js";
export { CustomerIndexHandle } from "../local/handles.js";
export * from "./account-machine.js";
export { type AccountContext, tokenViewOf } from "./account-slice.js";
export { type BreakTypeForm, type BreakTypeInput, breakTypeInputOf } from "./break-types-slice.js";
export { deferredClient } from "./deferred-client.js";
export {
  exportProblem,
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
export {
  type CsvFile,
  exportsFolder,
  type FileWriter,
  nodeFiles,
  resolveExportPath,
  writeCsvFiles,
} from "./export-csv.js";
export {
  type KeptResult,
  notKeptOffline,
  OUTBOX_CHECK_SECONDS,
  type OutboxData,
  type OutboxForm,
} from "./outbox-slice.js";
export * from "./selectors.js";
export { OFFLINE_RETRY_SECONDS } from "./shell-lifecycle.js";
export { coveredLocations, placeKey, timeZoneOf } from "./shell-slice.js";
export { shownStatus } from "./status.js";
export {
  type AppState,
  type AppStore,
  type CreateStoreOptions,
  createStore,
  defaultDataDir,
  type LazySliceName,
  type Loaded,
  type LoadedState,
  type LoadedStore,
  type SliceCreator,
} from "./store.js";
export type { PastShiftInput, TimeClockForm } from "./timeclock-slice.js";
export * from "./types.js";
export { StoreProvider, useAppStore, useAppStoreApi, useLoadedStore, useLoadedStoreApi } from "./use-app-store.js";
export { type Selection, selectedId, selectedIndex } from "./view-slice.js";
