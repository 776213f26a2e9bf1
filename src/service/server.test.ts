import type { Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClock } from "./clock.js";
import type { RouteTable } from "./context.js";
import { openDb } from "./db.js";
import { badRequest } from "./errors.js";
import type { ServiceEvent } from "./events.js";
import { Faults } from "./faults.js";
import { createHttpServer, listen } from "./server.js";
import { ALL_SCOPES, storeToken } from "./tokens.js";

// The pipeline on its own, with a few rules written for the test: what every route gets from
// it (auth, scopes, validation, idempotency, faults, envelopes) is proved once here.
const db = openDb(":memory:");
const clock = createClock();
const faults = new Faults(() => 0);
const published: ServiceEvent[][] = [];
let calls = 0;

const routes: RouteTable = {
  CreateBreakType: (ctx) => {
    calls++;
    const bt = ctx.body.break_type as { break_name: string };
    if (bt.break_name === "refuse") throw badRequest("refused by the rule", "break_type.break_name");
    ctx.emit({ type: "labor.break_type.created", merchantId: "M1", dataType: "break_type", dataId: `bt${calls}` });
    return { body: { break_type: { id: `bt${calls}`, ...bt } } };
  },
  ListBreakTypes: (ctx) => ({ body: { break_types: [], echo: ctx.query } }),
  CreateShift: () => {
    throw new Error("a bug in a rule");
  },
};

let server: Server;
let url: string;

beforeAll(async () => {
  db.prepare(
    "INSERT INTO merchants (id, business_name, country, language_code, currency, created_at) VALUES ('M1', 'Shop', 'US', 'en-US', 'USD', '2020-01-01T00:00:00Z')",
  ).run();
  const now = clock.now();
  storeToken(db, {
    token: "all",
    kind: "personal",
    merchantId: "M1",
    clientId: null,
    scopes: ALL_SCOPES,
    now,
    expiresAt: null,
  });
  storeToken(db, {
    token: "narrow",
    kind: "personal",
    merchantId: "M1",
    clientId: null,
    scopes: ["TIMECARDS_READ"],
    now,
    expiresAt: null,
  });
  storeToken(db, {
    token: "old",
    kind: "access",
    merchantId: "M1",
    clientId: null,
    scopes: ALL_SCOPES,
    now,
    expiresAt: new Date(now.getTime() - 1000),
  });
  storeToken(db, {
    token: "gone",
    kind: "access",
    merchantId: "M1",
    clientId: null,
    scopes: ALL_SCOPES,
    now,
    expiresAt: null,
  });
  db.prepare("UPDATE tokens SET revoked_at = ? WHERE kind = 'access' AND expires_at IS NULL").run(now.toISOString());
  server = createHttpServer({
    db,
    clock,
    routes,
    extra: {},
    events: { publish: (e) => published.push([...e]) },
    faults,
    defaultSquareVersion: "2024-01-18",
  });
  url = await listen(server, 0, "127.0.0.1");
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  db.close();
});

