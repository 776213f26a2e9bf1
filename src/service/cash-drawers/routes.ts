import { merchantOf, type RouteTable } from "../context.js";
import { encodeCursor, isOffset, type PositionGuard, positionOf, readCursor } from "../cursor.js";
import { invalid, notFound } from "../errors.js";
import { optionalTime, pageLimit, sortOrder } from "../params.js";
import { findShift, listShiftEvents, listShifts, type ShiftPosition } from "./repo.js";

/** Page sizes of both cash drawer lists: 200 by default, at most 1000. */
const LIMIT = { def: 200, max: 1000 } as const;

/** The cash-drawers operations: read-only shifts and their events. */
export const cashDrawerRoutes: RouteTable = {
  ListCashDrawerShifts(ctx) {
    const merchantId = merchantOf(ctx);
    const locationId = String(ctx.query.location_id);
    const order = sortOrder(ctx.query.sort_order, "ASC");
    const begin = optionalTime(ctx.query.begin_time, "begin_time");
    const end = optionalTime(ctx.query.end_time, "end_time");
    if (begin && end && begin.getTime() > end.getTime()) {
      throw invalid("INVALID_TIME_RANGE", "begin_time must not be after end_time.", "begin_time");
    }
    const limit = pageLimit(ctx.query.limit, LIMIT);
    const query = { locationId, order, begin: begin?.toISOString(), end: end?.toISOString() };
    const after = readCursor(ctx.op.name, ctx.query.cursor, query, isPosition);
    const page = listShifts(ctx.db, {
      merchantId,
      locationId,
      order,
      limit,
      ...(query.begin === undefined ? {} : { begin: query.begin }),
      ...(query.end === undefined ? {} : { end: query.end }),
      ...(after ? { after } : {}),
    });
    return {
      body: {
        cash_drawer_shifts: page.summaries,
        ...(page.more && page.last ? { cursor: encodeCursor(ctx.op.name, query, page.last) } : {}),
      },
    };
  },

  RetrieveCashDrawerShift(ctx) {
    const shift = findShift(ctx.db, merchantOf(ctx), String(ctx.query.location_id), shiftIdOf(ctx.path));
    if (!shift) throw notFound(`Cash drawer shift ${shiftIdOf(ctx.path)} not found at this location.`);
    return { body: { cash_drawer_shift: shift } };
  },

  ListCashDrawerShiftEvents(ctx) {
    const shiftId = shiftIdOf(ctx.path);
    const locationId = String(ctx.query.location_id);
    if (!findShift(ctx.db, merchantOf(ctx), locationId, shiftId)) {
      throw notFound(`Cash drawer shift ${shiftId} not found at this location.`);
    }
    const limit = pageLimit(ctx.query.limit, LIMIT);
    const query = { shiftId, locationId };
    const after = readCursor(ctx.op.name, ctx.query.cursor, query, isOffset);
    const page = listShiftEvents(ctx.db, shiftId, after, limit);
    return {
      body: {
        cash_drawer_shift_events: page.events,
        ...(page.more && page.lastSeq !== undefined ? { cursor: encodeCursor(ctx.op.name, query, page.lastSeq) } : {}),
      },
    };
  },
};

const shiftIdOf = (path: Readonly<Record<string, string>>): string => path.shift_id ?? "";

/** The keyset position of the shift listing: opened_at and id. */
const isPosition: PositionGuard<ShiftPosition> = positionOf({ o: "string", i: "string" });
