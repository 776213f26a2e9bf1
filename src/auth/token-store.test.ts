import { describe, expect, it } from "vitest";
import { lockedKeytar, memoryKeytar, unreachableKeytar } from "../../test/auth-helpers.js";
import {
  accountName,
  createTokenStore,
  openTokenStore,
  probeKeychain,
  type StoredTokens,
  TokenStoreError,
} from "./token-store.js";

const sample = (over: Partial<StoredTokens> = {}): StoredTokens => ({
  environment: "sandbox",
  kind: "oauth",
  access_token: "EAAAl-access-token-0001",
  refresh_token: "EQAA-refresh-token-0001",
  expires_at: "2024-04-01T00:00:00Z",
  merchant_id: "ML1",
  scopes: ["ITEMS_READ"],
  client_id: "sq0idp-app",
  ...over,
});

describe("keychain token store", () => {
  it("keeps one entry per environment and merchant, plus the current account per environment", async () => {
    const keytar = memoryKeytar();
    const store = createTokenStore({ keytar });
    await store.save(sample());
    await store.save(sample({ merchant_id: "ML2", access_token: "EAAAl-access-token-0002" }));
    await store.save(sample({ environment: "production", merchant_id: "MP1" }));

    expect([...keytar.entries.keys()].map((k) => k.split("\u0000"))).toEqual([
      ["backroom", "sandbox:ML1"],
      ["backroom", "sandbox:current"],
      ["backroom", "sandbox:ML2"],
      ["backroom", "production:MP1"],
      ["backroom", "production:current"],
    ]);
    expect(keytar.entries.get("backroom\u0000sandbox:current")).toBe("ML2");
    expect((await store.load("sandbox"))?.access_token).toBe("EAAAl-access-token-0002");
    expect((await store.load("production"))?.merchant_id).toBe("MP1");
    expect(await store.load("local")).toBeNull();
    expect(JSON.parse(keytar.entries.get(`backroom\u0000${accountName("sandbox", "ML1")}`) ?? "")).toMatchObject({
      access_token: "EAAAl-access-token-0001",
      refresh_token: "EQAA-refresh-token-0001",
      expires_at: "2024-04-01T00:00:00Z",
      merchant_id: "ML1",
      scopes: ["ITEMS_READ"],
    });
  });

  it("removing the current sign-in deletes its entry and the current pointer, and leaves the others", async () => {
    const keytar = memoryKeytar();
    const store = createTokenStore({ keytar });
    await store.save(sample());
    await store.save(sample({ environment: "production", merchant_id: "MP1" }));
    await store.remove("sandbox");
    expect(await store.load("sandbox")).toBeNull();
    expect([...keytar.entries.keys()].some((k) => k.includes("sandbox"))).toBe(false);
    expect((await store.load("production"))?.merchant_id).toBe("MP1");
  });

  it("refuses an entry that is not a sign-in without quoting what it holds", async () => {
    const keytar = memoryKeytar();
    await keytar.setPassword("backroom", "sandbox:current", "ML1");
    await keytar.setPassword("backroom", "sandbox:ML1", "not-json-secret-value");
    const store = createTokenStore({ keytar });
    const err = await store.load("sandbox").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TokenStoreError);
    expect(String((err as Error).message)).not.toContain("not-json-secret-value");
    expect((err as Error).message).toContain("sandbox:ML1");
  });

  it("describes where tokens are kept", () => {
    expect(createTokenStore({ keytar: memoryKeytar() }).describeStorage()).toBe('OS keychain (service "backroom")');
  });
});

describe("probe and fallback", () => {
  it("passes a working keychain and leaves nothing behind", async () => {
    const keytar = memoryKeytar();
    expect(await probeKeychain(keytar)).toEqual({ ok: true });
    expect(keytar.entries.size).toBe(0);
    const store = await openTokenStore({ keytar });
    expect(store.kind).toBe("keychain");
  });

  it("treats a locked keyring (get answers null) as no keychain, and says so", async () => {
    const probe = await probeKeychain(lockedKeytar());
    expect(probe).toEqual({ ok: false, reason: "the OS keychain is locked or does not keep entries" });
    const store = await openTokenStore({ keytar: lockedKeytar() });
    expect(store.kind).toBe("memory");
    expect(store.describeStorage()).toContain("the OS keychain is locked");
    expect(store.describeStorage()).toContain("only while this backroom runs");
    expect(store.describeStorage()).toContain("BACKROOM_ACCESS_TOKEN");
  });

  it("treats a keychain that cannot be reached as none, naming the cause", async () => {
    const store = await openTokenStore({ keytar: unreachableKeytar() });
    expect(store.kind).toBe("memory");
    expect(store.describeStorage()).toContain("the OS keychain did not work (Cannot autolaunch D-Bus");
  });

  it("without keytar keeps sign-ins in memory for this process only", async () => {
    const store = await openTokenStore({ keytar: null });
    expect(store.kind).toBe("memory");
    expect(store.describeStorage()).toContain("keytar (the keychain module) is not installed");
    await store.save(sample());
    expect((await store.load("sandbox"))?.access_token).toBe("EAAAl-access-token-0001");
    await store.remove("sandbox", "other-merchant");
    expect(await store.load("sandbox")).not.toBeNull();
    await store.remove("sandbox");
    expect(await store.load("sandbox")).toBeNull();
    // A new store is a new process: nothing carried over.
    await store.save(sample());
    expect(await (await openTokenStore({ keytar: null })).load("sandbox")).toBeNull();
  });
});
