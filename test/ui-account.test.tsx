// The account screen (0), driven by keys against the local service: permissions a sign-in lacks,
// sign-out that revokes (the token refused afterwards), the deprecated renew inside and past its
// 15 days, and signing in again in a browser or with a personal token typed into a masked field.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOGIN_SCOPES } from "../src/commands/scopes.js";
import { createClient } from "../src/square/index.js";
import { OFFLINE_RETRY_SECONDS } from "../src/state/index.js";
import { localAccount, localConnection, signInThroughBrowser } from "./helpers/account.js";
import { type DrivenApp, KEYS, startApp } from "./helpers/app.js";
import { startProxy } from "./helpers/proxy.js";
import { failure, startService, type TestService } from "./helpers/service.js";
import { VirtualTimers } from "./helpers/virtual-timers.js";

let service: TestService;
let app: DrivenApp | undefined;
const opened: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const c of opened.splice(0)) await c.close();
});

const DAY_S = 86_400;
const clock = () => service.service.clock.now();

/** A session over a keychain in memory, with the client whose calls carry it. */
function connection() {
  const conn = localConnection(service);
  opened.push(conn.client);
  return conn;
}

const signIn = (conn: ReturnType<typeof connection>, scopes: readonly string[]) =>
  signInThroughBrowser(service, conn, scopes);

/** The app on the account screen of this connection's sign-in. */
async function open(conn: ReturnType<typeof connection>, opts: { columns?: number; secret?: boolean } = {}) {
  const account = localAccount(service, conn, { scopeNeeds: LOGIN_SCOPES, ...opts });
  const a = await startApp({
    shared: service,
    client: conn.client,
    columns: opts.columns ?? 80,
    rows: 24,
    store: { account, clock: { now: clock } },
  });
  app = a;
  await a.waitFor("1 Time clock");
  await a.press("0");
  await a.waitFor("Account");
  return a;
}

