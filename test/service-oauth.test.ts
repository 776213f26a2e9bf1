import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceEvent } from "../src/service/events.js";
import { createClient, type SquareClient } from "../src/square/client.js";
import { SquareApiError } from "../src/square/errors.js";
import { startService, type TestService } from "./helpers/service.js";

let t: TestService;
const published: ServiceEvent[] = [];
const clients: SquareClient[] = [];
const DAY = 86_400;

beforeAll(async () => {
  t = await startService({ seed: "empty", events: { publish: (events) => published.push(...events) } });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t.close();
});

/** A client that calls with another bearer token. */
function clientWith(accessToken: string): SquareClient {
  const c = createClient({ baseUrl: t.url, accessToken, clientSecret: t.service.clientSecret, maxRetries: 0 });
  clients.push(c);
  return c;
}

/** The rejection of a call, as the client raises it. */
async function refusal(p: Promise<unknown>): Promise<SquareApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof SquareApiError)) throw new Error(`expected a SquareApiError, got ${String(err)}`);
  return err;
}

const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** Walks the consent step and returns the redirect's parameters. */
async function authorize(
  params: Record<string, string>,
): Promise<{ status: number; location: URL | null; json: unknown }> {
  const url = new URL("/oauth2/authorize", t.url);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  const loc = res.headers.get("location");
  const text = await res.text();
  return { status: res.status, location: loc ? new URL(loc) : null, json: text ? JSON.parse(text) : null };
}

async function codeFor(challenge: string | null, scope = "CUSTOMERS_READ CUSTOMERS_WRITE"): Promise<string> {
  const r = await authorize({
    client_id: t.service.clientId,
    scope,
    state: "st-1",
    redirect_uri: "http://127.0.0.1:9999/callback",
    ...(challenge ? { code_challenge: challenge, code_challenge_method: "S256" } : {}),
  });
  const code = r.location?.searchParams.get("code");
  if (!code) throw new Error(`no code in ${String(r.location)}`);
  return code;
}

/** A full PKCE sign-in: an access token and a 90-day refresh token. */
async function pkceTokens(scope?: string) {
  const { verifier, challenge } = pkce();
  const code = await codeFor(challenge, scope);
  return t.client.oauth.obtainToken({
    client_id: t.service.clientId,
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
  });
}

describe("GET /oauth2/authorize", () => {
  it("approves at once and redirects with a code and the state; '+' separates scopes too", async () => {
    const { challenge } = pkce();
    const r = await authorize({
      client_id: t.service.clientId,
      scope: "CUSTOMERS_READ+TIMECARDS_READ",
      state: "xyz 123",
      redirect_uri: "http://127.0.0.1:9999/cb",
      code_challenge: challenge,
      code_challenge_method: "S256",
      session: "false",
    });
    expect(r.status).toBe(302);
    expect(r.location?.origin + (r.location?.pathname ?? "")).toBe("http://127.0.0.1:9999/cb");
    expect(r.location?.searchParams.get("state")).toBe("xyz 123");
    expect(r.location?.searchParams.get("code")).toMatch(/^sq0cgp-/);
  });

  it("refuses an unknown client_id with the error envelope", async () => {
    const r = await authorize({ client_id: "nope", scope: "CUSTOMERS_READ", redirect_uri: "http://127.0.0.1/cb" });
    expect(r.status).toBe(400);
    expect(r.location).toBeNull();
    expect(r.json).toMatchObject({ errors: [{ code: "INVALID_VALUE", field: "client_id" }] });
  });

  it("refuses an unknown scope and a challenge method other than S256", async () => {
    const base = { client_id: t.service.clientId, redirect_uri: "http://127.0.0.1/cb" };
    const badScope = await authorize({ ...base, scope: "CUSTOMERS_READ WORLD_DOMINATION" });
    expect(badScope.json).toMatchObject({ errors: [{ code: "INVALID_VALUE", field: "scope" }] });
    const plain = await authorize({
      ...base,
      scope: "CUSTOMERS_READ",
      code_challenge: pkce().challenge,
      code_challenge_method: "plain",
    });
    expect(plain.json).toMatchObject({ errors: [{ code: "INVALID_VALUE", field: "code_challenge_method" }] });
  });
});

