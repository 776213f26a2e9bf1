// Reading and changing the V1 records at the service: shared by the old-transactions slice and
// the `backroom v1` commands, so the screen and the commands read the same records the same way.
// Lists are followed page by page through the `Link` header to the end. Payments and settlements
// of every location are one read with `me`; refunds and orders take no `me` in the interface, so
// "all locations" reads each location and merges them by time.
import { V1_PAGE_LIMIT } from "../domain/limits.js";
import type {
  V1CreateRefundRequest,
  V1ListSettlementsRequestStatus,
  V1Order,
  V1Payment,
  V1Refund,
  V1Settlement,
  V1UpdateOrderRequest,
} from "../spec/generated/types.js";
// From errors.js, not the layer's index: the index brings the HTTP client (undici).
import { SquareApiError, SquareRetiredError } from "../square/errors.js";
import type { SquareClient } from "../square/index.js";

/** The V1 calls the old-transactions screen and commands make. */
export interface V1Client {
  v1: Pick<
    SquareClient["v1"],
    | "v1ListPayments"
    | "v1RetrievePayment"
    | "v1ListRefunds"
    | "v1CreateRefund"
    | "v1ListSettlements"
    | "v1RetrieveSettlement"
    | "v1ListOrders"
    | "v1RetrieveOrder"
    | "v1UpdateOrder"
  >;
}

/** The interface's word for "every location of the seller" (payments and settlements only). */
export const ALL_LOCATIONS = "me";

/** The four V1 lists. */
export type V1ListKind = "payments" | "refunds" | "settlements" | "orders";

/** A V1 record with the location it was read at (unknown for a settlement read with `me`). */
export type Located<T> = T & { location_id?: string };

/** Which V1 records to read: where, when, and the list's own filters. */
export interface V1ListQuery {
  /** The locations: one, or every one of the seller (`all`). */
  locationIds: readonly string[];
  all: boolean;
  /** RFC 3339; begin inclusive, end exclusive. Orders take no range. */
  begin?: string;
  end?: string;
  status?: V1ListSettlementsRequestStatus | undefined;
  includePartial?: boolean;
  order?: "ASC" | "DESC";
}

/** Reported after each page: pages and records read so far. */
export type OnPage = (progress: { pages: number; records: number }) => void;

/** What a list read gives for each kind. */
export interface V1ListRecord {
  payments: Located<V1Payment>;
  refunds: Located<V1Refund>;
  settlements: Located<V1Settlement>;
  orders: Located<V1Order>;
}

/** Reads every page of one list at one place (a location id or `me`), counting into `progress`. */
async function readPages<T>(
  pages: AsyncIterable<T[]>,
  progress: { pages: number; records: number },
  onPage: OnPage | undefined,
): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) {
    out.push(...page);
    progress.pages++;
    progress.records += page.length;
    onPage?.({ ...progress });
  }
  return out;
}

/** The time a record is listed by. */
function timeOf(kind: V1ListKind, r: { created_at?: string; initiated_at?: string }): string {
  return (kind === "settlements" ? r.initiated_at : r.created_at) ?? "";
}

/** Adds the location a record was read at, when it is known. */
function locate<T extends object>(r: T, locationId: string | undefined): Located<T> {
  return locationId ? { ...r, location_id: locationId } : r;
}

/** Every record of one list for the query, all pages, in time order. */
export async function listV1<K extends V1ListKind>(
  client: V1Client,
  kind: K,
  q: V1ListQuery,
  onPage?: OnPage,
): Promise<V1ListRecord[K][]> {
  const progress = { pages: 0, records: 0 };
  const order = q.order ?? "ASC";
  const range = { ...(q.begin ? { begin_time: q.begin } : {}), ...(q.end ? { end_time: q.end } : {}) };
  const base = { order, limit: V1_PAGE_LIMIT, ...range };
  const pages = <T>(it: { pages(): AsyncIterable<T[]> }) => readPages(it.pages(), progress, onPage);
  const read = async (loc: string): Promise<object[]> => {
    const here = loc === ALL_LOCATIONS ? undefined : loc;
    if (kind === "payments") {
      const partial = q.includePartial ? { include_partial: true } : {};
      const list = await pages(client.v1.v1ListPayments(loc, { ...base, ...partial }));
      // A V1 payment's merchant_id is the id of the location that took it.
      return list.map((p) => locate(p, here ?? p.merchant_id));
    }
    if (kind === "settlements") {
      const status = q.status ? { status: q.status } : {};
      return (await pages(client.v1.v1ListSettlements(loc, { ...base, ...status }))).map((s) => locate(s, here));
    }
    if (kind === "refunds") return (await pages(client.v1.v1ListRefunds(loc, base))).map((r) => locate(r, here));
    const orders = await pages(client.v1.v1ListOrders(loc, { order, limit: V1_PAGE_LIMIT }));
    return orders.map((o) => locate(o, here));
  };
  const takesMe = kind === "payments" || kind === "settlements";
  if (q.all && takesMe) return (await read(ALL_LOCATIONS)) as V1ListRecord[K][];
  // One location after another: the progress line grows in order, and the service is not flooded.
  const lists: object[][] = [];
  for (const loc of q.locationIds) lists.push(await read(loc));
  const merged = lists.length === 1 ? (lists[0] ?? []) : byTime(kind, lists.flat(), order);
  return merged as V1ListRecord[K][];
}

