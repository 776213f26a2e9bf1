// Runs login, a refresh, failed calls, the script commands (stocktake journal, CSV and JSON
// exports) and logout as a user would, with HOME and the XDG
// directories in a temporary folder, then looks for every secret in every file written there
// and in everything printed: none may appear (a masked token shows at most its last 4 characters).
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { KeytarLike } from "../src/auth/token-store.js";
import { runCustomersSearch } from "../src/commands/customers.js";
import { runDrawersReport } from "../src/commands/drawers.js";
import { runLogin } from "../src/commands/login.js";
import { runLogout } from "../src/commands/logout.js";
import { runShiftsExport } from "../src/commands/shifts-export.js";
import { runStatus } from "../src/commands/status.js";
import { runStocktakeImport } from "../src/commands/stocktake-import.js";
import { captureIo, memoryKeytar } from "./auth-helpers.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
let root: string;
beforeAll(async () => {
  svc = await startService();
  root = await mkdtemp(join(tmpdir(), "backroom-noleak-"));
});
afterAll(async () => {
  await svc.close();
  await rm(root, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

it("never writes or prints a token, refresh token, code or secret", async () => {
  const secrets = new Set<string>([svc.service.accessToken, svc.service.clientSecret]);
  // The stand-in for the OS keychain records every value handed to it, to learn each token.
  const inner = memoryKeytar();
  const keytar: KeytarLike = {
    ...inner,
    async setPassword(service, account, password) {
      if (password.startsWith("{")) {
        const v = JSON.parse(password) as { access_token?: string; refresh_token?: string };
        if (v.access_token) secrets.add(v.access_token);
        if (v.refresh_token) secrets.add(v.refresh_token);
      }
      await inner.setPassword(service, account, password);
    },
  };
  const browser = async (url: string) => {
    const consent = await request(url);
    await consent.body.text();
    const back = new URL(String(consent.headers.location));
    secrets.add(back.searchParams.get("code") ?? "");
    await (await request(back)).body.text();
    return true;
  };
  const env = {
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_STATE_HOME: join(root, "state"),
    XDG_CACHE_HOME: join(root, "cache"),
  };
  const deps = {
    keytar,
    openUrl: browser,
    clock: { now: () => svc.service.clock.now().getTime() },
    maxRetries: 0,
    loginTimeoutMs: 10_000,
  };
  const printed: string[] = [];
  const run = async (
    command: typeof runLogin,
    argv: string[],
    extraEnv: Record<string, string> = {},
  ): Promise<{ code: number; out: string; err: string }> => {
    const cap = captureIo({ ...env, ...extraEnv });
    const code = await command(argv, cap.io, deps);
    printed.push(cap.all());
    return { code, out: cap.stdout(), err: cap.stderr() };
  };

  // 1. Sign in with the code flow.
  const login = await run(runLogin, ["--env", "local", "--base-url", svc.url, "--client-id", svc.service.clientId]);
  expect(login.err).toBe("");
  expect(login.code).toBe(0);
  expect(login.out).toContain(`Signed in to local as merchant ${svc.service.merchantId}`);
  expect(login.out).toContain('kept in OS keychain (service "backroom")');
  expect(login.out).toMatch(
    /To sign in, open this address in a browser:\n\n {2}http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\?/,
  );

  // 2. 24 days later `status` asks the service, and the session refreshes first.
  await svc.raw("POST", "/_emulator/clock", { body: { advance_seconds: 24 * 86_400 } });
  const status = await run(runStatus, []);
  expect(status.code).toBe(0);
  expect(status.out).toContain("checked with the service; renewed just now");
  expect(status.out).toMatch(/Token: +…\S{4} \(OAuth; renews itself before it expires\)/);
  expect(status.out).toMatch(/Expires: +\S+ \(in 29 days\)/);
  expect(secrets.size).toBeGreaterThanOrEqual(7); // demo token, secret, code, 2 access, 2 refresh

  // 3. Failed calls: a personal token the service refuses, given on the command line and in the environment.
  const bogus = "EAAAl-not-a-token-the-service-knows-1234";
  secrets.add(bogus);
  const badLogin = await run(runLogin, ["--token", bogus]);
  expect(badLogin.code).toBe(1);
  expect(badLogin.err).toContain("refused the token (UNAUTHORIZED); nothing was stored");
  const badEnv = await run(runStatus, [], { BACKROOM_ACCESS_TOKEN: bogus });
  expect(badEnv.code).toBe(1);
  expect(badEnv.out).toContain("the service refused the token (UNAUTHORIZED); set a valid BACKROOM_ACCESS_TOKEN");
  expect(badEnv.err).toBe(
    "backroom status: the service refused the token (UNAUTHORIZED); set a valid BACKROOM_ACCESS_TOKEN\n",
  );
  expect(badEnv.out).toMatch(/Expires: +unknown/);
  const piped = captureIo(env, `${bogus}\n`);
  expect(await runLogin(["--token"], piped.io, deps)).toBe(1);
  printed.push(piped.all());

  // 3b. The script commands, signed in through the environment: their journal, CSV and JSON
  // outputs are under the same folders and get the same scan.
  const scriptEnv = { BACKROOM_ACCESS_TOKEN: svc.service.accessToken };
  const where = ["--env", "local", "--base-url", svc.url];
  const variations = await svc.client.catalog.searchCatalogObjects({ object_types: ["ITEM_VARIATION"], limit: 3 });
  const countFile = join(root, "home", "count.csv");
  await mkdir(join(root, "home"), { recursive: true });
  await writeFile(
    countFile,
    `sku,quantity\n${(variations.objects ?? []).map((v, i) => `${v.item_variation_data?.sku},${i + 1}`).join("\n")}\n`,
  );
  const script = async (
    command: (argv: string[], io: ReturnType<typeof captureIo>["io"]) => Promise<number>,
    argv: string[],
  ) => {
    const cap = captureIo({ ...env, ...scriptEnv });
    const code = await command([...argv, ...where], cap.io);
    printed.push(cap.all());
    return code;
  };
  expect(await script(runStocktakeImport, [countFile, "--location", "Main Street", "--commit"])).toBe(0);
  expect(await script(runShiftsExport, ["--to", "2026-11-22", "--out", join(root, "home", "shifts.csv")])).toBe(0);
  expect(
    await script(runDrawersReport, ["--location", "Main Street", "--csv", "--out", join(root, "home", "drawers.csv")]),
  ).toBe(0);
  expect(await script(runCustomersSearch, ["--json", "--limit", "5"])).toBe(0);

  // 4. Sign out, revoking with the application secret from the environment.
  const logout = await run(runLogout, [], { BACKROOM_CLIENT_SECRET: svc.service.clientSecret });
  expect(logout.code).toBe(0);
  expect(logout.out).toContain("access revoked at the service and removed from the OS keychain");
  expect(inner.entries.size).toBe(0);
  const after = await run(runStatus, []);
  expect(after.code).toBe(1);
  expect(after.out).toMatch(/Signed in: +no/);

  // The scan: every file under the temporary HOME and XDG folders, and everything printed.
  const files = await filesUnder(root);
  expect(files).toContain(join(root, "config", "backroom", "config.json"));
  expect(files).toContain(join(root, "data", "backroom", "stocktake.db"));
  expect(files).toContain(join(root, "home", "drawers.csv"));
  const haystacks = [
    ...(await Promise.all(files.map(async (f) => ({ where: f, text: await readFile(f, "latin1") })))),
    ...printed.map((text, i) => ({ where: `terminal output #${i + 1}`, text })),
  ];
  const leaks: string[] = [];
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(12);
    // More than 4 trailing characters would be more than a mask shows.
    for (const needle of [secret, secret.slice(-8)]) {
      for (const h of haystacks)
        if (h.text.includes(needle)) leaks.push(`${h.where} holds ${needle.length} chars of a secret`);
    }
  }
  expect(leaks).toEqual([]);
});
