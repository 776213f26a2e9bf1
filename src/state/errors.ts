// From errors.js, not the layer's index: the index brings the HTTP client (undici), which the first
// frame does not need.
import { errorCode, isPathProblem } from "../domain/file-errors.js";
import { type FormProblem, problemOn } from "../domain/form-problem.js";
import { SquareApiError, SquareNetworkError, SquareTimeoutError } from "../square/errors.js";

/** A failure as the manager reads it: a headline in words, and the codes and ids for a details line. */
export interface Problem {
  headline: string;
  details?: string;
}

/** Why a write did not happen. */
export type WriteError =
  | { kind: "read-only" }
  /** The same write (same key) is already on its way; this press was a repeat. */
  | { kind: "in-flight" }
  /** A file to write is already there and was not to be replaced unasked. */
  | { kind: "exists"; paths: string[] }
  | { kind: "failed"; cause: unknown; problem: Problem };

/** What a write returns: its value, or why there is none. */
export type WriteResult<T> = { ok: true; value: T } | { ok: false; error: WriteError };

/** Whether the service refused a write because the object's `version` was stale. */
export function isVersionConflict(err: unknown): boolean {
  return (
    err instanceof SquareApiError && (err.status === 409 || err.hasCode("CONFLICT") || err.hasCode("VERSION_MISMATCH"))
  );
}

/** Whether the service's answer carries this error code (any entry of the envelope). */
export function hasErrorCode(err: unknown, code: string): boolean {
  return err instanceof SquareApiError && err.hasCode(code);
}

/** Whether the failure means the service could not be reached (as opposed to a refusal). */
export function isUnreachable(err: unknown): boolean {
  return err instanceof SquareNetworkError || err instanceof SquareTimeoutError;
}

/**
 * Whether a failed write may not have been answered: the service could not be reached, timed out,
 * or said "later" (5xx, 429, 408) after the transport's own retries. Such a write may have reached
 * it, so it is kept and sent again under the same key rather than dropped or made anew.
 */
export function isUnanswered(err: unknown): boolean {
  return (
    isUnreachable(err) ||
    (err instanceof SquareApiError && (err.status >= 500 || err.status === 429 || err.status === 408))
  );
}

const AUTH_CODES = ["UNAUTHORIZED", "ACCESS_TOKEN_EXPIRED", "ACCESS_TOKEN_REVOKED", "INVALID_ACCESS_TOKEN"];

/** A failed call in the manager's words; the service's code, status and operation go to details. */
export function problemOf(err: unknown): Problem {
  if (err instanceof SquareNetworkError) {
    return { headline: "The service cannot be reached.", details: err.message };
  }
  if (err instanceof SquareTimeoutError) {
    return { headline: "The service did not answer in time.", details: err.message };
  }
  if (err instanceof SquareApiError) {
    const first = err.errors[0];
    const details = [err.code, `HTTP ${err.status}`, err.operation, first?.field ? `field ${first.field}` : ""]
      .filter(Boolean)
      .join(" · ");
    if (AUTH_CODES.some((c) => err.hasCode(c))) {
      return { headline: "The sign-in is no longer valid: sign in again on the account screen (0).", details };
    }
    if (err.hasCode("FORBIDDEN") || err.hasCode("INSUFFICIENT_SCOPES")) {
      return { headline: "This sign-in is not allowed to do that.", details };
    }
    if (isVersionConflict(err)) return { headline: "Someone else changed this first.", details };
    if (err.status === 429 || err.hasCode("RATE_LIMITED")) {
      return { headline: "The service is busy; try again in a moment.", details };
    }
    if (err.status >= 500) return { headline: "The service had a problem; try again.", details };
    return { headline: first?.detail ? sentence(first.detail) : "The service refused the request.", details };
  }
  return { headline: err instanceof Error ? sentence(err.message) : String(err) };
}

function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const capital = t[0]?.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** What a form shows when its write did not happen; nothing for a repeated press. */
export function writeProblem(error: WriteError): string | undefined {
  switch (error.kind) {
    case "read-only":
      return "Read-only mode: changes are disabled.";
    case "in-flight":
      return undefined;
    case "exists":
      return `${error.paths.join(" and ")} ${error.paths.length > 1 ? "are" : "is"} already there.`;
    case "failed":
      return error.problem.headline;
  }
}

/**
 * What an export form shows when its file was not written: the same words as {@link writeProblem},
 * about the form's path field (`field`) when the path typed is why (no such folder, a folder, a
 * place that may not be written to) — the form takes the manager there, the path selected.
 */
export function exportProblem(error: WriteError, field = "path"): FormProblem {
  const aboutPath = error.kind === "failed" && isPathProblem(errorCode(error.cause));
  return problemOn(writeProblem(error), aboutPath ? field : undefined);
}
