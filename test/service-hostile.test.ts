import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "../src/service/clock.js";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { startService, type TestService } from "./helpers/service.js";
import { isEnvelope, type RawResponse, send } from "./reliability/http.js";

// What issue 16 found by playing a hostile client, each kept refused. Requests go out through
// node:http so that paths, bodies and headers reach the service exactly as written here.
const NOW = Date.parse("2024-01-18T17:00:00Z");
const MAIN = DEMO.mainLocationId;
let t: TestService;

beforeAll(async () => {
  t = await startService({ clock: createClock(() => NOW) });
});
afterAll(async () => {
  await t.close();
});

const auth = () => ({ authorization: `Bearer ${t.service.accessToken}` });
const json = { "content-type": "application/json" };

function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return send(t.url, {
    method,
    path,
    headers: { ...auth(), ...(body === undefined ? {} : json), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

/** The first error of an envelope answer, after checking that it is one with this status. */
function refusal(r: RawResponse, status: number) {
  expect(r.status, r.text).toBe(status);
  expect(isEnvelope(r.json), r.text).toBe(true);
  const first = (r.json as { errors: { category: string; code: string; field?: string; detail?: string }[] }).errors[0];
  if (!first) throw new Error(`no error in ${r.text}`);
  return first;
}

describe("nulls where the service reads a string", () => {
  it("RenewToken with access_token null is a missing access_token, not a 500", async () => {
    const r = await call(
      "POST",
      `/oauth2/clients/${t.service.clientId}/access-token/renew`,
      { access_token: null },
      {
        authorization: `Client ${t.service.clientSecret}`,
      },
    );
    expect(refusal(r, 400)).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "access_token" });
  });

  it("ObtainToken with code or client_secret null says which is missing", async () => {
    const base = { client_id: t.service.clientId, grant_type: "authorization_code" };
    const noCode = await call("POST", "/oauth2/token", { ...base, code: null, client_secret: t.service.clientSecret });
    expect(refusal(noCode, 400)).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "code" });
    const noSecret = await call("POST", "/oauth2/token", { ...base, code: "sq0cgp-x", client_secret: null });
    expect(refusal(noSecret, 400)).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "client_secret" });
  });

  it("SearchCatalogObjects with object_types null searches the default types", async () => {
    const r = await call("POST", "/v2/catalog/search", { object_types: null, limit: 2 });
    expect(r.status, r.text).toBe(200);
    expect((r.json as { objects: unknown[] }).objects.length).toBeGreaterThan(0);
  });

  it("UpdateCustomer keeps null as 'remove this field'; a null version is no version", async () => {
    const made = await t.client.customers.createCustomer({ given_name: "Nell", nickname: "N" });
    const id = made.customer?.id ?? "";
    const r = await call("PUT", `/v2/customers/${id}`, { nickname: null, version: null });
    expect(r.status, r.text).toBe(200);
    expect((r.json as { customer: { nickname?: string; given_name?: string } }).customer).toMatchObject({
      given_name: "Nell",
    });
    expect((r.json as { customer: { nickname?: string } }).customer.nickname).toBeUndefined();
  });
});

