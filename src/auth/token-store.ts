import type { Environment } from "./config.js";

/** The part of keytar that backroom uses; tests pass a real keytar or a small object of their own. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** How a sign-in was obtained; only `oauth` sign-ins carry a refresh token. */
export type TokenKind = "oauth" | "personal";

/** One sign-in as kept in the keychain (one entry per environment + merchant). */
export interface StoredTokens {
  environment: Environment;
  kind: TokenKind;
  access_token: string;
  refresh_token?: string;
  /** RFC 3339; absent for personal access tokens that do not expire. */
  expires_at?: string;
  refresh_token_expires_at?: string;
  merchant_id: string;
  scopes?: string[];
  /** The application the tokens were issued to (needed to refresh and revoke). */
  client_id?: string;
  base_url?: string;
  token_type?: string;
}

/** Where sign-ins are kept: the OS keychain, or this process's memory when there is none. */
export interface TokenStore {
  readonly kind: "keychain" | "memory";
  /** One sentence for the status bar and `backroom status`: where tokens are kept, and why. */
  describeStorage(): string;
  /** The current sign-in of an environment, or null. */
  load(environment: Environment): Promise<StoredTokens | null>;
  /** Stores a sign-in and makes it the current one of its environment. */
  save(tokens: StoredTokens): Promise<void>;
  /** Deletes a sign-in (the current one when no merchant is named). */
  remove(environment: Environment, merchantId?: string): Promise<void>;
}

/** The keychain service name all entries are filed under. */
export const KEYCHAIN_SERVICE = "backroom";

/** The keychain account of one sign-in. */
export function accountName(environment: Environment, merchantId: string): string {
  return `${environment}:${merchantId}`;
}

// Which merchant is current, per environment; the value is a merchant id, not a secret.
const currentAccount = (environment: Environment) => `${environment}:current`;

/** Thrown when the keychain holds something that is not a sign-in; the message never quotes it. */
export class TokenStoreError extends Error {
  override name = "TokenStoreError";
}

/**
 * Builds the store. With a keytar it keeps sign-ins in the OS keychain; with `null` it keeps them
 * in memory for this process only (`reason` says why there is no keychain, for the status line).
 */
export function createTokenStore(opts: { keytar: KeytarLike | null; service?: string; reason?: string }): TokenStore {
  const service = opts.service ?? KEYCHAIN_SERVICE;
  if (opts.keytar === null) return memoryStore(opts.reason ?? "no OS keychain is available");
  const keytar = opts.keytar;
  return {
    kind: "keychain",
    describeStorage: () => `OS keychain (service "${service}")`,
    async load(environment) {
      const merchant = await keytar.getPassword(service, currentAccount(environment));
      if (!merchant) return null;
      const text = await keytar.getPassword(service, accountName(environment, merchant));
      if (!text) return null;
      return parseEntry(text, accountName(environment, merchant));
    },
    async save(tokens) {
      await keytar.setPassword(service, accountName(tokens.environment, tokens.merchant_id), JSON.stringify(tokens));
      await keytar.setPassword(service, currentAccount(tokens.environment), tokens.merchant_id);
    },
    async remove(environment, merchantId) {
      const current = await keytar.getPassword(service, currentAccount(environment));
      const merchant = merchantId ?? current;
      if (merchant) await keytar.deletePassword(service, accountName(environment, merchant));
      if (current && current === merchant) await keytar.deletePassword(service, currentAccount(environment));
    },
  };
}

function memoryStore(reason: string): TokenStore {
  const entries = new Map<Environment, StoredTokens>();
  return {
    kind: "memory",
    describeStorage: () =>
      `not saved: ${reason}, so sign-in lasts only while this backroom runs (set BACKROOM_ACCESS_TOKEN for scripts)`,
    load: async (environment) => entries.get(environment) ?? null,
    save: async (tokens) => {
      entries.set(tokens.environment, { ...tokens });
    },
    remove: async (environment, merchantId) => {
      const held = entries.get(environment);
      if (held && (merchantId === undefined || held.merchant_id === merchantId)) entries.delete(environment);
    },
  };
}

function parseEntry(text: string, account: string): StoredTokens {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TokenStoreError(
      `keychain entry "${account}" is not a backroom sign-in; run backroom logout, then sign in again`,
    );
  }
  const v = value as Partial<StoredTokens> | null;
  if (!v || typeof v.access_token !== "string" || typeof v.merchant_id !== "string") {
    throw new TokenStoreError(`keychain entry "${account}" is incomplete; run backroom logout, then sign in again`);
  }
  return v as StoredTokens;
}

/** Result of {@link probeKeychain}: usable, or why not. */
export type ProbeResult = { ok: true } | { ok: false; reason: string };

/**
 * Checks that the keychain really works with a set/get/delete round trip. A locked keyring does
 * not fail: it answers null from get, so the value read back is compared with the value written.
 */
export async function probeKeychain(keytar: KeytarLike, service = KEYCHAIN_SERVICE): Promise<ProbeResult> {
  const account = `probe:${process.pid}:${Date.now()}`;
  const value = `probe-${Math.random().toString(36).slice(2)}`;
  try {
    await keytar.setPassword(service, account, value);
    const back = await keytar.getPassword(service, account);
    await keytar.deletePassword(service, account).catch(() => false);
    if (back !== value) return { ok: false, reason: "the OS keychain is locked or does not keep entries" };
    return { ok: true };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // A locked Secret Service collection refuses the write ("Cannot create an item in a locked
    // collection"); no D-Bus session at all fails every call. Either way: no usable keychain.
    return { ok: false, reason: `the OS keychain did not work (${message.split("\n")[0]})` };
  }
}

/** Loads keytar if it is installed and its native part loads on this machine; null otherwise. */
export async function loadKeytar(): Promise<KeytarLike | null> {
  try {
    // A variable specifier keeps bundlers from inlining the optional native module.
    const name = "keytar";
    const mod = (await import(name)) as { default?: KeytarLike } & Partial<KeytarLike>;
    const k = mod.default ?? mod;
    if (typeof k.getPassword !== "function" || typeof k.setPassword !== "function") return null;
    return k as KeytarLike;
  } catch {
    return null;
  }
}

/**
 * The store to use: the keychain when keytar loads and the probe passes, otherwise memory, with
 * the reason kept for {@link TokenStore.describeStorage}. `keytar: null` forces memory;
 * leaving it out loads the installed keytar.
 */
export async function openTokenStore(opts: { keytar?: KeytarLike | null; service?: string } = {}): Promise<TokenStore> {
  const service = opts.service ?? KEYCHAIN_SERVICE;
  const keytar = opts.keytar === undefined ? await loadKeytar() : opts.keytar;
  if (keytar === null)
    return createTokenStore({ keytar: null, service, reason: "keytar (the keychain module) is not installed" });
  const probe = await probeKeychain(keytar, service);
  if (!probe.ok) return createTokenStore({ keytar: null, service, reason: probe.reason });
  return createTokenStore({ keytar, service });
}
