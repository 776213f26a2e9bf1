import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "./helpers/service.js";
import { isEnvelope, send } from "./reliability/http.js";

// Inputs the real service refuses are refused here with the same code, not accepted and ignored.
let t: TestService;

beforeAll(async () => {
  t = await startService();
});
afterAll(async () => {
  await t.close();
});

async function codeOf(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; code?: string; field?: string }> {
  const r = await send(t.url, {
    method,
    path,
    headers: {
      authorization: `Bearer ${t.service.accessToken}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const first = isEnvelope(r.json) ? r.json.errors[0] : undefined;
  return { status: r.status, ...(first ? { code: first.code, ...(first.field ? { field: first.field } : {}) } : {}) };
}

describe("validation as the real service does it", () => {
  it.each([
    ["GET", "/v2/customers?limit=0", undefined, "VALUE_TOO_LOW", "limit"],
    ["GET", "/v2/customers?limit=101", undefined, "VALUE_TOO_HIGH", "limit"],
    ["GET", "/v2/labor/break-types?limit=201", undefined, "VALUE_TOO_HIGH", "limit"],
    ["GET", "/v2/gift-cards?limit=99999999999999999999", undefined, "VALUE_TOO_HIGH", "limit"],
    ["POST", "/v2/customers/search", { limit: 0 }, "VALUE_TOO_LOW", "limit"],
    ["POST", "/v2/labor/shifts/search", { limit: 201 }, "VALUE_TOO_HIGH", "limit"],
    ["POST", "/v2/team-members/search", { limit: -3 }, "VALUE_TOO_LOW", "limit"],
  ] as const)("%s %s: limit out of range → %s", async (method, path, body, code, field) => {
    expect(await codeOf(method, path, body)).toMatchObject({ status: 400, code, field });
  });

  it("keeps the interface's clamped limits: ListPayouts treats a limit over 100 as the default", async () => {
    expect((await codeOf("GET", "/v2/payouts?limit=500")).status).toBe(200);
  });

  it.each([
    ["GET", "/v2/gift-cards?state=GONE", undefined, "state"],
    ["GET", "/v2/customers?sort_field=NAME", undefined, "sort_field"],
    ["GET", "/v2/payouts?status=LATE", undefined, "status"],
    ["POST", "/v2/labor/shifts/search", { query: { filter: { status: "PAUSED" } } }, "query.filter.status"],
    ["POST", "/v2/inventory/counts/batch-retrieve", { states: ["IN_STOCK", "ON_MARS"] }, "states[1]"],
    ["POST", "/v2/catalog/search", { object_types: ["ITEM", "GADGET"] }, "object_types[1]"],
  ] as const)("%s %s: unknown enumeration value → INVALID_ENUM_VALUE", async (method, path, body, field) => {
    expect(await codeOf(method, path, body)).toMatchObject({ status: 400, code: "INVALID_ENUM_VALUE", field });
  });

  it.each([
    [
      "GET",
      "/v2/cash-drawers/shifts?location_id=LMAIN0000000001&begin_time=2024-02-30T00:00:00Z",
      undefined,
      "begin_time",
    ],
    ["POST", "/v2/inventory/changes/batch-retrieve", { updated_after: "last week" }, "updated_after"],
    [
      "POST",
      "/v2/labor/shifts/search",
      { query: { filter: { start: { start_at: "2024-01-01T25:00:00Z" } } } },
      "query.filter.start.start_at",
    ],
    ["GET", "/v1/me/payments?begin_time=2024-01-01T00:00:00%2B24:00", undefined, "begin_time"],
  ] as const)("%s %s: bad timestamp → INVALID_TIME", async (method, path, body, field) => {
    expect(await codeOf(method, path, body)).toMatchObject({ status: 400, code: "INVALID_TIME", field });
  });

  it.each([
    ["GET", "/v2/customers?cursor=not-ours"],
    ["GET", "/v2/labor/break-types?cursor=eyJwIjo1fQ"],
    ["GET", "/v1/me/payments?batch_token=xyz"],
  ])("%s %s: a cursor the service did not give → INVALID_CURSOR", async (method, path) => {
    expect(await codeOf(method, path)).toMatchObject({ status: 400, code: "INVALID_CURSOR" });
  });

  it("refuses more than 1000 items in any array, and integers beyond 2^53", async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `V${i}`);
    expect(await codeOf("POST", "/v2/inventory/counts/batch-retrieve", { catalog_object_ids: ids })).toMatchObject({
      code: "ARRAY_LENGTH_TOO_LONG",
      field: "catalog_object_ids",
    });
    expect(await codeOf("PUT", "/v2/customers/X", { version: 2 ** 60 })).toMatchObject({
      code: "VALUE_TOO_HIGH",
      field: "version",
    });
  });
});
