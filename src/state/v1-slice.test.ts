import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pinnedClock, startService, type TestService } from "../../test/helpers/service.js";
import { createFullStore } from "../../test/helpers/store.js";
import type { V1Order, V1Payment } from "../spec/generated/types.js";
import { createStore, type LoadedStore } from "./store.js";
import type { RefundForm } from "./v1-machine.js";

const NOW = Date.parse("2026-06-15T16:00:00.000Z");
let t: TestService;
let store: LoadedStore;
let minted = 0;
const s = () => store.getState();
const v = () => s().v1;
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();
const locationNamed = (name: string) => s().locations.find((l) => l.name === name)?.id ?? "";
const MAIN = () => locationNamed("Main Street");

beforeAll(async () => {
  t = await startService({ clock: pinnedClock(NOW) });
  store = await createFullStore({
    client: t.client,
    clock: { now: () => new Date(NOW) },
    newIdempotencyKey: () => `v1-key-${++minted}`,
  });
  await s().init();
  // The service lays its V1 history out on the first V1 request (seed/deferred.ts); these tests
  // also read its tables directly.
  expect((await t.raw("GET", "/v1/me/payments?limit=1")).status).toBe(200);
}, 30_000);
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await t.raw("DELETE", "/_emulator/faults");
  s().closeOverlay();
  s().v1Dispatch({ type: "close-form" });
});

const refundCount = () => (t.service.db.prepare("SELECT count(*) AS n FROM v1_refunds").get() as { n: number }).n;

/** A recent payment at Main Street with the given number of tenders and nothing refunded yet. */
function freshPayment(tenders: number, notBefore = 30, notAfter = 1): V1Payment {
  const rows = t.service.db
    .prepare(
      "SELECT data FROM v1_payments WHERE location_id = ? AND is_partial = 0 AND created_at BETWEEN ? AND ? ORDER BY created_at",
    )
    .all(MAIN(), daysAgo(notBefore), daysAgo(notAfter)) as { data: string }[];
  const found = rows
    .map((r) => JSON.parse(r.data) as V1Payment)
    .find((p) => p.tender?.length === tenders && (p.refunds ?? []).length === 0);
  if (!found) throw new Error(`no payment with ${tenders} tenders`);
  return found;
}

async function openPayment(p: V1Payment) {
  await s().openV1Detail({ kind: "payment", id: p.id ?? "" });
  expect(v().record?.id).toBe(p.id);
}

function fill(fields: Partial<Record<"mode" | "tenderId" | "amount" | "reason", string>>) {
  for (const [field, value] of Object.entries(fields)) {
    s().v1Dispatch({ type: "refund-field", field: field as "mode", value });
  }
}

/** Says yes to the confirmation that is open, as `y` would. */
async function confirmYes() {
  const o = s().overlay;
  if (o.kind !== "confirm") throw new Error(`no confirmation open (${o.kind})`);
  s().closeOverlay();
  await o.question.onYes();
}

describe("the V1 slice's first range", () => {
  it("ends today where the store is, not on UTC's date", async () => {
    // 22:30 on 14 June at Main Street (New York) is 15 June in UTC.
    const late = createStore({ client: t.client, clock: { now: () => new Date("2026-06-15T02:30:00.000Z") } });
    await late.getState().init();
    const loaded = await late.getState().loadSlice("v1");
    expect(loaded.v1.filters).toMatchObject({ from: "2026-05-16", to: "2026-06-14" });
  });
});

describe("the V1 slice's reads", () => {
  it("reads payments of the last 30 days at the location, newest first, once per query", async () => {
    await s().loadV1();
    const list = v().lists.payments ?? [];
    const { n } = t.service.db
      .prepare(
        "SELECT count(*) AS n FROM v1_payments WHERE location_id = ? AND is_partial = 0 AND created_at >= ? AND created_at < ? AND arrived_at <= ?",
      )
      .get(MAIN(), "2026-05-17T04:00:00.000Z", "2026-06-16T04:00:00.000Z", new Date(NOW).toISOString()) as {
      n: number;
    };
    expect(list).toHaveLength(n);
    const times = list.map((p) => p.created_at ?? "");
    expect([...times].sort().reverse()).toEqual(times);
    const same = v().lists.payments;
    await s().loadV1();
    expect(v().lists.payments).toBe(same);
  });

  it("reads every location with me (the picker's All locations), and the settlements of one status", async () => {
    s().selectAllLocations();
    await s().loadV1();
    const where = new Set(v().lists.payments?.map((p) => p.location_id));
    expect(where).toEqual(new Set([MAIN(), locationNamed("Harbour Dock")]));
    s().selectLocation(MAIN());
    expect(v().readFor.payments).toBeUndefined();
    s().v1Dispatch({ type: "set-status", status: "FAILED" });
    s().v1Dispatch({ type: "open-range" });
    s().v1Dispatch({ type: "range-field", field: "from", value: "2025-06-16" });
    await s().submitV1Range();
    await s().showV1View("settlements");
    expect(v().lists.settlements?.length).toBeGreaterThan(0);
    expect(v().lists.settlements?.every((x) => x.status === "FAILED")).toBe(true);
  });

  it("says once, in the view, that the service no longer offers a list; the rest carries on", async () => {
    await t.raw("POST", "/_emulator/faults", {
      body: { operation: "V1ListRefunds", status: 410, code: "GONE", count: 5 },
    });
    await s().showV1View("refunds");
    expect(v().retired.V1ListRefunds).toBe(
      "The service no longer offers old refunds through the old (V1) interface; use the Refunds API (listPaymentRefunds) instead.",
    );
    expect(s().status.kind).not.toBe("error");
    expect(s().connection.state).toBe("online");
    // Not asked again on its own; the other lists still read.
    await s().loadV1();
    const asked = await t.raw("GET", "/_emulator/faults");
    expect(asked.json.faults[0].remaining).toBe(4);
    await s().showV1View("orders");
    expect(v().lists.orders?.length).toBe(220);
  });
});

