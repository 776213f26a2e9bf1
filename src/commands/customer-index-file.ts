// Which customer index file belongs to which store, and taking them away: one file per store in
// the data folder, named after the environment and a digest of the address (or of the demo
// store's file), so the sandbox's customers never mix with production's or the demo's.
import { createHash } from "node:crypto";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { EnvVars } from "../auth/config.js";
import { customerIndexPath } from "../local/handles.js";
import { type DemoTarget, dataDir, type ServiceTarget, type Target } from "./target.js";

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

/** What the index of a store is named after: `demo-<digest of its file>`, `sandbox-<digest of the address>`. */
export function indexStoreKey(target: Pick<DemoTarget, "kind" | "dbPath"> | ServiceTarget): string {
  return target.kind === "demo" ? `demo-${digest(target.dbPath)}` : `${target.environment}-${digest(target.baseUrl)}`;
}

/** The customer index of a store: a file in the data folder, or memory for a demo store in memory. */
export function customerIndexFile(target: Target, env: EnvVars): string {
  if (target.kind === "demo" && target.dbPath === ":memory:") return ":memory:";
  return customerIndexPath(dataDir(env), indexStoreKey(target));
}

/**
 * Removes the customer index files (with their WAL and shared-memory files) whose store key
 * starts with `prefix` — `sandbox-` for every sandbox store, a whole key for one store. Returns
 * the index files removed.
 */
export function removeCustomerIndexes(env: EnvVars, prefix: string): string[] {
  const dir = dataDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(`customers-${prefix}`) || !name.endsWith(".db")) continue;
    for (const file of [name, `${name}-wal`, `${name}-shm`]) rmSync(join(dir, file), { force: true });
    removed.push(join(dir, name));
  }
  return removed;
}
