import { describe, expect, it } from "vitest";
import type { GiftCardActivity } from "../../spec/generated/types.js";
import { ServiceError } from "../errors.js";
import { applyActivity, type CardBalance } from "./rules.js";

const usd = (amount: number) => ({ amount, currency: "USD" as const });
const card = (state: CardBalance["state"], balance: number): CardBalance => ({ state, balance, currency: "USD" });
const at = "LMAIN";

function refusal(f: () => unknown): { status: number; code: string | undefined } {
  try {
    f();
  } catch (e) {
    if (e instanceof ServiceError) return { status: e.status, code: e.errors[0]?.code };
    throw e;
  }
  throw new Error("expected a refusal");
}

const load = (amount: number): GiftCardActivity => ({
  type: "LOAD",
  location_id: at,
  load_activity_details: { amount_money: usd(amount), buyer_payment_instrument_ids: ["cash"] },
});
const redeem = (amount: number): GiftCardActivity => ({
  type: "REDEEM",
  location_id: at,
  redeem_activity_details: { amount_money: usd(amount) },
});

describe("applyActivity", () => {
  it("activates a pending card with its amount", () => {
    const out = applyActivity(card("PENDING", 0), {
      type: "ACTIVATE",
      location_id: at,
      activate_activity_details: { amount_money: usd(2_000), buyer_payment_instrument_ids: ["card-1"] },
    });
    expect(out).toMatchObject({ state: "ACTIVE", balance: 2_000 });
  });

  it("refuses everything but ACTIVATE before activation, and ACTIVATE after it", () => {
    expect(refusal(() => applyActivity(card("PENDING", 0), load(100))).code).toBe("BAD_REQUEST");
    const again = refusal(() =>
      applyActivity(card("ACTIVE", 10), {
        type: "ACTIVATE",
        location_id: at,
        activate_activity_details: { amount_money: usd(1), buyer_payment_instrument_ids: ["cash"] },
      }),
    );
    expect(again.code).toBe("BAD_REQUEST");
  });

  it("adds and subtracts, never below zero", () => {
    expect(applyActivity(card("ACTIVE", 500), load(250)).balance).toBe(750);
    expect(applyActivity(card("ACTIVE", 500), redeem(500)).balance).toBe(0);
    expect(refusal(() => applyActivity(card("ACTIVE", 500), redeem(501))).code).toBe("INSUFFICIENT_FUNDS");
  });

  it("clears, blocks, unblocks and deactivates", () => {
    const cleared = applyActivity(card("ACTIVE", 900), {
      type: "CLEAR_BALANCE",
      location_id: at,
      clear_balance_activity_details: { reason: "REUSE_GIFTCARD" },
    });
    expect(cleared).toMatchObject({ state: "ACTIVE", balance: 0 });
    const blocked = applyActivity(card("ACTIVE", 900), {
      type: "BLOCK",
      location_id: at,
      block_activity_details: { reason: "CHARGEBACK_BLOCK" },
    });
    expect(blocked.state).toBe("BLOCKED");
    expect(refusal(() => applyActivity(card("BLOCKED", 900), redeem(1))).code).toBe("BAD_REQUEST");
    const unblocked = applyActivity(card("BLOCKED", 900), {
      type: "UNBLOCK",
      location_id: at,
      unblock_activity_details: { reason: "CHARGEBACK_UNBLOCK" },
    });
    expect(unblocked.state).toBe("ACTIVE");
    const gone = applyActivity(card("ACTIVE", 900), {
      type: "DEACTIVATE",
      location_id: at,
      deactivate_activity_details: { reason: "SUSPICIOUS_ACTIVITY" },
    });
    expect(gone).toMatchObject({ state: "DEACTIVATED", balance: 900 });
    expect(refusal(() => applyActivity(card("DEACTIVATED", 900), load(1))).code).toBe("BAD_REQUEST");
  });

  it("limits a refund against a redemption to what is left of it", () => {
    const refund = (amount: number): GiftCardActivity => ({
      type: "REFUND",
      location_id: at,
      refund_activity_details: { redeem_activity_id: "R1", amount_money: usd(amount) },
    });
    const redeemed = { giftCardId: "G", amount: 1_000, refunded: 600 };
    expect(applyActivity(card("ACTIVE", 0), refund(400), redeemed).balance).toBe(400);
    expect(refusal(() => applyActivity(card("ACTIVE", 0), refund(401), redeemed)).code).toBe("REFUND_AMOUNT_INVALID");
    expect(refusal(() => applyActivity(card("ACTIVE", 0), refund(1))).code).toBe("INVALID_VALUE");
  });

  it("needs the type's details, a positive amount, and the card's currency", () => {
    expect(refusal(() => applyActivity(card("ACTIVE", 0), { type: "LOAD", location_id: at })).code).toBe(
      "MISSING_REQUIRED_PARAMETER",
    );
    expect(refusal(() => applyActivity(card("ACTIVE", 0), load(0))).code).toBe("VALUE_TOO_LOW");
    const euros = refusal(() =>
      applyActivity(card("ACTIVE", 0), {
        type: "LOAD",
        location_id: at,
        load_activity_details: { amount_money: { amount: 5, currency: "EUR" }, buyer_payment_instrument_ids: ["cash"] },
      }),
    );
    expect(euros.code).toBe("CURRENCY_MISMATCH");
  });

  it("records the amount in the card's currency when the request leaves it out", () => {
    const out = applyActivity(card("ACTIVE", 0), {
      type: "LOAD",
      location_id: at,
      load_activity_details: { amount_money: { amount: 300 }, buyer_payment_instrument_ids: ["cash"] },
    });
    expect(out.details.amount_money).toEqual(usd(300));
  });

  it("needs how a card sold or loaded outside an order was paid for", () => {
    for (const type of ["ACTIVATE", "LOAD"] as const) {
      const state = type === "ACTIVATE" ? "PENDING" : "ACTIVE";
      const field = type === "ACTIVATE" ? "activate_activity_details" : "load_activity_details";
      const unpaid = { type, location_id: at, [field]: { amount_money: usd(100) } } as GiftCardActivity;
      expect(refusal(() => applyActivity(card(state, 0), unpaid)).code).toBe("MISSING_REQUIRED_PARAMETER");
      const empty = { type, location_id: at, [field]: { amount_money: usd(100), buyer_payment_instrument_ids: [] } };
      expect(refusal(() => applyActivity(card(state, 0), empty as GiftCardActivity)).code).toBe(
        "MISSING_REQUIRED_PARAMETER",
      );
      const byOrder = { type, location_id: at, [field]: { amount_money: usd(100), order_id: "O", line_item_uid: "U" } };
      expect(applyActivity(card(state, 0), byOrder as GiftCardActivity).balance).toBe(100);
    }
  });

  it("refuses the reasons the service records itself", () => {
    const clear = (reason: string) =>
      ({ type: "CLEAR_BALANCE", location_id: at, clear_balance_activity_details: { reason } }) as GiftCardActivity;
    expect(refusal(() => applyActivity(card("ACTIVE", 10), clear("UNKNOWN_REASON"))).code).toBe("INVALID_VALUE");
    const deactivate = (reason: string) =>
      ({ type: "DEACTIVATE", location_id: at, deactivate_activity_details: { reason } }) as GiftCardActivity;
    for (const reason of ["UNKNOWN_REASON", "CHARGEBACK_DEACTIVATE"]) {
      expect(refusal(() => applyActivity(card("ACTIVE", 10), deactivate(reason))).code).toBe("INVALID_VALUE");
    }
    expect(applyActivity(card("ACTIVE", 10), clear("SUSPICIOUS_ACTIVITY")).balance).toBe(0);
  });
});
