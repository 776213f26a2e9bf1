/** One entry of the service's error envelope. */
export interface SquareErrorDetail {
  category: string;
  code: string;
  detail?: string;
  field?: string;
}

/** Base class of every error the client raises; callers branch on the subclass and `code`. */
export class SquareError extends Error {
  override name = "SquareError";
}

/**
 * The service answered with errors: a non-2xx status, or a 2xx whose body carries `errors[]`
 * (batch operations report per-item failures that way). `body` keeps the whole response so that
 * partial results are not lost.
 */
export class SquareApiError extends SquareError {
  override name = "SquareApiError";
  readonly status: number;
  readonly errors: readonly SquareErrorDetail[];
  readonly operation: string;
  readonly body: unknown;

  constructor(operation: string, status: number, errors: readonly SquareErrorDetail[], body: unknown) {
    const first = errors[0];
    super(
      first
        ? `${operation}: ${status} ${first.code}${first.detail ? ` — ${first.detail}` : ""}`
        : `${operation}: HTTP ${status}`,
    );
    this.operation = operation;
    this.status = status;
    this.errors = errors;
    this.body = body;
  }

  /** The first error's code (`NOT_FOUND`, `ACCESS_TOKEN_EXPIRED`, ...), or `HTTP_<status>`. */
  get code(): string {
    return this.errors[0]?.code ?? `HTTP_${this.status}`;
  }

  /** The first error's category (`INVALID_REQUEST_ERROR`, ...). */
  get category(): string {
    return this.errors[0]?.category ?? "API_ERROR";
  }

  /** Whether any error of the envelope has this code. */
  hasCode(code: string): boolean {
    return this.errors.some((e) => e.code === code);
  }
}

/** The operation has been retired by the service (it answered 404 or 410 for it). */
export class SquareRetiredError extends SquareApiError {
  override name = "SquareRetiredError";
  readonly replacement: string;

  constructor(operation: string, status: number, replacement: string, body: unknown) {
    super(
      operation,
      status,
      [
        {
          category: "INVALID_REQUEST_ERROR",
          code: "OPERATION_RETIRED",
          detail: `${operation} is no longer offered by this service; ${replacement}`,
        },
      ],
      body,
    );
    this.replacement = replacement;
  }
}

/** The request never got an HTTP answer: refused, reset or dropped connection, DNS failure. */
export class SquareNetworkError extends SquareError {
  override name = "SquareNetworkError";
  readonly operation: string;
  override readonly cause: unknown;

  constructor(operation: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${operation}: network error — ${reason}`);
    this.operation = operation;
    this.cause = cause;
  }
}

/** No answer arrived within the configured timeout. */
export class SquareTimeoutError extends SquareError {
  override name = "SquareTimeoutError";
  readonly operation: string;
  readonly timeoutMs: number;

  constructor(operation: string, timeoutMs: number) {
    super(`${operation}: no answer within ${timeoutMs} ms`);
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }
}

/** Reads an `errors` array out of a parsed body, keeping only well-formed entries. */
export function errorsOf(body: unknown): SquareErrorDetail[] {
  if (typeof body !== "object" || body === null || !("errors" in body)) return [];
  const list = (body as { errors: unknown }).errors;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (e): e is SquareErrorDetail =>
      typeof e === "object" && e !== null && typeof e.code === "string" && typeof e.category === "string",
  );
}
