/** Helpers of the stocktake tests: a faulty loopback proxy, checks of a commit at the service, the demo catalog's variations. */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { StockItem } from "../src/domain/stocktake.js";
import type { CountHeader, CountRecord } from "../src/local/stocktake-journal.js";
import { seededRandom } from "../src/service/seed/random.js";
import type { SquareClient } from "../src/square/client.js";

/** What the proxy does with one request to the write it watches. */
export type ProxyAction = "pass" | "503" | "429" | "drop-before" | "drop-after";

/** A loopback proxy in front of the service that fails one kind of write as it is told. */
export interface FaultProxy {
  url: string;
  /** What happened to each write it watches, in arrival order. */
  log: ProxyAction[];
  close(): Promise<void>;
}

const WRITE_PATH = "/v2/inventory/changes/batch-create";

/**
 * Starts a proxy to `target`. Every request passes, except writes to `writePath` (by default the
 * inventory write), which get the action `next()` picks: a 503, a 429 with `Retry-After: 1`, the
 * connection dropped before the request reaches the service, or dropped after the service
 * answered (the answer never arrives).
 */
export async function startFaultProxy(
  target: string,
  next: () => ProxyAction,
  writePath = WRITE_PATH,
): Promise<FaultProxy> {
  const base = new URL(target);
  const log: ProxyAction[] = [];
  const forward = (req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: object; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const out = httpRequest(
        {
          host: base.hostname,
          port: base.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: base.host },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on("error", reject);
        },
      );
      out.on("error", reject);
      out.end(body);
    });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const action: ProxyAction = req.method === "POST" && req.url === writePath ? next() : "pass";
      if (req.url === writePath) log.push(action);
      if (action === "drop-before") {
        req.socket.destroy();
        return;
      }
      if (action === "503" || action === "429") {
        const text = JSON.stringify({
          errors: [
            action === "503"
              ? { category: "API_ERROR", code: "SERVICE_UNAVAILABLE", detail: "proxy fault" }
              : { category: "RATE_LIMIT_ERROR", code: "RATE_LIMITED", detail: "proxy fault" },
          ],
        });
        res.writeHead(Number(action), {
          "content-type": "application/json",
          ...(action === "429" ? { "retry-after": "1" } : {}),
        });
        res.end(text);
        return;
      }
      try {
        const answer = await forward(req, body);
        if (action === "drop-after") {
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.status, answer.headers as Record<string, string>);
        res.end(answer.body);
      } catch {
        req.socket.destroy();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The physical counts recorded at a location under one reference id, per variation. */
export async function physicalCountsOf(
  client: SquareClient,
  locationId: string,
  referenceId: string,
): Promise<Map<string, string[]>> {
  const changes = await client.inventory
    .batchRetrieveInventoryChanges({ location_ids: [locationId], types: ["PHYSICAL_COUNT"], limit: 1000 })
    .all();
  const out = new Map<string, string[]>();
  for (const c of changes) {
    const pc = c.physical_count;
    if (pc?.reference_id !== referenceId || !pc.catalog_object_id) continue;
    out.set(pc.catalog_object_id, [...(out.get(pc.catalog_object_id) ?? []), pc.quantity ?? ""]);
  }
  return out;
}

/** The IN_STOCK quantity of each variation at a location. */
export async function inStockAt(client: SquareClient, locationId: string): Promise<Map<string, string>> {
  const counts = await client.inventory
    .batchRetrieveInventoryCounts({ location_ids: [locationId], states: ["IN_STOCK"], limit: 1000 })
    .all();
  return new Map(counts.map((c) => [c.catalog_object_id ?? "", c.quantity ?? ""]));
}

/** A deterministic pseudo-random source (the demo seed's), so a fault run can be replayed. */
export const seeded = seededRandom;

/** A variation of the demo catalog as the tests use it. */
export interface Variation {
  id: string;
  sku: string;
  upc: string;
  /** As the screen names it: "Claw Hammer, 16 oz". */
  label: string;
  price: number;
}

/** A variation of the demo catalog by its item's and its own name. */
export async function variation(client: SquareClient, item: string, name: string): Promise<Variation> {
  const res = await client.catalog.searchCatalogItems({ text_filter: item });
  const found = (res.items ?? []).find((i) => i.item_data?.name === item);
  const v = found?.item_data?.variations?.find((x) => x.item_variation_data?.name === name);
  if (!v) throw new Error(`no ${item}, ${name} in the demo catalog`);
  return {
    id: v.id,
    sku: v.item_variation_data?.sku ?? "",
    upc: v.item_variation_data?.upc ?? "",
    label: `${item}, ${name}`,
    price: v.item_variation_data?.price_money?.amount ?? 0,
  };
}

/** Sets the books (IN_STOCK at a location) of some variations, as counted a minute ago. */
export async function setBooks(client: SquareClient, locationId: string, books: [Variation, number][]): Promise<void> {
  const at = new Date(Date.now() - 60_000).toISOString();
  await client.inventory.batchChangeInventory({
    idempotency_key: `books-${Math.random()}`,
    ignore_unchanged_counts: false,
    changes: books.map(([v, q]) => ({
      type: "PHYSICAL_COUNT",
      physical_count: {
        catalog_object_id: v.id,
        location_id: locationId,
        state: "IN_STOCK",
        quantity: String(q),
        occurred_at: at,
      },
    })),
  });
}

/** A stock item of a made-up catalog: `V1`, `SKU-1`, UPC `071263000021`, 1.00 USD a unit per n. */
export function stockItem(n: number, extra: Partial<StockItem> = {}): StockItem {
  return {
    variationId: `V${n}`,
    itemId: `I${n}`,
    sku: `SKU-${n}`,
    upc: `07126300002${n}`,
    name: `Item ${n}`,
    categoryId: "C1",
    priceAmount: 100 * n,
    currency: "USD",
    precision: 0,
    tracked: true,
    ...extra,
  };
}

/** What starts a made-up count: a full count at Main Street by Ana Ruiz. */
export const NEW_COUNT = {
  merchantId: "M1",
  locationId: "L1",
  locationName: "Main Street",
  timeZone: "America/New_York",
  scope: { kind: "full" } as const,
  counterId: "TM1",
  counterName: "Ana Ruiz",
  startedAt: "2026-03-02T15:00:00.000Z",
};

/** A made-up count's journal record: open, items V1 and V2 (V1 expected 10), nothing counted yet. */
export function countRecord(header: Partial<CountHeader> = {}, items = [stockItem(1), stockItem(2)]): CountRecord {
  return {
    header: {
      ...NEW_COUNT,
      id: "ST-1",
      status: "open",
      uncounted: "leave",
      scanOne: false,
      blind: false,
      plannedAt: undefined,
      committedAt: undefined,
      expectedSyncedAt: undefined,
      ...header,
    },
    items: new Map(items.map((i) => [i.variationId, i])),
    scope: items.map((i) => i.variationId),
    expected: new Map([["V1", { quantity: "10", calculatedAt: "2026-03-02T14:00:00.000Z" }]]),
    lines: [],
    unknown: [],
    batches: [],
    refused: [],
    people: new Map(),
  };
}
