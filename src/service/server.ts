import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseDate } from "../domain/time.js";
import type { ServiceClock } from "./clock.js";
import type { ExtraRoute, HandlerResult, RequestContext, RouteTable } from "./context.js";
import type { Db } from "./db.js";
import { type ErrorBody, invalid, ServiceError } from "./errors.js";
import type { EventSink, ServiceEvent } from "./events.js";
import type { Faults } from "./faults.js";
import { type IdSource, randomIds } from "./ids.js";
import { clientSecretOf } from "./oauth/grants.js";
import { answerClientErrors, bodyText, ClientGone, readBody, requestTarget } from "./request.js";
import { createRouter } from "./router.js";
import { sortedJson } from "./sorted-json.js";
import { authenticate, requireScopes } from "./tokens.js";
import { parseQuery, validateBody } from "./validate.js";

const SQUARE_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** What the HTTP front needs: storage, clock, rules, and where committed events go. */
export interface HttpOptions {
  db: Db;
  clock: ServiceClock;
  routes: RouteTable;
  extra: Record<string, ExtraRoute>;
  events: EventSink;
  faults: Faults;
  ids?: IdSource;
  defaultSquareVersion: string;
}

/**
 * The service's one pipeline: route → auth and scope → validate → fault injection → rule and
 * storage in one synchronous transaction (with idempotency) → response, or the error envelope.
 */
export function createHttpServer(opts: HttpOptions): Server {
  const route = createRouter();
  const ids = opts.ids ?? randomIds();
  // Built once: wrapping a function in a transaction costs more than a small read's own work.
  const inTransaction = opts.db.transaction(
    (ctx: RequestContext<Record<string, unknown>>, raw: string, handler: UntypedHandler): HandlerResult =>
      runIdempotent(opts.db, ctx, raw, handler),
  );

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A client that hung up mid-request left nobody to answer; it is not the service's fault.
      if (err instanceof ClientGone) {
        res.destroy();
        return;
      }
      // Only a bug of the service gets here; a client mistake is always a ServiceError.
      console.error("backroom service: internal error", err);
      if (!res.headersSent)
        send(res, 500, envelope([{ category: "API_ERROR", code: "INTERNAL_SERVER_ERROR", detail: "Internal error." }]));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let target: { path: string; search: URLSearchParams };
    let bytes: Buffer;
    try {
      bytes = await readBody(req);
      target = requestTarget(req.url ?? "/");
    } catch (err) {
      if (err instanceof ServiceError) return sendError(res, err);
      throw err;
    }
    const baseUrl = `http://${req.headers.host ?? "127.0.0.1"}`;
    const contentType = headerValue(req.headers["content-type"]);

    const extra = opts.extra[`${req.method} ${target.path}`];
    if (extra) {
      try {
        const url = new URL(`${target.path}?${target.search.toString()}`, "http://localhost");
        // The admin endpoints take JSON however it is labelled (`curl -d` says form data).
        const result = await extra(req, url, bodyText(bytes, contentType, false));
        return send(res, result.status ?? 200, result.body, result.headers);
      } catch (err) {
        if (err instanceof ServiceError) return sendError(res, err);
        throw err;
      }
    }

    const match = route(req.method ?? "GET", target.path);
    if (match.kind === "not-found") {
      return sendError(
        res,
        new ServiceError(404, [
          { category: "INVALID_REQUEST_ERROR", code: "NOT_FOUND", detail: `No such path: ${target.path}` },
        ]),
      );
    }
    if (match.kind === "method-not-allowed") {
      return sendError(
        res,
        new ServiceError(405, [
          {
            category: "INVALID_REQUEST_ERROR",
            code: "METHOD_NOT_ALLOWED",
            detail: `${req.method} is not allowed on ${target.path}; use ${match.allowed.join(", ")}.`,
          },
        ]),
        { allow: match.allowed.join(", ") },
      );
    }

    const op = match.op;
    // An empty header is no header: the default version applies, as when it is left out.
    const version = headerValue(req.headers["square-version"]) || opts.defaultSquareVersion;
    try {
      if (!SQUARE_VERSION.test(version) || !parseDate(version)) {
        throw invalid(
          "INVALID_SQUARE_VERSION_FORMAT",
          `Square-Version must be YYYY-MM-DD, got ${JSON.stringify(version)}.`,
        );
      }
      const now = opts.clock.now();
      const auth = op.auth === "bearer" ? authenticate(opts.db, headerValue(req.headers.authorization), now) : null;
      if (auth) requireScopes(auth, op.scopes);
      // The token operations that take the application's secret check it in their rule (it needs
      // the application); one sent without it at all is refused here, before its body is read.
      if (op.auth === "client") clientSecretOf(headerValue(req.headers.authorization));
      const query = parseQuery(op, target.search);
      // Bodies on GET and DELETE are ignored, as the real service does.
      const raw = op.body ? bodyText(bytes, contentType) : "";
      const body = validateBody(op, parseJson(raw));

      const fault = opts.faults.pick(op.name);
      if (fault?.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
      if (fault?.error) throw fault.error;

      // validateBody checked the body against op.body's schema, which is the type BodyOf<op>
      // promises the rule: this is the one place a body is trusted to have its operation's type.
      const handler = opts.routes[op.name as keyof RouteTable] as UntypedHandler | undefined;
      if (!handler) {
        throw new ServiceError(501, [
          { category: "API_ERROR", code: "NOT_IMPLEMENTED", detail: `${op.name} has no rule in this service.` },
        ]);
      }

      const events: ServiceEvent[] = [];
      const ctx: RequestContext<Record<string, unknown>> = {
        op,
        path: match.params,
        query,
        body,
        auth,
        headers: req.headers,
        db: opts.db,
        now: opts.clock.now(),
        clock: opts.clock,
        squareVersion: version,
        ids,
        baseUrl,
        emit: (e) => events.push(e),
      };
      // better-sqlite3 transactions are synchronous: nothing in here may await. A call that may
      // write takes the write lock when it begins (IMMEDIATE): another process on the same file
      // (a second backroom on the demo store) then waits its turn under the busy timeout, where a
      // read that turned into a write would fail at once with SQLITE_BUSY_SNAPSHOT.
      const result =
        op.method === "GET" ? inTransaction(ctx, raw, handler) : inTransaction.immediate(ctx, raw, handler);
      if (events.length > 0) opts.events.publish(events);
      // A rule that must await (see HandlerResult.after) finishes here, outside the transaction.
      const final = result.after ? await result.after() : result;
      return send(
        res,
        final.status ?? 200,
        final.body,
        { "square-version": version, ...final.headers },
        serialized.get(final),
      );
    } catch (err) {
      if (err instanceof ServiceError) return sendError(res, err);
      throw err;
    }
  }

  answerClientErrors(server);
  // A client that starts a request and never finishes it is answered 408 rather than held forever.
  server.requestTimeout = 60_000;
  return server;
}

