import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServiceClock } from "./clock.js";
import type { AuthInfo, ExtraRoute, HandlerResult, RequestContext, RouteTable } from "./context.js";
import type { Db } from "./db.js";
import { ServiceError } from "./errors.js";
import type { EventSink, ServiceEvent } from "./events.js";
import type { Faults } from "./faults.js";
import { runIdempotent, serialized, type UntypedHandler } from "./idempotency.js";
import { type IdSource, randomIds } from "./ids.js";
import { authorize, type Incoming, type Input, injectFault, readIncoming, readInput, routeOf } from "./pipeline.js";
import { answerClientErrors, bodyText, ClientGone } from "./request.js";
import { envelope, headerValue, send, sendError, sendText } from "./respond.js";
import { createRouter } from "./router.js";
import { requestVersion } from "./versions/known.js";
import { type VersionShape, versionShape } from "./versions/stage.js";

/** What the HTTP front needs: storage, clock, rules, and where committed events go. */
export interface HttpOptions {
  db: Db;
  clock: ServiceClock;
  routes: RouteTable;
  extra: Record<string, ExtraRoute>;
  events: EventSink;
  faults: Faults;
  ids?: IdSource;
  /** The Square-Version of a request that sends none (the application's pinned version). */
  defaultSquareVersion: string;
}

/** Stage 8: the answer, in the shape of the caller's Square-Version. */
function sendAnswer(
  res: ServerResponse,
  ctx: RequestContext,
  shape: VersionShape,
  result: HandlerResult,
  db: HttpOptions["db"],
): void {
  const headers = { "square-version": shape.version, ...result.headers };
  const status = result.status ?? 200;
  if (shape.rewritesAnswer(ctx.op.name)) {
    // Read once: a result may make its body anew on each read (from its stored JSON).
    const body = result.body;
    shape.answer(ctx.op.name, body, { db, merchantId: ctx.auth?.merchantId });
    send(res, status, body, headers);
    return;
  }
  const text = result.json ?? serialized.get(result);
  if (text !== undefined) sendText(res, status, text, headers);
  else send(res, status, result.body, headers);
}

/** The admin endpoints and the consent page: JSON however it is labelled (`curl -d` says form data). */
async function handleExtra(extra: ExtraRoute, req: IncomingMessage, res: ServerResponse, incoming: Incoming) {
  const url = new URL(`${incoming.path}?${incoming.search.toString()}`, "http://localhost");
  const result = await extra(req, url, bodyText(incoming.bytes, incoming.contentType, false));
  send(res, result.status ?? 200, result.body, result.headers);
}

/**
 * The service's one pipeline, as named stages (pipeline.ts): read the request → the routes
 * outside the contract → route → Square-Version → auth and scope → query and body, read in the
 * caller's version and validated → injected fault → the rule and its storage in one synchronous
 * transaction (with idempotency) → events → the answer, shaped for the caller's version. Every
 * refusal is the error envelope.
 */
export function createHttpServer(opts: HttpOptions): Server {
  const route = createRouter();
  const ids = opts.ids ?? randomIds();
  // Built once: wrapping a function in a transaction costs more than a small read's own work.
  const inTransaction = opts.db.transaction(
    (ctx: RequestContext<Record<string, unknown>>, sent: string, handler: UntypedHandler): HandlerResult =>
      runIdempotent(opts.db, ctx, sent, handler),
  );

  /** Stage 7: the rule, in a transaction; its events go out once it has committed. */
  const runRule = (ctx: RequestContext<Record<string, unknown>>, sent: string, events: ServiceEvent[]) => {
    // validateBody checked the body against op.body's schema, which is the type BodyOf<op>
    // promises the rule: this is the one place a body is trusted to have its operation's type.
    const handler = opts.routes[ctx.op.name as keyof RouteTable] as UntypedHandler | undefined;
    if (!handler) {
      throw new ServiceError(501, [
        { category: "API_ERROR", code: "NOT_IMPLEMENTED", detail: `${ctx.op.name} has no rule in this service.` },
      ]);
    }
    // better-sqlite3 transactions are synchronous: nothing in here may await. A call that may
    // write takes the write lock when it begins (IMMEDIATE): another process on the same file
    // (a second backroom on the demo store) then waits its turn under the busy timeout, where a
    // read that turned into a write would fail at once with SQLITE_BUSY_SNAPSHOT.
    const result =
      ctx.op.method === "GET" ? inTransaction(ctx, sent, handler) : inTransaction.immediate(ctx, sent, handler);
    if (events.length > 0) opts.events.publish(events);
    return result;
  };

  async function handleContract(req: IncomingMessage, res: ServerResponse, incoming: Incoming): Promise<void> {
    const { op, params } = routeOf(route, req.method ?? "GET", incoming.path);
    const shape = versionShape(requestVersion(headerValue(req.headers["square-version"]), opts.defaultSquareVersion));
    const auth: AuthInfo | null = authorize(opts.db, op, req.headers, opts.clock.now());
    const input: Input = readInput(op, incoming, shape, { db: opts.db, merchantId: auth?.merchantId });
    const fault = injectFault(opts.faults, op.name);
    if (fault) await fault;
    const events: ServiceEvent[] = [];
    const ctx: RequestContext<Record<string, unknown>> = {
      op,
      path: params,
      query: input.query,
      body: input.body,
      auth,
      headers: req.headers,
      db: opts.db,
      now: opts.clock.now(),
      clock: opts.clock,
      squareVersion: shape.version,
      ids,
      baseUrl: `http://${req.headers.host ?? "127.0.0.1"}`,
      emit: (e) => events.push(e),
    };
    const result = runRule(ctx, input.sent, events);
    // A rule that must await (see HandlerResult.after) finishes here, outside the transaction.
    sendAnswer(res, ctx, shape, result.after ? await result.after() : result, opts.db);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const read = readIncoming(req);
      const incoming = read instanceof Promise ? await read : read;
      const extra = opts.extra[`${req.method} ${incoming.path}`];
      await (extra ? handleExtra(extra, req, res, incoming) : handleContract(req, res, incoming));
    } catch (err) {
      if (err instanceof ServiceError) return sendError(res, err);
      throw err;
    }
  }

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
  answerClientErrors(server);
  // A client that starts a request and never finishes it is answered 408 rather than held forever.
  server.requestTimeout = 60_000;
  return server;
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
