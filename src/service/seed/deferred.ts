import {
  type DrawersInput,
  drawersInput,
  type SeedLocation,
  seedCashDrawers,
  seedLocations,
} from "../cash-drawers/seed.js";
import type { RequestContext, RouteTable } from "../context.js";
import type { Db } from "../db.js";
import { seededIds } from "../ids.js";
import { seedPayouts } from "../payouts/seed.js";
import { seedV1, v1Staff } from "../v1/seed.js";
import type { SeedContext } from "./context.js";
import { rng } from "./random.js";

/**
 * Areas of the demo store that can be laid out on their first use instead of when the store
 * starts. A fresh demo store (the app's, `serve --scale 1`) spent most of its start on three
 * histories a session may never read: a month of cash drawer shifts, a year of payouts and a
 * year of V1 payments. So the seed leaves a row per area in `deferred_seeds` (migration 014), and
 * the area's first request lays it out inside its own transaction, as of the moment the store
 * started, before its rule runs. A store kept as a seed image lays out every area at once (the
 * image holds the whole store).
 *
 * Each history draws on its own generator and on what the seed recorded of the store when it
 * started (`input`: the locations, who works where), never on the store as it is when first
 * read: it comes out the same whether laid out with the store or later, whatever changed in
 * between. The interface cannot write to these areas (drawers and payouts are read-only, V1
 * writes need a payment), so nothing can reach them before they are laid out.
 */
export type DeferredArea = "drawers" | "payouts" | "v1";

/** How an area is laid out: what it records of the store, and the lay-out from that record. */
interface AreaSeed<I> {
  /** Its own generator's seed, so the other areas' draws do not move its history; none when its seed makes its own. */
  random?: number;
  /** What it takes of the store as the store is laid out (plain JSON: it may wait in a row). */
  input(s: SeedContext): I;
  /** Lays it out as of `s.now`, drawing on `s.rng` (its own generator). */
  layOut(s: SeedContext, input: I): void;
}

const AREAS: { [A in DeferredArea]: AreaSeed<never> } = {
  // The drawers make a generator of their own inside their seed (cash-drawers/seed.ts).
  drawers: area<DrawersInput>({ input: drawersInput, layOut: seedCashDrawers }),
  payouts: area<SeedLocation[]>({ random: 20_261_128, input: seedLocations, layOut: seedPayouts }),
  v1: area<{ staff: string[] }>({
    random: 20_261_127,
    input: (s) => ({ staff: v1Staff(s) }),
    layOut: (s, input) => seedV1(s, input.staff),
  }),
};

/** An area's seed, its input type erased for the table (each area reads back what it wrote). */
function area<I>(seed: AreaSeed<I>): AreaSeed<never> {
  return seed as unknown as AreaSeed<never>;
}

/** The context an area is laid out in: its own generator; a history is a fixed span (scale 1). */
function areaContext(db: Db, merchantId: string, now: Date, which: DeferredArea): SeedContext {
  const random = rng(AREAS[which].random ?? 0);
  return { db, rng: random, ids: seededIds(random), now, scale: 1, merchantId };
}

/**
 * Lays the area out now (within the seed's transaction), or, with `defer`, records it for its
 * first use: either way from what it takes of the store as it is now.
 */
export function seedArea(s: SeedContext, which: DeferredArea, defer: boolean): void {
  const seed = AREAS[which] as AreaSeed<unknown>;
  const input = seed.input(s);
  if (!defer) {
    seed.layOut(areaContext(s.db, s.merchantId, s.now, which), input);
    return;
  }
  s.db
    .prepare("INSERT INTO deferred_seeds (merchant_id, area, as_of, input) VALUES (?, ?, ?, ?)")
    .run(s.merchantId, which, s.now.toISOString(), JSON.stringify(input));
}

/**
 * Lays out the area of the seller if it is still deferred; runs in the caller's transaction (a
 * request's), so a failure leaves it deferred. Answers whether it laid it out.
 */
export function layOutDeferred(db: Db, merchantId: string, which: DeferredArea): boolean {
  const row = db
    .prepare("SELECT as_of, input FROM deferred_seeds WHERE merchant_id = ? AND area = ?")
    .get(merchantId, which) as { as_of: string; input: string } | undefined;
  if (!row) return false;
  db.prepare("DELETE FROM deferred_seeds WHERE merchant_id = ? AND area = ?").run(merchantId, which);
  const seed = AREAS[which] as AreaSeed<unknown>;
  seed.layOut(areaContext(db, merchantId, new Date(row.as_of), which), JSON.parse(row.input));
  return true;
}

/**
 * An area's rules, each first laying out the area's deferred history for the calling seller: one
 * wrapper over the area's route table, so no rule has to remember it.
 */
export function laidOutFirst(which: DeferredArea, routes: RouteTable): RouteTable {
  const wrapped: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(routes) as [string, (ctx: RequestContext) => unknown][]) {
    wrapped[name] = (ctx: RequestContext) => {
      if (ctx.auth) layOutDeferred(ctx.db, ctx.auth.merchantId, which);
      return handler(ctx);
    };
  }
  return wrapped as RouteTable;
}
