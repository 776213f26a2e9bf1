// The whole sign-in against the real local service: authorize → callback → token → keychain →
// refresh when the clock is advanced 24 days → revoke → signed out.
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, sessionForLocal } from "../src/auth/connect.js";
import { buildAuthorizeUrl, createPkcePair, newState, startLoopbackListener } from "../src/auth/oauth-flow.js";
import { SignedOutError, tokensFromObtain } from "../src/auth/session.js";
import { createTokenStore } from "../src/auth/token-store.js";
import { createClient, SquareApiError } from "../src/square/index.js";
import { memoryKeytar } from "./auth-helpers.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc.close();
});

const DAY_S = 86_400;

/** Plays the browser: opens the authorize page and follows its redirect to the loopback listener. */
async function browse(url: string): Promise<URL> {
  const consent = await request(url);
  await consent.body.text();
  expect(consent.statusCode).toBe(302);
  const location = new URL(String(consent.headers.location));
  const back = await request(location);
  await back.body.text();
  expect(back.statusCode).toBe(200);
  return location;
}

/** A connection whose session reads the service's clock, so advancing one advances both. */
function connectTo(store = createTokenStore({ keytar: memoryKeytar() })) {
  return connect({
    baseUrl: svc.url,
    store,
    environment: "local",
    clientId: svc.service.clientId,
    clock: { now: () => svc.service.clock.now().getTime() },
    maxRetries: 0,
  });
}

async function signInWithCode(
  conn: ReturnType<typeof connectTo>,
  scopes = ["MERCHANT_PROFILE_READ", "TIMECARDS_READ"],
) {
  const pkce = createPkcePair();
  const state = newState();
  const listener = await startLoopbackListener({ state, timeoutMs: 10_000 });
  const url = buildAuthorizeUrl({
    baseUrl: svc.url,
    clientId: svc.service.clientId,
    scopes,
    state,
    redirectUri: listener.redirectUri,
    codeChallenge: pkce.challenge,
  });
  const landed = await browse(url);
  expect(landed.searchParams.get("state")).toBe(state);
  const code = await listener.code;
  const res = await conn.client.oauth.obtainToken({
    client_id: svc.service.clientId,
    grant_type: "authorization_code",
    code,
    code_verifier: pkce.verifier,
    redirect_uri: listener.redirectUri,
  });
  const tokens = tokensFromObtain(res, {
    environment: "local",
    clientId: svc.service.clientId,
    baseUrl: svc.url,
    scopes,
  });
  await conn.session.signIn(tokens);
  return { tokens, code, pkce, redirectUri: listener.redirectUri };
}

