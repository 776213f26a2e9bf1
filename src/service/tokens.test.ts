import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, openDb } from "./db.js";
import { ServiceError } from "./errors.js";
import { authenticate, storeToken } from "./tokens.js";

const NOW = new Date("2024-01-18T17:00:00Z");
const open: Db[] = [];
const folders: string[] = [];

/** A store with one merchant and one personal token, `tok-1`. */
function storeWithToken(path = ":memory:"): Db {
  const db = openDb(path);
  open.push(db);
  db.prepare(
    "INSERT OR IGNORE INTO merchants (id, business_name, country, language_code, currency, main_location_id, created_at) VALUES ('M1', 'Shop', 'US', 'en-US', 'USD', NULL, ?)",
  ).run(NOW.toISOString());
  storeToken(db, {
    token: "tok-1",
    kind: "personal",
    merchantId: "M1",
    clientId: null,
    scopes: ["ITEMS_READ"],
    now: NOW,
    expiresAt: null,
  });
  return db;
}

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (err) {
    return err instanceof ServiceError ? err.errors[0]?.code : String(err);
  }
};

afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("authenticate, with the tokens it has seen remembered", () => {
  it("refuses a token revoked by any write to the tokens table, however it is made", () => {
    const db = storeWithToken();
    expect(authenticate(db, "Bearer tok-1", NOW).merchantId).toBe("M1");
    // Other writes in between keep what was seen; the revocation is a plain UPDATE, not the grants code.
    db.prepare(
      "INSERT INTO merchants (id, business_name, country, language_code, currency, main_location_id, created_at) VALUES ('M2', 'Other', 'US', 'en-US', 'USD', NULL, ?)",
    ).run(NOW.toISOString());
    expect(authenticate(db, "Bearer tok-1", NOW).merchantId).toBe("M1");
    db.prepare("UPDATE tokens SET revoked_at = ?").run(NOW.toISOString());
    expect(codeOf(() => authenticate(db, "Bearer tok-1", NOW))).toBe("ACCESS_TOKEN_REVOKED");
  });

  it("refuses a token deleted, and knows one added after it was first asked for", () => {
    const db = storeWithToken();
    expect(codeOf(() => authenticate(db, "Bearer tok-2", NOW))).toBe("UNAUTHORIZED");
    storeToken(db, {
      token: "tok-2",
      kind: "personal",
      merchantId: "M1",
      clientId: null,
      scopes: [],
      now: NOW,
      expiresAt: null,
    });
    expect(authenticate(db, "Bearer tok-2", NOW).merchantId).toBe("M1");
    db.exec("DELETE FROM tokens");
    expect(codeOf(() => authenticate(db, "Bearer tok-1", NOW))).toBe("UNAUTHORIZED");
  });

  it("refuses a token revoked by another connection to the same file", () => {
    const dir = mkdtempSync(join(tmpdir(), "backroom-tokens-"));
    folders.push(dir);
    const db = storeWithToken(join(dir, "store.db"));
    expect(authenticate(db, "Bearer tok-1", NOW).merchantId).toBe("M1");
    const other = new Database(join(dir, "store.db"));
    other.prepare("UPDATE tokens SET revoked_at = ?").run(NOW.toISOString());
    other.close();
    expect(codeOf(() => authenticate(db, "Bearer tok-1", NOW))).toBe("ACCESS_TOKEN_REVOKED");
  });
});
