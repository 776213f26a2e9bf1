import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { MockAgent } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ClientOptions, createClient } from "./client.js";
import { SquareApiError, SquareError, SquareNetworkError, SquareRetiredError, SquareTimeoutError } from "./errors.js";
import { DEFAULT_SQUARE_VERSION, retryAfterMs } from "./transport.js";

const BASE = "https://square.test";

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** MockAgent hands the reply callback headers as an object or a flat [k, v, ...] list. */
function headersOf(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  } else if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw)) out[k.toLowerCase()] = String(v);
  }
  return out;
}

let agents: MockAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()));
  agents = [];
});

/** A client over a MockAgent; every reply built with `answer` records the request into `seen`. */
function setup(opts: Partial<ClientOptions> = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agents.push(agent);
  const pool = agent.get(BASE);
  const seen: Seen[] = [];
  const delays: number[] = [];
  const client = createClient({
    baseUrl: BASE,
    accessToken: "tok",
    dispatcher: agent,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...opts,
  });
  /** A reply callback that records the request and answers `data`. */
  const answer =
    (data: unknown) =>
    (req: { method: string; path: string; headers?: unknown; body?: unknown }): string => {
      seen.push({
        method: req.method,
        path: req.path,
        headers: headersOf(req.headers),
        body: typeof req.body === "string" ? JSON.parse(req.body) : undefined,
      });
      return JSON.stringify(data);
    };
  return { agent, pool, client, seen, delays, answer };
}

const any = { path: () => true, method: () => true };

describe("headers", () => {
  it("sends Bearer, the default Square-Version, a backroom User-Agent and JSON types", async () => {
    const { pool, client, seen, answer } = setup();
    pool.intercept(any).reply(200, answer({ customer: { id: "C1" } }));
    pool.intercept(any).reply(200, answer({}));
    await client.customers.retrieveCustomer("C1");
    await client.customers.createCustomer({ given_name: "Ada" });
    const [get, post] = seen;
    expect(get?.headers.authorization).toBe("Bearer tok");
    expect(get?.headers["square-version"]).toBe(DEFAULT_SQUARE_VERSION);
    expect(DEFAULT_SQUARE_VERSION).toBe("2024-01-18");
    expect(get?.headers["user-agent"]).toMatch(/^backroom\/\d+\.\d+\.\d+ /);
    expect(get?.headers.accept).toBe("application/json");
    expect(get?.headers["content-type"]).toBeUndefined();
    expect(post?.headers["content-type"]).toBe("application/json");
  });

  it("sends Client <secret> for renewToken and revokeToken, and no Authorization for obtainToken", async () => {
    const { pool, client, seen, answer } = setup({ clientSecret: "app-secret" });
    for (let i = 0; i < 3; i++) pool.intercept(any).reply(200, answer({}));
    await client.oauth.renewToken("app-id", { access_token: "old" });
    await client.oauth.revokeToken({ client_id: "app-id", access_token: "old" }, { clientSecret: "per-call" });
    await client.oauth.obtainToken({ client_id: "app-id", grant_type: "refresh_token", refresh_token: "r" });
    expect(seen.map((s) => s.headers.authorization)).toEqual(["Client app-secret", "Client per-call", undefined]);
    expect(seen[0]?.path).toBe("/oauth2/clients/app-id/access-token/renew");
  });

  it("takes Square-Version per client and per call, and the token from a token provider", async () => {
    const { pool, client, seen, answer } = setup({
      squareVersion: "2023-12-13",
      tokenProvider: { accessToken: async () => "from-provider" },
    });
    pool.intercept(any).reply(200, answer({}));
    pool.intercept(any).reply(200, answer({}));
    await client.locations.listLocations();
    await client.locations.listLocations({ squareVersion: "2024-02-22" });
    expect(seen.map((s) => s.headers["square-version"])).toEqual(["2023-12-13", "2024-02-22"]);
    expect(seen[0]?.headers.authorization).toBe("Bearer from-provider");
  });

  it("resolves named environments and rejects what is not a base URL", () => {
    const agent = new MockAgent();
    agents.push(agent);
    expect(createClient({ baseUrl: "sandbox", dispatcher: agent }).transport.baseUrl).toBe(
      "https://connect.squareupsandbox.com",
    );
    expect(createClient({ baseUrl: "production", dispatcher: agent }).transport.baseUrl).toBe(
      "https://connect.squareup.com",
    );
    expect(createClient({ baseUrl: "http://127.0.0.1:4010/", dispatcher: agent }).transport.baseUrl).toBe(
      "http://127.0.0.1:4010",
    );
    expect(() => createClient({ baseUrl: "staging", dispatcher: agent })).toThrow(SquareError);
  });
});