describe("sign-in against the local service", () => {
  it("authorize → callback → token → keychain → refresh after 24 days → revoke → signed out", async () => {
    const keytar = memoryKeytar();
    const store = createTokenStore({ keytar });
    const conn = connectTo(store);
    const { tokens } = await signInWithCode(conn);
    expect(tokens.refresh_token).toBeTruthy();
    expect(Date.parse(tokens.expires_at ?? "") - svc.service.clock.now().getTime()).toBeGreaterThan(29 * DAY_S * 1000);

    // Keychain: one entry for local + the demo merchant, and the current pointer.
    const saved = await createTokenStore({ keytar }).load("local");
    expect(saved).toMatchObject({ access_token: tokens.access_token, merchant_id: svc.service.merchantId });
    expect(keytar.entries.get(`backroom\u0000local:current`)).toBe(svc.service.merchantId);

    // A call with the new token works and needs no refresh yet.
    const status = await conn.client.oauth.retrieveTokenStatus();
    expect(status.merchant_id).toBe(svc.service.merchantId);
    expect(status.scopes?.sort()).toEqual(["MERCHANT_PROFILE_READ", "TIMECARDS_READ"]);
    expect(conn.session.state()).toMatchObject({ tokens: { access_token: tokens.access_token } });

    // 24 days on, 6 are left: the next call refreshes first, and the keychain gets the new tokens.
    await svc.raw("POST", "/_emulator/clock", { body: { advance_seconds: 24 * DAY_S } });
    await conn.client.oauth.retrieveTokenStatus();
    const refreshed = await createTokenStore({ keytar }).load("local");
    expect(refreshed?.access_token).not.toBe(tokens.access_token);
    expect(refreshed?.refresh_token).not.toBe(tokens.refresh_token);
    expect(Date.parse(refreshed?.expires_at ?? "") - svc.service.clock.now().getTime()).toBeGreaterThan(
      29 * DAY_S * 1000,
    );
    expect(conn.session.state()).toMatchObject({
      status: "signed-in",
      tokens: { access_token: refreshed?.access_token },
    });

    // Revoke: the service ends the grant, the keychain is emptied, the session is signed out.
    const out = await conn.session.logout({ clientSecret: svc.service.clientSecret });
    expect(out).toMatchObject({ revoked: true, ok: true });
    expect(keytar.entries.size).toBe(0);
    expect(conn.session.state().status).toBe("signed-out");
    await expect(conn.client.oauth.retrieveTokenStatus()).rejects.toThrow(SignedOutError);
    // And the service no longer takes the token.
    const stale = createClient({ baseUrl: svc.url, accessToken: refreshed?.access_token ?? "", maxRetries: 0 });
    const err = await stale.oauth.retrieveTokenStatus().catch((e: unknown) => e);
    expect((err as SquareApiError).code).toBe("ACCESS_TOKEN_REVOKED");
    await stale.close();
    await conn.client.close();
  });

  it("refuses a code exchanged with the wrong PKCE verifier, and a code used twice", async () => {
    const conn = connectTo();
    const pkce = createPkcePair();
    const state = newState();
    const listener = await startLoopbackListener({ state, timeoutMs: 10_000 });
    await browse(
      buildAuthorizeUrl({
        baseUrl: svc.url,
        clientId: svc.service.clientId,
        scopes: ["TIMECARDS_READ"],
        state,
        redirectUri: listener.redirectUri,
        codeChallenge: pkce.challenge,
      }),
    );
    const code = await listener.code;
    const body = { client_id: svc.service.clientId, grant_type: "authorization_code", code };
    const wrong = await conn.client.oauth
      .obtainToken({ ...body, code_verifier: createPkcePair().verifier })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(SquareApiError);
    expect((wrong as SquareApiError).code).toBe("UNAUTHORIZED");
    const right = await conn.client.oauth.obtainToken({ ...body, code_verifier: pkce.verifier });
    expect(right.access_token).toBeTruthy();
    const again = await conn.client.oauth
      .obtainToken({ ...body, code_verifier: pkce.verifier })
      .catch((e: unknown) => e);
    expect((again as SquareApiError).code).toBe("UNAUTHORIZED");
    await conn.client.close();
  });

  it("refreshes on ACCESS_TOKEN_EXPIRED when the token ran out unseen, and retries the call", async () => {
    const conn = connectTo();
    const { tokens } = await signInWithCode(conn);
    // A session that never refreshes early meets the service's expiry answer instead.
    const late = connect({
      baseUrl: svc.url,
      store: createTokenStore({ keytar: memoryKeytar() }),
      environment: "local",
      clientId: svc.service.clientId,
      refreshWithinMs: 0,
      clock: { now: () => 0 },
      maxRetries: 0,
    });
    await late.session.signIn(tokens);
    await svc.raw("POST", "/_emulator/clock", { body: { advance_seconds: 31 * DAY_S } });
    const status = await late.client.oauth.retrieveTokenStatus();
    expect(status.merchant_id).toBe(svc.service.merchantId);
    expect(late.session.state()).toMatchObject({ status: "signed-in" });
    const now = late.session.state();
    expect(now.status === "signed-in" && now.tokens.access_token).not.toBe(tokens.access_token);
    await late.client.close();
    await conn.client.close();
  });

  it("signs a second holder out with a reason when its token is revoked elsewhere", async () => {
    const conn = connectTo();
    const { tokens } = await signInWithCode(conn);
    const other = connectTo();
    await other.session.signIn(tokens);
    await conn.session.logout({ clientSecret: svc.service.clientSecret });
    const err = await other.client.oauth.retrieveTokenStatus().catch((e: unknown) => e);
    expect((err as SquareApiError).code).toBe("ACCESS_TOKEN_REVOKED");
    // The transport told the session as the answer came in; nothing is left for noticeError.
    expect(await other.session.noticeError(err)).toBe(false);
    expect(other.session.state()).toEqual({
      status: "signed-out",
      reason:
        "You were signed out: access for backroom was revoked for this seller. Run `backroom login` to sign in again.",
    });
    await other.client.close();
    await conn.client.close();
  });

  it("renews with the deprecated renewToken inside its 15-day window", async () => {
    const conn = connectTo();
    const { tokens } = await signInWithCode(conn);
    await svc.raw("POST", "/_emulator/clock", { body: { advance_seconds: 40 * DAY_S } }); // expired 10 days ago
    await conn.session.renew(svc.service.clientSecret);
    const state = conn.session.state();
    expect(state.status === "signed-in" && state.tokens.access_token).not.toBe(tokens.access_token);
    await conn.client.close();
  });
});

describe("sessionForLocal", () => {
  it("signs in to the local service with its demo token without asking and without storing it", async () => {
    const keytar = memoryKeytar();
    const { client, session } = await sessionForLocal(svc.service, {
      baseUrl: svc.url,
      store: createTokenStore({ keytar }),
    });
    expect(session.status()).toMatchObject({
      signedIn: true,
      environment: "local",
      merchantId: svc.service.merchantId,
      storage: "the local service's demo token (not stored)",
    });
    expect(session.status().scopes?.length).toBeGreaterThan(10);
    // Every call carries the demo token.
    await expect(client.oauth.retrieveTokenStatus()).resolves.toMatchObject({ merchant_id: svc.service.merchantId });
    expect(keytar.entries.size).toBe(0);
    await client.close();
  });
});