describe("obtainToken: authorization_code", () => {
  it("PKCE: the right verifier gets a 30-day token with the granted scopes and a 90-day refresh token", async () => {
    const now = t.service.clock.now().getTime();
    const res = await pkceTokens("CUSTOMERS_READ TIMECARDS_READ");
    expect(res.token_type).toBe("bearer");
    expect(res.merchant_id).toBe(t.service.merchantId);
    expect(res.short_lived).toBe(false);
    expect(res.refresh_token).toMatch(/^EQAA/);
    const expires = Date.parse(res.expires_at ?? "");
    expect(Math.abs(expires - (now + 30 * DAY * 1000))).toBeLessThan(60_000);
    const refreshExpires = Date.parse(res.refresh_token_expires_at ?? "");
    expect(Math.abs(refreshExpires - (now + 90 * DAY * 1000))).toBeLessThan(60_000);

    const status = await clientWith(res.access_token ?? "").oauth.retrieveTokenStatus();
    expect(new Set(status.scopes)).toEqual(new Set(["CUSTOMERS_READ", "TIMECARDS_READ"]));
    expect(status.client_id).toBe(t.service.clientId);
    expect(status.merchant_id).toBe(t.service.merchantId);
    expect(status.expires_at).toBe(res.expires_at);
  });

  it("refuses a wrong verifier", async () => {
    const { challenge } = pkce();
    const code = await codeFor(challenge);
    const err = await refusal(
      t.client.oauth.obtainToken({
        client_id: t.service.clientId,
        grant_type: "authorization_code",
        code,
        code_verifier: pkce().verifier,
      }),
    );
    expect(err.status).toBe(401);
    expect(err.code).toBe("UNAUTHORIZED");
  });

  it("a code is single use", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const body = { client_id: t.service.clientId, grant_type: "authorization_code", code, code_verifier: verifier };
    await t.client.oauth.obtainToken(body);
    const err = await refusal(t.client.oauth.obtainToken(body));
    expect(err.code).toBe("UNAUTHORIZED");
    expect(err.errors[0]?.detail).toMatch(/already redeemed/);
  });

  it("a code expires after five minutes of the service clock", async () => {
    const { verifier, challenge } = pkce();
    const fresh = await codeFor(challenge);
    const stale = await codeFor(challenge);
    t.advance(290);
    await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "authorization_code",
      code: fresh,
      code_verifier: verifier,
    });
    t.advance(11);
    const err = await refusal(
      t.client.oauth.obtainToken({
        client_id: t.service.clientId,
        grant_type: "authorization_code",
        code: stale,
        code_verifier: verifier,
      }),
    );
    expect(err.errors[0]?.detail).toMatch(/expired/);
  });

  it("the client secret works instead of a verifier; its refresh token never expires; a wrong secret is refused", async () => {
    const code = await codeFor(null);
    const res = await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "authorization_code",
      code,
      client_secret: t.service.clientSecret,
    });
    expect(res.refresh_token).toBeTruthy();
    expect(res.refresh_token_expires_at).toBeUndefined();

    const other = await codeFor(null);
    const err = await refusal(
      t.client.oauth.obtainToken({
        client_id: t.service.clientId,
        grant_type: "authorization_code",
        code: other,
        client_secret: "wrong",
      }),
    );
    expect(err.code).toBe("UNAUTHORIZED");
  });

  it("needs a secret or a verifier", async () => {
    const code = await codeFor(null);
    const err = await refusal(
      t.client.oauth.obtainToken({ client_id: t.service.clientId, grant_type: "authorization_code", code }),
    );
    expect(err.code).toBe("MISSING_REQUIRED_PARAMETER");
  });

  it("short_lived: only an access token, valid 24 hours", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const now = t.service.clock.now().getTime();
    const res = await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      short_lived: true,
    });
    expect(res.short_lived).toBe(true);
    expect(res.refresh_token).toBeUndefined();
    expect(Math.abs(Date.parse(res.expires_at ?? "") - (now + DAY * 1000))).toBeLessThan(60_000);
    const c = clientWith(res.access_token ?? "");
    await c.oauth.retrieveTokenStatus();
    t.advance(DAY + 1);
    const err = await refusal(c.oauth.retrieveTokenStatus());
    expect(err.status).toBe(401);
    expect(err.code).toBe("ACCESS_TOKEN_EXPIRED");
  });

  it("requires client_id and grant_type, and refuses an unknown grant_type", async () => {
    const missing = await t.raw("POST", "/oauth2/token", { body: { client_id: t.service.clientId } });
    expect(missing.status).toBe(400);
    expect(missing.json.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "grant_type" });
    const odd = await refusal(
      t.client.oauth.obtainToken({ client_id: t.service.clientId, grant_type: "client_credentials" }),
    );
    expect(odd.errors[0]).toMatchObject({ code: "INVALID_VALUE", field: "grant_type" });
  });
});

