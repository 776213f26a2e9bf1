// The customer index files in the data folder: one per store, removed by `demo reset` (the demo
// store's) and by `logout` (the environment's), never another store's.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { customerIndexFile, indexStoreKey, removeCustomerIndexes } from "../src/commands/customer-index-file.js";
import { runDemoReset } from "../src/commands/demo.js";
import { runLogout } from "../src/commands/logout.js";
import { dataDir, resolveTarget } from "../src/commands/target.js";
import { openCustomerIndex } from "../src/local/customer-index.js";
import { captureIo, memoryKeytar } from "./auth-helpers.js";

let dir: string;
let env: Record<string, string>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "backroom-index-files-"));
  env = { HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Makes a store's index file, as the app would, with one profile in it. */
async function indexOf(flags: Parameters<typeof resolveTarget>[0]): Promise<string> {
  const path = customerIndexFile(resolveTarget(flags, env, {}), env);
  const index = await openCustomerIndex(path);
  index.upsert([{ id: "C1", given_name: "Ada" }]);
  index.close();
  return path;
}

describe("customer index files", () => {
  it("are one per store: the demo's file, each environment's address", async () => {
    const demo = resolveTarget({}, env, {});
    const other = resolveTarget({ db: join(dir, "shop.db") }, env, {});
    const sandbox = resolveTarget({ env: "sandbox" }, env, {});
    expect(customerIndexFile(demo, env)).toMatch(new RegExp(`^${dataDir(env)}/customers-demo-[0-9a-f]{12}\\.db$`));
    expect(customerIndexFile(other, env)).not.toBe(customerIndexFile(demo, env));
    expect(indexStoreKey(sandbox as never)).toMatch(/^sandbox-[0-9a-f]{12}$/);
    // A demo store in memory keeps its index in memory too.
    expect(customerIndexFile(resolveTarget({ db: ":memory:" }, env, {}), env)).toBe(":memory:");
  });

  it("demo reset removes the reset store's index and leaves another's", async () => {
    const mine = await indexOf({});
    const theirs = await indexOf({ db: join(dir, "shop.db") });
    expect(existsSync(mine)).toBe(true);
    const cap = captureIo(env);
    expect(await runDemoReset([], cap.io)).toBe(0);
    expect(existsSync(mine)).toBe(false);
    expect(existsSync(`${mine}-wal`)).toBe(false);
    expect(existsSync(theirs)).toBe(true);
  });

  it("logout removes the environment's indexes, even when nobody was signed in", async () => {
    const sandbox = await indexOf({ env: "sandbox" });
    const production = await indexOf({ env: "production" });
    const cap = captureIo(env);
    expect(await runLogout(["--env", "sandbox"], cap.io, { keytar: memoryKeytar() })).toBe(0);
    expect(cap.stdout()).toContain(`Removed the customer index of sandbox from this machine (${sandbox}).`);
    expect(existsSync(sandbox)).toBe(false);
    expect(existsSync(production)).toBe(true);
  });

  it("removes by prefix only index files", () => {
    const data = dataDir(env);
    mkdirSync(data, { recursive: true });
    for (const name of ["customers-sandbox-aaa.db", "customers-sandbox-aaa.db-wal", "stocktake.db", "demo.db"]) {
      writeFileSync(join(data, name), "x");
    }
    expect(removeCustomerIndexes(env, "sandbox-")).toEqual([join(data, "customers-sandbox-aaa.db")]);
    expect(existsSync(join(data, "customers-sandbox-aaa.db-wal"))).toBe(false);
    expect(existsSync(join(data, "stocktake.db"))).toBe(true);
    expect(existsSync(join(data, "demo.db"))).toBe(true);
    expect(removeCustomerIndexes({ ...env, XDG_DATA_HOME: join(dir, "nowhere") }, "x")).toEqual([]);
  });
});