describe("the account screen", () => {
  it("says where backroom works and why, and shows the permissions the sign-in lacks with what needs them", async () => {
    const conn = connection();
    await signIn(
      conn,
      LOGIN_SCOPES.map((s) => s.scope).filter((s) => s !== "CUSTOMERS_WRITE" && s !== "GIFTCARDS_READ"),
    );
    const a = await open(conn);
    await a.waitFor("Service     The service accepts the token.");
    const frame = await a.waitFor("2 missing: CUSTOMERS_WRITE, GIFTCARDS_READ");
    expect(frame).toContain(`Works on    LOCAL ${service.url} · chosen by --env`);
    expect(frame).toMatch(/Token +OAuth token …\S{4} · OS keychain/);
    expect(frame).toMatch(/Expires +expires in 30 days \(\d{4}-\d\d-\d\d \d\d:\d\d\)/);
    await a.press("G");
    await a.waitFor(/^ ✗ GIFTCARDS_READ +MISSING: gift cards looked up by scan/m);
    await a.press("g");
    await a.waitFor(/Permissions: 13 of 15 that backroom uses, 2 missing/);
    // Every row keeps its cursor column, however long its text.
    expect(a.frame()).toMatch(/^ ✓ MERCHANT_PROFILE_READ {5}the store's locations/m);
    await a.waitFor(/Business +\S.* · merchant \S+ · \d+ locations/);
    for (const line of a.frame().split("\n")) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("signs out after a question that says every token is revoked; the tokens are refused afterwards", async () => {
    const conn = connection();
    const tokens = await signIn(conn, ["MERCHANT_PROFILE_READ", "TIMECARDS_READ"]);
    const a = await open(conn, { columns: 60 });
    await a.waitFor("The service accepts the token.");
    await a.press("o");
    await a.waitFor("Sign out and revoke?");
    expect(a.frame().replace(/[│\s]+/g, " ")).toContain(
      "This revokes every token of this account for backroom's application",
    );
    await a.press(KEYS.enter); // risky: enter is no
    expect(a.store.getState().account.token?.signedIn).toBe(true);
    await a.press("o", "y");
    await a.waitFor(/Signed out of \S+: access revoked at the service/);
    await a.waitFor("not signed in");
    expect(a.frame()).toContain("○ signed out");
    for (const token of [tokens.access_token, tokens.refresh_token ?? ""]) {
      const old = createClient({ baseUrl: service.url, accessToken: token, maxRetries: 0 });
      const err = await failure(old.oauth.retrieveTokenStatus());
      expect(err.code).toMatch(/ACCESS_TOKEN_REVOKED|UNAUTHORIZED/);
      await old.close();
    }
    for (const line of a.frame().split("\n")) expect(line.length).toBeLessThanOrEqual(60);

    // Signed in again with a personal token typed into the masked field: a wrong one is refused.
    await a.press("p");
    await a.waitFor("Personal access token:");
    await a.press("EAAA-wrong-token-value");
    await a.press(KEYS.enter);
    await a.waitFor("refused this token (UNAUTHORIZED)");
    expect(a.frame()).not.toContain("wrong-token");
    await a.press(KEYS.escape);
    await a.waitFor((f) => !f.includes("Personal access token:"));
    await a.press("p");
    await a.waitFor("Personal access token:");
    await a.press(service.service.accessToken);
    await a.waitFor("•••••");
    expect(a.frame()).not.toContain(service.service.accessToken.slice(0, 12));
    // At 60 columns the token's end is out of sight: its length says the paste came whole.
    await a.waitFor(`${service.service.accessToken.length} characters, shown as •`);
    await a.press(KEYS.enter);
    await a.waitFor(/Signed in as merchant \S+; kept in OS keychain/);
    await a.waitFor(/Token +personal access token …/);
    // A password manager's auto-type (token and Enter at a machine's pace) signs in the same way.
    await a.press("o", "y");
    await a.waitFor("not signed in");
    await a.press("p");
    await a.waitFor("Personal access token:");
    // One read, at a machine's pace: typed text and Enter in the token field (the screen takes no scans).
    await a.press(`${service.service.accessToken}\r`);
    await a.waitFor(/Token +personal access token …/);
    expect(a.frame()).not.toContain("does not take scans");
    await a.waitFor(/Token +personal access token …/);
    await a.waitFor("● online");
    await a.press("1");
    await a.waitForStore((s) => s.screen.kind === "timeclock");
  });

  it("renews with the deprecated RenewToken within 15 days of expiry, and says to sign in again past them", async () => {
    const conn = connection();
    const tokens = await signIn(conn, ["MERCHANT_PROFILE_READ"]);
    // A sign-in without a refresh token (made before refresh tokens, or renewed since).
    const { refresh_token: _, ...noRefresh } = tokens;
    await conn.session.signIn(noRefresh);
    await service.raw("POST", "/_emulator/clock", { body: { advance_seconds: 40 * DAY_S } });
    try {
      const a = await open(conn);
      await a.waitFor(/Expires +expired 10 days ago/);
      await a.waitFor(/Renewable until \d{4}-\d\d-\d\d \(w, with the application secret\)/);
      await a.press("f");
      await a.waitFor("This sign-in has no refresh token: renew it, or sign in again.");
      await a.press("w");
      await a.waitFor("Renewed with the deprecated RenewToken");
      await a.waitFor(/Expires +expires in 30 days/);
      await a.press("r");
      await a.waitFor("The service accepts the token.");

      // Past its 15 days the expired token is of no use: the first call signs it out, saying why.
      // (Whichever call comes first says it: this one, or one the app had already sent.)
      await service.raw("POST", "/_emulator/clock", { body: { advance_seconds: 46 * DAY_S } });
      await a.press("r");
      await a.waitFor("not signed in: You were signed out");
      expect(a.store.getState().account.token?.reason).toMatch(
        /expired( on \S+)?, more than 15 days ago \(too late to renew\)\. Run `backroom login` to sign in again\.$/,
      );
      await a.press("w");
      await a.waitFor("Not signed in: b signs in in a browser, p with a personal token.");
    } finally {
      await service.raw("POST", "/_emulator/clock", { body: { advance_seconds: -86 * DAY_S } });
    }
  });

  it("signs in in a browser (PKCE) and shows the address to open, also for another machine", async () => {
    const conn = connection();
    const a = await open(conn);
    await a.waitFor("not signed in");
    await a.press("b");
    await a.waitFor(/Signed in as merchant \S+; kept in OS keychain/);
    await a.waitFor("every one backroom uses is granted");
    expect(a.store.getState().account.token).toMatchObject({ signedIn: true, kind: "oauth" });
  });

  it("says the whole of a long fact on lines under it, at 80 and 60 columns: the keychain's why is never cut", async () => {
    const conn = connection();
    await signIn(
      conn,
      LOGIN_SCOPES.map((s) => s.scope),
    );
    const account = {
      ...localAccount(service, conn, { scopeNeeds: LOGIN_SCOPES }),
      keychain: {
        kind: "memory" as const,
        describe:
          "not saved: keytar (the keychain module) is not installed, so sign-in lasts only while this backroom runs (set BACKROOM_ACCESS_TOKEN for scripts)",
      },
    };
    const a = await startApp({
      shared: service,
      client: conn.client,
      columns: 80,
      rows: 24,
      store: { account, clock: { now: clock } },
    });
    app = a;
    await a.waitFor("1 Time clock");
    await a.press("0");
    const whole =
      /Keychain +none: keytar .* sign-in lasts only while this backroom runs \(set BACKROOM_ACCESS_TOKEN for scripts\)/;
    const joined = (f: string) => f.replace(/\n {12}/g, " ");
    let frame = await a.waitFor((f) => whole.test(joined(f)) && f.includes("Permissions"));
    // No fact line is cut (the permission rows below may be: each is one row of a list).
    const facts = frame.split("\n").slice(
      2,
      frame.split("\n").findIndex((l) => /Permissions:/.test(l)),
    );
    expect(facts.filter((l) => l.endsWith("…"))).toEqual([]);
    a.stdout.resize(60, 24);
    frame = await a.waitFor((f) => whole.test(joined(f)) && f.split("\n").every((l) => l.length <= 60));
    expect(frame).toMatch(/^Keychain {4}none: keytar/m);
    expect(frame).toMatch(/^ {12}\S/m);
  });

  it("at 60×24 the facts scroll away as the cursor goes down the permissions, and the row under it reads whole", async () => {
    const conn = connection();
    await signIn(
      conn,
      LOGIN_SCOPES.map((s) => s.scope),
    );
    const a = await open(conn, { columns: 60 });
    await a.waitFor("Permissions: 15 of 15 that backroom uses");
    const scopeRows = (f: string) => f.split("\n").filter((l) => /^[ ›]✓ [A-Z_]+ /.test(l)).length;
    // The last permission: the facts have gone off the top, the list has their room.
    await a.press(...Array.from({ length: 15 }, () => KEYS.down));
    const f = await a.waitFor(/›✓ GIFTCARDS_WRITE/);
    expect(scopeRows(f)).toBeGreaterThanOrEqual(12);
    expect(f).not.toContain("Works on");
    // Its reason, cut on any other row, is whole under it.
    expect(f.replace(/\n {29}/g, " ")).toContain(
      "activating, loading and adjusting gift cards, clearing, blocking and deactivating them",
    );
    for (const line of f.split("\n")) expect(line.length).toBeLessThanOrEqual(60);
    // Back on the first row, every fact is in view again.
    await a.press("g");
    await a.waitFor((x) => x.includes("Works on") && x.includes("›Permissions: 15 of 15"));
  });

  it("started while the service cannot be reached: permissions not known, none called missing; read once it answers", async () => {
    const proxy = await startProxy(service.url);
    opened.push({ close: () => proxy.down().catch(() => {}) });
    // The app reaches the service through a proxy that is switched off.
    const conn = localConnection({ ...service, url: proxy.url });
    opened.push(conn.client);
    // A personal token from the environment: its permissions are known only from the service.
    await conn.session.signIn(
      { environment: "local", kind: "personal", access_token: service.service.accessToken, merchant_id: "" },
      "env",
    );
    const account = localAccount(service, conn, { scopeNeeds: LOGIN_SCOPES });
    await proxy.down();
    const timers = new VirtualTimers();
    const a = await startApp({
      shared: service,
      client: conn.client,
      columns: 80,
      rows: 24,
      store: { account, timers },
    });
    app = a;
    await a.waitFor("○ offline");
    await a.press("0");
    let frame = await a.waitFor(/Service +The service cannot be reached/);
    expect(frame).toContain("Permissions (not known yet: r asks the service)");
    expect(frame).not.toContain("MISSING");
    expect(frame).not.toContain("✗");
    expect(frame).toMatch(/^ \? MERCHANT_PROFILE_READ +the store's locations/m);
    // The service answers again: the screen asks about the token by itself, no key pressed.
    await proxy.up();
    timers.advance(OFFLINE_RETRY_SECONDS * 1000);
    frame = await a.waitFor("Service     The service accepts the token.");
    expect(frame).toContain("● online");
    expect(frame).toMatch(/Permissions: \d+ of \d+ that backroom uses/);
    await a.waitFor(/Business +\S.* · merchant \S+ · \d+ locations/);
  });

  it("on the demo store there is nothing to sign in to or out of, and says so", async () => {
    const a = await startApp({ shared: service, columns: 80, rows: 24 });
    app = a;
    await a.waitFor("1 Time clock");
    await a.press("0");
    await a.waitFor("Reading the sign-in…");
    await a.press("o");
    await a.waitFor("The sign-in is still being read.");
  });
});