describe("obtainToken: refresh_token", () => {
  it("gives a new access token with the grant's scopes; a PKCE refresh token is single use", async () => {
    const first = await pkceTokens("CUSTOMERS_READ TIMECARDS_READ");
    const next = await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "refresh_token",
      refresh_token: first.refresh_token ?? "",
    });
    expect(next.access_token).not.toBe(first.access_token);
    expect(next.refresh_token).not.toBe(first.refresh_token);
    const status = await clientWith(next.access_token ?? "").oauth.retrieveTokenStatus();
    expect(new Set(status.scopes)).toEqual(new Set(["CUSTOMERS_READ", "TIMECARDS_READ"]));

    const reused = await refusal(
      t.client.oauth.obtainToken({
        client_id: t.service.clientId,
        grant_type: "refresh_token",
        refresh_token: first.refresh_token ?? "",
      }),
    );
    expect(reused.status).toBe(401);
  });

  it("scopes narrows the new token; asking beyond the grant is refused", async () => {
    const first = await pkceTokens("CUSTOMERS_READ TIMECARDS_READ");
    const narrowed = await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "refresh_token",
      refresh_token: first.refresh_token ?? "",
      scopes: ["CUSTOMERS_READ"],
    });
    const status = await clientWith(narrowed.access_token ?? "").oauth.retrieveTokenStatus();
    expect(status.scopes).toEqual(["CUSTOMERS_READ"]);

    // The grant is still whole: the rotated refresh token can ask for the other scope again.
    const wider = await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "refresh_token",
      refresh_token: narrowed.refresh_token ?? "",
      scopes: ["TIMECARDS_READ"],
    });
    expect((await clientWith(wider.access_token ?? "").oauth.retrieveTokenStatus()).scopes).toEqual(["TIMECARDS_READ"]);

    const beyond = await refusal(
      t.client.oauth.obtainToken({
        client_id: t.service.clientId,
        grant_type: "refresh_token",
        refresh_token: wider.refresh_token ?? "",
        scopes: ["CUSTOMERS_READ", "PAYMENTS_WRITE"],
      }),
    );
    expect(beyond.errors[0]).toMatchObject({ code: "INVALID_VALUE", field: "scopes" });
  });

  it("a narrowed token lacks the scopes it gave up (403 INSUFFICIENT_SCOPES)", async () => {
    const first = await pkceTokens("CUSTOMERS_READ TIMECARDS_READ");
    const narrowed = await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "refresh_token",
      refresh_token: first.refresh_token ?? "",
      scopes: ["TIMECARDS_READ"],
    });
    const err = await refusal(clientWith(narrowed.access_token ?? "").customers.retrieveCustomer("ANY"));
    expect(err.status).toBe(403);
    expect(err.code).toBe("INSUFFICIENT_SCOPES");
  });

  it("a confidential grant's refresh token comes back unchanged and needs the secret", async () => {
    const code = await codeFor(null);
    const first = await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "authorization_code",
      code,
      client_secret: t.service.clientSecret,
    });
    const noSecret = await refusal(
      t.client.oauth.obtainToken({
        client_id: t.service.clientId,
        grant_type: "refresh_token",
        refresh_token: first.refresh_token ?? "",
      }),
    );
    expect(noSecret.errors[0]).toMatchObject({ code: "MISSING_REQUIRED_PARAMETER", field: "client_secret" });
    const next = await t.client.oauth.obtainToken({
      client_id: t.service.clientId,
      grant_type: "refresh_token",
      refresh_token: first.refresh_token ?? "",
      client_secret: t.service.clientSecret,
    });
    expect(next.refresh_token).toBe(first.refresh_token);
  });

  it("an unknown refresh token is refused", async () => {
    const err = await refusal(
      t.client.oauth.obtainToken({
        client_id: t.service.clientId,
        grant_type: "refresh_token",
        refresh_token: "EQAAx",
      }),
    );
    expect(err.status).toBe(401);
    expect(err.code).toBe("UNAUTHORIZED");
  });
});