async function call(
  method: string,
  path: string,
  init: { token?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${init.token ?? "all"}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

const breakType = (name: string, key?: string) =>
  JSON.stringify({
    ...(key ? { idempotency_key: key } : {}),
    break_type: { location_id: "L1", break_name: name, expected_duration: "PT10M", is_paid: true },
  });

describe("the service pipeline", () => {
  it("answers a rule's body and echoes Square-Version", async () => {
    const r = await call("POST", "/v2/labor/break-types", {
      body: breakType("Coffee"),
      headers: { "square-version": "2023-12-13" },
    });
    expect(r.status).toBe(200);
    expect(r.json.break_type.break_name).toBe("Coffee");
    expect(r.headers.get("square-version")).toBe("2023-12-13");
  });

  it("refuses missing, unknown, expired and revoked tokens with their codes", async () => {
    const missing = await fetch(`${url}/v2/labor/break-types`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as any).errors[0].code).toBe("UNAUTHORIZED");
    expect((await call("GET", "/v2/labor/break-types", { token: "nope" })).json.errors[0].code).toBe("UNAUTHORIZED");
    expect((await call("GET", "/v2/labor/break-types", { token: "old" })).json.errors[0].code).toBe(
      "ACCESS_TOKEN_EXPIRED",
    );
    const revoked = await call("GET", "/v2/labor/break-types", { token: "gone" });
    expect([revoked.status, revoked.json.errors[0].code]).toEqual([401, "ACCESS_TOKEN_REVOKED"]);
  });

  it("refuses a token without the operation's scope with 403 INSUFFICIENT_SCOPES", async () => {
    const r = await call("GET", "/v2/labor/break-types", { token: "narrow" });
    expect(r.status).toBe(403);
    expect(r.json.errors[0]).toMatchObject({ category: "AUTHENTICATION_ERROR", code: "INSUFFICIENT_SCOPES" });
  });

  it("answers unknown paths with 404, wrong methods with 405, bad JSON with 400 — all in the envelope", async () => {
    const notFound = await call("GET", "/v2/nothing-here");
    expect([notFound.status, notFound.json.errors[0].code]).toEqual([404, "NOT_FOUND"]);
    const wrong = await call("PATCH", "/v2/labor/break-types");
    expect([wrong.status, wrong.json.errors[0].code]).toEqual([405, "METHOD_NOT_ALLOWED"]);
    expect(wrong.headers.get("allow")).toContain("POST");
    const bad = await call("POST", "/v2/labor/break-types", { body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].category).toBe("INVALID_REQUEST_ERROR");
  });

  it("refuses a malformed Square-Version", async () => {
    const r = await call("GET", "/v2/labor/break-types", { headers: { "square-version": "yesterday" } });
    expect([r.status, r.json.errors[0].code]).toEqual([400, "INVALID_SQUARE_VERSION_FORMAT"]);
  });

  it("validates bodies against the spec: required fields, types, enums, with the field named", async () => {
    const missing = await call("POST", "/v2/labor/break-types", {
      body: JSON.stringify({ break_type: { location_id: "L1" } }),
    });
    expect(missing.json.errors[0]).toMatchObject({
      code: "MISSING_REQUIRED_PARAMETER",
      field: "break_type.break_name",
    });
    const wrongType = await call("POST", "/v2/labor/break-types", {
      body: JSON.stringify({
        break_type: { location_id: "L1", break_name: "x", expected_duration: "PT1M", is_paid: "yes" },
      }),
    });
    expect(wrongType.json.errors[0]).toMatchObject({ code: "EXPECTED_BOOLEAN", field: "break_type.is_paid" });
    const list = await call("GET", "/v2/labor/break-types?limit=ten");
    expect(list.json.errors[0]).toMatchObject({ code: "EXPECTED_INTEGER", field: "limit" });
  });

  it("coerces query parameters to the spec's types", async () => {
    const r = await call("GET", "/v2/labor/break-types?limit=5&location_id=L1");
    expect(r.json.echo).toEqual({ limit: 5, location_id: "L1" });
  });

  it("replays the first response for a repeated idempotency key and refuses a different body under it", async () => {
    const before = calls;
    const first = await call("POST", "/v2/labor/break-types", { body: breakType("Lunch", "key-1") });
    const again = await call("POST", "/v2/labor/break-types", { body: breakType("Lunch", "key-1") });
    expect(again.json).toEqual(first.json);
    expect(calls - before).toBe(1);
    const reused = await call("POST", "/v2/labor/break-types", { body: breakType("Dinner", "key-1") });
    expect([reused.status, reused.json.errors[0].code]).toEqual([400, "IDEMPOTENCY_KEY_REUSED"]);
  });

  it("rolls back a refused rule and publishes events only after a commit", async () => {
    const count = published.length;
    const r = await call("POST", "/v2/labor/break-types", { body: breakType("refuse", "key-2") });
    expect([r.status, r.json.errors[0].code, r.json.errors[0].field]).toEqual([
      400,
      "BAD_REQUEST",
      "break_type.break_name",
    ]);
    expect(published.length).toBe(count);
    // The refused key was not stored: the same key with a good body goes through.
    const ok = await call("POST", "/v2/labor/break-types", { body: breakType("fine", "key-2") });
    expect(ok.status).toBe(200);
    expect(published.length).toBe(count + 1);
  });

  it("turns a bug in a rule into a 500 envelope, and the server keeps serving", async () => {
    const body = JSON.stringify({ shift: { location_id: "L1", start_at: "2024-01-01T09:00:00Z" } });
    const original = console.error;
    console.error = () => {};
    try {
      const r = await call("POST", "/v2/labor/shifts", { body });
      expect([r.status, r.json.errors[0].code]).toEqual([500, "INTERNAL_SERVER_ERROR"]);
    } finally {
      console.error = original;
    }
    expect((await call("GET", "/v2/labor/break-types")).status).toBe(200);
  });

  it("does not count a client that hangs up mid-body as an internal error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const closed = new Promise<void>((resolve) => server.once("connection", (s) => s.once("close", () => resolve())));
    try {
      const { port, hostname } = new URL(url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /v2/labor/break-types HTTP/1.1\r\nhost: x\r\nauthorization: Bearer all\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"break_',
        );
        // Let the server start reading the body before the client leaves.
        socket.once("drain", () => socket.destroy());
        setImmediate(() => socket.destroy());
      });
      await closed;
      // The request's own close and the handler's settling follow the socket's close.
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(logged).not.toHaveBeenCalled();
      expect((await call("GET", "/v2/labor/break-types")).status).toBe(200);
    } finally {
      logged.mockRestore();
    }
  });

  it("refuses a token revoked since its last call (a remembered token is forgotten on any write)", async () => {
    storeToken(db, {
      token: "soon-revoked",
      kind: "access",
      merchantId: "M1",
      clientId: null,
      scopes: ALL_SCOPES,
      now: clock.now(),
      expiresAt: null,
    });
    for (let i = 0; i < 2; i++) {
      expect((await call("GET", "/v2/labor/break-types", { token: "soon-revoked" })).status).toBe(200);
    }
    db.prepare("UPDATE tokens SET revoked_at = ? WHERE kind = 'access' AND revoked_at IS NULL").run(
      clock.now().toISOString(),
    );
    const r = await call("GET", "/v2/labor/break-types", { token: "soon-revoked" });
    expect([r.status, r.json.errors[0].code]).toEqual([401, "ACCESS_TOKEN_REVOKED"]);
  });

  it("injects faults for an operation, a given number of times", async () => {
    faults.add({ operation: "ListBreakTypes", status: 503, code: "SERVICE_UNAVAILABLE", count: 1 });
    const hit = await call("GET", "/v2/labor/break-types");
    expect([hit.status, hit.json.errors[0].code]).toEqual([503, "SERVICE_UNAVAILABLE"]);
    expect((await call("GET", "/v2/labor/break-types")).status).toBe(200);
    faults.clear();
  });

  it("slows calls with a rule that has only latency_ms, and fails none", async () => {
    faults.add({ operation: "ListBreakTypes", latency_ms: 150 });
    try {
      for (let i = 0; i < 2; i++) {
        const started = performance.now();
        const r = await call("GET", "/v2/labor/break-types");
        expect(r.status).toBe(200);
        expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      }
      expect((await call("POST", "/v2/labor/break-types", { body: breakType("Tea") })).status).toBe(200);
    } finally {
      faults.clear();
    }
  });

  it("answers a request without Square-Version in the default version, and refuses versions it does not know", async () => {
    const plain = await call("GET", "/v2/labor/break-types");
    expect(plain.headers.get("square-version")).toBe("2024-01-18");
    for (const v of ["2024-02-22", "2021-03-18", "2099-01-01"]) {
      const r = await call("GET", "/v2/labor/break-types", { headers: { "square-version": v } });
      expect([r.status, r.json.errors[0].code]).toEqual([400, "INVALID_SQUARE_VERSION_FORMAT"]);
      expect(r.json.errors[0].detail).toContain(v);
    }
    const old = await call("GET", "/v2/labor/break-types", { headers: { "square-version": "2019-03-13" } });
    expect([old.status, old.headers.get("square-version")]).toEqual([200, "2019-03-13"]);
  });

  it("answers 501 in the envelope for an operation without a rule", async () => {
    const r = await call("GET", "/v2/labor/workweek-configs");
    expect([r.status, r.json.errors[0].code]).toEqual([501, "NOT_IMPLEMENTED"]);
  });
});
