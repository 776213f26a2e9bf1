// Files this machine keeps for backroom (the stocktake journal, the outbox, the customer index):
// SQLite databases in the data folder, each opened the same way and brought up to date by
// numbered migrations. Every such file may hold a customer's details or a write not yet sent, so
// it is readable by its owner only (0600, in a 0700 folder), like the demo store's token.
//
// better-sqlite3 is loaded when a file is opened, not with the app: the first frame never waits
// for the native module.
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";

/** An open local database. */
export type LocalDb = BetterSqlite3.Database;

/**
 * One step of a file's schema. `version` counts from 1 without gaps; a migration runs once, in
 * its own transaction with the `user_version` it brings, so a file is never left half-migrated.
 */
export interface Migration {
  version: number;
  /** What the step does, for an error that names it. */
  name: string;
  up: (db: LocalDb) => void;
}

/** How a local file is opened. */
export interface LocalDbOptions {
  /** What the file is, in words, for errors ("the stocktake journal"). */
  label: string;
  migrations: readonly Migration[];
  /**
   * `full`: a committed transaction is on disk (fsync'd) before the call returns — for a write the
   * screen then calls kept. `normal`: survives the process being killed, not a power cut.
   */
  durability?: "full" | "normal";
}

/** A file written by a newer backroom than this one: opening it could lose what that one keeps. */
export class LocalDbTooNew extends Error {
  override name = "LocalDbTooNew";
}

/** Checks that migrations are numbered 1, 2, 3, … in order. */
export function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} is numbered ${m.version}, expected ${i + 1}`);
  });
}

/** Brings an open database up to the newest migration; returns the version it was at. */
export function migrate(db: LocalDb, label: string, migrations: readonly Migration[]): number {
  checkMigrations(migrations);
  const current = db.pragma("user_version", { simple: true }) as number;
  const newest = migrations.length;
  if (current > newest) {
    throw new LocalDbTooNew(
      `${label} was written by a newer backroom (schema ${current}; this one knows ${newest}): update backroom to open it.`,
    );
  }
  applyMigrations(db, migrations, current);
  return current;
}

/**
 * Runs the migrations after `seen`, each in its own write transaction. The version is read again
 * inside it: two backrooms opening a new file at once both see version 0, and the second must
 * not run what the first has just run (it would fail on "table already exists").
 */
export function applyMigrations(db: LocalDb, migrations: readonly Migration[], seen: number): void {
  for (const m of migrations.slice(seen)) {
    db.transaction(() => {
      // Another backroom opening the same file may have run this step while this one waited for
      // the write lock: a step runs once (an ALTER TABLE run twice would fail).
      if ((db.pragma("user_version", { simple: true }) as number) >= m.version) return;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}

/**
 * Opens (or makes) a local SQLite file: owner-only permissions, WAL so that two backrooms on one
 * machine can share it, a busy timeout for the moments they write at once, and its migrations.
 * `:memory:` gives a private database (tests).
 */
export async function openLocalDb(path: string, options: LocalDbOptions): Promise<LocalDb> {
  const { default: Sqlite } = await import("better-sqlite3");
  const onDisk = path !== ":memory:";
  if (onDisk) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  }
  const db = new Sqlite(path);
  try {
    if (onDisk) chmodSync(path, 0o600);
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${options.durability === "full" ? "FULL" : "NORMAL"}`);
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    migrate(db, options.label, options.migrations);
    // The WAL and shared-memory files hold the same data: owner-only too.
    if (onDisk) for (const side of [`${path}-wal`, `${path}-shm`]) if (existsSync(side)) chmodSync(side, 0o600);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * A local file opened on first use and then kept open: an open that failed is tried again the
 * next time; `close` closes it if it was opened.
 */
export class LocalHandle<T extends { close(): void }> {
  readonly path: string;
  readonly #opener: (path: string) => Promise<T>;
  #opening: Promise<T> | undefined;
  #opened: T | undefined;

  constructor(path: string, opener: (path: string) => Promise<T>) {
    this.path = path;
    this.#opener = opener;
  }

  /** The open file. */
  open(): Promise<T> {
    this.#opening ??= this.#opener(this.path).then(
      (opened) => {
        this.#opened = opened;
        return opened;
      },
      (err: unknown) => {
        this.#opening = undefined;
        throw err;
      },
    );
    return this.#opening;
  }

  /** The file if it is open now, without waiting (a key press answered in the same frame). */
  opened(): T | undefined {
    return this.#opened;
  }

  /** Closes it, if it was opened. */
  async close(): Promise<void> {
    const opening = this.#opening;
    this.#opening = undefined;
    this.#opened = undefined;
    if (opening) (await opening.catch(() => undefined))?.close();
  }
}