describe("refunds from the V1 slice", () => {
  it("refuses before sending: 61 days old, split tender without a tender, over what is left", async () => {
    const before = refundCount();
    const old = freshPayment(1, 90, 62);
    await openPayment(old);
    s().openV1Refund();
    expect((v().form as RefundForm).problem).toMatch(/only within 60 days/);

    const split = freshPayment(2);
    await openPayment(split);
    s().openV1Refund();
    fill({ mode: "partial", amount: "1", reason: "One item" });
    s().submitV1Refund();
    expect((v().form as RefundForm).problem).toMatch(/a partial refund comes out of one tender — choose which/);
    const cash = split.tender?.[1];
    fill({ tenderId: cash?.id ?? "", amount: String(((cash?.total_money?.amount ?? 0) + 1) / 100) });
    s().submitV1Refund();
    expect((v().form as RefundForm).problem).toMatch(/is left to refund on .*; .* is more than that/);
    expect(s().overlay.kind).toBe("none");
    expect(refundCount()).toBe(before);
  });

  it("refunds a payment in full after the confirmation that a card refund cannot be reversed", async () => {
    const p = freshPayment(1);
    await openPayment(p);
    s().openV1Refund();
    fill({ reason: "Returned" });
    s().submitV1Refund();
    const o = s().overlay;
    expect(o).toMatchObject({ kind: "confirm", question: { risky: true, yes: "Refund" } });
    if (o.kind === "confirm")
      expect(o.question.message).toMatch(/^Refund [\d.]+ USD \(everything left on this payment\)/);
    await confirmYes();
    const after = v().record as V1Payment;
    expect(after.refunded_money?.amount).toBe(-(p.total_collected_money?.amount ?? 0));
    expect(v().form.kind).toBe("none");
    const status = s().status;
    expect(status.kind === "info" ? status.text : "").toMatch(/^Refunded [\d.]+ USD of the payment taken/);
  });

  it("refunds part of one tender of a split-tender payment, and only that tender", async () => {
    const p = freshPayment(2);
    const [first, second] = p.tender ?? [];
    await openPayment(p);
    s().openV1Refund();
    fill({ mode: "partial", tenderId: second?.id ?? "", amount: "1.25", reason: "Scratched" });
    s().submitV1Refund();
    await confirmYes();
    const after = v().record as V1Payment;
    expect(after.tender?.find((x) => x.id === second?.id)?.refunded_money?.amount).toBe(-125);
    expect(after.tender?.find((x) => x.id === first?.id)?.refunded_money?.amount).toBe(0);
    expect(after.refunded_money?.amount).toBe(-125);
  });

  it("sends a refund again under the same key after a failure, and a changed one under a new key", async () => {
    const p = freshPayment(1);
    await openPayment(p);
    s().openV1Refund();
    fill({ mode: "partial", amount: "1", reason: "Retry" });
    await t.raw("POST", "/_emulator/faults", { body: { operation: "V1CreateRefund", status: 503, count: 1 } });
    s().submitV1Refund();
    await confirmYes();
    expect((v().form as RefundForm).problem).toMatch(/service had a problem/);
    const keys = minted;
    s().submitV1Refund();
    await confirmYes();
    expect(minted).toBe(keys);
    expect((v().record as V1Payment).refunded_money?.amount).toBe(-100);
    s().openV1Refund();
    fill({ mode: "partial", amount: "1", reason: "Retry" });
    s().submitV1Refund();
    await confirmYes();
    expect(minted).toBe(keys + 1);
    expect((v().record as V1Payment).refunded_money?.amount).toBe(-200);
  });
});

describe("online-store orders from the V1 slice", () => {
  it("completes an open order, then refunds it; the actions follow its state", async () => {
    await s().showV1View("orders");
    const open = v().lists.orders?.find((o) => o.state === "OPEN") as V1Order;
    await s().openV1Detail({ kind: "order", id: open.id ?? "" });
    expect(v().record).toMatchObject({ id: open.id, order_history: expect.any(Array) });
    s().openV1OrderAction("REFUND");
    expect(v().form).toMatchObject({
      kind: "order-action",
      problem: expect.stringMatching(/Only a completed order can be refunded/),
    });
    s().openV1OrderAction("COMPLETE");
    s().v1Dispatch({ type: "order-field", field: "note", value: "Shipped by ground" });
    s().v1Dispatch({ type: "order-field", field: "tracking", value: "1Z999" });
    s().submitV1OrderAction();
    expect(s().overlay).toMatchObject({ kind: "confirm", question: { risky: false, message: /as shipped/ } });
    await confirmYes();
    expect(v().record).toMatchObject({ state: "COMPLETED", completed_note: "Shipped by ground" });
    expect(v().lists.orders?.find((o) => o.id === open.id)?.state).toBe("COMPLETED");
    s().openV1OrderAction("REFUND");
    s().submitV1OrderAction();
    expect(s().overlay).toMatchObject({
      kind: "confirm",
      question: { risky: true, message: /as refunded\? It cannot be undone/ },
    });
    await confirmYes();
    expect((v().record as V1Order).order_history?.map((h) => h.action).slice(-2)).toEqual(["COMPLETED", "REFUNDED"]);
    const stored = await t.client.v1.v1RetrieveOrder(MAIN(), open.id ?? "");
    expect(stored.state).toBe("REFUNDED");
  });
});
