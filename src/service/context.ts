import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { OperationBodies, OperationName, OperationSpec } from "../spec/generated/operations.js";
import type { ServiceClock } from "./clock.js";
import type { Db } from "./db.js";
import type { EventSink, ServiceEvent } from "./events.js";
import type { IdSource } from "./ids.js";

/** Who is calling: the seller and application behind the bearer token, and what it may do. */
export interface AuthInfo {
  merchantId: string;
  clientId: string | null;
  scopes: ReadonlySet<string>;
  tokenHash: string;
}

/** A parsed query value, coerced to the type the spec gives it. */
export type QueryValue = string | number | boolean;

/**
 * Everything a rule may read or use while it runs inside the request's transaction. `B` is the
 * body's type: a rule gets its operation's request type (see {@link Handler}); a helper that
 * does not read the body takes `RequestContext` (any body).
 */
export interface RequestContext<B = unknown> {
  op: OperationSpec;
  path: Readonly<Record<string, string>>;
  query: Readonly<Record<string, QueryValue>>;
  /** The JSON body, already validated against the operation's request schema. */
  body: B;
  /** Set for bearer operations; null for the token operations, which authenticate themselves. */
  auth: AuthInfo | null;
  headers: IncomingHttpHeaders;
  db: Db;
  /** The service clock's reading when the request arrived: one instant for the whole request. */
  now: Date;
  clock: ServiceClock;
  squareVersion: string;
  ids: IdSource;
  /** The service's own base URL, for links (V1 `Link` headers). */
  baseUrl: string;
  /** Queues a webhook event; it is delivered after the transaction commits. */
  emit(event: ServiceEvent): void;
}

/** What a rule answers: a JSON body and, rarely, a status or extra headers. */
export interface HandlerResult {
  body: unknown;
  /**
   * The body already as JSON text, when it is made of stored records (a customer's stored JSON):
   * sent as is unless the caller's version reshapes it. `body` must be the same value parsed
   * (see {@link jsonAnswer}).
   */
  json?: string;
  status?: number;
  headers?: Record<string, string>;
  /**
   * What an idempotency record keeps instead of the answer, when the rule writes the same answer
   * again from it: its {@link Replayable.replay}. For answers too large to store on every write.
   */
  kept?: string;
  /**
   * Rare: work that must await (testWebhookSubscription's real POST). The pipeline runs it after
   * the transaction commits and answers what it returns instead of `body`. Not for operations
   * with an idempotency key: only `body` would be stored for a replay.
   */
  after?: () => Promise<HandlerResult>;
}

/** The validated body an operation's rule receives: its request type, or nothing. */
export type BodyOf<K extends OperationName> = OperationBodies[K] extends undefined
  ? Record<string, never>
  : OperationBodies[K];

/** One operation's rule: synchronous, so it runs whole inside one SQLite transaction. */
export type Handler<K extends OperationName = OperationName> = (ctx: RequestContext<BodyOf<K>>) => HandlerResult;

/** An area's rules, by operation name, each typed by its operation's request. */
export type RouteTable = { [K in OperationName]?: Handler<K> };

/** A route outside the contract (`/oauth2/authorize`, `/_emulator/*`): may await, answers JSON or a redirect. */
export type ExtraRoute = (req: IncomingMessage, url: URL, body: string) => Promise<HandlerResult> | HandlerResult;

/** What the routes outside the contract may use. */
export interface ExtraDeps {
  db: Db;
  clock: ServiceClock;
  events: EventSink;
}

/** The merchant of an authenticated request; rules of bearer operations may rely on it. */
export function merchantOf(ctx: RequestContext): string {
  if (!ctx.auth) throw new Error(`${ctx.op.name} ran without an authenticated merchant`);
  return ctx.auth.merchantId;
}

/**
 * A rule whose answers an idempotency record keeps as a note (HandlerResult.kept), and which
 * writes its answer again from the note, as JSON, for a replay.
 */
export interface Replayable {
  replay(ctx: RequestContext, kept: string): string;
}

/** An answer already in JSON text (see {@link jsonAnswer}). */
class JsonAnswer implements HandlerResult {
  readonly kept?: string;

  constructor(
    readonly json: string,
    kept?: string,
  ) {
    if (kept !== undefined) this.kept = kept;
  }

  get body(): unknown {
    return JSON.parse(this.json);
  }
}

/**
 * An answer already in JSON text: its `body` is parsed only if something reads it. An instance of
 * a class, its getter on the prototype: an object literal with a getter is built on V8's slow path,
 * about 1 µs a call, on every retrieveCustomer.
 */
export function jsonAnswer(json: string, kept?: string): HandlerResult {
  return new JsonAnswer(json, kept);
}
