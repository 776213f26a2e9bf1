import { describe, expect, it } from "vitest";
import {
  type AccountEvent,
  type AccountSetup,
  type AccountState,
  accountReducer,
  accountView,
  initialAccount,
  type TokenView,
} from "./account-machine.js";

const now = new Date("2026-03-10T12:00:00Z");
const setup = (over: Partial<AccountSetup> = {}): AccountSetup => ({
  where: {
    label: "SANDBOX",
    environment: "sandbox",
    baseUrl: "https://x",
    from: "--env",
    configPath: undefined,
    dbPath: undefined,
  },
  applicationId: "sq0idp-app",
  hasSecret: true,
  keychain: { kind: "keychain", describe: "OS keychain" },
  scopeNeeds: [{ scope: "TIMECARDS_READ", why: "shifts" }],
  ...over,
});
const token = (over: Partial<TokenView> = {}): TokenView => ({
  signedIn: true,
  reason: undefined,
  kind: "oauth",
  source: "keychain",
  merchantId: "M1",
  scopes: ["TIMECARDS_READ"],
  expiresAt: "2026-03-30T12:00:00Z",
  hasRefreshToken: true,
  hint: "…abcd",
  storage: 'OS keychain (service "backroom")',
  ...over,
});
const run = (events: AccountEvent[]): AccountState => events.reduce(accountReducer, initialAccount);

describe("accountView", () => {
  it("offers refresh and sign-out to an OAuth sign-in in the keychain, and says what sign-out revokes", () => {
    const v = accountView(
      run([
        { type: "setup", setup: setup() },
        { type: "token", token: token() },
      ]),
      now,
    );
    expect(v.life?.headline).toBe("expires in 20 days");
    expect(v.unavailable).toEqual({
      signInBrowser: undefined,
      signInToken: undefined,
      signOut: undefined,
      refresh: undefined,
      renew: "The token has not expired: refresh it instead.",
    });
    expect(v.signOutQuestion).toMatch(/removes the sign-in from OS keychain \(service "backroom"\)\.$/);
  });

  it("a sign-in kept in memory is removed from this run, not from a keychain", () => {
    const v = accountView(
      run([
        { type: "setup", setup: setup({ keychain: { kind: "memory", describe: "not saved: no keychain" } }) },
        { type: "token", token: token({ kind: "personal", source: "memory", storage: "not saved: no keychain" }) },
      ]),
      now,
    );
    expect(v.signOutQuestion).toBe(
      "Sign out? The personal access token is removed from this backroom (it was never saved); it stays valid until it is replaced in the Developer Dashboard.",
    );
  });

  it("on the demo store nothing signs in or out; before the setup nothing is offered; while busy nothing else", () => {
    const demo = accountView(
      run([
        { type: "setup", setup: setup({ where: { ...setup().where, label: "DEMO" } }) },
        { type: "token", token: token({ kind: "personal", source: "local-demo" }) },
      ]),
      now,
    );
    expect(demo.unavailable.signInToken).toMatch(/demo store signs itself in/);
    expect(demo.unavailable.signOut).toMatch(/demo store signs itself in/);
    expect(accountView(initialAccount, now).unavailable.signOut).toBe("The sign-in is still being read.");
    const busy = accountView(
      run([
        { type: "setup", setup: setup() },
        { type: "token", token: token() },
        { type: "busy", what: "refresh" },
      ]),
      now,
    );
    expect(busy.unavailable.refresh).toBe("Wait for the step in progress to finish.");
  });

  it("signed out: the steps that need a sign-in say which keys sign in", () => {
    const v = accountView(
      run([
        { type: "setup", setup: setup({ applicationId: undefined }) },
        { type: "token", token: token({ signedIn: false }) },
      ]),
      now,
    );
    expect(v.unavailable.refresh).toBe("Not signed in: b signs in in a browser, p with a personal token.");
    expect(v.unavailable.signInBrowser).toMatch(/needs the application id/);
    expect(v.life).toBeUndefined();
  });
});

describe("accountReducer", () => {
  it("a failed step keeps the sign-in form open with its problem; a success closes it", () => {
    let s = run([{ type: "sign-in-open" }, { type: "sign-in-pick", how: "token" }, { type: "token-checking" }]);
    expect(s.signIn).toEqual({ step: "token", checking: true, problem: undefined });
    s = accountReducer(s, { type: "sign-in-failed", problem: "refused" });
    expect(s.signIn).toEqual({ step: "token", checking: false, problem: "refused" });
    s = accountReducer(s, { type: "done", ok: true, text: "Signed in" });
    expect(s.signIn).toEqual({ step: "none" });
    expect(s.outcome).toEqual({ ok: true, text: "Signed in" });
  });
});
