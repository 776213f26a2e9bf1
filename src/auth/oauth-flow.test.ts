import { request } from "undici";
import { describe, expect, it } from "vitest";
import {
  AuthorizeError,
  answerRedirect,
  buildAuthorizeUrl,
  createPkcePair,
  newState,
  pkceChallenge,
  startLoopbackListener,
} from "./oauth-flow.js";

const get = async (url: string) => {
  const res = await request(url);
  return { status: res.statusCode, text: await res.body.text() };
};

describe("PKCE", () => {
  it("computes the S256 challenge of RFC 7636's example", () => {
    expect(pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });
  it("mints a 43-character verifier with its challenge, different each time", () => {
    const a = createPkcePair();
    const b = createPkcePair();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.challenge).toBe(pkceChallenge(a.verifier));
    expect(a.verifier).not.toBe(b.verifier);
    expect(newState()).not.toBe(newState());
  });
});

describe("buildAuthorizeUrl", () => {
  it("carries the client, scopes, state, redirect and S256 challenge", () => {
    const url = new URL(
      buildAuthorizeUrl({
        baseUrl: "http://127.0.0.1:4010",
        clientId: "sq0idp-app",
        scopes: ["ITEMS_READ", "TIMECARDS_WRITE"],
        state: "st-1",
        redirectUri: "http://127.0.0.1:5555/callback",
        codeChallenge: "ch",
      }),
    );
    expect(url.origin + url.pathname).toBe("http://127.0.0.1:4010/oauth2/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "sq0idp-app",
      scope: "ITEMS_READ TIMECARDS_WRITE",
      state: "st-1",
      redirect_uri: "http://127.0.0.1:5555/callback",
      code_challenge: "ch",
      code_challenge_method: "S256",
    });
  });
});

describe("loopback listener", () => {
  it("listens on 127.0.0.1 only and hands over the code of the redirect carrying its state, once", async () => {
    const listener = await startLoopbackListener({ state: "good-state" });
    expect(listener.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const other = await get(listener.redirectUri.replace("/callback", "/favicon.ico"));
    expect(other.status).toBe(404);
    const res = await get(`${listener.redirectUri}?code=the-code&state=good-state`);
    expect(res.status).toBe(200);
    expect(res.text).toContain("Signed in");
    await expect(listener.code).resolves.toBe("the-code");
    // One-shot: the port is closed afterwards.
    await expect(get(`${listener.redirectUri}?code=again&state=good-state`)).rejects.toThrow();
  });

  it("refuses an answer with another state and stores nothing", async () => {
    const listener = await startLoopbackListener({ state: "mine" });
    const res = await get(`${listener.redirectUri}?code=stolen&state=someone-elses`);
    expect(res.status).toBe(400);
    const err = await listener.code.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthorizeError);
    expect((err as AuthorizeError).code).toBe("state_mismatch");
    expect((err as Error).message).not.toContain("stolen");
  });

  it("reports a denied consent with the service's reason", async () => {
    const listener = await startLoopbackListener({ state: "s" });
    await get(`${listener.redirectUri}?state=s&error=access_denied&error_description=user+denied`);
    await expect(listener.code).rejects.toMatchObject({
      code: "denied",
      message: expect.stringContaining("user denied"),
    });
  });

  it("gives up after its timeout and when aborted", async () => {
    const slow = await startLoopbackListener({ state: "s", timeoutMs: 20 });
    await expect(slow.code).rejects.toMatchObject({ code: "timeout" });
    const ac = new AbortController();
    const aborted = await startLoopbackListener({ state: "s", signal: ac.signal });
    ac.abort();
    await expect(aborted.code).rejects.toMatchObject({ code: "cancelled" });
    await expect(get(aborted.redirectUri)).rejects.toThrow();
  });
});

describe("answerRedirect", () => {
  const q = (fields: Record<string, string>) => new URLSearchParams(fields);
  const errorOf = (a: ReturnType<typeof answerRedirect>) => ("error" in a.outcome ? a.outcome.error : undefined);

  it("hands over the code of a redirect carrying this sign-in's state", () => {
    const a = answerRedirect(q({ state: "s1", code: "c1" }), "s1");
    expect(a).toMatchObject({ status: 200, title: "Signed in", outcome: { code: "c1" } });
  });

  it("refuses another state before reading anything else, even a code or an error", () => {
    for (const fields of [{ state: "s2", code: "c1" }, { state: "s2", error: "access_denied" }, { code: "c1" }]) {
      const a = answerRedirect(q(fields), "s1");
      expect(a.status).toBe(400);
      expect(errorOf(a)?.code).toBe("state_mismatch");
      expect(a.outcome).not.toHaveProperty("code");
    }
  });

  it("says a refusal with the service's reason, cut to 200 characters, and a redirect with no code", () => {
    const denied = answerRedirect(q({ state: "s1", error: "access_denied", error_description: "x".repeat(300) }), "s1");
    expect(errorOf(denied)?.code).toBe("denied");
    expect(errorOf(denied)?.message).toContain(`(${"x".repeat(200)})`);
    expect(errorOf(denied)?.message).not.toContain("x".repeat(201));
    expect(errorOf(answerRedirect(q({ state: "s1", error: "access_denied" }), "s1"))?.message).toContain(
      "(access_denied)",
    );
    const empty = answerRedirect(q({ state: "s1" }), "s1");
    expect(empty.text).toBe("The answer carried no authorization code.");
    expect(errorOf(empty)).toBeInstanceOf(AuthorizeError);
    expect(errorOf(empty)?.code).toBe("no_code");
  });
});