/** Records of several locations in one time order. */
function byTime(kind: V1ListKind, list: object[], order: "ASC" | "DESC"): object[] {
  const sign = order === "ASC" ? 1 : -1;
  const key = (r: object) => timeOf(kind, r as { created_at?: string; initiated_at?: string });
  return list.sort((a, b) => sign * key(a).localeCompare(key(b)));
}

/** Whether a failure says the record is not at that place (so another location may have it). */
export const isNotFound = (err: unknown): boolean =>
  err instanceof SquareApiError && !(err instanceof SquareRetiredError) && err.status === 404;

/** Whether the service says it no longer offers the operation (a retired V1 call). */
export const isRetired = (err: unknown): err is SquareRetiredError => err instanceof SquareRetiredError;

/**
 * Tries each place in turn until one has the record: the interface names a V1 record by its
 * location, and `me` is not accepted by every operation.
 */
async function firstFound<T>(places: readonly string[], get: (loc: string) => Promise<T>): Promise<Located<T>> {
  let last: unknown;
  for (const loc of places) {
    try {
      const found = await get(loc);
      return { ...found, ...(loc === ALL_LOCATIONS ? {} : { location_id: loc }) };
    } catch (err) {
      if (!isNotFound(err)) throw err;
      last = err;
    }
  }
  throw last ?? new Error("no location to look in");
}

/** One payment: at its location, or with `me` at whichever location took it. */
export async function retrieveV1Payment(client: V1Client, q: Pick<V1ListQuery, "locationIds" | "all">, id: string) {
  const p = await firstFound(q.all ? [ALL_LOCATIONS] : q.locationIds, (loc) => client.v1.v1RetrievePayment(loc, id));
  return locate(p, p.location_id ?? p.merchant_id);
}

/** One settlement with its entries. */
export function retrieveV1Settlement(client: V1Client, q: Pick<V1ListQuery, "locationIds" | "all">, id: string) {
  return firstFound(q.all ? [ALL_LOCATIONS] : q.locationIds, (loc) => client.v1.v1RetrieveSettlement(loc, id));
}

/** One order with its history, looked for at each of the locations (orders take no `me`). */
export function retrieveV1Order(client: V1Client, q: Pick<V1ListQuery, "locationIds">, id: string) {
  return firstFound(q.locationIds, (loc) => client.v1.v1RetrieveOrder(loc, id));
}

/** Sends a refund at the payment's location. */
export function createV1Refund(client: V1Client, locationId: string, body: V1CreateRefundRequest) {
  return client.v1.v1CreateRefund(locationId, body);
}

/** Completes, cancels or refunds an order at its location. */
export function updateV1Order(client: V1Client, locationId: string, orderId: string, body: V1UpdateOrderRequest) {
  return client.v1.v1UpdateOrder(locationId, orderId, body);
}

/** The operation a V1 list reads with, for messages. */
export const LIST_OPERATION: Readonly<Record<V1ListKind, string>> = {
  payments: "V1ListPayments",
  refunds: "V1ListRefunds",
  settlements: "V1ListSettlements",
  orders: "V1ListOrders",
};

/** What a retired operation means for the manager, in one sentence. */
export function retiredText(err: SquareRetiredError, what: string): string {
  return `The service no longer offers ${what} through the old (V1) interface; ${err.replacement}.`;
}

/** What the manager reads a V1 operation as, for "the service no longer offers …". */
export const RETIRED_WHAT: Readonly<Record<string, string>> = {
  V1ListPayments: "old payments",
  V1ListRefunds: "old refunds",
  V1ListSettlements: "settlements",
  V1ListOrders: "online-store orders",
  V1RetrievePayment: "old payments",
  V1RetrieveSettlement: "settlements",
  V1RetrieveOrder: "online-store orders",
  V1CreateRefund: "refunds of old payments",
  V1UpdateOrder: "changes to online-store orders",
};