/** A rule as the pipeline calls it, with the body the validator passed. */
type UntypedHandler = (ctx: RequestContext<Record<string, unknown>>) => HandlerResult;

/**
 * A write that carries an idempotency key answers the first response again for the same body,
 * and refuses a different body under the same key.
 */
function runIdempotent(
  db: Db,
  ctx: RequestContext<Record<string, unknown>>,
  raw: string,
  handler: UntypedHandler,
): HandlerResult {
  const field = ctx.op.idempotency?.field;
  const key = field ? ctx.body[field] : undefined;
  if (typeof key !== "string" || key === "" || !ctx.auth) return handler(ctx);
  const merchant = ctx.auth.merchantId;
  const bodyHash = createHash("sha256").update(canonicalBody(raw)).digest("hex");
  const seen = db
    .prepare("SELECT body_hash, status, response FROM idempotency WHERE merchant_id = ? AND operation = ? AND key = ?")
    .get(merchant, ctx.op.name, key) as { body_hash: string; status: number; response: string } | undefined;
  if (seen) {
    if (seen.body_hash !== bodyHash) {
      throw invalid("IDEMPOTENCY_KEY_REUSED", "The idempotency key was already used for a different request.", field);
    }
    return { status: seen.status, body: JSON.parse(seen.response) };
  }
  const result = handler(ctx);
  const text = JSON.stringify(result.body);
  serialized.set(result, text);
  db.prepare(
    "INSERT INTO idempotency (merchant_id, operation, key, body_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(merchant, ctx.op.name, key, bodyHash, result.status ?? 200, text, ctx.now.toISOString());
  return result;
}

/** A stored write's response as it was serialised for the idempotency record: sent as is. */
const serialized = new WeakMap<HandlerResult, string>();

/** The same JSON sent with other white space or key order is the same request. */
function canonicalBody(raw: string): string {
  try {
    return sortedJson(JSON.parse(raw));
  } catch {
    return raw;
  }
}

function parseJson(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ServiceError(400, [
      { category: "INVALID_REQUEST_ERROR", code: "INVALID_VALUE", detail: "The request body is not valid JSON." },
    ]);
  }
}

const headerValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The service's error envelope. */
export const envelope = (errors: ErrorBody[]) => ({ errors });

function sendError(res: ServerResponse, err: ServiceError, headers: Record<string, string> = {}): void {
  send(res, err.status, envelope(err.errors), headers);
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  text = JSON.stringify(body ?? {}),
): void {
  if (status >= 300 && status < 400 && body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Listens and resolves with the base URL (an ephemeral port when `port` is 0). */
export function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const addr = server.address() as AddressInfo;
      const shown = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
      resolve(`http://${shown}:${addr.port}`);
    });
  });
}
