import type { Db } from "../db.js";
import type { IdSource } from "../ids.js";
import type { Rng } from "./random.js";

/** What every area's seed receives. Seeds are deterministic: same scale, same store. */
export interface SeedContext {
  db: Db;
  rng: Rng;
  ids: IdSource;
  /** The moment the store is seeded; history is laid out backwards from it. */
  now: Date;
  /** Multiplies volumes (customers, shifts, counts) for benchmarks; 1 for the normal demo. */
  scale: number;
  merchantId: string;
}
