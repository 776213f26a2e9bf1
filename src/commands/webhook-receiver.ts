// The local receiver of `backroom webhooks listen`: an HTTP server on loopback that checks each
// notification's signature and says what came, the way payment platforms' CLIs let a developer
// watch events. It never trusts a notification it cannot verify: only verified bodies are
// forwarded, and the sender is told 401 for the others.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Dispatcher, request } from "undici";
import { verifyWebhook } from "../domain/webhook-signature.js";
import {
  MAX_NOTIFICATION_BYTES,
  type NotificationSummary,
  readNotification,
  SIGNATURE_HEADER,
} from "../domain/webhooks.js";

/** What happened to one request the receiver got. */
export type Receipt =
  | {
      kind: "notification";
      at: Date;
      verified: boolean;
      /** Why a notification was not verified (no signature header, or one that does not match). */
      why?: string;
      /** The URL the signature was checked against. */
      signedUrl: string;
      summary: NotificationSummary;
      /** The status the receiver answered with. */
      status: number;
      /** Where a verified body was passed on, and what came back. */
      forwarded?: { status?: number; error?: string };
    }
  | { kind: "refused"; at: Date; status: number; reason: string; method: string; path: string };

/** Options of {@link startReceiver}. */
export interface ReceiverOptions {
  /** 0 for any free port. */
  port: number;
  /** The path notifications are posted to, such as `/hook`. */
  path: string;
  signatureKey: string;
  /**
   * The URL the service signs (the subscription's notification URL). Without it, the URL the
   * request was sent to on this listener: `http://127.0.0.1:PORT` and the path as requested.
   */
  signedUrl?: string;
  /** Passes each verified body on to this address. */
  forward?: string;
  /** Called once per request, in the order they complete. */
  onReceipt: (r: Receipt) => void;
  clock?: () => Date;
  dispatcher?: Dispatcher;
  /** How long the forward target may take. */
  forwardTimeoutMs?: number;
}

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:PORT/PATH`: the address to register as the notification URL. */
  url: string;
  close(): Promise<void>;
}

// Past this much, the sender is cut off rather than read to the end: it is not a notification.
const DRAIN_LIMIT = 16 * MAX_NOTIFICATION_BYTES;

/** Starts the receiver on 127.0.0.1 only (never all interfaces). */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const clock = opts.clock ?? (() => new Date());
  let origin = "";
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      // A bug here must not take the listener down with it; the sender gets a 500.
      if (!res.headersSent) answer(res, 500, `receiver failure: ${err instanceof Error ? err.message : String(err)}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = clock();
    const method = req.method ?? "";
    const target = req.url ?? "/";
    const pathname = new URL(target, "http://receiver").pathname;
    const refuse = (status: number, reason: string) => {
      answer(res, status, reason);
      opts.onReceipt({ kind: "refused", at, status, reason, method, path: target });
    };
    if (pathname !== opts.path) {
      req.resume();
      return refuse(404, `nothing listens on ${pathname}; notifications go to ${opts.path}`);
    }
    if (method !== "POST") {
      req.resume();
      return refuse(405, `only POST is taken, not ${method}`);
    }
    const body = await readBody(req);
    if (body === "too-big") return refuse(400, "the body is over 1 MB");
    if (body === "aborted") return;
    const read = readNotification(body);
    if (!read.ok) return refuse(400, read.problem);
    const signature = header(req, SIGNATURE_HEADER);
    const signedUrl = opts.signedUrl ?? `${origin}${target}`;
    const verified = verifyWebhook(opts.signatureKey, signedUrl, body, signature);
    if (!verified) {
      answer(res, 401, "signature not verified");
      const why = signature ? "signature does not match" : `no ${SIGNATURE_HEADER} header`;
      opts.onReceipt({ kind: "notification", at, verified, why, signedUrl, summary: read.value, status: 401 });
      return;
    }
    const forwarded = opts.forward ? await forward(opts, body, req) : undefined;
    // The sender learns what the forward target said, so its retries follow the real receiver.
    const status = forwarded ? (forwarded.status ?? 502) : 200;
    answer(res, status, status >= 200 && status < 300 ? "verified" : "verified; the forward target did not take it");
    opts.onReceipt({
      kind: "notification",
      at,
      verified,
      signedUrl,
      summary: read.value,
      status,
      ...(forwarded ? { forwarded } : {}),
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${opts.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
}

/** The raw body, or why there is none: over 1 MB (read on and dropped, up to a limit), or cut off. */
function readBody(req: IncomingMessage): Promise<Uint8Array | "too-big" | "aborted"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_NOTIFICATION_BYTES) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) req.destroy();
    });
    req.on("end", () => resolve(size > MAX_NOTIFICATION_BYTES ? "too-big" : Buffer.concat(chunks)));
    req.on("error", () => resolve(size > MAX_NOTIFICATION_BYTES ? "too-big" : "aborted"));
    req.on("close", () => {
      if (!req.complete) resolve(size > MAX_NOTIFICATION_BYTES ? "too-big" : "aborted");
    });
  });
}

/** Posts a verified body on, with the headers a receiver reads; never throws. */
async function forward(
  opts: ReceiverOptions,
  body: Uint8Array,
  req: IncomingMessage,
): Promise<{ status?: number; error?: string }> {
  const timeout = opts.forwardTimeoutMs ?? 10_000;
  const pass: Record<string, string> = { "content-type": header(req, "content-type") ?? "application/json" };
  const signature = header(req, SIGNATURE_HEADER);
  if (signature) pass[SIGNATURE_HEADER] = signature;
  try {
    const res = await request(opts.forward ?? "", {
      method: "POST",
      headers: pass,
      body,
      signal: AbortSignal.timeout(timeout),
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    });
    await res.body.dump();
    return { status: res.statusCode };
  } catch (err) {
    const e = err as { code?: string; name?: string; message?: string };
    return { error: e.code ?? e.name ?? e.message ?? "failed" };
  }
}
