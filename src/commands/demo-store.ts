// The demo store's file: made and seeded on first use, reopened afterwards, started over by
// `backroom demo reset`. Two backrooms may share the file: SQLite's WAL and busy timeout (set in
// service/db.ts) let one read while the other writes.
import { existsSync } from "node:fs";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { createService, type LocalService } from "../service/index.js";
import { newSecret } from "../service/tokens.js";
import { fileProblem } from "./file-problem.js";
import { CommandError } from "./io.js";

/** The file and the SQLite files that go with it in WAL mode. */
const companions = (path: string) => [path, `${path}-wal`, `${path}-shm`];

/**
 * The store's own access token, kept beside it (`demo.db.token`, readable by its owner only).
 * Every backroom on the file signs in with it, so a `demo reset`, which lays the credentials out
 * again, does not sign out a backroom that has the store open. It guards no more than the file
 * itself does: whoever can read it can already write the store.
 */
async function storeToken(dbPath: string): Promise<string> {
  const file = `${dbPath}.token`;
  try {
    const kept = (await readFile(file, "utf8")).trim();
    if (kept) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await mkdir(dirname(file), { recursive: true });
  const token = newSecret("EAAAl");
  try {
    await writeFile(file, `${token}\n`, { flag: "wx", mode: 0o600 });
    return token;
  } catch (err) {
    // Another backroom made it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return (await readFile(file, "utf8")).trim();
    throw err;
  }
}

/**
 * Opens the demo store at `dbPath` (`:memory:` for a throwaway one). A missing file is seeded
 * under a temporary name and linked into place only when complete, so an interrupted first start
 * or a second backroom starting at the same moment never finds half a store.
 */
export async function openDemoService(dbPath: string, opts: { scale?: number } = {}): Promise<LocalService> {
  if (dbPath === ":memory:") return createService({ dbPath, ...opts });
  let accessToken: string;
  try {
    accessToken = await storeToken(dbPath);
    if (!existsSync(dbPath)) await seedFile(dbPath, opts.scale ?? 1);
  } catch (err) {
    // A data folder this machine will not let backroom write (read-only, full): said in words,
    // by the app's status line as by every command.
    const problem = fileProblem(err);
    if (problem) throw new CommandError(`the demo store cannot be made at ${dbPath}: ${problem}`);
    throw err;
  }
  try {
    return createService({ dbPath, accessToken });
  } catch (err) {
    throw unusable(dbPath, err);
  }
}

async function seedFile(dbPath: string, scale: number): Promise<void> {
  await mkdir(dirname(dbPath), { recursive: true });
  const tmp = `${dbPath}.${process.pid}.seeding`;
  await Promise.all(companions(tmp).map((f) => rm(f, { force: true })));
  try {
    // Closing checkpoints the write-ahead log into the file, so the file alone is the store.
    await createService({ dbPath: tmp, scale }).close();
    await link(tmp, dbPath).catch((err: NodeJS.ErrnoException) => {
      // Another backroom seeded it first: theirs is as good as ours.
      if (err.code !== "EEXIST") throw err;
    });
  } finally {
    await Promise.all(companions(tmp).map((f) => rm(f, { force: true })));
  }
}

function unusable(dbPath: string, err: unknown): CommandError {
  const why = err instanceof Error ? err.message : String(err);
  return new CommandError(
    `the demo store at ${dbPath} cannot be opened (${why}). \`backroom demo reset\` starts it over; --db :memory: runs on a throwaway one.`,
  );
}

/**
 * Starts the demo over: the store is emptied and seeded afresh inside SQLite, so a backroom
 * still running on the file sees the new store rather than a deleted file. A file that is not a
 * store at all is replaced. Returns whether a store was there before.
 */
export async function resetDemoStore(dbPath: string, opts: { scale?: number } = {}): Promise<{ existed: boolean }> {
  const scale = opts.scale ?? 1;
  const accessToken = await storeToken(dbPath);
  if (!existsSync(dbPath)) {
    await seedFile(dbPath, scale);
    return { existed: false };
  }
  let service: LocalService | undefined;
  try {
    service = createService({ dbPath, scale, accessToken });
  } catch {
    // Not a database (or a broken one): nothing in it can be kept, so replace it whole.
    await Promise.all(companions(dbPath).map((f) => rm(f, { force: true })));
    await seedFile(dbPath, scale);
    return { existed: true };
  }
  try {
    service.reset();
  } finally {
    await service.close();
  }
  return { existed: true };
}
