import { operations as op } from "../spec/generated/operations.js";
import type * as T from "../spec/generated/types.js";
import type { KeyOptional, RequestOptions, Transport } from "./transport.js";

/** A batch change whose idempotency key the transport mints when left out. */
export type BatchChangeInventoryInput = KeyOptional<T.BatchChangeInventoryRequest, "idempotency_key">;

/** Inventory: counts, changes, adjustments, physical counts and transfers. */
export function inventoryApi(t: Transport) {
  return {
    /** Applies adjustments, physical counts and transfers in one all-or-nothing write. */
    batchChangeInventory: (body: BatchChangeInventoryInput, o?: RequestOptions) =>
      t.call<T.BatchChangeInventoryResponse>(op.BatchChangeInventory, { body }, o),
    /** Searches inventory changes by items, locations, types, states and time; paged by body cursor. */
    batchRetrieveInventoryChanges: (body: T.BatchRetrieveInventoryChangesRequest = {}, o?: RequestOptions) =>
      t.page<T.BatchRetrieveInventoryChangesResponse, T.InventoryChange>(
        op.BatchRetrieveInventoryChanges,
        { body },
        (p) => p.changes,
        o,
      ),
    /** Returns current counts by items, locations and states; paged by body cursor. */
    batchRetrieveInventoryCounts: (body: T.BatchRetrieveInventoryCountsRequest = {}, o?: RequestOptions) =>
      t.page<T.BatchRetrieveInventoryCountsResponse, T.InventoryCount>(
        op.BatchRetrieveInventoryCounts,
        { body },
        (p) => p.counts,
        o,
      ),
    /** @deprecated Use {@link batchChangeInventory}. The same write at its old path. */
    deprecatedBatchChangeInventory: (body: BatchChangeInventoryInput, o?: RequestOptions) =>
      t.call<T.BatchChangeInventoryResponse>(op.DeprecatedBatchChangeInventory, { body }, o),
    /** @deprecated Use {@link batchRetrieveInventoryChanges}. The same search at its old path. */
    deprecatedBatchRetrieveInventoryChanges: (body: T.BatchRetrieveInventoryChangesRequest = {}, o?: RequestOptions) =>
      t.page<T.BatchRetrieveInventoryChangesResponse, T.InventoryChange>(
        op.DeprecatedBatchRetrieveInventoryChanges,
        { body },
        (p) => p.changes,
        o,
      ),
    /** @deprecated Use {@link batchRetrieveInventoryCounts}. The same search at its old path. */
    deprecatedBatchRetrieveInventoryCounts: (body: T.BatchRetrieveInventoryCountsRequest = {}, o?: RequestOptions) =>
      t.page<T.BatchRetrieveInventoryCountsResponse, T.InventoryCount>(
        op.DeprecatedBatchRetrieveInventoryCounts,
        { body },
        (p) => p.counts,
        o,
      ),
    /** @deprecated Use {@link retrieveInventoryAdjustment}. Returns one adjustment. */
    deprecatedRetrieveInventoryAdjustment: (adjustmentId: string, o?: RequestOptions) =>
      t.call<T.RetrieveInventoryAdjustmentResponse>(
        op.DeprecatedRetrieveInventoryAdjustment,
        { path: { adjustment_id: adjustmentId } },
        o,
      ),
    /** @deprecated Use {@link retrieveInventoryPhysicalCount}. Returns one physical count. */
    deprecatedRetrieveInventoryPhysicalCount: (physicalCountId: string, o?: RequestOptions) =>
      t.call<T.RetrieveInventoryPhysicalCountResponse>(
        op.DeprecatedRetrieveInventoryPhysicalCount,
        { path: { physical_count_id: physicalCountId } },
        o,
      ),
    /** Returns one adjustment. */
    retrieveInventoryAdjustment: (adjustmentId: string, o?: RequestOptions) =>
      t.call<T.RetrieveInventoryAdjustmentResponse>(
        op.RetrieveInventoryAdjustment,
        { path: { adjustment_id: adjustmentId } },
        o,
      ),
    /**
     * @deprecated Use {@link batchRetrieveInventoryChanges} with one catalog object id. Lists one
     * item's changes; paged by query cursor.
     */
    retrieveInventoryChanges: (catalogObjectId: string, query: { location_ids?: string } = {}, o?: RequestOptions) =>
      t.page<T.RetrieveInventoryChangesResponse, T.InventoryChange>(
        op.RetrieveInventoryChanges,
        { path: { catalog_object_id: catalogObjectId }, query },
        (p) => p.changes,
        o,
      ),
    /** Returns one item's current counts, optionally at some locations (comma-separated); paged by query cursor. */
    retrieveInventoryCount: (catalogObjectId: string, query: { location_ids?: string } = {}, o?: RequestOptions) =>
      t.page<T.RetrieveInventoryCountResponse, T.InventoryCount>(
        op.RetrieveInventoryCount,
        { path: { catalog_object_id: catalogObjectId }, query },
        (p) => p.counts,
        o,
      ),
    /** Returns one physical count. */
    retrieveInventoryPhysicalCount: (physicalCountId: string, o?: RequestOptions) =>
      t.call<T.RetrieveInventoryPhysicalCountResponse>(
        op.RetrieveInventoryPhysicalCount,
        { path: { physical_count_id: physicalCountId } },
        o,
      ),
    /** Returns one transfer. */
    retrieveInventoryTransfer: (transferId: string, o?: RequestOptions) =>
      t.call<T.RetrieveInventoryTransferResponse>(
        op.RetrieveInventoryTransfer,
        { path: { transfer_id: transferId } },
        o,
      ),
  };
}
