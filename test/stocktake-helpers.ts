/** Helpers of the stocktake tests: a faulty loopback proxy, and checks of a commit at the service. */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
