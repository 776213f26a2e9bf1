/**
 * JSON with every object's keys in sorted order and `undefined` members left out, so that two
 * equal values always give the same text: the same request sent with another key order is the
 * same request (idempotency), and the same query gives the same cursor seal. Built in one pass
 * (a batch of 100 inventory changes is hashed on every write), sorting only keys out of order.
 */
export function sortedJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out += `${i > 0 ? "," : ""}${v === undefined ? "null" : sortedJson(v)}`;
    }
    return `${out}]`;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) {
    if ((keys[i - 1] ?? "") > (keys[i] ?? "")) {
      keys.sort();
      break;
    }
  }
  let out = "{";
  let first = true;
  for (const k of keys) {
    const v = o[k];
    if (v === undefined) continue;
    out += `${first ? "" : ","}${JSON.stringify(k)}:${sortedJson(v)}`;
    first = false;
  }
  return `${out}}`;
}
