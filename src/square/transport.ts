import { randomUUID } from "node:crypto";
import { Agent, type Dispatcher, request } from "undici";
import pkg from "../../package.json" with { type: "json" };
import type { OperationSpec } from "../spec/generated/operations.js";
import { DEFAULT_SQUARE_VERSION } from "../spec/version.js";
import {
  errorsOf,
  SquareApiError,
  SquareError,
  type SquareErrorDetail,
  SquareNetworkError,
  SquareRetiredError,
  SquareTimeoutError,
} from "./errors.js";
import { batchTokenFromLink, PageIterator } from "./paging.js";

export { DEFAULT_SQUARE_VERSION };

/** Named base addresses of the real service. */
export const ENVIRONMENTS = {
  production: "https://connect.squareup.com",
  sandbox: "https://connect.squareupsandbox.com",
} as const;

/**
 * Supplies bearer tokens. `onExpired` is called once when the service answers
 * `ACCESS_TOKEN_EXPIRED`; if it yields a new token the call is sent once more with it.
 */
export interface TokenProvider {
  accessToken(): string | Promise<string>;
  onExpired?(): Promise<string | undefined>;
  /** Called when the service answers `ACCESS_TOKEN_REVOKED`: the sign-in is over. */
  onRevoked?(): void | Promise<void>;
}

/** Options that apply to one call. */
export interface RequestOptions {
  /** Overrides the client's Square-Version for this call. */
  squareVersion?: string;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /** Overrides the client's retry count. */
  maxRetries?: number;
  /** The application secret, for the operations that authenticate with `Client <secret>`. */
  clientSecret?: string;
  signal?: AbortSignal;
  /**
   * Told when an attempt failed and the transport is about to wait and try again: `attempt` is the
   * number of the next try (2 for the first retry), of `attempts` in all, and `error` how the failed
   * one ended (a caller shows "trying again" instead of a request that looks merely on its way).
   */
  onRetry?: (retry: { attempt: number; attempts: number; error: unknown }) => void;
}

/** How the transport is built; every field but `baseUrl` has a documented default. */
export interface TransportOptions {
  /** `production`, `sandbox` or any base URL (e.g. the local service). */
  baseUrl: string;
  accessToken?: string;
  tokenProvider?: TokenProvider;
  clientSecret?: string;
  /** Default `2024-01-18`. */
  squareVersion?: string;
  /** Default: a keep-alive undici Agent owned (and closed) by the client. */
  dispatcher?: Dispatcher;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Per attempt, from sending to the whole body read. Default 30 000 ms. */
  timeoutMs?: number;
  /** First backoff step. Default 250 ms; doubles each retry, full jitter, capped by maxDelayMs. */
  baseDelayMs?: number;
  /** Cap of one wait, Retry-After included. Default 20 000 ms. */
  maxDelayMs?: number;
  /** Injected for tests: how to wait, and the jitter source. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Injected for tests and deterministic runs: how idempotency keys are minted. */
  newIdempotencyKey?: () => string;
  userAgent?: string;
}

/**
 * A request type whose idempotency field the caller may leave out: the transport mints it once
 * per logical write (see `Transport.call`).
 */
export type KeyOptional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** The pieces of one call: the operation and its values. */
export interface CallInput {
  path?: Record<string, string>;
  query?: object | undefined;
  body?: object | undefined;
}

/** The replacement to name when the service says an operation is gone. */
const RETIRED: Record<string, string> = {
  RenewToken: "refresh the token with obtainToken and grant_type=refresh_token",
  V1ListPayments: "use the Payments API (listPayments) instead",
  V1RetrievePayment: "use the Payments API (getPayment) instead",
  V1ListRefunds: "use the Refunds API (listPaymentRefunds) instead",
  V1CreateRefund: "use the Refunds API (refundPayment) instead",
  V1ListSettlements: "use the Payouts API (listPayouts) instead",
  V1RetrieveSettlement: "use the Payouts API (getPayout) instead",
  V1ListOrders: "use the Orders API (searchOrders) instead",
  V1RetrieveOrder: "use the Orders API (retrieveOrder) instead",
  V1UpdateOrder: "use the Orders API (updateOrder) instead",
};

/**
 * Whether a 404/410 of an operation that may be retired means the operation is gone rather than
 * the object asked for: 410 always; 404 when it carries no error envelope, or one that names the
 * endpoint or path itself (a 404 "Payment not found" of a living V1RetrievePayment is not).
 */
function isRetiredAnswer(status: number, errors: readonly { detail?: string }[]): boolean {
  if (status === 410) return true;
  if (status !== 404) return false;
  return errors.length === 0 || errors.some((e) => /\b(endpoint|no such path|url path)\b/i.test(e.detail ?? ""));
}

