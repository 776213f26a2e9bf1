import { describe, expect, it } from "vitest";
import type { GiftCardActivity } from "../spec/generated/types.js";
import type { KnownCard, PlannedWrite } from "./gift-cards-io.js";
import {
  type GiftCardsState,
  giftCardsReducer,
  initialGiftCards,
  newWriteForm,
  readWriteForm,
  writeFields,
} from "./gift-cards-machine.js";

const card: KnownCard = {
  id: "gftc:1",
  type: "PHYSICAL",
  state: "ACTIVE",
  gan: "7783",
  balance_money: { amount: 1000, currency: "USD" },
};
const act = (id: string): GiftCardActivity => ({ id, type: "LOAD", location_id: "L" });
const found = (history: GiftCardActivity[]) =>
  giftCardsReducer(initialGiftCards, {
    type: "lookup-done",
    result: { kind: "found", card },
    history,
    customers: [],
    at: "2026-03-02T10:00:00Z",
  });

describe("the gift cards machine", () => {
  it("shows a card found, and a number the service does not know", () => {
    const s = found([act("a"), act("b")]);
    expect(s.card).toMatchObject({ kind: "found", history: [act("a"), act("b")] });
    const unknown = giftCardsReducer(s, {
      type: "lookup-done",
      result: { kind: "unknown", gan: "9" },
      history: [],
      customers: [],
      at: "x",
    });
    expect(unknown.card).toEqual({ kind: "unknown", gan: "9" });
  });

  it("closes an open form when another card is looked up (a scan while a form is open)", () => {
    const open = giftCardsReducer(found([]), { type: "open-write", kind: "load" });
    expect(giftCardsReducer(open, { type: "lookup-started", query: "7783" }).form.kind).toBe("none");
  });

  it("keeps a write that was not answered, with its plan, until it is answered or dropped", () => {
    const plan = { gan: "7783" } as PlannedWrite;
    let s: GiftCardsState = giftCardsReducer(found([]), { type: "open-write", kind: "load" });
    s = giftCardsReducer(s, { type: "write-sending", plan });
    expect(s.form.kind).toBe("none");
    s = giftCardsReducer(s, { type: "write-unanswered", problem: "The service cannot be reached." });
    expect(s.pending).toEqual({ plan, state: "unanswered", problem: "The service cannot be reached." });
    s = giftCardsReducer(s, { type: "write-sending", plan });
    expect(s.pending?.plan).toBe(plan);
    expect(giftCardsReducer(s, { type: "write-done" }).pending).toBeUndefined();
  });

  it("clears a typed problem when the field changes, and forgets the days that followed today on a new location", () => {
    let s = giftCardsReducer(found([]), { type: "open-write", kind: "load" });
    s = giftCardsReducer(s, { type: "form-problem", problem: "Type an amount." });
    s = giftCardsReducer(s, { type: "edit-write", patch: { amount: "5" } });
    expect(s.form.kind === "write" && s.form.form.problem).toBeUndefined();
    s = giftCardsReducer(s, { type: "days", from: "2026-03-02", to: "2026-03-02", followToday: true });
    s = giftCardsReducer(s, { type: "location-changed" });
    expect(s.activity.from).toBe("");
    expect(s.form.kind).toBe("none");
  });
});

describe("a write's form", () => {
  it("asks each write for what it needs", () => {
    expect(writeFields("load")).toEqual(["amount", "paidWith", "orderId", "lineItem"]);
    expect(writeFields("adjust-down")).toEqual(["amount", "reason"]);
    expect(writeFields("block")).toEqual(["reason"]);
  });

  it("reads amounts in the location's currency, the payment and the reason picked", () => {
    const load = { ...newWriteForm("load"), amount: "$1,250.50", paidWith: "cash, card-9" };
    expect(readWriteForm(load, "USD")).toEqual({
      ok: true,
      write: { kind: "load", amount: 125050, payment: { kind: "instruments", ids: ["cash", "card-9"] } },
    });
    const order = { ...newWriteForm("activate"), amount: "500", orderId: "O1", lineItem: "L1" };
    expect(readWriteForm(order, "JPY")).toMatchObject({ ok: true, write: { amount: 500, payment: { kind: "order" } } });
    const down = { ...newWriteForm("adjust-down"), amount: "2", reason: "support issue" };
    expect(readWriteForm(down, "USD")).toEqual({
      ok: true,
      write: { kind: "adjust-down", amount: 200, reason: "SUPPORT_ISSUE" },
    });
    expect(newWriteForm("block").reason).toBe("chargeback");
    expect(readWriteForm({ ...newWriteForm("clear"), reason: "REUSE_GIFTCARD" }, "USD")).toEqual({
      ok: true,
      write: { kind: "clear", reason: "REUSE_GIFTCARD" },
    });
  });

  it("says what is wrong with the amount, on its field", () => {
    expect(readWriteForm({ ...newWriteForm("load"), amount: "" }, "USD")).toMatchObject({ ok: false, field: "amount" });
    expect(readWriteForm({ ...newWriteForm("load"), amount: "-5" }, "USD")).toMatchObject({
      ok: false,
      problem: "The amount must not be negative.",
    });
    expect(readWriteForm({ ...newWriteForm("load"), amount: "1.5" }, "JPY")).toMatchObject({
      ok: false,
      field: "amount",
    });
  });
});
