export { type BatchRecorded, recordInBook as recordBatch } from "./book.js";
export {
  type ChangeFilter,
  type ChangePosition,
  type CountFilter,
  type CountPosition,
  type CountsPage,
  changeById,
  changeJson,
  countJson,
  countsOfPairs,
  isoOf,
  pageChanges,
  pageCounts,
  wireChange,
  wireCount,
} from "./reads.js";
