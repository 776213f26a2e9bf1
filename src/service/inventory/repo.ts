export { type BatchRecorded, recordInBook as recordBatch } from "./book.js";
export {
  batchAnswerJson,
  type ChangeFilter,
  type ChangePosition,
  type CountFilter,
  type CountPosition,
  type CountsPage,
  changeById,
  countsOfPairs,
  isoOf,
  keptBatch,
  pageChanges,
  pageCounts,
  replayBatch,
  wireChange,
  wireCount,
} from "./reads.js";
