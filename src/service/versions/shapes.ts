import { schemas } from "../../spec/generated/schemas.js";
import type { Db } from "../db.js";

/** A JSON object of a request or an answer, rewritten in place. */
export type Json = Record<string, unknown>;

/** What an answer's rewrite may look up: the store, for values an older shape carried. */
export interface ShapeContext {
  db: Db;
  merchantId: string | undefined;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Runs `fn` on the object(s) at `path` of a body: segments joined by ".", a segment ending in
 * "[]" is an array whose objects are each visited (`changes[].adjustment`). Missing parts are
 * skipped: an answer without the member has nothing to rewrite.
 */
export function at<C>(path: string, fn: (o: Json, c: C) => void): (body: Json, c: C) => void {
  const segments = path.split(".");
  const visit = (v: unknown, i: number, c: C): void => {
    if (i === segments.length) {
      if (isObject(v)) fn(v, c);
      return;
    }
    if (!isObject(v)) return;
    const seg = segments[i] ?? "";
    if (seg.endsWith("[]")) {
      const list = v[seg.slice(0, -2)];
      if (Array.isArray(list)) for (const item of list) visit(item, i + 1, c);
      return;
    }
    visit(v[seg], i + 1, c);
  };
  return (body, c) => visit(body, 0, c);
}

/** Several rewrites of one body, in order. */
export const all =
  <C>(...fns: ((body: Json, c: C) => void)[]) =>
  (body: Json, c: C): void => {
    for (const f of fns) f(body, c);
  };

/** Renames members of an object (old name → new name), keeping their values and order. */
export function renameKeys(names: Readonly<Record<string, string>>): (o: Json) => void {
  return (o) => {
    const entries = Object.entries(o);
    if (!entries.some(([k]) => Object.hasOwn(names, k))) return;
    for (const [k] of entries) delete o[k];
    for (const [k, v] of entries) o[Object.hasOwn(names, k) ? (names[k] as string) : k] = v;
  };
}

/** Swaps each string of `o[field]` (a value or an array of them) found in `map`. */
export function mapValues(fields: readonly string[], map: Readonly<Record<string, string>>): (o: Json) => void {
  const one = (v: unknown) => (typeof v === "string" && Object.hasOwn(map, v) ? map[v] : v);
  return (o) => {
    for (const f of fields) {
      const v = o[f];
      if (v === undefined) continue;
      o[f] = Array.isArray(v) ? v.map(one) : one(v);
    }
  };
}

/**
 * The first member of a request body that its schema does not name, as a field path
 * (`query.filter.nickname`); undefined when every member is known. Members of open objects and
 * of enumerations are not looked into.
 */
export function unknownMember(schemaName: string, body: unknown, path = ""): string | undefined {
  const schema = schemas[schemaName];
  if (!schema || schema.open || !isObject(body)) return undefined;
  for (const [key, value] of Object.entries(body)) {
    const here = path ? `${path}.${key}` : key;
    const field = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (!field) return here;
    const ref = field.ref ?? field.items?.ref;
    if (!ref) continue;
    const items = Array.isArray(value) ? value : [value];
    for (const [i, item] of items.entries()) {
      const found = unknownMember(ref, item, Array.isArray(value) ? `${here}[${i}]` : here);
      if (found) return found;
    }
  }
  return undefined;
}
