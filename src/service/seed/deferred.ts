import type { RequestContext, RouteTable } from "../context.js";
import type { Db } from "../db.js";
import { seededIds } from "../ids.js";
import { seedV1, v1Staff } from "../v1/seed.js";
import type { SeedContext } from "./context.js";
import { rng } from "./random.js";

/**
 * Areas of the demo store that can be laid out on their first use instead of when the store
 * starts. A fresh demo store (the app's, `serve --scale 1`) lays out everything else at once; a
 * year of V1 history is a quarter of that start, and most sessions never open it. So the seed
 * leaves a row in `deferred_seeds` (migration 014), and the area's first request lays it out
 * inside its own transaction, as of the moment the store started, before its rule runs. A store
 * kept as a seed image lays out every area at once (the image holds the whole store).
 *
 * An area's history draws on its own generator and on what the seed recorded (`input`), never on
 * the store as it is when first read: it comes out the same whether laid out with the store or
 * later, and whatever was changed in between.
 */
export type DeferredArea = "v1";

/** What the V1 history takes beyond the store: who took the payments. */
interface V1Input {
  staff: string[];
}

/** The V1 history's own generator (the store's seeds draw on another). */
const V1_RANDOM_SEED = 20_261_127;

/** Lays out the V1 history of `merchantId` as of `now`. */
function layOutV1(db: Db, merchantId: string, now: Date, input: V1Input): void {
  const random = rng(V1_RANDOM_SEED);
  // A history is a fixed span: scale grows the benchmarked volumes, not the years (seed/index.ts).
  const s: SeedContext = { db, rng: random, ids: seededIds(random), now, scale: 1, merchantId };
  seedV1(s, input.staff);
}

/** How each deferred area is laid out, from its recorded input. */
const LAY_OUTS: Record<DeferredArea, (db: Db, merchantId: string, asOf: Date, input: unknown) => void> = {
  v1: (db, merchantId, asOf, input) => layOutV1(db, merchantId, asOf, input as V1Input),
};

/** The V1 history now, within the seed's transaction. */
export function seedV1Now(s: SeedContext): void {
  layOutV1(s.db, s.merchantId, s.now, { staff: v1Staff(s) });
}

/** Leaves the V1 history to its first use: records what it needs of the store as it is now. */
export function deferV1(s: SeedContext): void {
  const input: V1Input = { staff: v1Staff(s) };
  s.db
    .prepare("INSERT INTO deferred_seeds (merchant_id, area, as_of, input) VALUES (?, ?, ?, ?)")
    .run(s.merchantId, "v1", s.now.toISOString(), JSON.stringify(input));
}

/**
 * Lays out the area's history of the seller if it is still deferred; runs in the caller's
 * transaction (a request's), so a failure leaves it deferred. Answers whether it laid it out.
 */
export function layOutDeferred(db: Db, merchantId: string, area: DeferredArea): boolean {
  const row = db
    .prepare("SELECT as_of, input FROM deferred_seeds WHERE merchant_id = ? AND area = ?")
    .get(merchantId, area) as { as_of: string; input: string } | undefined;
  if (!row) return false;
  db.prepare("DELETE FROM deferred_seeds WHERE merchant_id = ? AND area = ?").run(merchantId, area);
  LAY_OUTS[area](db, merchantId, new Date(row.as_of), JSON.parse(row.input));
  return true;
}

/**
 * An area's rules, each first laying out the area's deferred history for the calling seller: one
 * wrapper over the area's route table, so no rule has to remember it.
 */
export function laidOutFirst(area: DeferredArea, routes: RouteTable): RouteTable {
  const wrapped: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(routes) as [string, (ctx: RequestContext) => unknown][]) {
    wrapped[name] = (ctx: RequestContext) => {
      if (ctx.auth) layOutDeferred(ctx.db, ctx.auth.merchantId, area);
      return handler(ctx);
    };
  }
  return wrapped as RouteTable;
}