// 408 and 429 say "try again later"; 5xx are the server's own trouble and usually pass. Other
// 4xx are the request's fault and would fail the same way again.
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** The client's one road to the wire: auth, version, retries, idempotency, errors and paging. */
export class Transport {
  readonly baseUrl: string;
  readonly squareVersion: string;
  readonly #opts: TransportOptions;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #mintKey: () => string;
  readonly #userAgent: string;

  constructor(opts: TransportOptions) {
    const named = ENVIRONMENTS[opts.baseUrl as keyof typeof ENVIRONMENTS];
    this.baseUrl = (named ?? opts.baseUrl).replace(/\/+$/, "");
    try {
      new URL(this.baseUrl);
    } catch {
      throw new SquareError(`not a base URL: ${JSON.stringify(opts.baseUrl)} (use production, sandbox or http(s)://…)`);
    }
    this.squareVersion = opts.squareVersion ?? DEFAULT_SQUARE_VERSION;
    this.#opts = opts;
    this.#ownsDispatcher = opts.dispatcher === undefined;
    this.#dispatcher = opts.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 16 });
    this.#sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.#random = opts.random ?? Math.random;
    this.#mintKey = opts.newIdempotencyKey ?? randomUUID;
    this.#userAgent = opts.userAgent ?? `backroom/${pkg.version} (node ${process.versions.node}; ${process.platform})`;
  }