describe("refusals before the service's rules", () => {
  it("answers a URL over 16 KB with 431 in the envelope", async () => {
    const r = await call("GET", `/v2/customers?cursor=${"x".repeat(17_000)}`);
    expect(refusal(r, 431).category).toBe("INVALID_REQUEST_ERROR");
  });

  it("answers a request that is not HTTP with 400 in the envelope", async () => {
    const addr = new URL(t.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(addr.port), addr.hostname, () => socket.write("HELLO THERE\r\n\r\n"));
      let out = "";
      socket.on("data", (d) => {
        out += d.toString();
      });
      socket.on("end", () => resolve(out));
      socket.on("error", reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(isEnvelope(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)))).toBe(true);
  });

  it("refuses a body that is not JSON by its type, not UTF-8, or over 2 MB, each in the envelope", async () => {
    const form = await call("POST", "/v2/customers", "given_name=Ann", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(refusal(form, 415).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const latin1 = Buffer.concat([Buffer.from('{"given_name":"'), Buffer.from([0xe9, 0xff]), Buffer.from('"}')]);
    const bytes = await send(t.url, {
      method: "POST",
      path: "/v2/customers",
      headers: { ...auth(), ...json },
      body: latin1,
    });
    expect(refusal(bytes, 400).detail).toMatch(/UTF-8/);
    const huge = await call("POST", "/v2/customers", JSON.stringify({ note: "n".repeat(2_200_000) }));
    expect(refusal(huge, 413).code).toBe("REQUEST_ENTITY_TOO_LARGE");
  });
});

describe("paths are routed exactly as sent", () => {
  it("never resolves .. into another operation: the customer is still there", async () => {
    const made = await t.client.customers.createCustomer({ given_name: "Dot" });
    const id = made.customer?.id ?? "";
    const r = await call("DELETE", `/v2/customers/${id}/groups/..`);
    expect(refusal(r, 404).code).toBe("NOT_FOUND");
    const still = await call("GET", `/v2/customers/${id}`);
    expect(still.status).toBe(200);
  });

  it("refuses . and %2E segments, empty segments and encoded slashes in an id", async () => {
    for (const path of [
      "/v2/gift-cards/.",
      "/v2/gift-cards/%2E",
      "/v2/gift-cards/%2e%2E",
      "/v2/customers/a%2Fb",
      "/v2/customers/a%5Cb",
      "//v2/customers",
      "/v2/customers/",
    ]) {
      const r = await call("GET", path);
      expect(refusal(r, 404).code, path).toBe("NOT_FOUND");
    }
  });

  it("answers 405 for a literal path with only its own methods: POST /v2/customers/groups allows GET", async () => {
    const r = await call("POST", "/v2/customers/groups", {});
    expect(refusal(r, 405).code).toBe("METHOD_NOT_ALLOWED");
    expect(r.headers.allow).toBe("GET");
  });
});

describe("impossible dates and times", () => {
  it("refuses Square-Version 2024-02-30 with the version header's code", async () => {
    const r = await call("GET", "/v2/locations", undefined, { "square-version": "2024-02-30" });
    expect(refusal(r, 400).code).toBe("INVALID_SQUARE_VERSION_FORMAT");
  });

  it("refuses 2023-02-29 and 24:00 in bodies and in begin_time with INVALID_TIME", async () => {
    for (const start of ["2023-02-29T10:00:00Z", "2024-01-10T24:00:00Z", "2024-01-10T10:00:00+24:00"]) {
      const r = await call("POST", "/v2/labor/shifts", {
        shift: { location_id: MAIN, team_member_id: "TMDEMO0008", start_at: start },
      });
      expect(refusal(r, 400), start).toMatchObject({ code: "INVALID_TIME", field: "shift.start_at" });
    }
    const activities = await call("GET", "/v2/gift-cards/activities?begin_time=2023-02-29T00:00:00Z");
    expect(refusal(activities, 400)).toMatchObject({ code: "INVALID_TIME", field: "begin_time" });
    const payouts = await call("GET", "/v2/payouts?begin_time=2024-01-01T24:00:00Z");
    expect(refusal(payouts, 400)).toMatchObject({ code: "INVALID_TIME", field: "begin_time" });
  });
});

describe("smaller looseness", () => {
  it("refuses a break whose expected_duration is not a duration", async () => {
    const types = await t.client.labor.listBreakTypes({ location_id: MAIN });
    const coffee = types.break_types?.[0];
    const made = await t.client.labor.createShift({
      shift: { location_id: MAIN, team_member_id: "TMDEMO0008", start_at: "2024-01-02T14:00:00Z" },
    });
    const shift = made.shift;
    const r = await call("PUT", `/v2/labor/shifts/${shift?.id}`, {
      shift: {
        location_id: MAIN,
        start_at: shift?.start_at,
        breaks: [
          {
            start_at: "2024-01-02T15:00:00Z",
            break_type_id: coffee?.id,
            name: "Coffee",
            expected_duration: "banana",
            is_paid: true,
          },
        ],
      },
    });
    expect(refusal(r, 400)).toMatchObject({ code: "INVALID_VALUE", field: "shift.breaks[0].expected_duration" });
  });

  it("refuses an inventory quantity with spaces around it", async () => {
    const item = await t.client.catalog.searchCatalogObjects({ object_types: ["ITEM_VARIATION"], limit: 1 });
    const variation = item.objects?.[0]?.id;
    const r = await call("POST", "/v2/inventory/changes/batch-create", {
      idempotency_key: "spaces-1",
      changes: [
        {
          type: "PHYSICAL_COUNT",
          physical_count: {
            catalog_object_id: variation,
            state: "IN_STOCK",
            location_id: MAIN,
            quantity: " 1",
            occurred_at: "2024-01-18T16:00:00Z",
          },
        },
      ],
    });
    expect(refusal(r, 400)).toMatchObject({ code: "INVALID_VALUE", field: "changes[0].physical_count.quantity" });
  });

  it("refuses a cursor minted by another operation, even for an equal query", async () => {
    const first = await call("GET", "/v2/labor/team-member-wages?limit=1");
    const cursor = (first.json as { cursor?: string }).cursor;
    expect(cursor).toBeTruthy();
    const same = await call("GET", `/v2/labor/team-member-wages?limit=1&cursor=${cursor}`);
    expect(same.status).toBe(200);
    const other = await call("GET", `/v2/labor/employee-wages?limit=1&cursor=${cursor}`);
    expect(refusal(other, 400)).toMatchObject({ code: "INVALID_CURSOR", field: "cursor" });
  });
});

describe("a start in the future, within the clock skew", () => {
  it("accepts a shift 10 s ahead late in a minute, and refuses one more than a minute ahead", async () => {
    // 17:00:55: the case where cutting seconds used to push a 10-second lead into the next minute.
    const late = await startService({ clock: createClock(() => NOW + 55_000) });
    try {
      const ahead = await late.client.labor.createShift({
        shift: { location_id: MAIN, team_member_id: "TMDEMO0008", start_at: "2024-01-18T17:01:05Z" },
      });
      expect(ahead.shift?.start_at).toBe("2024-01-18T12:01:00-05:00");
      const r = await send(late.url, {
        method: "POST",
        path: "/v2/labor/shifts",
        headers: { authorization: `Bearer ${late.service.accessToken}`, ...json },
        body: JSON.stringify({
          shift: { location_id: MAIN, team_member_id: "TMDEMO0012", start_at: "2024-01-18T17:01:56Z" },
        }),
      });
      expect(refusal(r, 400)).toMatchObject({ code: "BAD_REQUEST", field: "shift.start_at" });
    } finally {
      await late.close();
    }
  });
});
