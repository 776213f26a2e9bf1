/** One error of the service's envelope. */
export interface ErrorBody {
  category: string;
  code: string;
  detail?: string;
  field?: string;
}

/**
 * A refusal the pipeline turns into the error envelope `{errors:[...]}` with `status`.
 * Rules throw it; anything else thrown is a bug of the service and becomes a 500.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly errors: ErrorBody[];
  /** Headers the refusal carries (`Allow` on a 405). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, errors: ErrorBody[], headers: Readonly<Record<string, string>> = {}) {
    super(errors.map((e) => `${e.code}: ${e.detail ?? ""}`).join("; "));
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}

function one(status: number, category: string, code: string, detail: string, field?: string): ServiceError {
  return new ServiceError(status, [{ category, code, detail, ...(field === undefined ? {} : { field }) }]);
}

/** 400 INVALID_REQUEST_ERROR with a specific code (`MISSING_REQUIRED_PARAMETER`, `VALUE_TOO_HIGH`, ...). */
export const invalid = (code: string, detail: string, field?: string) =>
  one(400, "INVALID_REQUEST_ERROR", code, detail, field);

/** 400 BAD_REQUEST: a request that is well-formed but breaks a rule of the interface. */
export const badRequest = (detail: string, field?: string) =>
  one(400, "INVALID_REQUEST_ERROR", "BAD_REQUEST", detail, field);

/** 404 NOT_FOUND for a named object. */
export const notFound = (detail: string) => one(404, "INVALID_REQUEST_ERROR", "NOT_FOUND", detail);

/** 409 CONFLICT: a stale `version` or a write that lost a race. */
export const conflict = (detail: string, field?: string) =>
  one(409, "INVALID_REQUEST_ERROR", "CONFLICT", detail, field);

/** 401 AUTHENTICATION_ERROR with a code (`UNAUTHORIZED`, `ACCESS_TOKEN_EXPIRED`, ...). */
export const unauthorized = (code: string, detail: string) => one(401, "AUTHENTICATION_ERROR", code, detail);

/** 403 INSUFFICIENT_SCOPES. */
export const insufficientScopes = (detail: string) => one(403, "AUTHENTICATION_ERROR", "INSUFFICIENT_SCOPES", detail);
