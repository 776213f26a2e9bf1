import { describe, expect, it } from "vitest";
import type { V1Order, V1Payment } from "../spec/generated/types.js";
import { checkRefundForm, initialV1State, queryKey, type V1Event, type V1State, v1Reducer } from "./v1-machine.js";

const usd = (amount: number) => ({ amount, currency_code: "USD" as const });
const NOW = new Date("2026-06-15T16:00:00Z");
const TZ = "America/New_York";
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();
const split = (age = 2): V1Payment => ({
  id: "PAY1",
  created_at: daysAgo(age),
  total_collected_money: usd(6000),
  tender: [
    {
      id: "T1",
      type: "CREDIT_CARD",
      card_brand: "VISA",
      pan_suffix: "4242",
      total_money: usd(4000),
      refunded_money: usd(0),
    },
    { id: "T2", type: "CASH", total_money: usd(2000), refunded_money: usd(0) },
  ],
});
const run = (s: V1State, ...events: V1Event[]) => events.reduce(v1Reducer, s);
const start = () => initialV1State("2026-06-15");
/** The refund form open on `p`, set to refund 5 of it (part), no tender chosen yet. */
const partOf5 = (p: V1Payment) =>
  run(
    start(),
    { type: "open-refund", payment: p, now: NOW, timeZone: TZ },
    { type: "refund-field", field: "mode", value: "partial" },
    { type: "refund-field", field: "amount", value: "5" },
  );

