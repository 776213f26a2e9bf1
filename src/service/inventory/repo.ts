import type { InventoryChange, InventoryCount } from "../../spec/generated/types.js";
import type { Db } from "../db.js";
import { recordInBook } from "./book.js";
import type { PlannedChange } from "./changes.js";
import { wireChange, wireCount } from "./reads.js";

export {
  type ChangeFilter,
  type ChangePosition,
  type CountFilter,
  type CountPosition,
  type CountsPage,
  changeById,
  countsOfPairs,
  pageChanges,
  pageCounts,
} from "./reads.js";

/** What a recorded batch answers, in wire shapes. */
export interface BatchAnswer {
  /** The changes recorded, in order. */
  changes: InventoryChange[];
  /** The counts that changed (a key moved twice reported once, as it ends up). */
  changed: InventoryCount[];
  /** The current counts of every (object, location) the batch names, every state, in the order first named. */
  counts: InventoryCount[];
}

/**
 * Records a checked batch in order, as one entry of the inventory log (see book.ts). With
 * `ignoreUnchanged`, a physical count equal to its key's current count is not recorded.
 */
export function recordBatch(
  db: Db,
  merchantId: string,
  planned: readonly PlannedChange[],
  newId: () => string,
  now: string,
  ignoreUnchanged: boolean,
): BatchAnswer {
  const done = recordInBook(db, merchantId, planned, newId, now, ignoreUnchanged);
  return {
    changes: done.changes.map(wireChange),
    changed: done.changed.map(wireCount),
    counts: done.counts.map(wireCount),
  };
}
