import { type Rng, rng } from "../../src/service/seed/random.js";
import { type OperationName, type OperationSpec, operations } from "../../src/spec/generated/operations.js";
import { enums, type FieldSchema, schemas } from "../../src/spec/generated/schemas.js";

/**
 * The spec-driven request generator of the fuzzer: for an operation, a request built from the
 * spec's schemas (with ids that exist in the store), then one mutation of it. Every case says
 * what a faithful service must do with it: `refuse` (a 4xx) or `any` (accepted or refused by a
 * rule, but never a 5xx). Cases come from a seed: the same seed against the same store gives the
 * same requests.
 */

/** What a mutation must lead to. */
export type Expectation = "refuse" | "any";

/** One request of the fuzz run, exactly as it goes on the wire. */
export interface FuzzCase {
  n: number;
  op: OperationName;
  mutation: string;
  expect: Expectation;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Ids that exist in the store, by kind, found before the run (see `discover` in fuzz.ts). */
export type IdPool = Partial<Record<IdKind, string[]>>;

/** The kinds of id a request can name. */
export type IdKind =
  | "location"
  | "team_member"
  | "break_type"
  | "shift"
  | "wage"
  | "workweek"
  | "customer"
  | "group"
  | "card"
  | "variation"
  | "catalog_object"
  | "category"
  | "adjustment"
  | "physical_count"
  | "transfer"
  | "cash_drawer_shift"
  | "payout"
  | "gift_card"
  | "gift_card_gan"
  | "subscription"
  | "v1_payment"
  | "v1_order"
  | "v1_settlement";

/** What the generator needs besides the spec. */
export interface FuzzContext {
  token: string;
  clientId: string;
  clientSecret: string;
  ids: IdPool;
  /** Real cursors seen during discovery, by the operation that minted them. */
  cursors: Partial<Record<OperationName, string>>;
  /** The service clock's reading: generated times lie in the month before it. */
  now: Date;
}

const OPS = Object.values(operations) as OperationSpec[];

/** Path parameters by name, and for `{id}` by operation. */
function pathKind(op: OperationName, param: string): IdKind | "client_id" | undefined {
  if (param === "id") {
    if (op.includes("BreakType")) return "break_type";
    if (op.includes("Shift")) return "shift";
    if (op.includes("Wage")) return "wage";
    if (op.includes("Workweek")) return "workweek";
    if (op.includes("GiftCard")) return "gift_card";
    return undefined;
  }
  const byName: Record<string, IdKind | "client_id"> = {
    customer_id: "customer",
    group_id: "group",
    card_id: "card",
    location_id: "location",
    team_member_id: "team_member",
    object_id: "catalog_object",
    catalog_object_id: "variation",
    adjustment_id: "adjustment",
    physical_count_id: "physical_count",
    transfer_id: "transfer",
    shift_id: "cash_drawer_shift",
    payout_id: "payout",
    subscription_id: "subscription",
    payment_id: "v1_payment",
    order_id: "v1_order",
    settlement_id: "v1_settlement",
    client_id: "client_id",
  };
  return byName[param];
}

/** Body and query fields that hold ids, by field name. */
const ID_FIELDS: Record<string, IdKind> = {
  location_id: "location",
  location_ids: "location",
  enabled_location_ids: "location",
  from_location_id: "location",
  to_location_id: "location",
  team_member_id: "team_member",
  team_member_ids: "team_member",
  employee_id: "team_member",
  employee_ids: "team_member",
  break_type_id: "break_type",
  catalog_object_id: "variation",
  catalog_object_ids: "variation",
  object_ids: "catalog_object",
  category_ids: "category",
  gift_card_id: "gift_card",
  gift_card_gan: "gift_card_gan",
  gan: "gift_card_gan",
  customer_id: "customer",
  customer_ids: "customer",
  payment_id: "v1_payment",
};

/** Query parameters that take an enumeration's values. */
const QUERY_ENUMS: Partial<Record<OperationName, Record<string, string>>> = {
  ListGiftCards: { type: "GiftCardType", state: "GiftCardStatus" },
  ListGiftCardActivities: { type: "GiftCardActivityType", sort_order: "SortOrder" },
  ListPayouts: { status: "PayoutStatus", sort_order: "SortOrder" },
  ListPayoutEntries: { sort_order: "SortOrder" },
  ListCashDrawerShifts: { sort_order: "SortOrder" },
  ListCustomers: { sort_field: "CustomerSortField", sort_order: "SortOrder" },
  ListWebhookSubscriptions: { sort_order: "SortOrder" },
  V1ListSettlements: { status: "V1ListSettlementsRequestStatus", order: "SortOrder" },
  V1ListPayments: { order: "SortOrder" },
  V1ListRefunds: { order: "SortOrder" },
  V1ListOrders: { order: "SortOrder" },
};

/** Listings whose limit out of range means "the default" rather than a refusal, as the interface says. */
const CLAMPED_LIMITS: ReadonlySet<OperationName> = new Set(["ListPayouts", "ListPayoutEntries"]);
/** Lookups that answer an empty list, not 404, for an object they do not know. */
const EMPTY_FOR_UNKNOWN: ReadonlySet<OperationName> = new Set(["RetrieveInventoryCount", "RetrieveInventoryChanges"]);

/** Body fields the service reads as RFC 3339 instants, as `Schema.field`. */
const TIMESTAMP_FIELDS = new Set([
  "Shift.start_at",
  "Shift.end_at",
  "Break.start_at",
  "Break.end_at",
  "BatchRetrieveInventoryChangesRequest.updated_after",
  "BatchRetrieveInventoryChangesRequest.updated_before",
  "BatchRetrieveInventoryCountsRequest.updated_after",
  "SearchCatalogObjectsRequest.begin_time",
  "InventoryPhysicalCount.occurred_at",
  "InventoryAdjustment.occurred_at",
  "InventoryTransfer.occurred_at",
]);
/** TimeRange is read as instants where a shift or customer search filters by it. */
const TIME_RANGE_PARENTS = new Set([
  "ShiftFilter.start",
  "ShiftFilter.end",
  "CustomerFilter.created_at",
  "CustomerFilter.updated_at",
]);
/** Query parameters read as instants. */
const TIME_QUERY = new Set(["begin_time", "end_time"]);
/** Body fields read as calendar dates. */
const DATE_FIELDS = new Set([
  "DateRange.start_date",
  "DateRange.end_date",
  "UpdateCustomerRequest.birthday",
  "CreateCustomerRequest.birthday",
]);
/** Body fields that hold decimal quantities. */
const QUANTITY_FIELDS = new Set([
  "InventoryPhysicalCount.quantity",
  "InventoryAdjustment.quantity",
  "InventoryTransfer.quantity",
]);

const BAD_TIMES = [
  "2023-02-29T10:00:00Z",
  "2024-01-10T24:00:00Z",
  "2024-13-01T00:00:00Z",
  "2024-04-31T08:00:00Z",
  "2024-01-10T10:60:00Z",
  "2024-01-10T10:00:00+25:00",
  "2024-01-10 10:00:00",
  "yesterday",
  "1705600000",
  "",
];
const BAD_DATES = ["2024-02-30", "2023-02-29", "2024-00-10", "24-01-10", "2024/01/10", "tomorrow"];
const BAD_QUANTITIES = [" 1", "1 ", "1.000001", "1e3", "-1", "abc", "0x10", "1,5", "١", "99999999999"];
const BAD_VERSIONS = ["2024-02-30", "24-01-18", "latest", "2024-1-8", "2024-01-18T00:00:00Z", ""];
const BAD_AUTH = [
  "",
  "Bearer",
  "Bearer ",
  "Basic dXNlcjpwYXNz",
  "Bearer a b",
  "Bearer not-a-token",
  `Bearer ${"A".repeat(4000)}`,
  "Token x",
];
const BAD_IDS = ["..", ".", "%2e%2E", "%2E", "a%2Fb", "..%2Fcustomers", "%00", "a%5Cb"];
const WEIRD_STRINGS = [
  "",
  " ",
  "\u0000",
  "'; DROP TABLE customers; --",
  "%s%s%n",
  "\u202e\u0301",
  "😀".repeat(50),
  "<script>",
];

/** A valid value for a primitive field, by name and schema. */
function validPrimitive(r: Rng, ctx: FuzzContext, owner: string, name: string, s: FieldSchema): unknown {
  const key = `${owner}.${name}`;
  const idKind = ID_FIELDS[name];
  if (s.type === "array" && s.items) {
    const n = r.int(0, 2);
    if (idKind) return Array.from({ length: n + 1 }, () => pickId(r, ctx, idKind));
    return Array.from({ length: n }, () => valueFor(r, ctx, owner, name, s.items as FieldSchema, 3));
  }
  if (idKind && s.type === "string") return pickId(r, ctx, idKind);
  if (s.enum) return r.pick(enums[s.enum] ?? ["X"]);
  switch (s.type) {
    case "string": {
      if (TIMESTAMP_FIELDS.has(key) || owner === "TimeRange") return timeBefore(r, ctx.now);
      if (DATE_FIELDS.has(key)) return name === "birthday" ? "1990-05-17" : dateBefore(r, ctx.now);
      if (QUANTITY_FIELDS.has(key)) return r.pick(["1", "2.5", "0", "12.00001", "100"]);
      if (name === "expected_duration") return r.pick(["PT10M", "PT30M", "PT1H"]);
      if (name === "start_of_day_local_time") return r.pick(["00:00", "05:30"]);
      if (name === "idempotency_key" || name === "request_idempotence_key")
        return `fz-${r.int(0, 1e9)}-${r.int(0, 1e9)}`;
      if (name === "email_address") return `fz${r.int(1, 1e6)}@example.com`;
      if (name === "phone_number") return `+1 555 01${r.int(10, 99)}`;
      if (name === "api_version") return "2024-01-18";
      if (name === "notification_url") return "http://127.0.0.1:9/fuzz";
      if (name === "grant_type") return r.pick(["authorization_code", "refresh_token", "migration_token"]);
      if (name === "client_id") return ctx.clientId;
      if (name === "client_secret") return ctx.clientSecret;
      if (name === "cursor") return "";
      if (name === "event_type") return "labor.shift.created";
      const text = r.pick(["Coffee", "Ana", "Main", "hammer", "note", "x"]);
      return s.minLength !== undefined && text.length < s.minLength ? text.padEnd(s.minLength, "x") : text;
    }
    case "integer": {
      const lo = s.minimum ?? 0;
      const hi = Math.min(s.maximum ?? 100, lo + 100);
      return r.int(lo, hi);
    }
    case "number":
      return r.int(0, 1000) / 10;
    case "boolean":
      return r.chance(0.5);
    default:
      return null;
  }
}

function pickId(r: Rng, ctx: FuzzContext, kind: IdKind): string {
  const pool = ctx.ids[kind];
  return pool && pool.length > 0 ? r.pick(pool) : `FUZZ${r.int(1000, 9999)}`;
}

function timeBefore(r: Rng, now: Date): string {
  return new Date(now.getTime() - r.int(3_600, 30 * 86_400) * 1000).toISOString().replace(/\.\d+Z$/, "Z");
}

function dateBefore(r: Rng, now: Date): string {
  return new Date(now.getTime() - r.int(0, 30) * 86_400_000).toISOString().slice(0, 10);
}

function valueFor(r: Rng, ctx: FuzzContext, owner: string, name: string, s: FieldSchema, depth: number): unknown {
  if (s.ref && !enums[s.ref]) return objectOf(r, ctx, s.ref, depth - 1);
  if (s.ref) return r.pick(enums[s.ref] ?? ["X"]);
  if (s.type === "array" && s.items?.ref && !enums[s.items.ref]) {
    const ref = s.items.ref;
    return Array.from({ length: r.int(depth > 1 ? 1 : 0, 2) }, () => objectOf(r, ctx, ref, depth - 1));
  }
  return validPrimitive(r, ctx, owner, name, s);
}

/** A valid object of a schema: every required field, some optional ones (fewer the deeper). */
function objectOf(r: Rng, ctx: FuzzContext, name: string, depth: number): Record<string, unknown> {
  const schema = schemas[name];
  const out: Record<string, unknown> = {};
  if (!schema) return out;
  for (const [field, s] of Object.entries(schema.properties)) {
    const required = schema.required.includes(field);
    if (!required && (depth <= 0 || !r.chance(0.35))) continue;
    if (field === "cursor" || field === "version") continue;
    out[field] = valueFor(r, ctx, name, field, s, depth);
  }
  return out;
}

/** A field inside a body, with where it is and what the spec says of it. */
interface Slot {
  /** The object holding it, and its key there. */
  parent: Record<string, unknown>;
  key: string;
  owner: string;
  schema: FieldSchema;
  required: boolean;
  present: boolean;
  /** The path in the body's words (`shift.breaks[0].start_at`). */
  at: string;
  /** Under a TimeRange the service reads (shift or customer search), or not. */
  parentKey: string;
}

/** Every field of the body and every optional field it could have, walking objects the schema knows. */
function slotsOf(body: Record<string, unknown>, name: string, at = "", parentKey = ""): Slot[] {
  const schema = schemas[name];
  if (!schema) return [];
  const out: Slot[] = [];
  for (const [field, s] of Object.entries(schema.properties)) {
    const here = at ? `${at}.${field}` : field;
    const present = Object.hasOwn(body, field);
    out.push({
      parent: body,
      key: field,
      owner: name,
      schema: s,
      required: schema.required.includes(field),
      present,
      at: here,
      parentKey,
    });
    const v = body[field];
    if (!present || v === null || typeof v !== "object") continue;
    if (s.ref && !enums[s.ref] && !Array.isArray(v))
      out.push(...slotsOf(v as Record<string, unknown>, s.ref, here, `${name}.${field}`));
    if (s.type === "array" && s.items?.ref && !enums[s.items.ref] && Array.isArray(v)) {
      for (const [i, item] of v.entries()) {
        if (item && typeof item === "object")
          out.push(...slotsOf(item as Record<string, unknown>, s.items.ref, `${here}[${i}]`, `${name}.${field}`));
      }
    }
  }
  return out;
}

/** A value of another JSON type than the slot takes. */
function wrongType(r: Rng, s: FieldSchema): unknown {
  const isEnum = !!s.enum || (!!s.ref && !!enums[s.ref]);
  if (s.ref && !isEnum) return r.pick(["text", 12, true, [1]]);
  if (isEnum) return r.pick([7, true, {}, []]);
  switch (s.type) {
    case "string":
      return r.pick([42, true, { a: 1 }, ["x"], 1.5]);
    case "integer":
      return r.pick(["12", 1.5, true, {}, "1e3", []]);
    case "number":
      return r.pick(["1.5", true, {}, []]);
    case "boolean":
      return r.pick(["true", 1, 0, {}, []]);
    case "array":
      return r.pick(["a,b", { 0: "a" }, 3, true]);
    default:
      return [];
  }
}

function deepNesting(depth: number): string {
  return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

/** The mutations, each with its weight; a case picks one that applies to its operation. */
const MUTATIONS: readonly { name: string; weight: number }[] = [
  { name: "valid", weight: 10 },
  { name: "wrong-type", weight: 12 },
  { name: "missing-required", weight: 6 },
  { name: "unknown-field", weight: 4 },
  { name: "null-optional", weight: 4 },
  { name: "null-required", weight: 3 },
  { name: "weird-string", weight: 3 },
  { name: "huge-string", weight: 2 },
  { name: "huge-array", weight: 2 },
  { name: "deep-nesting", weight: 2 },
  { name: "bad-timestamp", weight: 5 },
  { name: "bad-date", weight: 2 },
  { name: "bad-decimal", weight: 3 },
  { name: "enum-unknown", weight: 4 },
  { name: "limit-out-of-range", weight: 4 },
  { name: "invalid-json", weight: 4 },
  { name: "not-an-object", weight: 2 },
  { name: "wrong-content-type", weight: 3 },
  { name: "non-utf8", weight: 2 },
  { name: "oversized-body", weight: 1 },
  { name: "bad-cursor", weight: 3 },
  { name: "tampered-cursor", weight: 2 },
  { name: "foreign-cursor", weight: 2 },
  { name: "unknown-id", weight: 4 },
  { name: "dot-id", weight: 3 },
  { name: "bad-auth", weight: 4 },
  { name: "bad-version", weight: 3 },
  { name: "query-wrong-type", weight: 3 },
  { name: "query-enum-unknown", weight: 2 },
  { name: "missing-query", weight: 1 },
  { name: "wrong-method", weight: 2 },
];
const TOTAL_WEIGHT = MUTATIONS.reduce((n, m) => n + m.weight, 0);

/** A request under construction: its parts before they are written out. */
interface Draft {
  op: OperationSpec;
  method: string;
  pathParams: Record<string, string>;
  /** Raw path segments replacing a parameter as-is (already encoded), for `dot-id`. */
  rawParam?: { name: string; value: string };
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
  /** A body written verbatim instead of `body`. */
  rawBody?: string | Buffer;
}

function baseDraft(r: Rng, ctx: FuzzContext, op: OperationSpec): Draft {
  const name = op.name as OperationName;
  const pathParams: Record<string, string> = {};
  for (const p of op.pathParams) {
    const kind = pathKind(name, p);
    pathParams[p] = kind === "client_id" ? ctx.clientId : kind ? pickId(r, ctx, kind) : `FUZZ${r.int(1, 999)}`;
  }
  if (name.startsWith("V1") && r.chance(0.3) && /Payments|Settlement/.test(name)) pathParams.location_id = "me";
  const query: Record<string, string> = {};
  for (const [q, spec] of Object.entries(op.query)) {
    if (q === "cursor" || q === "batch_token" || q === "version") continue;
    if (!spec.required && !r.chance(0.4)) continue;
    query[q] = validQuery(r, ctx, name, q, spec.type);
  }
  const headers: Record<string, string> = { "square-version": "2024-01-18" };
  if (op.auth === "bearer") headers.authorization = `Bearer ${ctx.token}`;
  if (op.auth === "client") headers.authorization = `Client ${ctx.clientSecret}`;
  const body = op.body ? objectOf(r, ctx, op.body, 3) : undefined;
  if (body && name === "BatchChangeInventory")
    body.changes = Array.isArray(body.changes) ? body.changes.slice(0, 3) : [];
  return { op, method: op.method, pathParams, query, headers, body };
}

function validQuery(r: Rng, ctx: FuzzContext, op: OperationName, name: string, type: string): string {
  const enumName = QUERY_ENUMS[op]?.[name];
  if (enumName) return r.pick(enums[enumName] ?? ["ASC"]);
  if (type === "integer") return String(name === "limit" ? r.int(1, 50) : r.int(1, 5));
  if (type === "boolean") return String(r.chance(0.5));
  if (TIME_QUERY.has(name)) return timeBefore(r, ctx.now);
  if (name === "location_ids") return pickId(r, ctx, "location");
  if (name === "types") return r.pick(["ITEM", "ITEM_VARIATION", "CATEGORY", "ITEM,CATEGORY"]);
  if (name === "api_version") return "2024-01-18";
  const kind = ID_FIELDS[name];
  return kind ? pickId(r, ctx, kind) : "x";
}

/** Applies one mutation; answers its name and expectation, or undefined when it does not apply. */
function mutate(r: Rng, ctx: FuzzContext, d: Draft, name: string): Expectation | undefined {
  const op = d.op.name as OperationName;
  const slots = d.body && d.op.body ? slotsOf(d.body, d.op.body) : [];
  const present = slots.filter((s) => s.present);
  const cursorIn = d.op.query.cursor
    ? "query"
    : d.op.query.batch_token
      ? "batch"
      : d.op.body && schemas[d.op.body]?.properties.cursor
        ? "body"
        : undefined;
  const setCursor = (value: string) => {
    if (cursorIn === "query") d.query.cursor = value;
    else if (cursorIn === "batch") d.query.batch_token = value;
    else if (d.body) d.body.cursor = value;
  };
  switch (name) {
    case "valid":
      return "any";
    case "wrong-type": {
      const typed = slots.filter((s) => s.schema.type !== undefined || s.schema.ref !== undefined);
      if (typed.length === 0) return undefined;
      const s = r.pick(typed);
      s.parent[s.key] = wrongType(r, s.schema);
      return "refuse";
    }
    case "missing-required": {
      const required = present.filter((s) => s.required);
      if (required.length > 0) {
        const s = r.pick(required);
        delete s.parent[s.key];
        return "refuse";
      }
      if (d.op.bodyRequired && d.body) {
        d.rawBody = "";
        return "refuse";
      }
      return undefined;
    }
    case "unknown-field": {
      if (!d.body) return undefined;
      const objects = [
        d.body,
        ...present.filter((s) => s.schema.ref && !enums[s.schema.ref]).map((s) => s.parent[s.key]),
      ];
      const target = r.pick(objects) as Record<string, unknown>;
      if (typeof target !== "object" || target === null || Array.isArray(target)) return undefined;
      target[r.pick(["zz_unknown", "__proto__x", "Version", "extra"])] = r.pick([1, "x", { a: [1, 2] }, null]);
      return "any";
    }
    case "null-optional": {
      const optional = slots.filter((s) => !s.required);
      if (optional.length === 0) return undefined;
      const s = r.pick(optional);
      s.parent[s.key] = null;
      return "any";
    }
    case "null-required": {
      const required = present.filter((s) => s.required);
      if (required.length === 0) return undefined;
      const s = r.pick(required);
      s.parent[s.key] = null;
      return "refuse";
    }
    case "weird-string": {
      const strings = slots.filter((s) => s.schema.type === "string" && !s.schema.enum);
      if (strings.length === 0) return undefined;
      const s = r.pick(strings);
      s.parent[s.key] = r.pick(WEIRD_STRINGS);
      return "any";
    }
    case "huge-string": {
      const strings = slots.filter((s) => s.schema.type === "string");
      if (strings.length === 0) return undefined;
      const s = r.pick(strings);
      s.parent[s.key] = r.pick(["a", "é", "word "]).repeat(r.int(20_000, 200_000));
      const bounded =
        s.schema.maxLength !== undefined || !!s.schema.enum || TIMESTAMP_FIELDS.has(`${s.owner}.${s.key}`);
      return bounded ? "refuse" : "any";
    }
    case "huge-array": {
      const arrays = slots.filter((s) => s.schema.type === "array");
      if (arrays.length === 0) return undefined;
      const s = r.pick(arrays);
      s.parent[s.key] = Array.from({ length: r.int(1_100, 20_000) }, (_, i) => `x${i}`);
      return "refuse";
    }
    case "deep-nesting": {
      if (!d.body) return undefined;
      const depth = r.int(1_000, 100_000);
      const text = JSON.stringify(d.body);
      // Inside an unknown field (ignored) or in place of a known object field (refused).
      const known = present.find((s) => s.schema.ref && !enums[s.schema.ref]);
      if (known && r.chance(0.5)) {
        known.parent[known.key] = "\u0000NEST\u0000";
        d.rawBody = JSON.stringify(d.body).replace('"\\u0000NEST\\u0000"', deepNesting(depth));
        return "refuse";
      }
      d.rawBody = `${text.slice(0, -1)}${text.length > 2 ? "," : ""}"zz_deep":${deepNesting(depth)}}`;
      return "any";
    }
    case "bad-timestamp": {
      const times = present.filter(
        (s) =>
          TIMESTAMP_FIELDS.has(`${s.owner}.${s.key}`) ||
          (s.owner === "TimeRange" && TIME_RANGE_PARENTS.has(s.parentKey)),
      );
      const queryTimes = Object.keys(d.op.query).filter((q) => TIME_QUERY.has(q));
      if (times.length > 0 && (queryTimes.length === 0 || r.chance(0.6))) {
        const s = r.pick(times);
        s.parent[s.key] = r.pick(BAD_TIMES.filter((t) => t !== ""));
        return "refuse";
      }
      if (queryTimes.length === 0) return undefined;
      d.query[r.pick(queryTimes)] = r.pick(BAD_TIMES.filter((t) => t !== ""));
      return "refuse";
    }
    case "bad-date": {
      const dates = present.filter((s) => DATE_FIELDS.has(`${s.owner}.${s.key}`));
      if (dates.length === 0) return undefined;
      const s = r.pick(dates);
      s.parent[s.key] = r.pick(BAD_DATES);
      return "refuse";
    }
    case "bad-decimal": {
      const quantities = present.filter((s) => QUANTITY_FIELDS.has(`${s.owner}.${s.key}`));
      if (quantities.length === 0) return undefined;
      const s = r.pick(quantities);
      s.parent[s.key] = r.pick(BAD_QUANTITIES);
      return "refuse";
    }
    case "enum-unknown": {
      const enumSlots = slots.filter((s) => s.schema.enum || (s.schema.ref && enums[s.schema.ref]));
      if (enumSlots.length === 0) return undefined;
      const s = r.pick(enumSlots);
      s.parent[s.key] = r.pick(["NOT_A_VALUE", "in_stock", "", "ITEM "]);
      return "refuse";
    }
    case "limit-out-of-range": {
      const bodyLimit = slots.find(
        (s) =>
          s.key === "limit" &&
          s.owner === d.op.body &&
          (s.schema.minimum !== undefined || s.schema.maximum !== undefined),
      );
      if (bodyLimit && (!d.op.query.limit || r.chance(0.5))) {
        const { minimum, maximum } = bodyLimit.schema;
        bodyLimit.parent.limit =
          maximum !== undefined && (minimum === undefined || r.chance(0.5))
            ? maximum + r.int(1, 10_000)
            : (minimum ?? 1) - r.int(1, 100);
        return "refuse";
      }
      if (!d.op.query.limit) return undefined;
      d.query.limit = String(r.pick([0, -1, -100, 1_001, 100_000, 2 ** 40]));
      return CLAMPED_LIMITS.has(op) ? "any" : "refuse";
    }
    case "invalid-json": {
      if (!d.op.body) return undefined;
      d.rawBody = r.pick(["{", '{"a":}', "nul", "[1,", '{"a":1}x', "{'a':1}", '{"a":"\\x"}', "\u0000", "{}}"]);
      return "refuse";
    }
    case "not-an-object": {
      if (!d.op.body) return undefined;
      d.rawBody = r.pick(["[]", "42", '"x"', "null", "true", "[{}]"]);
      return "refuse";
    }
    case "wrong-content-type": {
      if (!d.op.body) return undefined;
      d.headers["content-type"] = r.pick([
        "text/xml",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin1",
      ]);
      return "refuse";
    }
    case "non-utf8": {
      if (!d.body) return undefined;
      const text = JSON.stringify({ ...d.body, zz: "\u0000MARK\u0000" });
      const [head = "", tail = ""] = text.split('"\\u0000MARK\\u0000"');
      d.rawBody = Buffer.concat([
        Buffer.from(`${head}"`),
        Buffer.from(r.pick([[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe9, 0x61]])),
        Buffer.from(`"${tail}`),
      ]);
      return "refuse";
    }
    case "oversized-body": {
      if (!d.op.body) return undefined;
      d.rawBody = JSON.stringify({ ...d.body, zz: "z".repeat(2 * 1024 * 1024 + r.int(1, 1000)) });
      return "refuse";
    }
    case "bad-cursor": {
      if (!cursorIn) return undefined;
      setCursor(
        r.pick(["x", "%%%", "eyJ9", Buffer.from('{"p":0}').toString("base64url"), "a".repeat(5000), "\u00ff\u00fe"]),
      );
      return "refuse";
    }
    case "tampered-cursor": {
      if (!cursorIn) return undefined;
      const real = ctx.cursors[op];
      if (real && r.chance(0.7)) {
        // One character of a real cursor changed, or one cut off its end.
        const at = r.int(0, real.length - 1);
        const swapped = real[at] === "A" ? "B" : "A";
        setCursor(r.chance(0.5) ? `${real.slice(0, at)}${swapped}${real.slice(at + 1)}` : real.slice(0, -1));
      } else {
        setCursor("A".repeat(32));
      }
      return "refuse";
    }
    case "foreign-cursor": {
      if (!cursorIn) return undefined;
      const others = Object.entries(ctx.cursors).filter(([k]) => k !== op);
      if (others.length === 0) return undefined;
      setCursor(r.pick(others)[1] ?? "");
      return "refuse";
    }
    case "unknown-id": {
      const params = d.op.pathParams.filter((p) => p !== "client_id" || d.op.auth === "client");
      if (params.length === 0) return undefined;
      d.pathParams[r.pick(params)] = `NOPE${r.int(100_000, 999_999)}`;
      return EMPTY_FOR_UNKNOWN.has(op) ? "any" : "refuse";
    }
    case "dot-id": {
      if (d.op.pathParams.length === 0) return undefined;
      d.rawParam = { name: r.pick(d.op.pathParams), value: r.pick(BAD_IDS) };
      return "refuse";
    }
    case "bad-auth": {
      if (d.op.auth === "none") return undefined;
      const value =
        d.op.auth === "client" ? r.pick(["Client wrong-secret", "Client", "Bearer x", ""]) : r.pick(BAD_AUTH);
      if (value === "") delete d.headers.authorization;
      else d.headers.authorization = value;
      return "refuse";
    }
    case "bad-version": {
      d.headers["square-version"] = r.pick(BAD_VERSIONS);
      // An empty header is no header: the service's default version applies.
      return d.headers["square-version"] === "" ? "any" : "refuse";
    }
    case "query-wrong-type": {
      const typed = Object.entries(d.op.query).filter(([, s]) => s.type !== "string");
      if (typed.length === 0) return undefined;
      const [q, s] = r.pick(typed);
      d.query[q] =
        s.type === "integer" ? r.pick(["abc", "1.5", "1e3", "0x1f", " 5"]) : r.pick(["yes", "1", "TRUE", "on"]);
      return "refuse";
    }
    case "query-enum-unknown": {
      const names = Object.keys(QUERY_ENUMS[op] ?? {});
      if (names.length === 0) return undefined;
      d.query[r.pick(names)] = r.pick(["NOPE", "asc", "SENT,FAILED", "1"]);
      return "refuse";
    }
    case "missing-query": {
      const required = Object.entries(d.op.query).filter(([, s]) => s.required);
      if (required.length === 0) return undefined;
      delete d.query[r.pick(required)[0]];
      return "refuse";
    }
    case "wrong-method": {
      const taken = new Set<string>(OPS.filter((o) => o.path === d.op.path).map((o) => o.method));
      const free = ["GET", "POST", "PUT", "DELETE", "PATCH"].filter((m) => !taken.has(m));
      if (free.length === 0) return undefined;
      d.method = r.pick(free);
      return "refuse";
    }
    default:
      return undefined;
  }
}

/** Writes a draft out as the request that goes on the wire. */
function render(d: Draft, n: number, mutation: string, expect: Expectation): FuzzCase {
  const path = d.op.path.replace(/\{(\w+)\}/g, (_, p: string) =>
    d.rawParam?.name === p ? d.rawParam.value : encodeURIComponent(d.pathParams[p] ?? ""),
  );
  const qs = new URLSearchParams(d.query).toString();
  const headers = { ...d.headers };
  let body: string | Buffer | undefined;
  if (d.rawBody !== undefined) body = d.rawBody;
  else if (d.body !== undefined) body = JSON.stringify(d.body);
  if (body !== undefined && body.length > 0 && headers["content-type"] === undefined)
    headers["content-type"] = "application/json";
  if (body !== undefined && body.length === 0) body = undefined;
  return {
    n,
    op: d.op.name as OperationName,
    mutation,
    expect,
    method: d.method,
    path: qs ? `${path}?${qs}` : path,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/**
 * `count` cases from `seed`, spread over every operation in turn (so each of the 83 routes gets
 * its share), each one mutation of a request generated for it.
 */
export function* generateCases(seed: number, count: number, ctx: FuzzContext): Generator<FuzzCase> {
  const r = rng(seed);
  for (let n = 0; n < count; n++) {
    const op = OPS[n % OPS.length] as OperationSpec;
    for (let attempt = 0; ; attempt++) {
      const draft = baseDraft(r, ctx, op);
      let pick = r() * TOTAL_WEIGHT;
      let mutation = "valid";
      for (const m of MUTATIONS) {
        pick -= m.weight;
        if (pick < 0) {
          mutation = m.name;
          break;
        }
      }
      const expect = attempt > 20 ? "any" : mutate(r, ctx, draft, mutation);
      if (expect === undefined) continue;
      yield render(draft, n, attempt > 20 ? "valid" : mutation, expect);
      break;
    }
  }
}

/** A case as a curl command line that sends the same bytes (the body through base64 when it is not plain text). */
export function asCurl(base: string, c: FuzzCase): string {
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const parts = [`curl -sS -i -X ${c.method} --path-as-is ${q(`${base}${c.path}`)}`];
  for (const [k, v] of Object.entries(c.headers)) parts.push(`-H ${q(`${k}: ${v}`)}`);
  if (c.body === undefined) return parts.join(" ");
  const bytes = Buffer.isBuffer(c.body) ? c.body : Buffer.from(c.body);
  if (bytes.length > 65_536)
    return `${parts.join(" ")} --data-binary @body-${c.n}.bin  # body: ${bytes.length} bytes, case ${c.n} of this seed`;
  return `echo ${bytes.toString("base64")} | base64 -d | ${parts.join(" ")} --data-binary @-`;
}