describe("error mapping", () => {
  it("turns a non-2xx envelope into SquareApiError with status, code, category and field", async () => {
    const { pool, client } = setup();
    pool.intercept(any).reply(
      400,
      JSON.stringify({
        errors: [
          { category: "INVALID_REQUEST_ERROR", code: "INVALID_VALUE", detail: "bad email", field: "email_address" },
          { category: "INVALID_REQUEST_ERROR", code: "VALUE_TOO_LONG", field: "note" },
        ],
      }),
    );
    const err = await client.customers.createCustomer({ email_address: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SquareApiError);
    const api = err as SquareApiError;
    expect(api.status).toBe(400);
    expect(api.code).toBe("INVALID_VALUE");
    expect(api.category).toBe("INVALID_REQUEST_ERROR");
    expect(api.errors[0]?.field).toBe("email_address");
    expect(api.errors).toHaveLength(2);
    expect(api.hasCode("VALUE_TOO_LONG")).toBe(true);
    expect(api.operation).toBe("CreateCustomer");
  });

  it("raises the errors of a 200 and keeps the body, so partial batch results survive", async () => {
    const { pool, client } = setup();
    const body = {
      counts: [{ catalog_object_id: "I1", quantity: "3" }],
      errors: [{ category: "INVALID_REQUEST_ERROR", code: "NOT_FOUND", field: "changes[1].catalog_object_id" }],
    };
    pool.intercept(any).reply(200, JSON.stringify(body));
    const err = (await client.inventory
      .batchChangeInventory({ changes: [] })
      .catch((e: unknown) => e)) as SquareApiError;
    expect(err).toBeInstanceOf(SquareApiError);
    expect(err.status).toBe(200);
    expect(err.code).toBe("NOT_FOUND");
    expect(err.body).toEqual(body);
  });

  it("maps a non-JSON error body to HTTP_<status> with the text as detail", async () => {
    const { pool, client } = setup({ maxRetries: 0 });
    pool.intercept(any).reply(502, "<html>Bad Gateway</html>");
    const err = (await client.locations.listLocations().catch((e: unknown) => e)) as SquareApiError;
    expect(err).toBeInstanceOf(SquareApiError);
    expect(err.status).toBe(502);
    expect(err.code).toBe("HTTP_502");
    expect(err.errors[0]?.detail).toContain("Bad Gateway");
  });

  it("keeps a plain 404 of a living operation a SquareApiError, not a retired one", async () => {
    const { pool, client } = setup();
    pool
      .intercept(any)
      .reply(404, JSON.stringify({ errors: [{ category: "INVALID_REQUEST_ERROR", code: "NOT_FOUND" }] }));
    const err = await client.customers.retrieveCustomer("nope").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SquareApiError);
    expect(err).not.toBeInstanceOf(SquareRetiredError);
    expect((err as SquareApiError).code).toBe("NOT_FOUND");
  });

  it("says clearly when the service has retired renewToken or the V1 payments list", async () => {
    const { pool, client } = setup({ clientSecret: "s" });
    pool.intercept(any).reply(404, "");
    pool.intercept(any).reply(410, JSON.stringify({ type: "gone" }));
    const renew = (await client.oauth.renewToken("app", {}).catch((e: unknown) => e)) as SquareRetiredError;
    expect(renew).toBeInstanceOf(SquareRetiredError);
    expect(renew.code).toBe("OPERATION_RETIRED");
    expect(renew.replacement).toContain("obtainToken");
    const payments = (await client.v1.v1ListPayments("L1").catch((e: unknown) => e)) as SquareRetiredError;
    expect(payments).toBeInstanceOf(SquareRetiredError);
    expect(payments.status).toBe(410);
    expect(payments.replacement).toContain("listPayments");
  });

  it("tells a V1 object not found from a V1 operation gone", async () => {
    const { pool, client } = setup();
    const envelope = (detail: string) =>
      JSON.stringify({ errors: [{ category: "INVALID_REQUEST_ERROR", code: "NOT_FOUND", detail }] });
    pool.intercept(any).reply(404, envelope("Payment not found: P1."));
    pool
      .intercept(any)
      .reply(404, envelope("API endpoint for URL path `/v1/L1/orders` and HTTP method `GET` is not found."));
    const missing = await client.v1.v1RetrievePayment("L1", "P1").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SquareApiError);
    expect(missing).not.toBeInstanceOf(SquareRetiredError);
    const gone = (await client.v1.v1ListOrders("L1").catch((e: unknown) => e)) as SquareRetiredError;
    expect(gone).toBeInstanceOf(SquareRetiredError);
    expect(gone.replacement).toContain("searchOrders");
  });
});

