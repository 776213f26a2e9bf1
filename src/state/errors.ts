import { SquareApiError, SquareError } from "../square/index.js";
import type { Status } from "./types.js";

/** The status to show for a failed call: the service's code and detail, never a stack. */
export function statusOfError(err: unknown): Status & { kind: "error" } {
  if (err instanceof SquareApiError) {
    const first = err.errors[0];
    return { kind: "error", code: err.code, detail: first?.detail ?? `HTTP ${err.status}` };
  }
  if (err instanceof SquareError) return { kind: "error", code: err.name, detail: err.message };
  return { kind: "error", code: "ERROR", detail: err instanceof Error ? err.message : String(err) };
}

/** Whether the service refused a write because the object's `version` was stale. */
export function isVersionConflict(err: unknown): boolean {
  return (
    err instanceof SquareApiError && (err.status === 409 || err.hasCode("CONFLICT") || err.hasCode("VERSION_MISMATCH"))
  );
}
