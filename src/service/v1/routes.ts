import type { V1Order, V1Payment, V1Refund, V1Settlement } from "../../spec/generated/types.js";
import { merchantOf, type RequestContext, type RouteTable } from "../context.js";
import { locationExists } from "../directory/repo.js";
import { invalid, notFound } from "../errors.js";
import { enumValue } from "../params.js";
import { type V1Row, v1Page } from "./paging.js";
import { findOrder, findPayment, saveOrder, savePayment, saveRefund } from "./repo.js";
import { refundPayment, updateOrder } from "./rules.js";

/** `me`: every location of the seller, where the operation allows it. */
const ALL = "me";

/**
 * The path's location: a location of the seller, or `me` where `allowMe` (payments and
 * settlements). Anything else is not found.
 */
function locationOf(ctx: RequestContext, allowMe: boolean): string | null {
  const id = ctx.path.location_id ?? "";
  if (id === ALL && allowMe) return null;
  if (!locationExists(ctx.db, merchantOf(ctx), id)) {
    throw notFound(
      id === ALL
        ? "This endpoint needs a location id; `me` is only for payments and settlements."
        : `Location not found: ${id}.`,
    );
  }
  return id;
}

const parse = <T>(rows: V1Row[]): T[] => rows.map((r) => JSON.parse(r.data) as T);

/** The V1 operations (all deprecated by the real service, kept for older integrations). */
export const v1Routes: RouteTable = {
  V1ListPayments: (ctx) => {
    const loc = locationOf(ctx, true);
    const where = ["merchant_id = @merchant", "arrived_at <= @now"];
    if (loc) where.push("location_id = @loc");
    if (ctx.query.include_partial !== true) where.push("is_partial = 0");
    const page = v1Page(ctx, {
      from: "v1_payments",
      timeCol: "created_at",
      where,
      args: { merchant: merchantOf(ctx), now: ctx.now.toISOString(), ...(loc ? { loc } : {}) },
      ranged: true,
      limitDefault: 100,
    });
    return { body: parse<V1Payment>(page.rows), headers: page.headers };
  },

  V1RetrievePayment: (ctx) => {
    const loc = locationOf(ctx, true);
    const id = ctx.path.payment_id ?? "";
    const found = findPayment(ctx.db, merchantOf(ctx), id);
    // A payment still in transit from an offline device is not known yet.
    if (
      !found ||
      found.payment.id !== id ||
      (loc && found.locationId !== loc) ||
      found.arrivedAt > ctx.now.toISOString()
    ) {
      throw notFound(`Payment not found: ${id}.`);
    }
    return { body: found.payment };
  },

  V1ListRefunds: (ctx) => {
    const loc = locationOf(ctx, false);
    const page = v1Page<V1Row & { payment_id: string }>(ctx, {
      from: "v1_refunds",
      timeCol: "created_at",
      where: ["merchant_id = @merchant", "location_id = @loc"],
      args: { merchant: merchantOf(ctx), loc },
      ranged: true,
      limitDefault: 100,
      select: "payment_id",
      // One request that refunded several tenders is never split across pages.
      together: (last, next) =>
        last.t === next.t &&
        (last as V1Row & { payment_id: string }).payment_id === (next as V1Row & { payment_id: string }).payment_id,
    });
    return { body: parse<V1Refund>(page.rows), headers: page.headers };
  },

  V1CreateRefund: (ctx) => {
    const loc = locationOf(ctx, false) as string;
    const req = ctx.body;
    const merchant = merchantOf(ctx);
    const found = findPayment(ctx.db, merchant, req.payment_id);
    if (!found || found.locationId !== loc || found.arrivedAt > ctx.now.toISOString()) {
      throw notFound(`Payment not found at location ${loc}: ${req.payment_id}.`);
    }
    if (req.reason.trim() === "") throw invalid("VALUE_EMPTY", "reason must not be empty.", "reason");
    const out = refundPayment(found.payment, req, req.payment_id, ctx.now);
    savePayment(ctx.db, { payment: out.payment, merchantId: merchant, locationId: loc, arrivedAt: found.arrivedAt });
    for (const r of out.refunds) {
      saveRefund(ctx.db, {
        id: ctx.ids.next(),
        merchantId: merchant,
        locationId: loc,
        paymentId: found.payment.id ?? "",
        tenderId: r.tenderId,
        refund: r.refund,
      });
    }
    return { body: out.response };
  },

  V1ListSettlements: (ctx) => {
    const loc = locationOf(ctx, true);
    const status = enumValue(ctx.query.status, "V1ListSettlementsRequestStatus", "status");
    const where = ["merchant_id = @merchant"];
    if (loc) where.push("location_id = @loc");
    if (status) where.push("status = @status");
    const page = v1Page(ctx, {
      from: "v1_settlements",
      timeCol: "initiated_at",
      where,
      args: { merchant: merchantOf(ctx), ...(loc ? { loc } : {}), ...(status ? { status } : {}) },
      ranged: true,
      limitDefault: 100,
    });
    // The list is a summary: entries come only with the single settlement.
    const body = parse<V1Settlement>(page.rows).map(({ entries: _entries, ...s }) => s);
    return { body, headers: page.headers };
  },

  V1RetrieveSettlement: (ctx) => {
    const loc = locationOf(ctx, true);
    const id = ctx.path.settlement_id ?? "";
    const row = ctx.db
      .prepare("SELECT data, location_id FROM v1_settlements WHERE merchant_id = ? AND id = ?")
      .get(merchantOf(ctx), id) as { data: string; location_id: string } | undefined;
    if (!row || (loc && row.location_id !== loc)) throw notFound(`Settlement not found: ${id}.`);
    return { body: JSON.parse(row.data) as V1Settlement };
  },

  V1ListOrders: (ctx) => {
    const loc = locationOf(ctx, false);
    const page = v1Page(ctx, {
      from: "v1_orders",
      timeCol: "created_at",
      where: ["merchant_id = @merchant", "location_id = @loc"],
      args: { merchant: merchantOf(ctx), loc },
      ranged: false,
      limitDefault: 100,
    });
    // The list is a summary; the history comes with the single order.
    const body = parse<V1Order>(page.rows).map(({ order_history: _history, ...o }) => o);
    return { body, headers: page.headers };
  },

  V1RetrieveOrder: (ctx) => {
    const loc = locationOf(ctx, false) as string;
    const id = ctx.path.order_id ?? "";
    const order = findOrder(ctx.db, merchantOf(ctx), loc, id);
    if (!order) throw notFound(`Order not found: ${id}.`);
    return { body: order };
  },

  V1UpdateOrder: (ctx) => {
    const loc = locationOf(ctx, false) as string;
    const id = ctx.path.order_id ?? "";
    const merchant = merchantOf(ctx);
    const order = findOrder(ctx.db, merchant, loc, id);
    if (!order) throw notFound(`Order not found: ${id}.`);
    const next = updateOrder(order, ctx.body, ctx.now);
    saveOrder(ctx.db, merchant, loc, next);
    return { body: next };
  },
};
