import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo, lockedKeytar, memoryKeytar } from "../../test/auth-helpers.js";
import { createTokenStore } from "../auth/token-store.js";
import { runLogin } from "./login.js";
import { runLogout } from "./logout.js";
import { runStatus } from "./status.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "backroom-cmd-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
const env = () => ({ HOME: dir, XDG_CONFIG_HOME: join(dir, "config") });

describe("command lines", () => {
  it("refuses unknown options and bad environments with the usage", async () => {
    for (const [run, argv] of [
      [runLogin, ["--bogus"]],
      [runLogout, ["--env", "staging"]],
      [runStatus, ["extra"]],
    ] as const) {
      const cap = captureIo(env());
      expect(await run([...argv], cap.io, { keytar: null })).toBe(2);
      expect(cap.stderr()).toMatch(
        /^backroom \w+: (unknown option --bogus|--env must be one of local, sandbox, production|unexpected argument "…")\nusage: backroom/,
      );
    }
  });

  it("prints the usage with --help", async () => {
    const cap = captureIo(env());
    expect(await runLogin(["--help"], cap.io, { keytar: null })).toBe(0);
    expect(cap.stdout()).toContain("usage: backroom login");
  });

  it("reports a malformed config file by name and field", async () => {
    await mkdir(join(dir, "config", "backroom"), { recursive: true });
    const file = join(dir, "config", "backroom", "config.json");
    await writeFile(file, '{"environment": "prod"}');
    const cap = captureIo(env());
    expect(await runStatus([], cap.io, { keytar: null })).toBe(1);
    expect(cap.stderr()).toBe(`backroom: ${file}: field "environment" must be one of local, sandbox, production\n`);
  });
});

describe("backroom status", () => {
  it("without a sign-in says so, how to sign in, and where tokens would be kept", async () => {
    const cap = captureIo(env());
    expect(await runStatus([], cap.io, { keytar: lockedKeytar() })).toBe(1);
    expect(cap.stdout()).toMatch(/^Environment: +local \(the local service `npm start` runs\)$/m);
    expect(cap.stdout()).toMatch(/^Signed in: +no$/m);
    expect(cap.stdout()).toMatch(
      /^Why: +`npm start` signs in to its own local service by itself; for one running elsewhere/m,
    );
    const sandbox = captureIo(env());
    expect(await runStatus(["--env", "sandbox"], sandbox.io, { keytar: lockedKeytar() })).toBe(1);
    expect(sandbox.stdout()).toMatch(/^Why: +Not signed in\. Run `backroom login` to sign in\.$/m);
    expect(cap.stdout()).toMatch(
      /^Kept in: +not saved: the OS keychain is locked or does not keep entries, so sign-in lasts only while this backroom runs/m,
    );
  });

  it("shows a stored sign-in offline: merchant, masked token, scopes, expiry, keychain", async () => {
    const keytar = memoryKeytar();
    await createTokenStore({ keytar }).save({
      environment: "sandbox",
      kind: "oauth",
      access_token: "EAAAl-stored-token-abcd",
      refresh_token: "EQAA-stored-refresh-wxyz",
      expires_at: "2024-03-20T12:00:00Z",
      merchant_id: "ML9",
      scopes: ["ITEMS_READ", "TIMECARDS_READ"],
    });
    const cap = captureIo(env());
    const clock = { now: () => Date.parse("2024-03-01T12:00:00Z") };
    expect(await runStatus(["--env", "sandbox", "--offline"], cap.io, { keytar, clock })).toBe(0);
    expect(cap.stdout()).toBe(
      [
        "Environment: sandbox (https://connect.squareupsandbox.com)",
        "Merchant:    ML9",
        "Token:       …abcd (OAuth; renews itself before it expires)",
        "Scopes:      ITEMS_READ, TIMECARDS_READ",
        "Expires:     2024-03-20T12:00:00Z (in 19 days)",
        'Kept in:     OS keychain (service "backroom")',
        "",
      ].join("\n"),
    );
    const json = captureIo(env());
    expect(await runStatus(["--env", "sandbox", "--offline", "--json"], json.io, { keytar, clock })).toBe(0);
    expect(JSON.parse(json.stdout())).toMatchObject({ signedIn: true, merchantId: "ML9", tokenHint: "…abcd" });
    expect(json.stdout()).not.toContain("EAAAl-stored-token-abcd");
  });
});

describe("backroom login without what it needs", () => {
  it("the local environment needs an address outside npm start", async () => {
    const cap = captureIo(env());
    expect(await runLogin([], cap.io, { keytar: memoryKeytar() })).toBe(1);
    expect(cap.stderr()).toContain("`npm start` signs in to its own local service by itself");
  });

  it("OAuth needs the application id", async () => {
    const cap = captureIo(env());
    expect(await runLogin(["--env", "sandbox"], cap.io, { keytar: memoryKeytar() })).toBe(1);
    expect(cap.stderr()).toContain(
      "signing in with OAuth needs the application id: pass --client-id or set applicationId in",
    );
  });
});

describe("backroom logout", () => {
  it("with nothing signed in has nothing to do", async () => {
    const cap = captureIo(env());
    expect(await runLogout(["--env", "sandbox"], cap.io, { keytar: memoryKeytar() })).toBe(0);
    expect(cap.stdout()).toBe("Not signed in to sandbox; nothing to do.\n");
  });
});
