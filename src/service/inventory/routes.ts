import type {
  BatchChangeInventoryRequest,
  BatchRetrieveInventoryChangesRequest,
  BatchRetrieveInventoryChangesResponse,
  BatchRetrieveInventoryCountsRequest,
  InventoryChange,
  InventoryCount,
  RetrieveInventoryChangesResponse,
} from "../../spec/generated/types.js";
import {
  type Handler,
  jsonAnswer,
  merchantOf,
  type Replayable,
  type RequestContext,
  type RouteTable,
} from "../context.js";
import { encodeCursor, positionOf, readCursor } from "../cursor.js";
import { notFound } from "../errors.js";
import { pageLimit, parseTime } from "../params.js";
import { planChanges } from "./changes.js";
import {
  batchAnswerJson,
  type ChangeFilter,
  type ChangePosition,
  type CountFilter,
  type CountPosition,
  changeById,
  isoOf,
  keptBatch,
  pageChanges,
  pageCounts,
  recordBatch,
  replayBatch,
  wireChange,
  wireCount,
} from "./repo.js";

/** Page size of the GET listings, which take no limit. */
const GET_PAGE = 100;
/** The change types a changes search returns when none are named. */
const DEFAULT_CHANGE_TYPES = ["PHYSICAL_COUNT", "ADJUSTMENT"];

/**
 * BatchChangeInventory: checks every change first (one bad change refuses all), then applies
 * them in order inside the request's transaction. With `ignore_unchanged_counts` (default true)
 * a physical count equal to the key's current count is not recorded. Answers the current counts
 * of every (object, location) the request names, as the batch left them, and the changes recorded.
 */
function batchChangeInventory(ctx: RequestContext<BatchChangeInventoryRequest>) {
  const merchant = merchantOf(ctx);
  const req = ctx.body;
  const planned = planChanges(ctx.db, merchant, req.changes ?? [], ctx.now);
  const done = recordBatch(
    ctx.db,
    merchant,
    planned,
    // Random: the book finds a change by id in a hash map, and the log has no index on ids.
    () => ctx.ids.next(),
    ctx.now.toISOString(),
    req.ignore_unchanged_counts !== false,
  );
  emitCountUpdates(ctx, merchant, done.changed.map(wireCount));
  // The answer's JSON, written from the records; its idempotency record keeps a short note instead.
  return jsonAnswer(batchAnswerJson(done.counts, done.changes), keptBatch(done.seq, ctx.now.getTime(), done.counts));
}

/** The batch's answer again, for a request sent again under its idempotency key. */
const batchChanges: Handler<"BatchChangeInventory"> & Replayable = Object.assign(batchChangeInventory, {
  replay: (ctx: RequestContext, kept: string) => replayBatch(ctx.db, merchantOf(ctx), kept),
});

/** One inventory.count.updated event per location whose counts changed, carrying those counts. */
function emitCountUpdates(ctx: RequestContext, merchantId: string, counts: readonly InventoryCount[]): void {
  const byLocation = new Map<string, InventoryCount[]>();
  for (const c of counts) {
    const location = c.location_id ?? "";
    const list = byLocation.get(location);
    if (list) list.push(c);
    else byLocation.set(location, [c]);
  }
  for (const [locationId, list] of byLocation) {
    ctx.emit({
      type: "inventory.count.updated",
      merchantId,
      locationId,
      dataType: "inventory_counts",
      dataId: ctx.ids.next(26),
      object: { inventory_counts: list },
    });
  }
}

const optionalTimeText = (value: unknown, field: string): string | undefined =>
  value === undefined || value === null || value === "" ? undefined : parseTime(value, field).toISOString();

const isChangePosition = positionOf({ o: "string", s: "number" });
const isCountPosition = positionOf({ c: "string", i: "number" });

function changesPage(
  ctx: RequestContext,
  filter: ChangeFilter,
  order: "ASC" | "DESC",
  query: object,
  cursor: unknown,
  limit: number,
): { changes: InventoryChange[]; cursor?: string } {
  const after: ChangePosition | undefined = readCursor(ctx.op.name, cursor, query, isChangePosition);
  const { rows, more } = pageChanges(ctx.db, merchantOf(ctx), filter, order, after, limit);
  const last = rows.at(-1);
  const changes = rows.map(wireChange);
  return more && last
    ? { changes, cursor: encodeCursor(ctx.op.name, query, { o: isoOf(last.occurredMs), s: last.order }) }
    : { changes };
}

/**
 * BatchRetrieveInventoryChanges: changes by objects, locations (either end of a transfer),
 * types (default physical counts and adjustments), states (either side of an adjustment) and
 * server receipt time (`updated_after` / `updated_before`, both exclusive); oldest `occurred_at`
 * first; `limit` 1–1000, default 100.
 */
function batchRetrieveInventoryChanges(ctx: RequestContext<BatchRetrieveInventoryChangesRequest>) {
  const req = ctx.body;
  const limit = pageLimit(req.limit, { max: 1000, def: 100 });
  const after = optionalTimeText(req.updated_after, "updated_after");
  const before = optionalTimeText(req.updated_before, "updated_before");
  const filter: ChangeFilter = {
    types: req.types && req.types.length > 0 ? req.types : DEFAULT_CHANGE_TYPES,
    ...(req.catalog_object_ids ? { objectIds: req.catalog_object_ids } : {}),
    ...(req.location_ids ? { locationIds: req.location_ids } : {}),
    ...(req.states ? { states: req.states } : {}),
    ...(after ? { createdAfter: after } : {}),
    ...(before ? { createdBefore: before } : {}),
  };
  const { cursor: _c, limit: _l, ...shape } = req;
  const page = changesPage(ctx, filter, "ASC", shape, req.cursor, limit);
  const body: BatchRetrieveInventoryChangesResponse = page;
  return { body };
}

