import type { OperationSpec } from "../spec/generated/operations.js";
import { enums, type FieldSchema, schemas } from "../spec/generated/schemas.js";
import type { QueryValue } from "./context.js";
import { invalid } from "./errors.js";

/** The most items any array of a request may hold (each operation may allow fewer). */
export const MAX_ARRAY_ITEMS = 1000;

/**
 * Where `null` is a value rather than "not sent": in a sparse update of a customer profile, a
 * field set to null is removed (as "" is). The fields listed, and everything inside them, keep
 * their nulls; everywhere else a null optional field is read as absent, and a null required
 * field is missing.
 */
const NULL_CLEARS: Readonly<Record<string, ReadonlySet<string>>> = {
  UpdateCustomerRequest: new Set([
    "given_name",
    "family_name",
    "company_name",
    "nickname",
    "email_address",
    "address",
    "phone_number",
    "reference_id",
    "note",
    "birthday",
    "tax_ids",
  ]),
};

/**
 * Checks a request body against the operation's schema from the spec: types, required fields,
 * enumeration values, lengths, bounds and array sizes. The first problem found is thrown as the
 * service's INVALID_REQUEST_ERROR, with `field` naming where it is (`shift.start_at`). Fields the
 * schema does not name are ignored, as the real service does for forward compatibility, and
 * dropped from the body the rule sees; so are nulls that mean "not sent" (see NULL_CLEARS).
 */
export function validateBody(op: OperationSpec, body: unknown): Record<string, unknown> {
  if (!op.body) return {};
  if (body === undefined) {
    if (op.bodyRequired) throw invalid("EXPECTED_JSON_BODY", "The request needs a JSON body.");
    return {};
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalid("EXPECTED_OBJECT", "The request body must be a JSON object.");
  }
  checkObject(op.body, body as Record<string, unknown>, new Path(), false);
  return body as Record<string, unknown>;
}

/**
 * Where the check is (`changes[3].physical_count`), kept as a stack of steps and written out only
 * for a refusal: a batch of 100 inventory changes has about 800 fields, and writing each one's
 * path as text took half of its check.
 */
class Path {
  private readonly steps: (string | number)[] = [];
  push(step: string | number): void {
    this.steps.push(step);
  }
  pop(): void {
    this.steps.pop();
  }
  toString(): string {
    let out = "";
    for (const step of this.steps) {
      if (typeof step === "number") out += `[${step}]`;
      else out += out === "" ? step : `.${step}`;
    }
    return out;
  }
}

/** Checks one object in place: unknown members and "not sent" nulls are deleted from it. */
function checkObject(name: string, value: Record<string, unknown>, at: Path, keepNulls: boolean): void {
  const schema = schemas[name];
  if (!schema || schema.open) return;
  for (const field of schema.required) {
    if (value[field] === undefined || value[field] === null) {
      at.push(field);
      throw invalid("MISSING_REQUIRED_PARAMETER", `Field must be set: ${at}.`, `${at}`);
    }
  }
  const clears = NULL_CLEARS[name];
  for (const field in value) {
    const fieldSchema = Object.hasOwn(schema.properties, field) ? schema.properties[field] : undefined;
    if (!fieldSchema) {
      delete value[field];
      continue;
    }
    const v = value[field];
    const keep = keepNulls || clears?.has(field) === true;
    if (v === null) {
      if (!keep) delete value[field];
      continue;
    }
    at.push(field);
    checkField(fieldSchema, v, at, keep);
    at.pop();
  }
}

