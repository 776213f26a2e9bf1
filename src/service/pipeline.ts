import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { OperationSpec } from "../spec/generated/operations.js";
import type { AuthInfo, QueryValue } from "./context.js";
import type { Db } from "./db.js";
import { ServiceError } from "./errors.js";
import type { Faults } from "./faults.js";
import { clientSecretOf } from "./oauth/grants.js";
import { bodyText, readBody, requestTarget } from "./request.js";
import { headerValue } from "./respond.js";
import type { createRouter } from "./router.js";
import { authenticate, requireScopes } from "./tokens.js";
import { parseQuery, validateBody } from "./validate.js";
import type { VersionShape } from "./versions/stage.js";

// The stages of the service's pipeline, in the order server.ts runs them. Each refuses with a
// ServiceError, which the pipeline answers with the error envelope.

/** A request as read off the wire: its path and query exactly as sent, and its body's bytes. */
export interface Incoming {
  path: string;
  search: URLSearchParams;
  bytes: Buffer;
  contentType: string | undefined;
}

const NO_BYTES = Buffer.alloc(0);

/**
 * Stage 1: the body (up to its limit) and the request target. A request that sends neither
 * Content-Length (or one of 0) nor Transfer-Encoding has no body (RFC 9112, 6.3): it is read at
 * once, with nothing to wait for.
 */
export function readIncoming(req: IncomingMessage): Incoming | Promise<Incoming> {
  const length = req.headers["content-length"];
  if ((length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined) {
    return incomingOf(req, NO_BYTES);
  }
  return readBody(req).then((bytes) => incomingOf(req, bytes));
}

function incomingOf(req: IncomingMessage, bytes: Buffer): Incoming {
  const { path, search } = requestTarget(req.url ?? "/");
  return { path, search, bytes, contentType: headerValue(req.headers["content-type"]) };
}

/** Stage 2: the operation a method and path name, or 404, or 405 with the methods allowed. */
export function routeOf(
  route: ReturnType<typeof createRouter>,
  method: string,
  path: string,
): { op: OperationSpec; params: Record<string, string> } {
  const match = route(method, path);
  if (match.kind === "found") return match;
  if (match.kind === "not-found") {
    throw new ServiceError(404, [
      { category: "INVALID_REQUEST_ERROR", code: "NOT_FOUND", detail: `No such path: ${path}` },
    ]);
  }
  throw new ServiceError(
    405,
    [
      {
        category: "INVALID_REQUEST_ERROR",
        code: "METHOD_NOT_ALLOWED",
        detail: `${method} is not allowed on ${path}; use ${match.allowed.join(", ")}.`,
      },
    ],
    { allow: match.allowed.join(", ") },
  );
}

/**
 * Stage 4: who is calling. A bearer operation needs a live token holding the operation's scopes;
 * the token operations that take the application's secret check it in their rule (it needs the
 * application), and one sent without it at all is refused here, before its body is read.
 */
export function authorize(db: Db, op: OperationSpec, headers: IncomingHttpHeaders, now: Date): AuthInfo | null {
  if (op.auth === "client") clientSecretOf(headerValue(headers.authorization));
  if (op.auth !== "bearer") return null;
  const auth = authenticate(db, headerValue(headers.authorization), now);
  requireScopes(auth, op.scopes);
  return auth;
}

/** What a rule reads of a request: the typed query, its checked JSON body, and what idempotency compares. */
export interface Input {
  query: Record<string, QueryValue>;
  /**
   * The body's text as the caller sent it, when it carries the operation's idempotency key: what
   * the key's record keeps and compares (idempotency.ts). Empty when the body carries no key.
   */
  sent: string;
  body: Record<string, unknown>;
}

/** The body's text, when it carries the operation's idempotency key. */
function sentForIdempotency(op: OperationSpec, raw: string, parsed: unknown): string {
  const field = op.idempotency?.field;
  if (!field || parsed === null || typeof parsed !== "object") return "";
  const key = (parsed as Record<string, unknown>)[field];
  return typeof key === "string" && key !== "" ? raw : "";
}

/**
 * Stage 5: the query and the body. The body is read as the caller's Square-Version wrote it —
 * the version table refuses what that version no longer takes and rewrites an older shape into
 * today's — and then checked against the operation's schema. Bodies on GET and DELETE are
 * ignored, as the real service does.
 */
export function readInput(op: OperationSpec, incoming: Incoming, shape: VersionShape, lookups: ShapeLookups): Input {
  const query = parseQuery(op, incoming.search);
  const raw = op.body ? bodyText(incoming.bytes, incoming.contentType) : "";
  const parsed = parseJson(raw);
  const sent = sentForIdempotency(op, raw, parsed);
  shape.request(op.name, parsed, lookups);
  return { query, sent, body: validateBody(op, parsed) };
}

/** What a version rewrite may look up. */
export type ShapeLookups = Parameters<VersionShape["request"]>[2];

/**
 * Stage 6: an injected fault of `/_emulator/faults`: a delay, then perhaps a failure. Undefined
 * when no rule applies, so that a call without one goes on without waiting a turn.
 */
export function injectFault(faults: Faults, operation: string): Promise<void> | undefined {
  const fault = faults.pick(operation);
  return fault ? applyFault(fault) : undefined;
}

async function applyFault(fault: NonNullable<ReturnType<Faults["pick"]>>): Promise<void> {
  if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
  if (fault.error) throw fault.error;
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
