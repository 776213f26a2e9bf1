import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo, lockedKeytar, memoryKeytar } from "../../test/auth-helpers.js";
import { createTokenStore } from "../auth/token-store.js";
import { openOutbox, outboxPath } from "../local/outbox.js";
import { openDemoService } from "./demo-store.js";
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
const env = () => ({ HOME: dir, XDG_CONFIG_HOME: join(dir, "config") }) as Record<string, string>;

describe("command lines", () => {
  it("refuses unknown options, bad environments and stray arguments with the usage", async () => {
    for (const [run, argv, problem] of [
      [runLogin, ["--bogus"], "unknown option --bogus"],
      [runLogout, ["--env", "staging"], '--env must be one of demo, local, sandbox, production, not "staging"'],
      [runStatus, ["extra"], 'unexpected argument "extra"'],
      [runStatus, ["--env", "sandbox", "-e", "production"], "--env and -e are given more than once; give it once"],
      [
        runStatus,
        ["--base-url", "notaurl"],
        '--base-url must be an http(s) address such as http://127.0.0.1:8080, not "notaurl"',
      ],
    ] as const) {
      const cap = captureIo(env());
      expect(await run([...argv], cap.io, { keytar: null })).toBe(2);
      expect(
        cap
          .stderr()
          .startsWith(
            `backroom ${run === runLogin ? "login" : run === runLogout ? "logout" : "status"}: ${problem}\n\nusage: backroom`,
          ),
      ).toBe(true);
      expect(cap.stdout()).toBe("");
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
  it("on the demo store says where it is kept and that no sign-in is needed", async () => {
    const cap = captureIo(env());
    expect(await runStatus([], cap.io, { keytar: lockedKeytar() })).toBe(0);
    expect(cap.stdout()).toMatch(/^Store: +DEMO: the demo store/m);
    expect(cap.stdout()).toMatch(/^Chosen by: +the default/m);
    expect(cap.stdout()).toContain(
      `${join(dir, ".local", "share", "backroom", "demo.db")} (made and seeded on first use`,
    );
    const json = captureIo(env());
    expect(await runStatus(["--json", "--db", ":memory:"], json.io, { keytar: lockedKeytar() })).toBe(0);
    expect(JSON.parse(json.stdout())).toEqual({
      store: "DEMO",
      environment: "local",
      from: "--db",
      dbPath: ":memory:",
      exists: false,
      signInNeeded: false,
      kept: [],
    });
  });

  it("on the demo store says when the config's default location is none of the store's, the id apart", async () => {
    await mkdir(join(dir, "config", "backroom"), { recursive: true });
    const file = join(dir, "config", "backroom", "config.json");
    await writeFile(file, JSON.stringify({ defaultLocationId: "NOPE" }));
    const words = `the default location in the config is none of this store's (it has: Main Street, Harbour Dock); fix defaultLocationId in ${file}`;
    // Before the demo store's file is made: the seed's locations, and the file is not made.
    const fresh = captureIo(env());
    expect(await runStatus([], fresh.io, { keytar: lockedKeytar() })).toBe(1);
    expect(fresh.stdout()).toContain(`\nLocation:  ${words}\nDetails:   defaultLocationId "NOPE"\n`);
    expect(existsSync(join(dir, ".local", "share", "backroom", "demo.db"))).toBe(false);
    // A store's file that exists is asked.
    const db = join(dir, "demo.db");
    await (await openDemoService(db)).close();
    const json = captureIo(env());
    expect(await runStatus(["--db", db, "--json"], json.io, { keytar: lockedKeytar() })).toBe(1);
    expect(JSON.parse(json.stdout())).toMatchObject({ defaultLocationId: "NOPE", defaultLocationProblem: words });
    await writeFile(file, JSON.stringify({ defaultLocationId: "harbour dock" }));
    const named = captureIo(env());
    expect(await runStatus(["--db", db], named.io, { keytar: lockedKeytar() })).toBe(0);
    expect(named.stdout()).not.toMatch(/^Location:/m);
  });

  it("without a sign-in says so, how to sign in, and — with no keychain — how to give a token instead", async () => {
    const sandbox = captureIo(env());
    expect(await runStatus(["--env", "sandbox"], sandbox.io, { keytar: lockedKeytar() })).toBe(1);
    expect(sandbox.stdout()).toMatch(/^Signed in: +no$/m);
    expect(sandbox.stdout()).toMatch(
      /^Why: +Not signed in\. Run `backroom login` to sign in\. There is no working OS keychain here, so `backroom login` cannot keep a sign-in; set BACKROOM_ACCESS_TOKEN \(a personal access token for sandbox\) instead\.$/m,
    );
    expect(sandbox.stdout()).toMatch(
      /^Kept in: +not saved: the OS keychain is locked or does not keep entries, so sign-in lasts only while this backroom runs/m,
    );
    const kept = captureIo(env());
    expect(await runStatus(["--env", "sandbox"], kept.io, { keytar: memoryKeytar() })).toBe(1);
    expect(kept.stdout()).toMatch(/^Why: +Not signed in\. Run `backroom login` to sign in\.$/m);
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
        "Chosen by:   --env",
        "Merchant:    ML9",
        "Token:       …abcd (OAuth; renews itself before it expires)",
        "Scopes:      ITEMS_READ, TIMECARDS_READ",
        "Expires:     2024-03-20T12:00:00Z (in 19 days)",
        'Kept in:     OS keychain (service "backroom")',
        "Outbox:      nothing kept on this machine",
        "",
      ].join("\n"),
    );
    const json = captureIo(env());
    expect(await runStatus(["--env", "sandbox", "--offline", "--json"], json.io, { keytar, clock })).toBe(0);
    expect(JSON.parse(json.stdout())).toMatchObject({
      store: "SANDBOX",
      signedIn: true,
      merchantId: "ML9",
      tokenHint: "…abcd",
    });
    expect(json.stdout()).not.toContain("EAAAl-stored-token-abcd");
  });
});

describe("backroom login without what it needs", () => {
  it("the demo store has nothing to log in to", async () => {
    const cap = captureIo(env());
    expect(await runLogin([], cap.io, { keytar: memoryKeytar() })).toBe(1);
    expect(cap.stderr()).toContain("the demo store signs backroom in by itself; there is nothing to log in to");
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

  it("lists the changes kept on this machine for where it works, in the order they go, refusals with why", async () => {
    const box = await openOutbox(outboxPath(join(dir, ".local", "share", "backroom")));
    const service = "sandbox https://connect.squareupsandbox.com";
    const keep = (label: string, key: string, at: string) =>
      box.add(
        {
          service,
          idempotencyKey: key,
          write: { kind: "delete-shift", memberId: "TM1", shiftId: key, startAt: at },
          label,
          baseVersion: undefined,
          actedAt: at,
          actor: "ana",
          locationId: undefined,
          state: "kept",
        },
        at,
      );
    keep("Clock in Ana Lopez at 09:00", "k1", "2024-03-01T09:00:00Z");
    const refused = keep("Start Lunch for Ana Lopez at 11:00", "k2", "2024-03-01T11:00:00Z");
    box.markRefused(
      refused.seq,
      "Start Lunch for Ana Lopez at 11:00: it was changed elsewhere meanwhile.",
      "CONFLICT",
      "2024-03-01T12:00:00Z",
    );
    // Another service's writes are not listed.
    box.add(
      { ...refused, service: "production https://connect.squareup.com", idempotencyKey: "k3", state: "kept" },
      "2024-03-01T12:00:00Z",
    );
    box.close();
    const cap = captureIo({ ...env(), TZ: "UTC" });
    expect(await runStatus(["--env", "sandbox", "--offline"], cap.io, { keytar: memoryKeytar() })).toBe(1);
    const out = cap.stdout();
    expect(out).toMatch(
      /^Outbox: +2 changes kept on this machine, not sent yet \(1 refused, to resolve in the app: !\)/m,
    );
    const lines = out.split("\n").filter((l) => /^ {2}#/.test(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ {2}#1 {2}kept +\d{4}-\d\d-\d\d \d\d:\d\d {2}Clock in Ana Lopez at 09:00$/);
    expect(lines[1]).toMatch(/^ {2}#2 {2}to resolve .*Start Lunch for Ana Lopez at 11:00$/);
    expect(out).toContain("      Start Lunch for Ana Lopez at 11:00: it was changed elsewhere meanwhile.");
  });
});