function checkField(s: FieldSchema, v: unknown, at: Path, keepNulls: boolean): void {
  if (s.ref) {
    if (enums[s.ref]) {
      checkEnum(s.ref, v, at);
      return;
    }
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw invalid("EXPECTED_OBJECT", `Expected an object at ${at}.`, `${at}`);
    }
    checkObject(s.ref, v as Record<string, unknown>, at, keepNulls);
    return;
  }
  switch (s.type) {
    case "string":
      if (typeof v !== "string") throw invalid("EXPECTED_STRING", `Expected a string at ${at}.`, `${at}`);
      if (s.enum) {
        checkEnum(s.enum, v, at);
        return;
      }
      if (s.minLength !== undefined && v.length < s.minLength) {
        throw v.length === 0
          ? invalid("VALUE_EMPTY", `Field must not be empty: ${at}.`, `${at}`)
          : invalid("VALUE_TOO_SHORT", `Must be at least ${s.minLength} characters: ${at}.`, `${at}`);
      }
      if (s.maxLength !== undefined && v.length > s.maxLength) {
        throw invalid("VALUE_TOO_LONG", `Must be at most ${s.maxLength} characters: ${at}.`, `${at}`);
      }
      return;
    case "integer":
      if (typeof v !== "number" || !Number.isInteger(v)) {
        throw invalid("EXPECTED_INTEGER", `Expected an integer at ${at}.`, `${at}`);
      }
      // Beyond 2^53 a JSON number no longer names one integer: refused, not rounded.
      if (!Number.isSafeInteger(v)) {
        throw v > 0
          ? invalid("VALUE_TOO_HIGH", `Must be at most ${Number.MAX_SAFE_INTEGER}: ${at}.`, `${at}`)
          : invalid("VALUE_TOO_LOW", `Must be at least ${Number.MIN_SAFE_INTEGER}: ${at}.`, `${at}`);
      }
      checkBounds(s, v, at);
      return;
    case "number":
      if (typeof v !== "number" || !Number.isFinite(v)) {
        throw invalid("EXPECTED_FLOAT", `Expected a number at ${at}.`, `${at}`);
      }
      checkBounds(s, v, at);
      return;
    case "boolean":
      if (typeof v !== "boolean") throw invalid("EXPECTED_BOOLEAN", `Expected a boolean at ${at}.`, `${at}`);
      return;
    case "array": {
      if (!Array.isArray(v)) throw invalid("EXPECTED_ARRAY", `Expected an array at ${at}.`, `${at}`);
      if (v.length > MAX_ARRAY_ITEMS) {
        throw invalid("ARRAY_LENGTH_TOO_LONG", `At most ${MAX_ARRAY_ITEMS} items: ${at}.`, `${at}`);
      }
      const items = s.items;
      if (!items) return;
      for (let i = 0; i < v.length; i++) {
        at.push(i);
        checkField(items, v[i], at, keepNulls);
        at.pop();
      }
      return;
    }
    case "object":
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        throw invalid("EXPECTED_OBJECT", `Expected an object at ${at}.`, `${at}`);
      }
      if (s.values) {
        const values = s.values;
        for (const [k, item] of Object.entries(v)) {
          at.push(k);
          checkField(values, item, at, keepNulls);
          at.pop();
        }
      }
      return;
    default:
      return;
  }
}

/** Each enumeration's values as a set, made on its first check. */
const enumSets = new Map<string, ReadonlySet<string>>();

function checkEnum(name: string, v: unknown, at: Path): void {
  if (typeof v !== "string") throw invalid("EXPECTED_STRING", `Expected a string at ${at}.`, `${at}`);
  let values = enumSets.get(name);
  if (!values) {
    const list = enums[name];
    if (!list) return;
    values = new Set(list);
    enumSets.set(name, values);
  }
  if (!values.has(v)) {
    throw invalid("INVALID_ENUM_VALUE", `${JSON.stringify(v)} is not a valid ${name} at ${at}.`, `${at}`);
  }
}

function checkBounds(s: FieldSchema, v: number, at: Path): void {
  if (s.minimum !== undefined && v < s.minimum)
    throw invalid("VALUE_TOO_LOW", `Must be at least ${s.minimum}: ${at}.`, `${at}`);
  if (s.maximum !== undefined && v > s.maximum)
    throw invalid("VALUE_TOO_HIGH", `Must be at most ${s.maximum}: ${at}.`, `${at}`);
}

/** Coerces the query string to the spec's parameter types; required parameters must be present. */
export function parseQuery(op: OperationSpec, search: URLSearchParams): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [name, p] of Object.entries(op.query)) {
    const raw = search.get(name);
    if (raw === null || raw === "") {
      if (p.required) throw invalid("MISSING_REQUIRED_PARAMETER", `Query parameter must be set: ${name}.`, name);
      continue;
    }
    if (p.type === "integer") {
      if (!/^-?\d+$/.test(raw)) throw invalid("EXPECTED_INTEGER", `Expected an integer for ${name}.`, name);
      const n = Number(raw);
      if (!Number.isSafeInteger(n)) {
        throw invalid(n > 0 ? "VALUE_TOO_HIGH" : "VALUE_TOO_LOW", `${name} is out of range.`, name);
      }
      out[name] = n;
    } else if (p.type === "boolean") {
      if (raw !== "true" && raw !== "false")
        throw invalid("EXPECTED_BOOLEAN", `Expected true or false for ${name}.`, name);
      out[name] = raw === "true";
    } else {
      out[name] = raw;
    }
  }
  return out;
}