describe("the V1 screen's machine", () => {
  it("starts on payments of the last 30 days at the selected location", () => {
    const s = start();
    expect(s.view).toBe("payments");
    expect(s.filters).toEqual({
      from: "2026-05-17",
      to: "2026-06-15",
      source: "default",
      includePartial: false,
      status: "ALL",
    });
  });

  it("keeps a range over a year in the form with the rule, and applies a good one", () => {
    const s = run(start(), { type: "open-range" }, { type: "range-field", field: "from", value: "2024-01-01" });
    const refused = run(
      s,
      { type: "range-field", field: "to", value: "2025-01-01" },
      { type: "submit-range", today: "2026-06-15" },
    );
    expect(refused.form).toMatchObject({ kind: "range", problem: expect.stringMatching(/longer than one year/) });
    expect(refused.filters.from).toBe("2026-05-17");
    const early = run(
      s,
      { type: "range-field", field: "from", value: "2012-06-01" },
      { type: "submit-range", today: "2026-06-15" },
    );
    expect(early.form).toMatchObject({ problem: expect.stringMatching(/before 2013-01-01/) });
    const ok = run(
      s,
      { type: "range-field", field: "to", value: "2024-12-31" },
      { type: "submit-range", today: "2026-06-15" },
    );
    expect(ok.form.kind).toBe("none");
    expect(ok.filters).toMatchObject({ from: "2024-01-01", to: "2024-12-31", source: "given" });
  });

  it("follows today with the default range only", () => {
    const moved = v1Reducer(start(), { type: "today", today: "2026-06-16" });
    expect(moved.filters).toMatchObject({ from: "2026-05-18", to: "2026-06-16" });
    const picked = run(
      start(),
      { type: "open-range" },
      { type: "submit-range", today: "2026-06-15" },
      { type: "today", today: "2026-06-20" },
    );
    expect(picked.filters.to).toBe("2026-06-15");
  });

  it("reads a list again when its query changes: dates, location, all locations, partials, status", () => {
    const s = start();
    const key = queryKey("payments", s.filters, "L1");
    expect(queryKey("payments", s.filters, "L2")).not.toBe(key);
    expect(queryKey("payments", s.filters, "all")).toBe("payments|all|2026-05-17|2026-06-15|false");
    expect(queryKey("payments", v1Reducer(s, { type: "toggle-partial" }).filters, "L1")).not.toBe(key);
    expect(queryKey("settlements", v1Reducer(s, { type: "set-status", status: "FAILED" }).filters, "L1")).toMatch(
      /FAILED$/,
    );
    expect(queryKey("orders", s.filters, "L1")).toBe("orders|L1");
    const read = v1Reducer(s, { type: "list-read", view: "payments", key, records: [] });
    expect(read.readFor.payments).toBe(key);
    expect(v1Reducer(read, { type: "location-changed" }).readFor.payments).toBeUndefined();
  });

  it("refuses a refund of a payment past 60 days as soon as the form opens", () => {
    const s = v1Reducer(start(), { type: "open-refund", payment: split(61), now: NOW, timeZone: TZ });
    expect(s.form).toMatchObject({ kind: "refund", problem: expect.stringMatching(/only within 60 days/) });
  });

  it("checks the refund form: split tender needs a tender, the amount within what is left", () => {
    const p = split();
    let s = run(partOf5(p), { type: "refund-field", field: "reason", value: "Scratched" });
    if (s.form.kind !== "refund") throw new Error("no form");
    expect(s.form.tenderId).toBeUndefined();
    expect(checkRefundForm(s.form, p, NOW, TZ)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/choose which/),
    });
    s = run(
      s,
      { type: "refund-field", field: "tenderId", value: "T2" },
      { type: "refund-field", field: "amount", value: "25" },
    );
    if (s.form.kind !== "refund") throw new Error("no form");
    expect(checkRefundForm(s.form, p, NOW, TZ)).toMatchObject({
      ok: false,
      problem: "Only 20.00 USD is left to refund on Cash; 25.00 USD is more than that.",
    });
    s = run(s, { type: "refund-field", field: "amount", value: "12.5" });
    if (s.form.kind !== "refund") throw new Error("no form");
    expect(checkRefundForm(s.form, p, NOW, TZ)).toEqual({
      ok: true,
      draft: { kind: "partial", reason: "Scratched", tenderId: "T2", amount: 1250 },
    });
    s = run(s, { type: "refund-field", field: "amount", value: "12.505" });
    if (s.form.kind !== "refund") throw new Error("no form");
    expect(checkRefundForm(s.form, p, NOW, TZ)).toMatchObject({ ok: false, problem: /2 decimals at most/ });
  });

  it("names the row a refund rule is about, only a row the form shows, and the form goes there", () => {
    const p = split();
    let s = partOf5(p);
    if (s.form.kind !== "refund") throw new Error("no form");
    expect(checkRefundForm(s.form, p, NOW, TZ)).toMatchObject({ ok: false, row: "tender" });
    s = run(
      s,
      { type: "refund-field", field: "tenderId", value: "T2" },
      { type: "refund-field", field: "amount", value: "x" },
    );
    if (s.form.kind !== "refund") throw new Error("no form");
    const bad = checkRefundForm(s.form, p, NOW, TZ);
    expect(bad).toMatchObject({ ok: false, row: "amount" });
    s = run(s, { type: "refund-problem", problem: bad.ok ? undefined : bad.problem, row: "amount" });
    expect(s.form).toMatchObject({ focus: "amount", problemRow: "amount" });
    // A change clears the problem and its row; the focus stays.
    s = run(s, { type: "refund-field", field: "amount", value: "1" });
    expect(s.form).toMatchObject({ focus: "amount", problem: undefined, problemRow: undefined });
    // One tender: the form has no tender row, so a rule about the tender names none.
    const one: V1Payment = { ...p, tender: p.tender?.slice(1) ?? [] };
    if (s.form.kind !== "refund") throw new Error("no form");
    const unknown = checkRefundForm({ ...s.form, tenderId: "NOPE", reason: "x" }, one, NOW, TZ);
    expect(unknown).toEqual({ ok: false, problem: "That tender is not one of this payment's." });
  });

  it("opens an order action with the refusal when the state does not allow it", () => {
    const pending: V1Order = { id: "O1", state: "PENDING" };
    const s = v1Reducer(start(), { type: "open-order-action", order: pending, action: "COMPLETE" });
    expect(s.form).toMatchObject({
      kind: "order-action",
      problem: expect.stringMatching(/Only an open order can be completed/),
    });
    const ok = v1Reducer(start(), { type: "open-order-action", order: pending, action: "CANCEL" });
    expect(ok.form).toMatchObject({ kind: "order-action", problem: undefined });
  });

  it("puts an updated order in its list and as the open record, and closes the form", () => {
    const listed: V1Order[] = [
      { id: "O1", state: "OPEN" },
      { id: "O2", state: "PENDING" },
    ];
    const s = run(
      start(),
      { type: "list-read", view: "orders", key: "orders|L1", records: listed },
      { type: "open-detail", detail: { kind: "order", id: "O1" } },
      { type: "record-read", record: { id: "O1", state: "OPEN", order_history: [] } },
      { type: "open-order-action", order: { id: "O1", state: "OPEN" }, action: "COMPLETE" },
      { type: "order-updated", order: { id: "O1", state: "COMPLETED" } },
    );
    expect(s.form.kind).toBe("none");
    expect(s.lists.orders?.map((o) => o.state)).toEqual(["COMPLETED", "PENDING"]);
    expect(s.record).toMatchObject({ id: "O1", state: "COMPLETED" });
  });

  it("drops a record read for a detail that is no longer open", () => {
    const s = run(
      start(),
      { type: "open-detail", detail: { kind: "payment", id: "P2" } },
      { type: "record-read", record: { id: "P1" } },
    );
    expect(s.record).toBeUndefined();
  });

  it("remembers what the service no longer offers", () => {
    const s = v1Reducer(start(), { type: "retired", operation: "V1ListPayments", text: "gone" });
    expect(s.retired).toEqual({ V1ListPayments: "gone" });
  });
});
