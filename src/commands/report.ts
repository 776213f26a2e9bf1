// What the commands' reports for people share: aligned columns, and a failure of the service as
// one line with its exit code.
import { SquareApiError, SquareRetiredError } from "../square/errors.js";
import { CommandError } from "./io.js";

/**
 * Lays out rows of cells as aligned columns; `right` columns are aligned right. Widths count
 * characters, not UTF-16 units, so `Visa •••• 4242` lines up.
 */
export function columns(rows: readonly string[][], right: ReadonlySet<number>): string[] {
  const widths: number[] = [];
  for (const r of rows) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...c].length);
    });
  }
  return rows.map((r) =>
    r
      .map((c, i) => {
        const pad = " ".repeat(Math.max(0, (widths[i] ?? 0) - [...c].length));
        return right.has(i) ? pad + c : c + pad;
      })
      .join("  ")
      .trimEnd(),
  );
}

/**
 * A failed call as a one-line {@link CommandError} (exit 1): a retired operation with what
 * replaces it, a 404 as `notFound` when given, any other refusal with the service's own detail
 * and code. Anything that is not an answer of the service goes on up.
 */
export function serviceProblem(err: unknown, notFound?: string): never {
  if (err instanceof SquareRetiredError) {
    throw new CommandError(`the service no longer offers this (${err.operation}): ${err.replacement}`, 1);
  }
  if (err instanceof SquareApiError) {
    if (notFound !== undefined && err.status === 404) throw new CommandError(notFound, 1);
    const detail = err.errors[0]?.detail ?? `HTTP ${err.status}`;
    throw new CommandError(`the service refused: ${detail} (${err.code})`, 1);
  }
  throw err;
}
