import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "./db.js";
import { migrations } from "./migrations/index.js";

/**
 * Prepared demo stores of benchmark volumes. Seeding `--scale 200` lays out 100,000 customers,
 * 100,000 catalog objects and 200,000 inventory changes, which takes seconds however it is
 * written; the same store comes out of the same code at the same scale, so the first start of a
 * day keeps a copy of its fresh store (before any credentials are installed), and later starts
 * that day copy it instead of seeding again.
 *
 * An image is keyed by the scale, the seed's version (a hash of the code that lays it out and of
 * the schema) and the UTC day. Its history ends when it was made: a store started from it later
 * that day is up to a day behind the clock (a shift opened "an hour ago" was opened an hour before
 * the image), which suits the benchmark volumes it is for. The normal demo (scale 1) is always
 * seeded fresh, at the moment it starts.
 */

/** The smallest scale whose store is kept as an image. */
export const MIN_IMAGE_SCALE = 2;

const PREFIX = "demo-x";

let version: string | undefined;

/**
 * The seed's version: a hash of this module's file (in the bundle, the chunk that holds the
 * service and every seed) and of the schema's migrations. Any change to either makes a new image.
 */
export function seedVersion(): string {
  if (version === undefined) {
    const h = createHash("sha256");
    try {
      h.update(readFileSync(fileURLToPath(import.meta.url)));
    } catch {
      // Not loaded from a file: the schema alone names the version.
    }
    for (const m of migrations) h.update(`${m.id}\u0000${m.sql}\u0000`);
    version = h.digest("hex").slice(0, 16);
  }
  return version;
}

/** The image file of a demo store at `scale` for the UTC day of `now`, in folder `dir`. */
export function seedImagePath(dir: string, scale: number, now: Date): string {
  return join(dir, `${PREFIX}${scale}-${seedVersion()}-${now.toISOString().slice(0, 10)}.db`);
}

/** The image to start from, when one was made: its path, or undefined. */
export function existingImage(path: string): string | undefined {
  return existsSync(path) ? path : undefined;
}

/**
 * Keeps a copy of a freshly seeded store as the image at `path`: written whole to a temporary
 * name, readable by this user only, then renamed, so that a start never reads half an image; the
 * images of the same scale from other days or versions are removed. Best effort: a store that
 * cannot be kept (a full disk, a read-only folder) is still served, and the next start seeds.
 */
export function saveSeedImage(db: Db, path: string, scale: number): void {
  const dir = join(path, "..");
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    db.prepare("VACUUM INTO ?").run(temporary);
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
    const name = path.slice(dir.length + 1);
    for (const other of readdirSync(dir)) {
      if (other !== name && other.startsWith(`${PREFIX}${scale}-`) && other.endsWith(".db")) {
        rmSync(join(dir, other), { force: true });
      }
    }
  } catch {
    rmSync(temporary, { force: true });
  }
}
