import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Rng } from "../../src/service/seed/random.js";

/** What the proxy may do to one request. */
export type FaultKind = "pass" | "drop-before" | "drop-after" | "delay" | "429" | "503";

/** How often each fault happens (the rest pass through untouched). */
export interface FaultRates {
  dropBefore: number;
  dropAfter: number;
  delay: number;
  tooMany: number;
  unavailable: number;
}

/** A loopback proxy in front of a service that breaks some requests on the way. */
export interface FaultProxy {
  url: string;
  /** How many requests met each fault. */
  counts: Record<FaultKind, number>;
  close(): Promise<void>;
}

/** A count of zero for every kind of fault. */
export const noFaults = (): Record<FaultKind, number> => ({
  pass: 0,
  "drop-before": 0,
  "drop-after": 0,
  delay: 0,
  "429": 0,
  "503": 0,
});

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function forward(
  upstream: URL,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (res) => {
        readAll(res).then(
          (b) =>
            resolve({
              status: res.statusCode ?? 502,
              headers: res.headers as Record<string, string | string[]>,
              body: b,
            }),
          reject,
        );
      },
    );
    out.on("error", reject);
    out.end(body);
  });
}

function envelope(
  res: ServerResponse,
  status: number,
  code: string,
  category: string,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify({ errors: [{ category, code, detail: "Injected by the fault proxy." }] });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Starts a proxy on loopback in front of `upstream`. Each request, in arrival order, draws its
 * fault from `random`: the connection dropped before the request reaches the service (nothing
 * happened) or after the service answered (it happened, the client never hears), a delay, 429
 * with Retry-After, or 503 — the last three are answered by the proxy in the service's envelope.
 */
export async function startFaultProxy(
  upstream: string,
  random: Rng,
  rates: FaultRates,
  /** Faults the first requests meet, in order, before the random draw takes over: each kind happens. */
  first: readonly FaultKind[] = ["drop-before", "drop-after", "429", "delay", "503"],
): Promise<FaultProxy> {
  const forced = [...first];
  const target = new URL(upstream);
  const counts = noFaults();
  const pick = (): FaultKind => {
    const next = forced.shift();
    if (next) return next;
    let x = random();
    for (const [kind, p] of [
      ["drop-before", rates.dropBefore],
      ["drop-after", rates.dropAfter],
      ["delay", rates.delay],
      ["429", rates.tooMany],
      ["503", rates.unavailable],
    ] as const) {
      if (x < p) return kind;
      x -= p;
    }
    return "pass";
  };
  const server: Server = createServer((req, res) => {
    const fault = pick();
    counts[fault]++;
    void (async () => {
      const body = await readAll(req);
      if (fault === "drop-before") {
        req.socket.destroy();
        return;
      }
      if (fault === "429")
        return envelope(res, 429, "RATE_LIMITED", "RATE_LIMIT_ERROR", { "retry-after": String(random.int(0, 1)) });
      if (fault === "503") return envelope(res, 503, "SERVICE_UNAVAILABLE", "API_ERROR");
      if (fault === "delay") await new Promise((r) => setTimeout(r, random.int(20, 150)));
      const answer = await forward(target, req, body);
      if (fault === "drop-after") {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
