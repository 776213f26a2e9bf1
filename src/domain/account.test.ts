import { describe, expect, it } from "vitest";
import {
  refreshUnavailable,
  renewUnavailable,
  scopeReport,
  signOutQuestion,
  signOutUnavailable,
  spanInWords,
  type TokenFacts,
  tokenLife,
  tokenPhase,
} from "./account.js";

const DAY = 86_400_000;
const issued = Date.parse("2026-03-01T10:00:00Z");
const expiresAt = new Date(issued + 30 * DAY).toISOString();
const at = (days: number) => new Date(issued + days * DAY);
const oauth: TokenFacts = { kind: "oauth", expiresAt, hasRefreshToken: true, fromEnvironment: false };
const means = { applicationId: "sq0idp-app", hasSecret: true };

describe("spanInWords", () => {
  it("uses the largest unit that fits, rounded down, singular for one", () => {
    expect(spanInWords(12 * DAY + 5_000)).toBe("12 days");
    expect(spanInWords(-DAY)).toBe("1 day");
    expect(spanInWords(5 * 3_600_000 + 59 * 60_000)).toBe("5 hours");
    expect(spanInWords(10_000)).toBe("1 minute");
  });
});

describe("tokenLife", () => {
  it("says when a fresh OAuth token expires and that backroom refreshes it in its last week", () => {
    expect(tokenLife(oauth, at(18))).toEqual({
      phase: "valid",
      headline: "expires in 12 days",
      rule: "Access tokens last 30 days; backroom refreshes this one on its first call once fewer than 7 days are left.",
    });
    expect(tokenLife(oauth, new Date(issued + 5_000)).headline).toBe("expires in 30 days");
    expect(tokenPhase(expiresAt, at(22.9))).toBe("valid");
    expect(tokenPhase(expiresAt, at(23))).toBe("refresh-due");
  });

  it("within 15 days after expiry: renewable until a day it names; past that, expired for good", () => {
    const noRefresh = { ...oauth, hasRefreshToken: false };
    const renewable = tokenLife(noRefresh, at(40));
    expect(renewable).toMatchObject({ phase: "renewable", headline: "expired 10 days ago" });
    expect(renewable.renewableUntil).toBe("2026-04-15T10:00:00.000Z");
    expect(renewable.rule).toMatch(/renewed \(deprecated RenewToken\) within 15 days of expiring/);
    expect(tokenPhase(expiresAt, at(45))).toBe("renewable");
    const gone = tokenLife(noRefresh, at(45.1));
    expect(gone).toMatchObject({ phase: "expired", headline: "expired 15 days ago" });
    expect(gone.rule).toMatch(/more than 15 days ago and can no longer be renewed/);
  });

  it("a personal token lasts until replaced; one from the environment is never renewed here", () => {
    expect(tokenLife({ ...oauth, kind: "personal", expiresAt: undefined }, at(1))).toMatchObject({
      phase: "lasting",
      headline: "does not expire",
      rule: "A personal access token lasts until it is replaced in the Developer Dashboard.",
    });
    expect(tokenLife({ ...oauth, fromEnvironment: true }, at(1)).rule).toMatch(
      /BACKROOM_ACCESS_TOKEN .* never renewed/,
    );
  });
});

describe("renewUnavailable", () => {
  it("renews an OAuth token expired less than 15 days ago with the application secret", () => {
    expect(renewUnavailable(oauth, means, at(31))).toBeUndefined();
    expect(renewUnavailable(oauth, means, at(45))).toBeUndefined();
  });

  it("says why not: too late, too early, no secret, no application id, not OAuth", () => {
    expect(renewUnavailable(oauth, means, at(46))).toMatch(/more than 15 days ago.*sign in again/);
    expect(renewUnavailable(oauth, means, at(10))).toBe("The token has not expired: refresh it instead.");
    expect(renewUnavailable(oauth, { ...means, hasSecret: false }, at(31))).toMatch(/BACKROOM_CLIENT_SECRET/);
    expect(renewUnavailable(oauth, { ...means, applicationId: undefined }, at(31))).toMatch(/application id/);
    expect(renewUnavailable({ ...oauth, kind: "personal" }, means, at(31))).toMatch(/personal token/);
    expect(renewUnavailable({ ...oauth, fromEnvironment: true }, means, at(31))).toMatch(/BACKROOM_ACCESS_TOKEN/);
  });
});

describe("refreshUnavailable", () => {
  it("refreshes an OAuth sign-in with a refresh token, and says why not otherwise", () => {
    expect(refreshUnavailable(oauth, "sq0idp-app")).toBeUndefined();
    expect(refreshUnavailable({ ...oauth, hasRefreshToken: false }, "sq0idp-app")).toMatch(/no refresh token/);
    expect(refreshUnavailable(oauth, undefined)).toMatch(/application id/);
    expect(refreshUnavailable({ ...oauth, kind: "personal" }, "x")).toMatch(/personal access token/);
  });
});

describe("scopeReport", () => {
  const needs = [
    { scope: "TIMECARDS_READ", why: "shifts" },
    { scope: "CUSTOMERS_READ", why: "customer lookup" },
  ];

  it("marks each needed permission granted or missing, and lists the extra ones", () => {
    expect(scopeReport(needs, ["TIMECARDS_READ", "PAYMENTS_WRITE"])).toEqual({
      lines: [
        { scope: "TIMECARDS_READ", why: "shifts", granted: true },
        { scope: "CUSTOMERS_READ", why: "customer lookup", granted: false },
      ],
      missing: ["CUSTOMERS_READ"],
      extra: ["PAYMENTS_WRITE"],
      unknown: false,
    });
  });

  it("claims nothing missing while the token's permissions are unknown", () => {
    expect(scopeReport(needs, undefined)).toMatchObject({ missing: [], unknown: true });
  });
});

describe("signing out", () => {
  const facts = {
    kind: "oauth" as const,
    fromEnvironment: false,
    demo: false,
    hasSecret: true,
    storage: "the OS keychain",
  };

  it("says before it is done that every token of the account is revoked, or why they are not", () => {
    expect(signOutQuestion(facts)).toMatch(/revokes every token of this account for backroom's application/);
    expect(signOutQuestion({ ...facts, hasSecret: false })).toMatch(
      /cannot be revoked: they keep working until they expire/,
    );
    expect(signOutQuestion({ ...facts, kind: "personal" })).toMatch(/stays valid until it is replaced/);
  });

  it("is not offered for the demo store, a token from the environment, or nobody signed in", () => {
    expect(signOutUnavailable(facts, true)).toBeUndefined();
    expect(signOutUnavailable({ ...facts, demo: true }, true)).toMatch(/demo store signs itself in/);
    expect(signOutUnavailable({ ...facts, fromEnvironment: true }, true)).toMatch(/unset that variable/);
    expect(signOutUnavailable(facts, false)).toBe("Not signed in.");
  });
});
