import { describe, expect, it } from "vitest";
import { DAY_MS, manualClock, memoryKeytar } from "../../test/auth-helpers.js";
import type * as T from "../spec/generated/types.js";
import { SquareApiError, SquareNetworkError } from "../square/index.js";
import { createSession, type OAuthApi, RenewableExpiryError, RenewWindowError, SignedOutError } from "./session.js";
import { createTokenStore, type StoredTokens } from "./token-store.js";

const iso = (ms: number) => new Date(ms).toISOString();
const apiError = (code: string, status = 401) =>
  new SquareApiError("ObtainToken", status, [{ category: "AUTHENTICATION_ERROR", code, detail: "refused" }], {});

/** An OAuth API that mints numbered tokens and records each call. */
function fakeOAuth(clock: { now(): number }) {
  let n = 0;
  const calls: { op: string; body: unknown; secret?: string | undefined }[] = [];
  let refreshFailure: Error | undefined;
  let gate: Promise<void> | undefined;
  const api: OAuthApi = {
    async obtainToken(body) {
      calls.push({ op: "obtainToken", body });
      if (gate) await gate;
      if (refreshFailure) throw refreshFailure;
      n++;
      return {
        access_token: `EAAAl-access-${n}-xxxxxxxx`,
        refresh_token: `EQAA-refresh-${n}-xxxxxxxx`,
        expires_at: iso(clock.now() + 30 * DAY_MS),
        merchant_id: "ML1",
      } satisfies T.ObtainTokenResponse;
    },
    async renewToken(clientId, body, o) {
      calls.push({ op: "renewToken", body: { clientId, ...body }, secret: o?.clientSecret });
      return { access_token: "EAAAl-renewed-xxxxxxxx", expires_at: iso(clock.now() + 30 * DAY_MS), merchant_id: "ML1" };
    },
    async revokeToken(body, o) {
      calls.push({ op: "revokeToken", body, secret: o?.clientSecret });
      if (o?.clientSecret !== "right-secret") throw apiError("UNAUTHORIZED");
      return { success: true };
    },
    async retrieveTokenStatus() {
      calls.push({ op: "retrieveTokenStatus", body: null });
      return {};
    },
  };
  return {
    api,
    calls,
    failRefreshWith(err: Error | undefined) {
      refreshFailure = err;
    },
    hold() {
      let release!: () => void;
      gate = new Promise((r) => {
        release = r;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

function setup(over: Partial<StoredTokens> = {}) {
  const clock = manualClock();
  const oauth = fakeOAuth(clock);
  const keytar = memoryKeytar();
  const store = createTokenStore({ keytar });
  const tokens: StoredTokens = {
    environment: "sandbox",
    kind: "oauth",
    access_token: "EAAAl-access-0-xxxxxxxx",
    refresh_token: "EQAA-refresh-0-xxxxxxxx",
    expires_at: iso(clock.now() + 30 * DAY_MS),
    merchant_id: "ML1",
    client_id: "sq0idp-app",
    ...over,
  };
  const session = createSession({ oauth: oauth.api, store, clock, environment: "sandbox" });
  return { clock, oauth, keytar, store, session, tokens };
}

describe("session: refresh before expiry", () => {
  it("hands out the stored token while more than 7 days are left", async () => {
    const { session, store, tokens, clock, oauth } = setup();
    await store.save(tokens);
    await session.load();
    clock.advance(22 * DAY_MS);
    expect(await session.accessToken()).toBe("EAAAl-access-0-xxxxxxxx");
    expect(oauth.calls).toEqual([]);
  });

  it("refreshes with grant_type=refresh_token once 7 days or fewer are left, and stores the result", async () => {
    const { session, store, tokens, clock, oauth } = setup();
    await store.save(tokens);
    await session.load();
    clock.advance(24 * DAY_MS);
    expect(await session.accessToken()).toBe("EAAAl-access-1-xxxxxxxx");
    expect(oauth.calls).toEqual([
      {
        op: "obtainToken",
        body: { client_id: "sq0idp-app", grant_type: "refresh_token", refresh_token: "EQAA-refresh-0-xxxxxxxx" },
      },
    ]);
    expect(await store.load("sandbox")).toMatchObject({
      access_token: "EAAAl-access-1-xxxxxxxx",
      refresh_token: "EQAA-refresh-1-xxxxxxxx",
      expires_at: iso(clock.now() + 30 * DAY_MS),
    });
    expect(await session.accessToken()).toBe("EAAAl-access-1-xxxxxxxx");
    expect(oauth.calls).toHaveLength(1);
  });

  it("shares one refresh among concurrent calls", async () => {
    const { session, store, tokens, clock, oauth } = setup();
    await store.save(tokens);
    await session.load();
    clock.advance(25 * DAY_MS);
    const release = oauth.hold();
    const pending = Promise.all([session.accessToken(), session.accessToken(), session.onExpired(), session.refresh()]);
    await new Promise((r) => setImmediate(r));
    release();
    expect(await pending).toEqual(Array(4).fill("EAAAl-access-1-xxxxxxxx"));
    expect(oauth.calls.filter((c) => c.op === "obtainToken")).toHaveLength(1);
  });

  it("refreshes on ACCESS_TOKEN_EXPIRED through onExpired", async () => {
    const { session, store, tokens, oauth } = setup();
    await store.save(tokens);
    await session.load();
    expect(await session.onExpired()).toBe("EAAAl-access-1-xxxxxxxx");
    expect(oauth.calls).toHaveLength(1);
  });
});

describe("session: signing out", () => {
  it("signs out when the refresh is refused, deletes the keychain entry and says why and what to do", async () => {
    const { session, store, tokens, clock, oauth, keytar } = setup();
    await store.save(tokens);
    await session.load();
    clock.advance(24 * DAY_MS);
    oauth.failRefreshWith(apiError("UNAUTHORIZED"));
    const err = await session.accessToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignedOutError);
    expect((err as Error).message).toBe(
      "You were signed out: renewing the sign-in failed (UNAUTHORIZED: refused). Run `backroom login` to sign in again.",
    );
    expect(session.state()).toEqual({ status: "signed-out", reason: (err as Error).message });
    expect(keytar.entries.size).toBe(0);
    await expect(session.accessToken()).rejects.toThrow(SignedOutError);
    expect(await session.onExpired()).toBeUndefined();
  });

  it("keeps using a still-valid token when the refresh cannot reach the service", async () => {
    const { session, store, tokens, clock, oauth } = setup();
    await store.save(tokens);
    await session.load();
    clock.advance(24 * DAY_MS);
    oauth.failRefreshWith(new SquareNetworkError("ObtainToken", new Error("ECONNREFUSED")));
    expect(await session.accessToken()).toBe("EAAAl-access-0-xxxxxxxx");
    expect(session.state().status).toBe("signed-in");
    clock.advance(7 * DAY_MS);
    await expect(session.accessToken()).rejects.toThrow(SquareNetworkError);
  });

  it("adopts the tokens another backroom stored when its own refresh token was already used", async () => {
    const { session, store, tokens, clock, oauth } = setup();
    await store.save(tokens);
    await session.load();
    clock.advance(24 * DAY_MS);
    await store.save({
      ...tokens,
      access_token: "EAAAl-from-the-app-xxxxxx",
      expires_at: iso(clock.now() + 30 * DAY_MS),
    });
    oauth.failRefreshWith(apiError("INVALID_GRANT", 400));
    expect(await session.accessToken()).toBe("EAAAl-from-the-app-xxxxxx");
    expect(session.state().status).toBe("signed-in");
  });

  it("signs out on ACCESS_TOKEN_REVOKED and ignores other errors", async () => {
    const { session, store, tokens, keytar } = setup();
    await store.save(tokens);
    await session.load();
    expect(await session.noticeError(apiError("NOT_FOUND", 404))).toBe(false);
    expect(await session.noticeError(new Error("x"))).toBe(false);
    expect(session.state().status).toBe("signed-in");
    expect(await session.noticeError(apiError("ACCESS_TOKEN_REVOKED"))).toBe(true);
    expect(session.state()).toEqual({
      status: "signed-out",
      reason:
        "You were signed out: access for backroom was revoked for this seller. Run `backroom login` to sign in again.",
    });
    expect(keytar.entries.size).toBe(0);
  });

  it("signs out a personal token once it has expired", async () => {
    const { session, store, tokens, clock } = setup({ kind: "personal" });
    const { refresh_token: _, ...personal } = tokens;
    await store.save(personal);
    await session.load();
    clock.advance(3 * DAY_MS);
    expect(await session.accessToken()).toBe("EAAAl-access-0-xxxxxxxx");
    clock.advance(28 * DAY_MS);
    await expect(session.accessToken()).rejects.toThrow(/the access token expired on .*Run `backroom login`/);
  });

  it("says how to sign in when nobody is", async () => {
    const { session } = setup();
    await session.load();
    await expect(session.accessToken()).rejects.toThrow("Not signed in. Run `backroom login` to sign in.");
    expect(session.status()).toMatchObject({ signedIn: false, storage: 'OS keychain (service "backroom")' });
  });
});

describe("session: renewToken (deprecated) and its 15-day window", () => {
  it("renews with the application secret, also shortly after expiry", async () => {
    const { session, store, tokens, clock, oauth } = setup();
    await store.save(tokens);
    await session.load();
    clock.advance(44 * DAY_MS); // expired 14 days ago
    await session.renew("app-secret");
    expect(oauth.calls).toEqual([
      {
        op: "renewToken",
        body: { clientId: "sq0idp-app", access_token: "EAAAl-access-0-xxxxxxxx" },
        secret: "app-secret",
      },
    ]);
    expect((await store.load("sandbox"))?.access_token).toBe("EAAAl-renewed-xxxxxxxx");
  });

  it("keeps an expired OAuth sign-in without a refresh token for its 15 days, then signs it out", async () => {
    const { session, store, tokens, clock, oauth } = setup();
    const { refresh_token: _, ...noRefresh } = tokens;
    await store.save(noRefresh);
    await session.load();
    clock.advance(40 * DAY_MS); // expired 10 days ago
    const err = await session.accessToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenewableExpiryError);
    expect(String(err)).toMatch(/can be renewed until 2024-04-15T12:00:00.000Z on the account screen/);
    expect(await session.onExpired()).toBeUndefined();
    expect(session.state().status).toBe("signed-in");
    expect(await store.load("sandbox")).not.toBeNull();
    await session.renew("app-secret");
    expect(await session.accessToken()).toBe("EAAAl-renewed-xxxxxxxx");
    expect(oauth.calls.map((c) => c.op)).toEqual(["renewToken"]);

    clock.advance(46 * DAY_MS); // the renewed token expired 16 days ago
    await expect(session.accessToken()).rejects.not.toBeInstanceOf(RenewableExpiryError);
    expect(session.state().status).toBe("signed-out");
    expect(await store.load("sandbox")).toBeNull();
  });

  it("refuses more than 15 days after expiry, and without a secret", async () => {
    const { session, store, tokens, clock, oauth } = setup();
    await store.save(tokens);
    await session.load();
    await expect(session.renew("")).rejects.toThrow(RenewWindowError);
    clock.advance(46 * DAY_MS);
    await expect(session.renew("app-secret")).rejects.toThrow(/more than 15 days ago/);
    expect(oauth.calls).toEqual([]);
  });
});

describe("session: logout", () => {
  it("revokes with the application secret, then forgets locally", async () => {
    const { session, store, tokens, oauth, keytar } = setup();
    await store.save(tokens);
    await session.load();
    const result = await session.logout({ clientSecret: "right-secret" });
    expect(result.revoked).toBe(true);
    expect(result.message).toContain("access revoked at the service and removed from the OS keychain");
    expect(oauth.calls).toEqual([
      {
        op: "revokeToken",
        body: { client_id: "sq0idp-app", access_token: "EAAAl-access-0-xxxxxxxx" },
        secret: "right-secret",
      },
    ]);
    expect(keytar.entries.size).toBe(0);
    expect(session.state().status).toBe("signed-out");
  });

  it("still forgets locally when revoking fails, and says so without the token", async () => {
    const { session, store, tokens, keytar } = setup();
    await store.save(tokens);
    await session.load();
    const result = await session.logout({ clientSecret: "wrong-secret" });
    expect(result.revoked).toBe(false);
    expect(result.message).toContain("NOT revoked at the service: UNAUTHORIZED");
    // The sign-in is forgotten here, so `logout` again cannot revoke it: only the Dashboard can.
    expect(result.message).not.toMatch(/logout again|\.\./);
    expect(result.message).toMatch(/revoke it in the Developer Dashboard\.$/);
    expect(result.message).not.toContain(tokens.access_token);
    expect(keytar.entries.size).toBe(0);
    const noSecret = setup();
    await noSecret.store.save(noSecret.tokens);
    await noSecret.session.load();
    expect((await noSecret.session.logout({})).message).toContain("no application secret was given");
    expect(noSecret.keytar.entries.size).toBe(0);
  });
});

describe("session: BACKROOM_ACCESS_TOKEN", () => {
  it("uses the variable as is, never stores it, and says where it comes from", async () => {
    const clock = manualClock();
    const keytar = memoryKeytar();
    const session = createSession({
      oauth: fakeOAuth(clock).api,
      store: createTokenStore({ keytar: null }),
      clock,
      environment: "production",
      envToken: "EAAAl-from-env-xxxxxxxx",
    });
    await session.load();
    expect(await session.accessToken()).toBe("EAAAl-from-env-xxxxxxxx");
    expect(session.status()).toMatchObject({
      signedIn: true,
      tokenHint: "…xxxx",
      storage: "from BACKROOM_ACCESS_TOKEN in the environment (not stored)",
    });
    expect(keytar.entries.size).toBe(0);
    expect((await session.logout({ clientSecret: "s" })).message).toContain("unset that variable");
  });
});
