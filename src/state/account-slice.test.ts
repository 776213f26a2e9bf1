import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAccount, localConnection, signInThroughBrowser } from "../../test/helpers/account.js";
import { failure, startService, type TestService } from "../../test/helpers/service.js";
import { createClient } from "../square/index.js";
import { accountView } from "./account-machine.js";
import { type AppStore, createStore } from "./store.js";

let t: TestService;
beforeAll(async () => {
  t = await startService();
});
afterAll(async () => {
  await t.close();
});

const DAY_S = 86_400;
const NEEDS = [
  { scope: "MERCHANT_PROFILE_READ", why: "the locations" },
  { scope: "TIMECARDS_READ", why: "shifts" },
  { scope: "CUSTOMERS_READ", why: "customer lookup" },
];

/** A store whose client and account screen share one session over a keychain in memory. */
function setup(opts: { secret?: boolean } = {}) {
  const clock = () => t.service.clock.now();
  const conn = localConnection(t);
  const account = localAccount(t, conn, { scopeNeeds: NEEDS, ...opts });
  const store: AppStore = createStore({ client: conn.client, clock: { now: clock }, account });
  const s = () => store.getState();
  const view = () => accountView(s().account, clock());
  return { conn, store, s, view, close: () => conn.client.close() };
}

/** Signs the session in through the real authorize page with these scopes (as `backroom login` would). */
const signInWith = (conn: ReturnType<typeof localConnection>, scopes: string[]) =>
  signInThroughBrowser(t, conn, scopes);

