// The sign-in commands against the real local service: personal tokens (flag and hidden prompt),
// logout when revoking fails, and the plain warning when no keychain works.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTokenStore } from "../src/auth/token-store.js";
import type { CommandIo } from "../src/commands/io.js";
import { runLogin } from "../src/commands/login.js";
import { runLogout } from "../src/commands/logout.js";
import { runStatus } from "../src/commands/status.js";
import { captureIo, lockedKeytar, memoryKeytar } from "./auth-helpers.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
let dir: string;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "backroom-cmds-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ HOME: dir, XDG_CONFIG_HOME: join(dir, "config") });
const follow = async (url: string) => {
  const consent = await request(url);
  await consent.body.text();
  await (await request(String(consent.headers.location))).body.text();
  return true;
};

describe("backroom login --token", () => {
  it("checks a personal token with the service, stores it, remembers the environment, and logs out locally", async () => {
    const keytar = memoryKeytar();
    const cap = captureIo(env());
    const code = await runLogin(["--env", "local", "--base-url", svc.url, "--token", svc.service.accessToken], cap.io, {
      keytar,
      maxRetries: 0,
    });
    expect(cap.stderr()).toBe("");
    expect(code).toBe(0);
    expect(cap.stdout()).toContain(`Signed in to local as merchant ${svc.service.merchantId} (token …`);
    const stored = await createTokenStore({ keytar }).load("local");
    expect(stored).toMatchObject({
      kind: "personal",
      access_token: svc.service.accessToken,
      merchant_id: svc.service.merchantId,
    });
    const config = JSON.parse(await readFile(join(dir, "config", "backroom", "config.json"), "utf8"));
    expect(config).toEqual({ environment: "local", baseUrl: svc.url });

    const status = captureIo(env());
    expect(await runStatus([], status.io, { keytar, maxRetries: 0 })).toBe(0);
    expect(status.stdout()).toMatch(/^Token: +…\S{4} \(personal access token\)$/m);
    expect(status.stdout()).toMatch(/^Service: +checked with the service$/m);

    const out = captureIo(env());
    expect(await runLogout([], out.io, { keytar, maxRetries: 0 })).toBe(0);
    expect(out.stdout()).toContain("the personal access token was removed from the OS keychain");
    expect(keytar.entries.size).toBe(0);
  });

  it("reads the token from the terminal without echoing it", async () => {
    const keytar = memoryKeytar();
    const stdin = Object.assign(new PassThrough(), {
      isTTY: true,
      raw: [] as boolean[],
      setRawMode(this: { raw: boolean[] }, on: boolean) {
        this.raw.push(on);
      },
    });
    const cap = captureIo(env());
    const io: CommandIo = { ...cap.io, stdin };
    const done = runLogin(["--env", "local", "--base-url", svc.url, "--token"], io, { keytar, maxRetries: 0 });
    // A typo corrected with backspace, then Enter on its own, as a terminal sends it.
    stdin.write(`${svc.service.accessToken}X`);
    stdin.write("\u007f");
    stdin.write("\r");
    expect(await done).toBe(0);
    expect(stdin.raw).toEqual([true, false]);
    expect(cap.stderr()).toBe("Personal access token (not shown): \n");
    expect(cap.all()).not.toContain(svc.service.accessToken);
    expect((await createTokenStore({ keytar }).load("local"))?.access_token).toBe(svc.service.accessToken);
  });
});

describe("backroom login --token without a keychain", () => {
  it("checks the token, then says plainly it was not kept and how to use BACKROOM_ACCESS_TOKEN (exit 1)", async () => {
    const keytar = lockedKeytar();
    // A config that names another place stays as it was.
    const configFile = join(dir, "config", "backroom", "config.json");
    const before = '{ "environment": "sandbox" }\n';
    await mkdir(dirname(configFile), { recursive: true });
    await writeFile(configFile, before);
    const login = captureIo(env());
    const code = await runLogin(
      ["--env", "local", "--base-url", svc.url, "--token", svc.service.accessToken],
      login.io,
      {
        keytar,
        maxRetries: 0,
      },
    );
    expect(code).toBe(1);
    expect(login.stderr()).toContain(
      `the token works (merchant ${svc.service.merchantId}), but the sign-in was NOT kept`,
    );
    expect(login.stderr()).toContain("set BACKROOM_ACCESS_TOKEN to it in the environment of each backroom command");
    expect(login.stderr()).toContain(`The config file was left as it was, since nothing was signed in.`);
    expect(login.stderr()).toContain(`and pass --env local --base-url ${svc.url} to each.`);
    expect(login.stdout()).not.toContain("Signed in");
    expect(login.stdout()).not.toContain("Saved the environment");
    expect(login.all()).not.toContain(svc.service.accessToken);
    expect(await readFile(configFile, "utf8")).toBe(before);

    // With the token in the environment, the same place works: status says signed in.
    const status = captureIo({ ...env(), BACKROOM_ACCESS_TOKEN: svc.service.accessToken });
    expect(await runStatus(["--env", "local", "--base-url", svc.url], status.io, { keytar, maxRetries: 0 })).toBe(0);
    expect(status.stdout()).toMatch(/^Service: +checked with the service$/m);

    const refused = captureIo(env());
    expect(
      await runLogin(["--env", "local", "--base-url", svc.url, "--token", "EAAAl-not-a-token"], refused.io, {
        keytar,
        maxRetries: 0,
      }),
    ).toBe(1);
    expect(refused.stderr()).toContain("refused the token (UNAUTHORIZED); nothing was stored");
  });
});

describe("backroom login with OAuth, then logout", () => {
  it("still removes the sign-in when revoking fails, says so, and exits 1", async () => {
    const keytar = memoryKeytar();
    const deps = { keytar, openUrl: follow, maxRetries: 0, loginTimeoutMs: 10_000 };
    const login = captureIo(env());
    const args = ["--env", "local", "--base-url", svc.url, "--client-id", svc.service.clientId];
    expect(await runLogin([...args, "--scopes", "TIMECARDS_READ"], login.io, deps)).toBe(0);
    expect(login.stdout()).toContain("(opened in your browser)");
    expect((await createTokenStore({ keytar }).load("local"))?.scopes).toEqual(["TIMECARDS_READ"]);

    const out = captureIo(env());
    expect(await runLogout(["--client-secret", "sq0csp-wrong-secret-000"], out.io, deps)).toBe(1);
    expect(out.stderr()).toMatch(
      /^Signed out locally \(removed from the OS keychain\), but the access was NOT revoked at the service: UNAUTHORIZED/,
    );
    expect(out.all()).not.toContain("sq0csp-wrong-secret-000");
    expect(keytar.entries.size).toBe(0);
  });

  it("without a keychain refuses OAuth before opening a browser, and says how to use a token instead", async () => {
    const opened: string[] = [];
    const login = captureIo(env());
    const code = await runLogin(
      ["--env", "local", "--base-url", svc.url, "--client-id", svc.service.clientId, "--port", "0"],
      login.io,
      {
        keytar: lockedKeytar(),
        maxRetries: 0,
        loginTimeoutMs: 200,
        openUrl: async (u) => {
          opened.push(u);
          return true;
        },
      },
    );
    expect(code).toBe(1);
    expect(opened).toEqual([]);
    expect(login.stdout()).toBe("");
    expect(login.stderr()).toContain("backroom login: there is no working OS keychain here");
    expect(login.stderr()).toContain("Nothing was started");
    expect(login.stderr()).toContain("set BACKROOM_ACCESS_TOKEN");
  });
});