describe("obtainToken: migration_token", () => {
  it("is accepted only with a Square-Version before 2019-03-13", async () => {
    const legacy = await pkceTokens("CUSTOMERS_READ");
    const body = {
      client_id: t.service.clientId,
      grant_type: "migration_token",
      migration_token: legacy.access_token ?? "",
      client_secret: t.service.clientSecret,
    };
    const modern = await refusal(t.client.oauth.obtainToken(body));
    expect(modern.errors[0]).toMatchObject({ code: "API_VERSION_INCOMPATIBLE", field: "grant_type" });

    const res = await t.client.oauth.obtainToken(body, { squareVersion: "2019-02-13" });
    expect(res.access_token).toBeTruthy();
    expect(res.refresh_token).toBeTruthy();
    const old = await refusal(clientWith(legacy.access_token ?? "").oauth.retrieveTokenStatus());
    expect(old.code).toBe("ACCESS_TOKEN_REVOKED");
  });
});

describe("renewToken (deprecated)", () => {
  it("renews a token that expired less than 15 days ago, for 30 days; the old one stops working", async () => {
    const tokens = await pkceTokens("CUSTOMERS_READ");
    t.advance(30 * DAY + 14 * DAY);
    const res = await t.client.oauth.renewToken(t.service.clientId, { access_token: tokens.access_token ?? "" });
    expect(res.merchant_id).toBe(t.service.merchantId);
    const now = t.service.clock.now().getTime();
    expect(Math.abs(Date.parse(res.expires_at ?? "") - (now + 30 * DAY * 1000))).toBeLessThan(60_000);
    await clientWith(res.access_token ?? "").oauth.retrieveTokenStatus();
    const old = await refusal(clientWith(tokens.access_token ?? "").oauth.retrieveTokenStatus());
    expect(old.code).toBe("ACCESS_TOKEN_REVOKED");
  });

  it("refuses a token that expired more than 15 days ago", async () => {
    const tokens = await pkceTokens("CUSTOMERS_READ");
    t.advance(30 * DAY + 15 * DAY + 60);
    const err = await refusal(
      t.client.oauth.renewToken(t.service.clientId, { access_token: tokens.access_token ?? "" }),
    );
    expect(err.status).toBe(401);
    expect(err.code).toBe("ACCESS_TOKEN_EXPIRED");
  });

  it("needs Authorization: Client <the secret>", async () => {
    const tokens = await pkceTokens("CUSTOMERS_READ");
    const err = await refusal(
      t.client.oauth.renewToken(
        t.service.clientId,
        { access_token: tokens.access_token ?? "" },
        { clientSecret: "not-the-secret" },
      ),
    );
    expect(err.code).toBe("UNAUTHORIZED");
    const none = await t.raw("POST", `/oauth2/clients/${t.service.clientId}/access-token/renew`, {
      body: { access_token: tokens.access_token },
      headers: { authorization: "" },
    });
    expect(none.status).toBe(401);
  });
});

