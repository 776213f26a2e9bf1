import { merchantOf, type RequestContext, type RouteTable } from "../context.js";
import { encodeCursor, type PositionGuard, positionOf, readCursor } from "../cursor.js";
import { mainLocationId } from "../directory/repo.js";
import { notFound } from "../errors.js";
import { enumValue, pageLimit, sortOrder, timeWindow } from "../params.js";
import { findPayout, listPayoutEntries, listPayouts, type Position } from "./repo.js";

/** Both payout lists: 100 by default and at most; the interface ignores a larger value. */
const LIMIT = { def: 100, max: 100, clamp: true } as const;

/** The payouts operations (read-only; the pipeline enforces PAYOUTS_READ). */
export const payoutsRoutes: RouteTable = {
  ListPayouts(ctx) {
    const merchantId = merchantOf(ctx);
    const locationId =
      typeof ctx.query.location_id === "string" ? ctx.query.location_id : mainLocationId(ctx.db, merchantId);
    const status = enumValue(ctx.query.status, "PayoutStatus", "status");
    const order = sortOrder(ctx.query.sort_order, "DESC");
    const { begin, end } = timeWindow(ctx.query, ctx.now);
    const limit = pageLimit(ctx.query.limit, LIMIT);
    // The query as asked (not the defaults resolved against the clock), so paging survives time passing.
    const query = {
      locationId,
      status,
      order,
      begin: ctx.query.begin_time,
      end: ctx.query.end_time,
    };
    const after = readCursor(ctx.op.name, ctx.query.cursor, query, isPosition);
    if (!locationId) return { body: { payouts: [] } };
    const page = listPayouts(ctx.db, {
      merchantId,
      locationId,
      begin: begin.toISOString(),
      // end_time is exclusive: a payout created exactly at end_time belongs to the next window.
      end: end.toISOString(),
      order,
      limit,
      ...(status === undefined ? {} : { status }),
      ...(after ? { after } : {}),
    });
    return {
      body: {
        payouts: page.payouts,
        ...(page.more && page.last ? { cursor: encodeCursor(ctx.op.name, query, page.last) } : {}),
      },
    };
  },

  GetPayout(ctx) {
    const payout = findPayout(ctx.db, merchantOf(ctx), payoutIdOf(ctx));
    if (!payout) throw notFound(`Payout ${payoutIdOf(ctx)} not found.`);
    return { body: { payout } };
  },

  ListPayoutEntries(ctx) {
    const payoutId = payoutIdOf(ctx);
    if (!findPayout(ctx.db, merchantOf(ctx), payoutId)) throw notFound(`Payout ${payoutId} not found.`);
    const order = sortOrder(ctx.query.sort_order, "DESC");
    const limit = pageLimit(ctx.query.limit, LIMIT);
    const query = { payoutId, order };
    const after = readCursor(ctx.op.name, ctx.query.cursor, query, isPosition);
    const page = listPayoutEntries(ctx.db, { payoutId, order, limit, ...(after ? { after } : {}) });
    return {
      body: {
        payout_entries: page.entries,
        ...(page.more && page.last ? { cursor: encodeCursor(ctx.op.name, query, page.last) } : {}),
      },
    };
  },
};

const payoutIdOf = (ctx: RequestContext): string => ctx.path.payout_id ?? "";

/** The keyset position of both payout listings: a time and an id. */
const isPosition: PositionGuard<Position> = positionOf({ t: "string", i: "string" });
