import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations, checkMigrations, LocalDbTooNew, type Migration, openLocalDb } from "./db.js";

const v1: Migration = {
  version: 1,
  name: "notes",
  up: (db) => db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)"),
};
const v2: Migration = { version: 2, name: "note kind", up: (db) => db.exec("ALTER TABLE notes ADD COLUMN kind TEXT") };

describe("openLocalDb", () => {
  it("makes an owner-only file and runs its migrations once, in order", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "backroom-local-")), "nested");
    const path = join(dir, "notes.db");
    const first = await openLocalDb(path, { label: "the notes", migrations: [v1] });
    first.prepare("INSERT INTO notes (text) VALUES ('kept')").run();
    expect(first.pragma("user_version", { simple: true })).toBe(1);
    first.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const second = await openLocalDb(path, { label: "the notes", migrations: [v1, v2] });
    expect(second.pragma("user_version", { simple: true })).toBe(2);
    second.prepare("UPDATE notes SET kind = 'x'").run();
    expect(second.prepare("SELECT text, kind FROM notes").all()).toEqual([{ text: "kept", kind: "x" }]);
    second.close();
  });

  it("refuses a file written by a newer schema, naming it", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "backroom-local-")), "notes.db");
    (await openLocalDb(path, { label: "the notes", migrations: [v1, v2] })).close();
    await expect(openLocalDb(path, { label: "the notes", migrations: [v1] })).rejects.toThrow(LocalDbTooNew);
    await expect(openLocalDb(path, { label: "the notes", migrations: [v1] })).rejects.toThrow(/the notes .*schema 2/);
  });

  it("leaves the version where it was when a migration fails", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "backroom-local-")), "notes.db");
    (await openLocalDb(path, { label: "the notes", migrations: [v1] })).close();
    const broken: Migration = { version: 2, name: "broken", up: (db) => db.exec("ALTER TABLE missing ADD COLUMN x") };
    await expect(openLocalDb(path, { label: "the notes", migrations: [v1, broken] })).rejects.toThrow(/missing/);
    const again = await openLocalDb(path, { label: "the notes", migrations: [v1, v2] });
    expect(again.pragma("user_version", { simple: true })).toBe(2);
    again.close();
  });

  it("does not run a migration again that another backroom ran after this one read the version", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "backroom-local-")), "notes.db");
    const mine = await openLocalDb(path, { label: "the notes", migrations: [] });
    const seen = mine.pragma("user_version", { simple: true }) as number;
    // Another backroom opens the new file meanwhile and migrates it first.
    (await openLocalDb(path, { label: "the notes", migrations: [v1, v2] })).close();
    expect(() => applyMigrations(mine, [v1, v2], seen)).not.toThrow();
    expect(mine.pragma("user_version", { simple: true })).toBe(2);
    mine.close();
  });

  it("sets full durability when asked", async () => {
    const db = await openLocalDb(":memory:", { label: "x", migrations: [], durability: "full" });
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    db.close();
  });
});

describe("checkMigrations", () => {
  it("refuses a gap in the numbering", () => {
    expect(() => checkMigrations([v2])).toThrow(/numbered 2, expected 1/);
  });
});
