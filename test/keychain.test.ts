// Runs against a real Secret Service (gnome-keyring on a private D-Bus session). Excluded from the
// default run; run it with BACKROOM_KEYCHAIN_TESTS=1 under an unlocked keyring, as .ci/run does:
//   dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null;
//     BACKROOM_KEYCHAIN_TESTS=1 npx vitest run test/keychain.test.ts'
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, type OAuthApi } from "../src/auth/session.js";
import {
  createTokenStore,
  type KeytarLike,
  loadKeytar,
  openTokenStore,
  probeKeychain,
  type StoredTokens,
} from "../src/auth/token-store.js";
import { DAY_MS, manualClock } from "./auth-helpers.js";

// Its own service name, so a developer's real sign-ins are never touched.
const SERVICE = `backroom-test-${process.pid}`;

type RealKeytar = KeytarLike & { findCredentials(service: string): Promise<{ account: string; password: string }[]> };
let keytar: RealKeytar;

beforeAll(async () => {
  if (process.env.BACKROOM_KEYCHAIN_TESTS !== "1") {
    throw new Error("test/keychain.test.ts needs BACKROOM_KEYCHAIN_TESTS=1 and an unlocked Secret Service");
  }
  const loaded = await loadKeytar();
  if (!loaded) throw new Error("keytar did not load: is the optional dependency installed with libsecret?");
  keytar = loaded as RealKeytar;
});

afterAll(async () => {
  // Without a keyring the suite has already failed in beforeAll; cleaning up must not add noise.
  const left = await keytar?.findCredentials(SERVICE).catch(() => []);
  for (const { account } of left ?? []) await keytar.deletePassword(SERVICE, account);
});

const tokens = (over: Partial<StoredTokens> = {}): StoredTokens => ({
  environment: "sandbox",
  kind: "oauth",
  access_token: "EAAAl-real-keychain-access-1",
  refresh_token: "EQAA-real-keychain-refresh-1",
  expires_at: "2024-03-31T12:00:00.000Z",
  merchant_id: "ML-KEYCHAIN",
  scopes: ["ITEMS_READ"],
  client_id: "sq0idp-app",
  ...over,
});

describe("real Secret Service", () => {
  it("passes the set/get/delete probe and leaves no probe entry behind", async () => {
    expect(await probeKeychain(keytar, SERVICE)).toEqual({ ok: true });
    expect(await keytar.findCredentials(SERVICE)).toEqual([]);
    const store = await openTokenStore({ keytar, service: SERVICE });
    expect(store.kind).toBe("keychain");
    expect(store.describeStorage()).toBe(`OS keychain (service "${SERVICE}")`);
  });

  it("keeps one entry per environment and merchant plus the current account, and removes them", async () => {
    const store = createTokenStore({ keytar, service: SERVICE });
    await store.save(tokens());
    await store.save(tokens({ environment: "production", merchant_id: "MP-KEYCHAIN" }));
    const accounts = (await keytar.findCredentials(SERVICE)).map((c) => c.account).sort();
    expect(accounts).toEqual([
      "production:MP-KEYCHAIN",
      "production:current",
      "sandbox:ML-KEYCHAIN",
      "sandbox:current",
    ]);
    // A second store stands for a second process: what one wrote, the other reads.
    const again = createTokenStore({ keytar, service: SERVICE });
    expect(await again.load("sandbox")).toEqual(tokens());
    await again.remove("sandbox");
    expect(await store.load("sandbox")).toBeNull();
    expect((await keytar.findCredentials(SERVICE)).map((c) => c.account).sort()).toEqual([
      "production:MP-KEYCHAIN",
      "production:current",
    ]);
    await again.remove("production");
    expect(await keytar.findCredentials(SERVICE)).toEqual([]);
  });

  it("writes a refreshed sign-in back to the keychain", async () => {
    const clock = manualClock(Date.parse("2024-03-01T12:00:00Z"));
    const oauth: OAuthApi = {
      obtainToken: async () => ({
        access_token: "EAAAl-real-keychain-access-2",
        refresh_token: "EQAA-real-keychain-refresh-2",
        expires_at: "2024-04-24T12:00:00.000Z",
        merchant_id: "ML-KEYCHAIN",
      }),
      renewToken: async () => ({}),
      revokeToken: async () => ({ success: true }),
      retrieveTokenStatus: async () => ({}),
    };
    const store = createTokenStore({ keytar, service: SERVICE });
    await store.save(tokens());
    const session = createSession({ oauth, store, clock, environment: "sandbox" });
    await session.load();
    clock.advance(24 * DAY_MS);
    expect(await session.accessToken()).toBe("EAAAl-real-keychain-access-2");
    const raw = await keytar.getPassword(SERVICE, "sandbox:ML-KEYCHAIN");
    expect(JSON.parse(raw ?? "{}")).toMatchObject({
      access_token: "EAAAl-real-keychain-access-2",
      refresh_token: "EQAA-real-keychain-refresh-2",
      expires_at: "2024-04-24T12:00:00.000Z",
    });
    await session.logout({ clientSecret: "s" });
    expect(await keytar.findCredentials(SERVICE)).toEqual([]);
  });
});