describe("account slice against the local service", () => {
  it("signs in with a personal token typed in, after the service has checked it; shows the business and locations", async () => {
    const a = setup();
    await a.s().loadAccount();
    expect(a.s().account.token).toMatchObject({ signedIn: false });
    expect(a.s().signedIn).toBe("signed-out");
    a.s().accountDispatch({ type: "sign-in-open" });
    a.s().accountDispatch({ type: "sign-in-pick", how: "token" });
    await a.s().accountSignInToken("EAAA-not-a-token-at-all");
    expect(a.s().account.signIn).toMatchObject({
      step: "token",
      problem: expect.stringMatching(/refused this token \(UNAUTHORIZED\).*Nothing was kept/),
    });
    expect(a.s().account.token?.signedIn).toBe(false);

    await a.s().accountSignInToken(` ${t.service.accessToken} `);
    expect(a.s().account.signIn).toEqual({ step: "none" });
    expect(a.s().account.outcome?.text).toMatch(/^Signed in as merchant \S+; kept in OS keychain/);
    expect(a.s().account.token).toMatchObject({ signedIn: true, kind: "personal", merchantId: t.service.merchantId });
    expect(a.s().signedIn).toBe("signed-in");
    expect(a.s().account.business?.name).toBeTruthy();
    const locations = (await t.client.locations.listLocations()).locations ?? [];
    expect(a.s().account.business?.locations.map((l) => l.name)).toEqual(locations.map((l) => l.name));
    expect(a.view().life).toMatchObject({ phase: "lasting", headline: "does not expire" });
    expect(a.view().scopes?.missing).toEqual([]);
    expect(a.view().unavailable.renew).toMatch(/personal token/);
    await a.close();
  });

  it("shows the permissions the sign-in lacks, each with what needs it", async () => {
    const a = setup();
    await signInWith(a.conn, ["MERCHANT_PROFILE_READ", "TIMECARDS_READ"]);
    await a.s().loadAccount();
    expect(a.s().account.check).toMatchObject({ ok: true });
    expect(a.view().scopes?.missing).toEqual(["CUSTOMERS_READ"]);
    expect(a.view().scopes?.lines.find((l) => l.scope === "CUSTOMERS_READ")).toEqual({
      scope: "CUSTOMERS_READ",
      why: "customer lookup",
      granted: false,
    });
    expect(a.view().life).toMatchObject({ phase: "valid", headline: "expires in 30 days" });
    await a.close();
  });

  it("signs in in a browser (PKCE), refreshes now, then signs out: every token of the grant is refused afterwards", async () => {
    const a = setup();
    await a.s().loadAccount();
    await a.s().accountSignInBrowser();
    expect(a.s().account.outcome).toMatchObject({ ok: true });
    const before = a.conn.session.state();
    const first = before.status === "signed-in" ? before.tokens.access_token : "";
    expect(a.view().scopes?.missing).toEqual([]);

    await a.s().accountRefresh();
    expect(a.s().account.outcome?.text).toMatch(/^Refreshed: the new token expires on /);
    const after = a.conn.session.state();
    const second = after.status === "signed-in" ? after.tokens.access_token : "";
    expect(second).not.toBe(first);

    expect(a.view().signOutQuestion).toMatch(/revokes every token of this account/);
    await a.s().accountSignOut();
    expect(a.s().account.outcome).toMatchObject({
      ok: true,
      text: expect.stringMatching(/access revoked at the service/),
    });
    expect(a.s().account.token?.signedIn).toBe(false);
    expect(a.s().signedIn).toBe("signed-out");
    for (const token of [first, second]) {
      const old = createClient({ baseUrl: t.url, accessToken: token, maxRetries: 0 });
      const err = await failure(old.oauth.retrieveTokenStatus());
      expect([err.code, err.status]).toEqual(["ACCESS_TOKEN_REVOKED", 401]);
      await old.close();
    }
    await a.close();
  });

  it("without the application secret, sign-out says the tokens keep working, and does it locally", async () => {
    const a = setup({ secret: false });
    await signInWith(a.conn, ["MERCHANT_PROFILE_READ"]);
    await a.s().loadAccount();
    expect(a.view().signOutQuestion).toMatch(/cannot be revoked: they keep working until they expire/);
    await a.s().accountSignOut();
    expect(a.s().account.outcome).toMatchObject({ ok: false, text: expect.stringMatching(/NOT revoked/) });
    expect(a.s().account.token?.signedIn).toBe(false);
    await a.close();
  });

  it("renews with the deprecated RenewToken within 15 days of expiry, and says to sign in again past them", async () => {
    const a = setup();
    const tokens = await signInWith(a.conn, ["MERCHANT_PROFILE_READ"]);
    // A sign-in without a refresh token (one made before refresh tokens, or renewed since).
    const { refresh_token: _, ...noRefresh } = tokens;
    await a.conn.session.signIn(noRefresh);
    await t.raw("POST", "/_emulator/clock", { body: { advance_seconds: 40 * DAY_S } });
    try {
      await a.s().loadAccount({ quiet: true });
      expect(a.s().account.check).toMatchObject({ ok: false, text: expect.stringMatching(/can be renewed until/) });
      expect(a.s().account.token?.signedIn).toBe(true);
      expect(a.view().life).toMatchObject({ phase: "renewable", headline: "expired 10 days ago" });
      expect(a.view().unavailable.renew).toBeUndefined();
      expect(a.view().unavailable.refresh).toMatch(/no refresh token/);
      await a.s().accountRenew();
      expect(a.s().account.outcome?.text).toMatch(/^Renewed with the deprecated RenewToken/);
      expect(a.view().life).toMatchObject({ phase: "valid", headline: "expires in 30 days" });
      await a.s().loadAccount({ quiet: true });
      expect(a.s().account.check).toMatchObject({ ok: true });

      await t.raw("POST", "/_emulator/clock", { body: { advance_seconds: 46 * DAY_S } });
      expect(a.view().life).toMatchObject({ phase: "expired", headline: "expired 16 days ago" });
      expect(a.view().unavailable.renew).toBe(
        "The token expired more than 15 days ago; it can no longer be renewed: sign in again.",
      );
    } finally {
      await t.raw("POST", "/_emulator/clock", { body: { advance_seconds: -86 * DAY_S } });
      await a.close();
    }
  });
});