/** RetrieveInventoryChanges (deprecated): one object's changes, newest `occurred_at` first. */
function retrieveInventoryChanges(ctx: RequestContext) {
  const objectId = ctx.path.catalog_object_id ?? "";
  const locations = commaList(ctx.query.location_ids);
  const filter: ChangeFilter = {
    types: DEFAULT_CHANGE_TYPES,
    objectIds: [objectId],
    ...(locations.length > 0 ? { locationIds: locations } : {}),
  };
  const query = { objectId, locations };
  const page = changesPage(ctx, filter, "DESC", query, ctx.query.cursor, GET_PAGE);
  const body: RetrieveInventoryChangesResponse = page;
  return { body };
}

/** A page of counts, as JSON text: the counts as SQLite wrote them, then the cursor when more follow. */
function countsPage(ctx: RequestContext, filter: CountFilter, query: object, cursor: unknown, limit: number) {
  const after: CountPosition | undefined = readCursor(ctx.op.name, cursor, query, isCountPosition);
  const page = pageCounts(ctx.db, merchantOf(ctx), filter, after, limit);
  const next = page.next ? `,"cursor":${JSON.stringify(encodeCursor(ctx.op.name, query, page.next))}` : "";
  return jsonAnswer(`{"counts":${page.json}${next}}`);
}

/**
 * BatchRetrieveInventoryCounts: current counts by objects, locations and states, changed after
 * `updated_after` (on `calculated_at`, the server time of the latest change, exclusive); newest
 * `calculated_at` first; `limit` 1–1000, default 100.
 */
function batchRetrieveInventoryCounts(ctx: RequestContext<BatchRetrieveInventoryCountsRequest>) {
  const req = ctx.body;
  const limit = pageLimit(req.limit, { max: 1000, def: 100 });
  const after = optionalTimeText(req.updated_after, "updated_after");
  const filter: CountFilter = {
    ...(req.catalog_object_ids ? { objectIds: req.catalog_object_ids } : {}),
    ...(req.location_ids ? { locationIds: req.location_ids } : {}),
    ...(req.states ? { states: req.states } : {}),
    ...(after ? { calculatedAfter: after } : {}),
  };
  const { cursor: _c, limit: _l, ...shape } = req;
  return countsPage(ctx, filter, shape, req.cursor, limit);
}

const commaList = (value: unknown): string[] =>
  typeof value === "string"
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")
    : [];

/** RetrieveInventoryCount: one object's counts at some locations (comma-separated; empty = all). */
function retrieveInventoryCount(ctx: RequestContext) {
  const objectId = ctx.path.catalog_object_id ?? "";
  const locations = commaList(ctx.query.location_ids);
  const filter: CountFilter = { objectIds: [objectId], ...(locations.length > 0 ? { locationIds: locations } : {}) };
  const query = { objectId, locations };
  return countsPage(ctx, filter, query, ctx.query.cursor, GET_PAGE);
}

function byId(type: "ADJUSTMENT" | "PHYSICAL_COUNT" | "TRANSFER", param: string) {
  return (ctx: RequestContext) => {
    const id = ctx.path[param] ?? "";
    const found = changeById(ctx.db, merchantOf(ctx), id, type);
    const change = found ? wireChange(found) : undefined;
    const what = type === "ADJUSTMENT" ? "adjustment" : type === "PHYSICAL_COUNT" ? "physical count" : "transfer";
    if (!change) throw notFound(`Inventory ${what} ${id} not found.`);
    if (type === "ADJUSTMENT") return { body: { adjustment: change.adjustment } };
    if (type === "PHYSICAL_COUNT") return { body: { count: change.physical_count } };
    return { body: { transfer: change.transfer } };
  };
}

const retrieveAdjustment = byId("ADJUSTMENT", "adjustment_id");
const retrievePhysicalCount = byId("PHYSICAL_COUNT", "physical_count_id");

/** The inventory operations; the deprecated paths share their successors' rules. */
export const inventoryRoutes: RouteTable = {
  BatchChangeInventory: batchChanges,
  DeprecatedBatchChangeInventory: batchChanges,
  BatchRetrieveInventoryChanges: batchRetrieveInventoryChanges,
  DeprecatedBatchRetrieveInventoryChanges: batchRetrieveInventoryChanges,
  BatchRetrieveInventoryCounts: batchRetrieveInventoryCounts,
  DeprecatedBatchRetrieveInventoryCounts: batchRetrieveInventoryCounts,
  RetrieveInventoryCount: retrieveInventoryCount,
  RetrieveInventoryChanges: retrieveInventoryChanges,
  RetrieveInventoryAdjustment: retrieveAdjustment,
  DeprecatedRetrieveInventoryAdjustment: retrieveAdjustment,
  RetrieveInventoryPhysicalCount: retrievePhysicalCount,
  DeprecatedRetrieveInventoryPhysicalCount: retrievePhysicalCount,
  RetrieveInventoryTransfer: byId("TRANSFER", "transfer_id"),
};