describe("revokeToken", () => {
  it("revokes every token of the seller for the application, whichever is given, and emits the event", async () => {
    const a = await pkceTokens("CUSTOMERS_READ");
    const b = await pkceTokens("TIMECARDS_READ");
    const res = await t.client.oauth.revokeToken({ client_id: t.service.clientId, access_token: a.access_token ?? "" });
    expect(res.success).toBe(true);
    expect(published.filter((e) => e.type === "oauth.authorization.revoked")).toEqual([
      expect.objectContaining({
        merchantId: t.service.merchantId,
        clientId: t.service.clientId,
        dataType: "revocation",
      }),
    ]);
    for (const token of [a.access_token, b.access_token]) {
      const err = await refusal(clientWith(token ?? "").oauth.retrieveTokenStatus());
      expect(err.status).toBe(401);
      expect(err.code).toBe("ACCESS_TOKEN_REVOKED");
    }
    const refresh = await refusal(
      t.client.oauth.obtainToken({
        client_id: t.service.clientId,
        grant_type: "refresh_token",
        refresh_token: b.refresh_token ?? "",
      }),
    );
    expect(refresh.code).toBe("ACCESS_TOKEN_REVOKED");
    // The seller's personal token is not the application's: it keeps working.
    await t.client.oauth.retrieveTokenStatus();
  });

  it("by merchant_id, too; revoke_only_access_token ends just that token", async () => {
    const a = await pkceTokens("CUSTOMERS_READ");
    const b = await pkceTokens("CUSTOMERS_READ");
    await t.client.oauth.revokeToken({
      client_id: t.service.clientId,
      access_token: a.access_token ?? "",
      revoke_only_access_token: true,
    });
    expect((await refusal(clientWith(a.access_token ?? "").oauth.retrieveTokenStatus())).code).toBe(
      "ACCESS_TOKEN_REVOKED",
    );
    await clientWith(b.access_token ?? "").oauth.retrieveTokenStatus();

    await t.client.oauth.revokeToken({ client_id: t.service.clientId, merchant_id: t.service.merchantId });
    expect((await refusal(clientWith(b.access_token ?? "").oauth.retrieveTokenStatus())).code).toBe(
      "ACCESS_TOKEN_REVOKED",
    );
  });

  it("needs the application secret, and one of access_token or merchant_id", async () => {
    const a = await pkceTokens("CUSTOMERS_READ");
    const wrong = await refusal(
      t.client.oauth.revokeToken(
        { client_id: t.service.clientId, access_token: a.access_token ?? "" },
        { clientSecret: "nope" },
      ),
    );
    expect(wrong.code).toBe("UNAUTHORIZED");
    const neither = await refusal(t.client.oauth.revokeToken({ client_id: t.service.clientId }));
    expect(neither.code).toBe("MISSING_REQUIRED_PARAMETER");
    await clientWith(a.access_token ?? "").oauth.retrieveTokenStatus();
  });
});

describe("retrieveTokenStatus", () => {
  it("the personal token: every scope, no expiry", async () => {
    const s = await t.client.oauth.retrieveTokenStatus();
    expect(s.merchant_id).toBe(t.service.merchantId);
    expect(s.expires_at).toBeUndefined();
    expect(s.scopes).toContain("CUSTOMERS_WRITE");
  });

  it("an unknown bearer token is 401 UNAUTHORIZED", async () => {
    const err = await refusal(clientWith("EAAAnot-a-token").oauth.retrieveTokenStatus());
    expect(err.code).toBe("UNAUTHORIZED");
  });
});
