import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../src/service/seed/demo-ids.js";
import { savePayment } from "../src/service/v1/repo.js";
import type { V1Order, V1Payment, V1Refund, V1Settlement } from "../src/spec/generated/types.js";
import { failure, startService, type TestService } from "./helpers/service.js";

let t: TestService;
const MAIN = DEMO.mainLocationId;
const DOCK = DEMO.secondLocationId;

beforeAll(async () => {
  t = await startService();
  // The service lays its V1 history out on the first V1 request (seed/deferred.ts); these tests
  // also read its tables directly.
  expect((await t.raw("GET", "/v1/me/payments?limit=1")).status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

const now = () => t.service.clock.now();
const daysAgo = (d: number) => new Date(now().getTime() - d * 86_400_000).toISOString();

/** Every payment of a range, through the client's Link-header paging. */
const allPayments = (loc: string, q: Record<string, unknown> = {}) =>
  t.client.v1.v1ListPayments(loc, { limit: 200, ...q }).all();

/** A recent, complete, unrefunded payment with the given number of tenders. */
async function freshPayment(loc: string, tenders: number, notIn: Set<string>): Promise<V1Payment> {
  const list = await allPayments(loc, { begin_time: daysAgo(30) });
  const p = list.find(
    (x) =>
      !notIn.has(x.id ?? "") &&
      x.tender?.length === tenders &&
      (x.refunded_money?.amount ?? 0) === 0 &&
      (x.tender ?? []).every((tt) => (tt.total_money?.amount ?? 0) > 300),
  );
  if (!p?.id) throw new Error(`no fresh payment with ${tenders} tender(s)`);
  notIn.add(p.id);
  return p;
}
const used = new Set<string>();

describe("V1 lists: range, order and paging", () => {
  it("lists the last year by default, oldest first, with complete payments only", async () => {
    const list = await allPayments("me");
    expect(list.length).toBeGreaterThan(500);
    const yearAgo = new Date(now());
    yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
    for (const p of list) {
      expect(p.created_at && p.created_at >= yearAgo.toISOString() && p.created_at < now().toISOString()).toBe(true);
      expect(p.is_partial).toBe(false);
    }
    const times = list.map((p) => p.created_at ?? "");
    expect([...times].sort()).toEqual(times);
  });

  it("names the next page in a Link header that carries the query and a batch_token", async () => {
    const begin = daysAgo(20);
    const first = await t.raw("GET", `/v1/me/payments?limit=5&begin_time=${encodeURIComponent(begin)}`);
    expect(first.status).toBe(200);
    expect(first.json).toHaveLength(5);
    const link = first.headers.get("link") ?? "";
    const m = /^<([^>]+)>;rel='next'$/.exec(link);
    expect(m).not.toBeNull();
    const next = new URL(m?.[1] ?? "");
    expect(`${next.protocol}//${next.host}`).toBe(t.url);
    expect(next.pathname).toBe("/v1/me/payments");
    expect(next.searchParams.get("limit")).toBe("5");
    expect(next.searchParams.get("begin_time")).toBe(begin);
    expect(next.searchParams.get("batch_token")).toBeTruthy();
    const second = await t.raw("GET", `${next.pathname}${next.search}`);
    expect(second.json).toHaveLength(5);
    const ids = new Set(first.json.map((p: V1Payment) => p.id));
    for (const p of second.json as V1Payment[]) expect(ids.has(p.id)).toBe(false);
    expect((second.json[0] as V1Payment).created_at! >= (first.json[4] as V1Payment).created_at!).toBe(true);
    // Client paging over small pages gives the same records as one big page.
    const paged = await t.client.v1.v1ListPayments("me", { limit: 7, begin_time: begin }).all();
    const whole = await t.client.v1.v1ListPayments("me", { limit: 200, begin_time: begin });
    expect(whole.length).toBeLessThan(200);
    expect(paged.map((p) => p.id)).toEqual(whole.map((p) => p.id));
    // The last page has no Link.
    const last = await t.raw("GET", `/v1/me/payments?limit=200&begin_time=${encodeURIComponent(begin)}`);
    expect(last.headers.get("link")).toBeNull();
  });

  it("refuses a batch_token of another query", async () => {
    const first = await t.raw("GET", "/v1/me/payments?limit=2");
    const token = new URL(/<([^>]+)>/.exec(first.headers.get("link") ?? "")?.[1] ?? "").searchParams.get("batch_token");
    const other = await t.raw("GET", `/v1/me/payments?limit=2&order=DESC&batch_token=${token}`);
    expect(other.status).toBe(400);
    expect(other.json.errors[0].code).toBe("INVALID_CURSOR");
  });

  it("sorts DESC on request", async () => {
    const asc = await allPayments(MAIN, { begin_time: daysAgo(10) });
    const desc = await allPayments(MAIN, { begin_time: daysAgo(10), order: "DESC" });
    expect(desc.map((p) => p.id)).toEqual(asc.map((p) => p.id).reverse());
  });

  it("lists one location, or every location with me", async () => {
    const q = { begin_time: daysAgo(30) };
    const main = await allPayments(MAIN, q);
    const dock = await allPayments(DOCK, q);
    const me = await allPayments("me", q);
    expect(main.length).toBeGreaterThan(0);
    expect(dock.length).toBeGreaterThan(0);
    expect(main.every((p) => p.merchant_id === MAIN)).toBe(true);
    expect(new Set(me.map((p) => p.id))).toEqual(new Set([...main, ...dock].map((p) => p.id)));
    const unknown = await failure(t.client.v1.v1ListPayments("LNOSUCHPLACE"));
    expect(unknown.status).toBe(404);
  });

  it("refuses a begin before 2013, a range over a year, an end before the begin, and limit over 200", async () => {
    const early = await failure(t.client.v1.v1ListPayments("me", { begin_time: "2012-12-31T23:59:59Z" }));
    expect(early.status).toBe(400);
    expect(early.errors[0]?.field).toBe("begin_time");
    const long = await failure(
      t.client.v1.v1ListPayments("me", { begin_time: "2020-01-01T00:00:00Z", end_time: "2021-01-01T00:00:01Z" }),
    );
    expect(long.code).toBe("INVALID_TIME_RANGE");
    const exactYear = await t.client.v1.v1ListPayments("me", {
      begin_time: "2020-01-01T00:00:00Z",
      end_time: "2021-01-01T00:00:00Z",
    });
    expect(Array.isArray(exactYear)).toBe(true);
    const backwards = await failure(t.client.v1.v1ListRefunds(MAIN, { begin_time: daysAgo(1), end_time: daysAgo(2) }));
    expect(backwards.code).toBe("INVALID_TIME_RANGE");
    const big = await failure(t.client.v1.v1ListSettlements("me", { limit: 201 }));
    expect(big.code).toBe("VALUE_TOO_HIGH");
  });

  it("treats begin_time as inclusive and end_time as exclusive", async () => {
    const some = await allPayments(MAIN, { begin_time: daysAgo(5) });
    const p = some[3];
    const at = p?.created_at ?? "";
    const from = await allPayments(MAIN, { begin_time: at, end_time: daysAgo(0) });
    expect(from.map((x) => x.id)).toContain(p?.id);
    const until = await allPayments(MAIN, { begin_time: daysAgo(5), end_time: at });
    expect(until.map((x) => x.id)).not.toContain(p?.id);
  });
});

describe("V1 payments", () => {
  it("adds partial payments only with include_partial: tenders so far, no itemizations", async () => {
    const without = await allPayments(MAIN, { begin_time: daysAgo(1) });
    const withPartial = await allPayments(MAIN, { begin_time: daysAgo(1), include_partial: true });
    const partial = withPartial.filter((p) => p.is_partial);
    expect(partial.length).toBeGreaterThan(0);
    expect(without.some((p) => p.is_partial)).toBe(false);
    expect(withPartial.length).toBe(without.length + partial.length);
    for (const p of partial) {
      expect(p.itemizations).toEqual([]);
      expect(p.tender?.length).toBeGreaterThan(0);
    }
    const full = without[0];
    expect(full?.itemizations?.length).toBeGreaterThan(0);
  });

  it("has the V1 shape: money as V1Money, tenders, taxes that add up", async () => {
    const [p] = await allPayments(MAIN, { begin_time: daysAgo(3) });
    expect(p?.total_collected_money).toEqual({ amount: expect.any(Number), currency_code: "USD" });
    const tenderSum = (p?.tender ?? []).reduce((s, x) => s + (x.total_money?.amount ?? 0), 0);
    expect(tenderSum).toBe(p?.total_collected_money?.amount);
    expect(p?.tax_money?.amount).toBe((p?.inclusive_tax_money?.amount ?? 0) + (p?.additive_tax_money?.amount ?? 0));
    expect(p?.payment_url).toContain(p?.id);
  });

  it("has split-tender payments", async () => {
    const list = await allPayments("me", { begin_time: daysAgo(60) });
    expect(list.some((p) => (p.tender?.length ?? 0) > 1)).toBe(true);
  });

  it("retrieves a payment at its location or with me, and not at another location", async () => {
    const [p] = await allPayments(DOCK, { begin_time: daysAgo(10) });
    const id = p?.id ?? "";
    expect((await t.client.v1.v1RetrievePayment(DOCK, id)).id).toBe(id);
    expect((await t.client.v1.v1RetrievePayment("me", id)).id).toBe(id);
    expect((await failure(t.client.v1.v1RetrievePayment(MAIN, id))).status).toBe(404);
  });
});

describe("V1 refunds", () => {
  it("refunds part of a payment, then the rest, and never more", async () => {
    const p = await freshPayment(MAIN, 1, used);
    const total = p.total_collected_money?.amount ?? 0;
    const part = await t.client.v1.v1CreateRefund(MAIN, {
      payment_id: p.id ?? "",
      type: "PARTIAL",
      reason: "Scratched",
      refunded_money: { amount: 150, currency_code: "USD" },
    });
    expect(part).toMatchObject({
      type: "PARTIAL",
      reason: "Scratched",
      payment_id: p.id,
      refunded_money: { amount: -150, currency_code: "USD" },
    });
    const after = await t.client.v1.v1RetrievePayment(MAIN, p.id ?? "");
    expect(after.refunded_money?.amount).toBe(-150);
    expect(after.refunds).toHaveLength(1);
    expect(after.tender?.[0]?.refunded_money?.amount).toBe(-150);

    const tooMuch = await failure(
      t.client.v1.v1CreateRefund(MAIN, {
        payment_id: p.id ?? "",
        type: "PARTIAL",
        reason: "Again",
        refunded_money: { amount: total, currency_code: "USD" },
      }),
    );
    expect(tooMuch.code).toBe("REFUND_AMOUNT_INVALID");

    const rest = await t.client.v1.v1CreateRefund(MAIN, { payment_id: p.id ?? "", type: "FULL", reason: "Returned" });
    expect(rest.refunded_money?.amount).toBe(-(total - 150));
    const done = await t.client.v1.v1RetrievePayment(MAIN, p.id ?? "");
    expect(done.refunded_money?.amount).toBe(-total);

    // A refund cannot be undone or repeated: nothing is left to refund.
    const again = await failure(
      t.client.v1.v1CreateRefund(MAIN, { payment_id: p.id ?? "", type: "FULL", reason: "Again" }),
    );
    expect(again.code).toBe("PAYMENT_NOT_REFUNDABLE");
  });

  it("refunds every tender of a split-tender payment on FULL, each refund naming its tender", async () => {
    const p = await freshPayment(MAIN, 2, used);
    const before = now().toISOString();
    const res = await t.client.v1.v1CreateRefund(MAIN, { payment_id: p.id ?? "", type: "FULL", reason: "All back" });
    expect(res.refunded_money?.amount).toBe(-(p.total_collected_money?.amount ?? 0));
    const after = await t.client.v1.v1RetrievePayment(MAIN, p.id ?? "");
    for (const tender of after.tender ?? []) {
      expect(tender.refunded_money?.amount).toBe(-(tender.total_money?.amount ?? 0));
    }
    const tenderIds = (p.tender ?? []).map((x) => x.id);
    const listed = await t.client.v1.v1ListRefunds(MAIN, { begin_time: before }).all();
    const mine = listed.filter((r: V1Refund) => tenderIds.includes(r.payment_id));
    expect(mine).toHaveLength(2);
    // An approximate limit: the refunds of one request are never split across pages.
    const page = await t.raw("GET", `/v1/${MAIN}/refunds?limit=1&begin_time=${encodeURIComponent(before)}`);
    expect(page.json.length).toBeGreaterThanOrEqual(2);
  });

  it("needs the tender for a PARTIAL refund of a split-tender payment", async () => {
    const p = await freshPayment(MAIN, 2, used);
    const byPayment = await failure(
      t.client.v1.v1CreateRefund(MAIN, {
        payment_id: p.id ?? "",
        type: "PARTIAL",
        reason: "One item",
        refunded_money: { amount: 100, currency_code: "USD" },
      }),
    );
    expect(byPayment.errors[0]?.field).toBe("payment_id");
    const tender = p.tender?.[1];
    const ok = await t.client.v1.v1CreateRefund(MAIN, {
      payment_id: tender?.id ?? "",
      type: "PARTIAL",
      reason: "One item",
      refunded_money: { amount: 100, currency_code: "USD" },
    });
    expect(ok.payment_id).toBe(tender?.id);
    const after = await t.client.v1.v1RetrievePayment(MAIN, p.id ?? "");
    expect(after.tender?.find((x) => x.id === tender?.id)?.refunded_money?.amount).toBe(-100);
    expect(after.tender?.find((x) => x.id !== tender?.id)?.refunded_money?.amount).toBe(0);
  });

  it("refuses a refund more than 60 days after the payment", async () => {
    const old = await allPayments(MAIN, { begin_time: daysAgo(90), end_time: daysAgo(62) });
    const p = old.find((x) => (x.refunded_money?.amount ?? 0) === 0);
    const e = await failure(
      t.client.v1.v1CreateRefund(MAIN, { payment_id: p?.id ?? "", type: "FULL", reason: "Too late" }),
    );
    expect(e.code).toBe("PAYMENT_NOT_REFUNDABLE");
    expect((await t.client.v1.v1RetrievePayment(MAIN, p?.id ?? "")).refunds).toEqual([]);
  });

  it("needs refunded_money for PARTIAL, a reason, and a payment of that location", async () => {
    const p = await freshPayment(MAIN, 1, used);
    const noMoney = await failure(
      t.client.v1.v1CreateRefund(MAIN, { payment_id: p.id ?? "", type: "PARTIAL", reason: "x" }),
    );
    expect(noMoney.errors[0]?.field).toBe("refunded_money");
    const noReason = await t.raw("POST", `/v1/${MAIN}/refunds`, { body: { payment_id: p.id, type: "FULL" } });
    expect(noReason.status).toBe(400);
    expect(noReason.json.errors[0].field).toBe("reason");
    const elsewhere = await failure(
      t.client.v1.v1CreateRefund(DOCK, { payment_id: p.id ?? "", type: "FULL", reason: "x" }),
    );
    expect(elsewhere.status).toBe(404);
    const me = await failure(t.client.v1.v1CreateRefund("me", { payment_id: p.id ?? "", type: "FULL", reason: "x" }));
    expect(me.status).toBe(404);
  });

  it("refuses to refund a payment still being taken", async () => {
    const list = await allPayments(MAIN, { begin_time: daysAgo(1), include_partial: true });
    const partial = list.find((p) => p.is_partial);
    const e = await failure(
      t.client.v1.v1CreateRefund(MAIN, { payment_id: partial?.id ?? "", type: "FULL", reason: "x" }),
    );
    expect(e.code).toBe("PAYMENT_NOT_REFUNDABLE");
  });

  it("answers the same refund for the same request_idempotence_key, refunding once", async () => {
    const p = await freshPayment(MAIN, 1, used);
    const body = {
      payment_id: p.id ?? "",
      type: "PARTIAL" as const,
      reason: "Retry-safe",
      refunded_money: { amount: 120, currency_code: "USD" as const },
      request_idempotence_key: "refund-once-1",
    };
    const a = await t.client.v1.v1CreateRefund(MAIN, body);
    const b = await t.client.v1.v1CreateRefund(MAIN, body);
    expect(b).toEqual(a);
    const after = await t.client.v1.v1RetrievePayment(MAIN, p.id ?? "");
    expect(after.refunded_money?.amount).toBe(-120);
  });

  it("lists a location's refunds of the range; not with me", async () => {
    const list = await t.client.v1.v1ListRefunds(MAIN).all();
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((r) => (r.refunded_money?.amount ?? 0) < 0)).toBe(true);
    const e = await failure(t.client.v1.v1ListRefunds("me"));
    expect(e.status).toBe(404);
  });
});

describe("V1 settlements", () => {
  it("lists settlements without entries, filtered by status", async () => {
    const all = await t.client.v1.v1ListSettlements("me").all();
    expect(all.length).toBeGreaterThan(100);
    expect(all.every((s) => s.entries === undefined)).toBe(true);
    const failed = await t.client.v1.v1ListSettlements("me", { status: "FAILED" }).all();
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((s) => s.status === "FAILED")).toBe(true);
    const sent = await t.client.v1.v1ListSettlements("me", { status: "SENT" }).all();
    expect(sent.length + failed.length).toBe(all.length);
    const bad = await t.raw("GET", "/v1/me/settlements?status=LOST");
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe("status");
  });

  it("retrieves one with entries that add up to its total", async () => {
    const row = t.service.db
      .prepare(
        "SELECT id, location_id FROM v1_settlements WHERE data LIKE '%\"REFUND\"%' AND data LIKE '%\"CHARGE\"%' LIMIT 1",
      )
      .get() as { id: string; location_id: string };
    const s: V1Settlement = await t.client.v1.v1RetrieveSettlement(row.location_id, row.id);
    const sum = (s.entries ?? []).reduce((x, e) => x + (e.amount_money?.amount ?? 0) + (e.fee_money?.amount ?? 0), 0);
    expect(sum).toBe(s.total_money?.amount);
    const types = new Set((s.entries ?? []).map((e) => e.type));
    expect(types.has("CHARGE")).toBe(true);
    expect(types.has("REFUND")).toBe(true);
    expect((await t.client.v1.v1RetrieveSettlement("me", row.id)).id).toBe(row.id);
    const other = row.location_id === MAIN ? DOCK : MAIN;
    expect((await failure(t.client.v1.v1RetrieveSettlement(other, row.id))).status).toBe(404);
  });
});

describe("V1 orders", () => {
  let orders: V1Order[];
  beforeAll(async () => {
    orders = await t.client.v1.v1ListOrders(MAIN, { order: "DESC", limit: 200 });
  });

  it("lists a summary without history; retrieving gives the history", async () => {
    expect(orders.length).toBeGreaterThan(50);
    expect(orders.every((o) => o.order_history === undefined)).toBe(true);
    const one = await t.client.v1.v1RetrieveOrder(MAIN, orders[0]?.id ?? "");
    expect(one.order_history?.[0]?.action).toBe("ORDER_PLACED");
    const times = orders.map((o) => o.created_at ?? "");
    expect([...times].sort().reverse()).toEqual(times);
    const paged = await t.client.v1.v1ListOrders(MAIN, { order: "DESC", limit: 30 }).all();
    expect(paged.length).toBeGreaterThan(200);
    expect(paged.slice(0, 200).map((o) => o.id)).toEqual(orders.map((o) => o.id));
    expect((await failure(t.client.v1.v1ListOrders("me"))).status).toBe(404);
  });

  it("cancels a pending order, and refuses to complete it", async () => {
    const pending = orders.find((o) => o.state === "PENDING");
    const id = pending?.id ?? "";
    const complete = await failure(t.client.v1.v1UpdateOrder(MAIN, id, { action: "COMPLETE" }));
    expect(complete.errors[0]?.field).toBe("action");
    const wrongNote = await failure(
      t.client.v1.v1UpdateOrder(MAIN, id, { action: "CANCEL", completed_note: "shipped" }),
    );
    expect(wrongNote.errors[0]?.field).toBe("completed_note");
    const canceled = await t.client.v1.v1UpdateOrder(MAIN, id, { action: "CANCEL", canceled_note: "Buyer asked" });
    expect(canceled.state).toBe("CANCELED");
    expect(canceled.canceled_note).toBe("Buyer asked");
    expect(canceled.order_history?.at(-1)?.action).toBe("CANCELED");
    const twice = await failure(t.client.v1.v1UpdateOrder(MAIN, id, { action: "CANCEL" }));
    expect(twice.status).toBe(400);
    expect((await t.client.v1.v1RetrieveOrder(MAIN, id)).state).toBe("CANCELED");
  });

  it("completes an open order, then refunds it, and refuses to refund it again", async () => {
    const open = orders.find((o) => o.state === "OPEN");
    const id = open?.id ?? "";
    const refundOpen = await failure(t.client.v1.v1UpdateOrder(MAIN, id, { action: "REFUND" }));
    expect(refundOpen.errors[0]?.field).toBe("action");
    const done = await t.client.v1.v1UpdateOrder(MAIN, id, {
      action: "COMPLETE",
      completed_note: "Shipped",
      shipped_tracking_number: "1Z999",
    });
    expect(done.state).toBe("COMPLETED");
    expect(done.completed_note).toBe("Shipped");
    expect(Date.parse(done.updated_at ?? "")).toBeGreaterThan(Date.parse(open?.updated_at ?? ""));
    const refunded = await t.client.v1.v1UpdateOrder(MAIN, id, { action: "REFUND", refunded_note: "Damaged" });
    expect(refunded.state).toBe("REFUNDED");
    expect(refunded.order_history?.map((h) => h.action).slice(-2)).toEqual(["COMPLETED", "REFUNDED"]);
    const again = await failure(t.client.v1.v1UpdateOrder(MAIN, id, { action: "REFUND" }));
    expect(again.status).toBe(400);
    const bad = await t.raw("PUT", `/v1/${MAIN}/orders/${id}`, { body: { action: "SHIP" } });
    expect(bad.status).toBe(400);
    expect((await failure(t.client.v1.v1UpdateOrder(MAIN, "NOSUCHORDER", { action: "CANCEL" }))).status).toBe(404);
  });
});

// Last: it moves the service clock forward.
describe("V1 offline payments", () => {
  it("shows an offline payment at its original time only once it has arrived", async () => {
    const row = t.service.db
      .prepare(
        "SELECT id, created_at, arrived_at, data FROM v1_payments WHERE arrived_at > ? ORDER BY arrived_at LIMIT 1",
      )
      .get(now().toISOString()) as { id: string; created_at: string; arrived_at: string; data: string };
    // A payment taken an hour after it and sent at once: the seed's own, after the offline one's
    // time, depend on the hour the test runs at.
    const later = new Date(Date.parse(row.created_at) + 3_600_000).toISOString();
    const taken: V1Payment = { ...(JSON.parse(row.data) as V1Payment), id: "TAKEN-AFTER-OFFLINE", created_at: later };
    savePayment(t.service.db, {
      payment: { ...taken, tender: [] },
      merchantId: t.service.merchantId,
      locationId: MAIN,
      arrivedAt: later,
    });
    const begin = daysAgo(2);
    const before = await allPayments(MAIN, { begin_time: begin });
    expect(before.map((p) => p.id)).not.toContain(row.id);
    expect((await failure(t.client.v1.v1RetrievePayment(MAIN, row.id))).status).toBe(404);

    t.advance((Date.parse(row.arrived_at) - now().getTime()) / 1000 + 1);
    const after = await allPayments(MAIN, { begin_time: begin });
    const at = after.findIndex((p) => p.id === row.id);
    expect(at).toBeGreaterThanOrEqual(0);
    // Listed by when it was taken: between payments a client may already have seen.
    expect(after[at]?.created_at).toBe(row.created_at);
    expect(at).toBeLessThan(after.length - 1);
    expect((await t.client.v1.v1RetrievePayment(MAIN, row.id)).id).toBe(row.id);
  });
});