describe("retries", () => {
  it("retries 503, 429 and 408 on a write with ONE minted idempotency key reused every time", async () => {
    const mint = vi.fn(() => "minted-key-1");
    const { pool, client, seen, answer } = setup({ newIdempotencyKey: mint, maxRetries: 3 });
    pool.intercept(any).reply(503, answer({}));
    pool.intercept(any).reply(429, answer({}));
    pool.intercept(any).reply(408, answer({}));
    pool.intercept(any).reply(200, answer({ counts: [] }));
    await client.inventory.batchChangeInventory({ changes: [] });
    expect(seen).toHaveLength(4);
    expect(mint).toHaveBeenCalledTimes(1);
    expect(seen.map((s) => (s.body as { idempotency_key: string }).idempotency_key)).toEqual(
      Array(4).fill("minted-key-1"),
    );
  });

  it("tells each retry before its wait: the next try's number of all, and how the last ended", async () => {
    const { pool, client, answer } = setup({ maxRetries: 3 });
    pool.intercept(any).replyWithError(new Error("connect ECONNREFUSED"));
    pool.intercept(any).reply(503, answer({}));
    pool.intercept(any).reply(200, answer({ counts: [] }));
    const told: { attempt: number; attempts: number; error: string }[] = [];
    await client.inventory.batchChangeInventory(
      { changes: [] },
      { onRetry: (r) => told.push({ attempt: r.attempt, attempts: r.attempts, error: (r.error as Error).name }) },
    );
    expect(told).toEqual([
      { attempt: 2, attempts: 4, error: "SquareNetworkError" },
      { attempt: 3, attempts: 4, error: "SquareApiError" },
    ]);
  });

  it("reuses the caller's idempotency key and sends a fresh one for the next logical write", async () => {
    let n = 0;
    const { pool, client, seen, answer } = setup({ newIdempotencyKey: () => `k${++n}` });
    pool.intercept(any).reply(500, answer({}));
    pool.intercept(any).reply(200, answer({}));
    pool.intercept(any).reply(200, answer({}));
    await client.labor.createShift({ idempotency_key: "mine", shift: { location_id: "L", start_at: "x" } });
    await client.labor.createShift({ shift: { location_id: "L", start_at: "y" } });
    expect(seen.map((s) => (s.body as { idempotency_key: string }).idempotency_key)).toEqual(["mine", "mine", "k1"]);
  });

  it("retries a dropped connection with the same key", async () => {
    let n = 0;
    const { pool, client, seen, answer } = setup({ newIdempotencyKey: () => `drop-key-${++n}` });
    const dropped: string[] = [];
    // The body matcher sees the request that the dropped connection swallows.
    const capture = (body: string) => {
      dropped.push((JSON.parse(body) as { idempotency_key: string }).idempotency_key);
      return true;
    };
    pool.intercept({ ...any, body: capture }).replyWithError(new Error("socket hang up"));
    pool.intercept(any).reply(200, answer({ customer: { id: "C9" } }));
    const res = await client.customers.createCustomer({ given_name: "Bo" });
    expect(res.customer?.id).toBe("C9");
    const retried = seen.map((s) => (s.body as { idempotency_key: string }).idempotency_key);
    expect(dropped.length).toBeGreaterThan(0);
    expect(retried).toHaveLength(1);
    expect(new Set([...dropped, ...retried])).toEqual(new Set(["drop-key-1"]));
    expect(n).toBe(1);
  });

  it("does not retry a write that has no idempotency key", async () => {
    const { agent, pool, client, seen, answer } = setup({ maxRetries: 5 });
    pool.intercept(any).reply(503, answer({}));
    pool.intercept(any).reply(200, answer({ customer: { id: "C1" } }));
    const err = (await client.customers
      .updateCustomer("C1", { note: "hi" })
      .catch((e: unknown) => e)) as SquareApiError;
    expect(err).toBeInstanceOf(SquareApiError);
    expect(err.status).toBe(503);
    expect(seen).toHaveLength(1);
    expect(agent.pendingInterceptors()).toHaveLength(1);
  });

  it("does not retry a keyless write after a dropped connection either", async () => {
    const { agent, pool, client } = setup();
    pool.intercept(any).replyWithError(new Error("ECONNRESET"));
    pool.intercept(any).reply(200, "{}");
    const err = await client.customers.updateCustomer("C1", {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SquareNetworkError);
    expect(agent.pendingInterceptors()).toHaveLength(1);
  });

  it("gives up after maxRetries and raises the last answer", async () => {
    const { pool, client, seen, answer } = setup({ maxRetries: 2 });
    for (let i = 0; i < 3; i++) pool.intercept(any).reply(500, answer({}));
    const err = (await client.locations.listLocations().catch((e: unknown) => e)) as SquareApiError;
    expect(err.status).toBe(500);
    expect(seen).toHaveLength(3);
  });

  it("does not retry other 4xx", async () => {
    const { pool, client, seen, answer } = setup();
    pool.intercept(any).reply(400, answer({ errors: [{ category: "INVALID_REQUEST_ERROR", code: "BAD_REQUEST" }] }));
    await expect(client.locations.listLocations()).rejects.toBeInstanceOf(SquareApiError);
    expect(seen).toHaveLength(1);
  });

  it("backs off exponentially with jitter, capped", async () => {
    const { pool, client, delays } = setup({ random: () => 1, baseDelayMs: 100, maxDelayMs: 300, maxRetries: 3 });
    for (let i = 0; i < 3; i++) pool.intercept(any).reply(503, "{}");
    pool.intercept(any).reply(200, "{}");
    await client.locations.listLocations();
    expect(delays).toEqual([100, 200, 300]);
  });

  it("honours Retry-After in seconds when it asks for longer than the backoff, within the cap", async () => {
    const { pool, client, delays } = setup({ random: () => 0, maxDelayMs: 5_000 });
    pool.intercept(any).reply(429, "{}", { headers: { "retry-after": "3" } });
    pool.intercept(any).reply(429, "{}", { headers: { "retry-after": "60" } });
    pool.intercept(any).reply(200, "{}");
    await client.locations.listLocations();
    expect(delays).toEqual([3_000, 5_000]);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2024-01-18T12:00:00Z");
    expect(retryAfterMs("2", now)).toBe(2_000);
    expect(retryAfterMs("Thu, 18 Jan 2024 12:00:05 GMT", now)).toBe(5_000);
    expect(retryAfterMs("Thu, 18 Jan 2024 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe("timeouts and network errors", () => {
  it("raises SquareTimeoutError when no answer comes in time", async () => {
    const { pool, client } = setup({ timeoutMs: 20, maxRetries: 0 });
    pool.intercept(any).reply(200, "{}").delay(500);
    const err = (await client.locations.listLocations().catch((e: unknown) => e)) as SquareTimeoutError;
    expect(err).toBeInstanceOf(SquareTimeoutError);
    expect(err.timeoutMs).toBe(20);
    expect(err.operation).toBe("ListLocations");
  });

  it("retries a read that timed out, with the per-call timeout", async () => {
    const { agent, pool, client } = setup();
    pool.intercept(any).reply(200, "{}").delay(500);
    pool.intercept(any).reply(200, JSON.stringify({ locations: [{ id: "L1" }] }));
    const res = await client.locations.listLocations({ timeoutMs: 20 });
    expect(res.locations?.[0]?.id).toBe("L1");
    expect(agent.pendingInterceptors()).toHaveLength(0);
  });

  it("raises SquareNetworkError with the cause when the connection fails", async () => {
    const { pool, client } = setup({ maxRetries: 0 });
    const cause = new Error("connect ECONNREFUSED");
    pool.intercept(any).replyWithError(cause);
    const err = (await client.locations.listLocations().catch((e: unknown) => e)) as SquareNetworkError;
    expect(err).toBeInstanceOf(SquareNetworkError);
    expect(err.message).toContain("ECONNREFUSED");
  });
});

describe("expired tokens", () => {
  const expired = JSON.stringify({
    errors: [{ category: "AUTHENTICATION_ERROR", code: "ACCESS_TOKEN_EXPIRED", detail: "expired" }],
  });

  it("calls onExpired once and retries the call with the new token", async () => {
    let current = "old";
    const onExpired = vi.fn(async () => {
      current = "new";
      return "new";
    });
    const { pool, client, seen, answer } = setup({ tokenProvider: { accessToken: () => current, onExpired } });
    pool.intercept(any).reply(401, (req) => {
      answer({})(req);
      return expired;
    });
    pool.intercept(any).reply(200, answer({ locations: [] }));
    await client.locations.listLocations();
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(seen.map((s) => s.headers.authorization)).toEqual(["Bearer old", "Bearer new"]);
  });

  it("uses the token onExpired returns even if the provider still answers the old one", async () => {
    const { pool, client, seen, answer } = setup({
      tokenProvider: { accessToken: () => "stale", onExpired: async () => "fresh" },
    });
    pool.intercept(any).reply(401, expired);
    pool.intercept(any).reply(200, answer({}));
    await client.locations.listLocations();
    expect(seen[0]?.headers.authorization).toBe("Bearer fresh");
  });

  it("refreshes only once: a second expiry is raised to the caller", async () => {
    const onExpired = vi.fn(async () => "new");
    const { pool, client } = setup({ tokenProvider: { accessToken: () => "old", onExpired } });
    pool.intercept(any).reply(401, expired);
    pool.intercept(any).reply(401, expired);
    const err = (await client.locations.listLocations().catch((e: unknown) => e)) as SquareApiError;
    expect(err.code).toBe("ACCESS_TOKEN_EXPIRED");
    expect(onExpired).toHaveBeenCalledTimes(1);
  });
});

describe("revoked tokens", () => {
  it("tells the token provider once and raises ACCESS_TOKEN_REVOKED without retrying", async () => {
    const onRevoked = vi.fn();
    const { pool, client } = setup({ tokenProvider: { accessToken: () => "tok", onRevoked } });
    pool
      .intercept(any)
      .reply(401, JSON.stringify({ errors: [{ category: "AUTHENTICATION_ERROR", code: "ACCESS_TOKEN_REVOKED" }] }));
    const err = (await client.locations.listLocations().catch((e: unknown) => e)) as SquareApiError;
    expect(err.code).toBe("ACCESS_TOKEN_REVOKED");
    expect(onRevoked).toHaveBeenCalledTimes(1);
  });
});

describe("paging", () => {
  it("pages a POST search by body cursor, re-sending the original query with only the cursor changed", async () => {
    const { pool, client, seen, answer } = setup();
    pool.intercept(any).reply(200, answer({ customers: [{ id: "a" }, { id: "b" }], cursor: "c1" }));
    pool.intercept(any).reply(200, answer({ customers: [{ id: "c" }], cursor: "c2" }));
    pool.intercept(any).reply(200, answer({ customers: [{ id: "d" }] }));
    const query = { limit: 2, query: { sort: { field: "CREATED_AT" as const, order: "ASC" as const } } };
    const ids: string[] = [];
    for await (const c of client.customers.searchCustomers(query)) ids.push(c.id ?? "");
    expect(ids).toEqual(["a", "b", "c", "d"]);
    expect(seen.map((s) => s.body)).toEqual([query, { ...query, cursor: "c1" }, { ...query, cursor: "c2" }]);
    expect(seen.every((s) => s.method === "POST" && s.path === "/v2/customers/search")).toBe(true);
  });

  it("pages a GET list by query cursor, keeping the other query parameters", async () => {
    const { pool, client, seen, answer } = setup();
    pool.intercept(any).reply(200, answer({ payouts: [{ id: "p1" }], cursor: "next page" }));
    pool.intercept(any).reply(200, answer({ payouts: [{ id: "p2" }] }));
    const all = await client.payouts.listPayouts({ location_id: "L1", limit: 1 }).all();
    expect(all.map((p) => p.id)).toEqual(["p1", "p2"]);
    expect(seen.map((s) => s.path)).toEqual([
      "/v2/payouts?location_id=L1&limit=1",
      "/v2/payouts?location_id=L1&limit=1&cursor=next+page",
    ]);
  });

  it("pages a V1 list by the Link header's batch_token", async () => {
    const { pool, client, seen, answer } = setup();
    pool.intercept(any).reply(200, answer([{ id: "o1" }, { id: "o2" }]), {
      headers: { link: `<${BASE}/v1/L1/orders?batch_token=BT2&limit=2>;rel='next'` },
    });
    pool.intercept(any).reply(200, answer([{ id: "o3" }]));
    const ids: string[] = [];
    for await (const order of client.v1.v1ListOrders("L1", { limit: 2 })) ids.push(order.id ?? "");
    expect(ids).toEqual(["o1", "o2", "o3"]);
    expect(seen.map((s) => s.path)).toEqual(["/v1/L1/orders?limit=2", "/v1/L1/orders?limit=2&batch_token=BT2"]);
  });

  it("gives the first page when awaited, sends nothing until then, and gives pages from pages()", async () => {
    const { pool, client, seen, answer } = setup();
    pool.intercept(any).reply(200, answer({ customers: [{ id: "a" }], cursor: "c1" }));
    pool.intercept(any).reply(200, answer({ customers: [{ id: "b" }] }));
    const list = client.customers.listCustomers({ limit: 1 });
    expect(seen).toHaveLength(0);
    const first = await list;
    expect(first).toEqual({ customers: [{ id: "a" }], cursor: "c1" });
    expect(seen).toHaveLength(1);
    const pages = [];
    for await (const page of list.pages()) pages.push(page.customers?.map((c) => c.id));
    // The first page is fetched once and reused by the iteration.
    expect(pages).toEqual([["a"], ["b"]]);
    expect(seen).toHaveLength(2);
  });

  it("raises a failing later page to the iterating caller", async () => {
    const { pool, client } = setup({ maxRetries: 0 });
    pool.intercept(any).reply(200, JSON.stringify({ customers: [{ id: "a" }], cursor: "c1" }));
    pool.intercept(any).reply(500, "{}");
    const ids: string[] = [];
    const err = await (async () => {
      for await (const c of client.customers.listCustomers()) ids.push(c.id ?? "");
    })().catch((e: unknown) => e);
    expect(ids).toEqual(["a"]);
    expect(err).toBeInstanceOf(SquareApiError);
  });
});

describe("over a real loopback socket, with the client's own keep-alive agent", () => {
  it("answers, retries a connection the server drops, and closes cleanly", async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      // The first request's socket is destroyed mid-flight: a dropped connection, not an HTTP answer.
      if (requests === 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ locations: [{ id: "L1", name: req.headers.authorization }] }));
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const { port } = server.address() as AddressInfo;
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, accessToken: "t", sleep: async () => {} });
    try {
      const res = await client.locations.listLocations();
      expect(res.locations?.[0]).toEqual({ id: "L1", name: "Bearer t" });
      expect(requests).toBe(2);
    } finally {
      await client.close();
      await new Promise((ok) => server.close(ok));
    }
  });
});

describe("caller abort", () => {
  it("stops at once without retrying when the caller's signal is aborted", async () => {
    const { agent, pool, client } = setup({ maxRetries: 3 });
    pool.intercept(any).reply(200, "{}").delay(500);
    pool.intercept(any).reply(200, "{}");
    const controller = new AbortController();
    const pending = client.locations.listLocations({ signal: controller.signal });
    controller.abort();
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SquareNetworkError);
    expect(err).not.toBeInstanceOf(SquareTimeoutError);
    expect(agent.pendingInterceptors()).toHaveLength(1);
  });
});
