/**
 * JSON with every object's keys in sorted order and `undefined` members left out, so that two
 * equal values always give the same text: the same request sent with another key order is the
 * same request (idempotency), and the same query gives the same cursor seal.
 */
export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : sortedJson(v))).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