  /** Closes the keep-alive connections the client opened itself. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /** Sends one operation and returns its parsed body (with the `Link` header for V1 lists). */
  async call<T>(op: OperationSpec, input: CallInput = {}, options: RequestOptions = {}): Promise<T> {
    return (await this.#send<T>(op, input, options)).body;
  }

  /** A paged list/search: the cursor travels in the query (GET) or the body (POST). */
  page<TPage extends { cursor?: string }, TItem>(
    op: OperationSpec,
    input: CallInput,
    items: (page: TPage) => readonly TItem[] | undefined,
    options: RequestOptions = {},
  ): PageIterator<TPage, TItem> {
    return new PageIterator<TPage, TItem>(
      async (cursor) => {
        const next: CallInput =
          cursor === undefined
            ? input
            : op.method === "GET"
              ? { ...input, query: { ...input.query, cursor } }
              : { ...input, body: { ...input.body, cursor } };
        const { body } = await this.#send<TPage>(op, next, options);
        return { page: body, next: body.cursor || undefined };
      },
      (page) => items(page) ?? [],
    );
  }

  /** A V1 list: the body is an array and the next page is named by the `Link` header. */
  v1Page<TItem>(op: OperationSpec, input: CallInput, options: RequestOptions = {}): PageIterator<TItem[], TItem> {
    return new PageIterator<TItem[], TItem>(
      async (token) => {
        const next = token === undefined ? input : { ...input, query: { ...input.query, batch_token: token } };
        const { body, headers } = await this.#send<TItem[]>(op, next, options);
        return { page: Array.isArray(body) ? body : [], next: batchTokenFromLink(headers.link) };
      },
      (page) => page,
    );
  }

  async #send<T>(
    op: OperationSpec,
    input: CallInput,
    options: RequestOptions,
  ): Promise<{ body: T; headers: Record<string, string | string[] | undefined> }> {
    const url = this.#url(op, input);
    let body = input.body;
    // One logical write, one key: minted here once, before the first attempt, and reused by
    // every retry so the service applies the write at most once.
    if (op.idempotency && op.method !== "GET") {
      const field = op.idempotency.field;
      const given = (body as Record<string, unknown> | undefined)?.[field];
      if (typeof given !== "string" || given === "") body = { ...body, [field]: this.#mintKey() };
    }
    const payload = body === undefined ? undefined : JSON.stringify(body);
    // Reads are safe to repeat; a write is repeated only under an idempotency key.
    const retrySafe = op.method === "GET" || op.idempotency !== null;
    const maxRetries = options.maxRetries ?? this.#opts.maxRetries ?? 2;
    const timeoutMs = options.timeoutMs ?? this.#opts.timeoutMs ?? 30_000;
    let refreshed = false;
    let freshToken: string | undefined;

    for (let attempt = 0; ; attempt++) {
      const headers = await this.#headers(op, options, payload !== undefined, freshToken);
      let status: number;
      let resHeaders: Record<string, string | string[] | undefined>;
      let text: string;
      try {
        ({ status, headers: resHeaders, text } = await this.#attempt(op, url, headers, payload, timeoutMs, options));
      } catch (err) {
        const wrapped =
          err instanceof SquareTimeoutError || err instanceof SquareError ? err : new SquareNetworkError(op.name, err);
        if (options.signal?.aborted) throw wrapped;
        if (retrySafe && attempt < maxRetries) {
          options.onRetry?.({ attempt: attempt + 2, attempts: maxRetries + 1, error: wrapped });
          await this.#sleep(this.#backoff(attempt, undefined));
          continue;
        }
        throw wrapped;
      }

      const parsed = parseJson(text);
      if (status >= 200 && status < 300) {
        const errors = errorsOf(parsed);
        if (errors.length > 0) throw new SquareApiError(op.name, status, errors, parsed);
        return { body: (parsed ?? {}) as T, headers: resHeaders };
      }

      const errors = errorsOf(parsed);
      if (
        status === 401 &&
        !refreshed &&
        op.auth === "bearer" &&
        errors.some((e) => e.code === "ACCESS_TOKEN_EXPIRED") &&
        this.#opts.tokenProvider?.onExpired
      ) {
        refreshed = true;
        const fresh = await this.#opts.tokenProvider.onExpired();
        if (fresh) {
          // Use the token we were handed even if the provider's accessToken() still has the old one.
          freshToken = fresh;
          attempt--; // a refreshed token is a new start, not a retry
          continue;
        }
      }
      if (RETRYABLE_STATUS.has(status) && retrySafe && attempt < maxRetries) {
        options.onRetry?.({
          attempt: attempt + 2,
          attempts: maxRetries + 1,
          error: apiError(op.name, status, errors, text, parsed),
        });
        await this.#sleep(this.#backoff(attempt, resHeaders["retry-after"]));
        continue;
      }
      if (status === 401 && op.auth === "bearer" && errors.some((e) => e.code === "ACCESS_TOKEN_REVOKED")) {
        await this.#opts.tokenProvider?.onRevoked?.();
      }
      const replacement = RETIRED[op.name];
      if (replacement && isRetiredAnswer(status, errors)) {
        throw new SquareRetiredError(op.name, status, replacement, parsed);
      }
      throw apiError(op.name, status, errors, text, parsed);
    }
  }

  async #attempt(
    op: OperationSpec,
    url: string,
    headers: Record<string, string>,
    payload: string | undefined,
    timeoutMs: number,
    options: RequestOptions,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
    try {
      const res = await request(url, {
        method: op.method,
        headers,
        body: payload ?? null,
        dispatcher: this.#dispatcher,
        signal,
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      if (timer.signal.aborted && !options.signal?.aborted) throw new SquareTimeoutError(op.name, timeoutMs);
      throw err;
    } finally {
      clearTimeout(timeout);
    }
  }

  async #headers(
    op: OperationSpec,
    options: RequestOptions,
    hasBody: boolean,
    freshToken: string | undefined,
  ): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      accept: "application/json",
      "square-version": options.squareVersion ?? this.squareVersion,
      "user-agent": this.#userAgent,
    };
    if (hasBody) headers["content-type"] = "application/json";
    if (op.auth === "bearer") {
      const token = freshToken
        ? freshToken
        : this.#opts.tokenProvider
          ? await this.#opts.tokenProvider.accessToken()
          : (this.#opts.accessToken ?? "");
      if (token) headers.authorization = `Bearer ${token}`;
    } else if (op.auth === "client") {
      const secret = options.clientSecret ?? this.#opts.clientSecret;
      if (secret) headers.authorization = `Client ${secret}`;
    }
    return headers;
  }

  #url(op: OperationSpec, input: CallInput): string {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = input.path?.[name];
      if (value === undefined || value === "") throw new SquareError(`${op.name}: missing path parameter ${name}`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query ?? {})) {
      if (v === undefined || v === null) continue;
      search.append(k, Array.isArray(v) ? v.join(",") : String(v));
    }
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ""}`;
  }

  /** Exponential backoff with full jitter; a server's Retry-After wins when it asks for longer. */
  #backoff(attempt: number, retryAfter: string | string[] | undefined): number {
    const base = this.#opts.baseDelayMs ?? 250;
    const cap = this.#opts.maxDelayMs ?? 20_000;
    const jittered = Math.min(cap, base * 2 ** attempt) * this.#random();
    const asked = retryAfterMs(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    return Math.min(cap, Math.max(jittered, asked ?? 0));
  }
}

/** An answer that is not a success, as the typed error (its errors, or the status and the start of its text). */
function apiError(
  operation: string,
  status: number,
  errors: readonly SquareErrorDetail[],
  text: string,
  parsed: unknown,
): SquareApiError {
  const said =
    errors.length > 0 ? errors : [{ category: "API_ERROR", code: `HTTP_${status}`, detail: text.slice(0, 200) }];
  return new SquareApiError(operation, status, said, parsed);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
