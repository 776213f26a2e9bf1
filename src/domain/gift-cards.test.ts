import { describe, expect, it } from "vitest";
import { enums } from "../spec/generated/schemas.js";
import {
  activityFor,
  balanceChange,
  type CardBefore,
  cardBefore,
  cardStateWords,
  checkWrite,
  describeWrite,
  type GiftCardWrite,
  type Payment,
  parseCardQuery,
  parseReason,
  WRITE_ACTIVITY,
  WRITE_REASONS,
  writeCheck,
} from "./gift-cards.js";

const usd = (state: CardBefore["state"], balance: number): CardBefore => ({ state, balance, currency: "USD" });
const cash = { kind: "instruments", ids: ["cash"] } as const;

describe("a card in words", () => {
  it("names every state the manager sees", () => {
    expect(["PENDING", "ACTIVE", "DEACTIVATED", "BLOCKED"].map((s) => cardStateWords(s as never))).toEqual([
      "not yet active",
      "active",
      "deactivated",
      "blocked",
    ]);
  });

  it("reads a card from the service, a missing balance as zero", () => {
    expect(cardBefore({ type: "PHYSICAL", state: "ACTIVE" }, "USD")).toEqual(usd("ACTIVE", 0));
  });
});

describe("reasons", () => {
  it("offers only the spec's values, without those the service keeps for itself", () => {
    const byEnum = {
      "adjust-up": "GiftCardActivityAdjustIncrementReason",
      "adjust-down": "GiftCardActivityAdjustDecrementReason",
      clear: "GiftCardActivityClearBalanceReason",
      deactivate: "GiftCardActivityDeactivateReason",
      block: "GiftCardActivityBlockReason",
      unblock: "GiftCardActivityUnblockReason",
    } as const;
    for (const [kind, name] of Object.entries(byEnum)) {
      const values = enums[name] ?? [];
      const offered = WRITE_REASONS[kind as keyof typeof WRITE_REASONS] as readonly string[];
      for (const r of offered) expect(values, `${kind} ${r}`).toContain(r);
    }
    expect(WRITE_REASONS.clear).not.toContain("UNKNOWN_REASON");
    expect(WRITE_REASONS.deactivate).toEqual(["SUSPICIOUS_ACTIVITY"]);
  });

  it("reads a reason by its name in any case or by its words", () => {
    expect(parseReason("adjust-up", "complimentary")).toEqual({ ok: true, value: "COMPLIMENTARY" });
    expect(parseReason("adjust-up", "Support-Issue")).toEqual({ ok: true, value: "SUPPORT_ISSUE" });
    expect(parseReason("adjust-down", "raised by mistake")).toEqual({
      ok: true,
      value: "BALANCE_ACCIDENTALLY_INCREASED",
    });
    expect(parseReason("adjust-down", "sup")).toEqual({ ok: true, value: "SUPPORT_ISSUE" });
    expect(parseReason("adjust-down", "mistake")).toEqual({ ok: true, value: "BALANCE_ACCIDENTALLY_INCREASED" });
    expect(parseReason("clear", "reuse")).toEqual({ ok: true, value: "REUSE_GIFTCARD" });
    // "su" starts two of them: not enough.
    expect(parseReason("adjust-down", "su").ok).toBe(false);
  });

  it("refuses a reason of another write, or one the service keeps for itself, listing the choices", () => {
    const wrong = parseReason("adjust-up", "suspicious activity");
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.problem).toContain("complimentary (COMPLIMENTARY)");
    expect(parseReason("deactivate", "UNKNOWN_REASON").ok).toBe(false);
    const empty = parseReason("clear", " ");
    expect(!empty.ok && empty.problem).toMatch(/^Give a reason to clear the balance/);
  });
});

describe("what a write does to the balance", () => {
  const cases: [CardBefore | undefined, GiftCardWrite, number, number, string][] = [
    [undefined, { kind: "activate", amount: 2500, payment: cash }, 0, 2500, "ACTIVE"],
    [usd("PENDING", 0), { kind: "activate", amount: 2500, payment: cash }, 0, 2500, "ACTIVE"],
    [usd("ACTIVE", 1000), { kind: "load", amount: 2500, payment: cash }, 1000, 3500, "ACTIVE"],
    [usd("ACTIVE", 1000), { kind: "adjust-up", amount: 500, reason: "COMPLIMENTARY" }, 1000, 1500, "ACTIVE"],
    [usd("ACTIVE", 1000), { kind: "adjust-down", amount: 400, reason: "SUPPORT_ISSUE" }, 1000, 600, "ACTIVE"],
    [usd("BLOCKED", 1000), { kind: "clear", reason: "SUSPICIOUS_ACTIVITY" }, 1000, 0, "BLOCKED"],
    [usd("ACTIVE", 1000), { kind: "deactivate", reason: "SUSPICIOUS_ACTIVITY" }, 1000, 1000, "DEACTIVATED"],
    [usd("ACTIVE", 1000), { kind: "block", reason: "CHARGEBACK_BLOCK" }, 1000, 1000, "BLOCKED"],
    [usd("BLOCKED", 1000), { kind: "unblock", reason: "CHARGEBACK_UNBLOCK" }, 1000, 1000, "ACTIVE"],
  ];
  it.each(cases)("%o %o: %i → %i", (card, write, before, after, state) => {
    const change = balanceChange(card, write, "USD");
    expect(change.before).toEqual({ amount: before, currency: "USD" });
    expect(change.after).toEqual({ amount: after, currency: "USD" });
    expect(change.stateAfter).toBe(state);
    expect(checkWrite(card, write, "USD")).toBeUndefined();
  });
});

describe("checks before sending", () => {
  it("refuses a decrement past the balance, saying what the card holds", () => {
    const problem = checkWrite(
      usd("ACTIVE", 1250),
      { kind: "adjust-down", amount: 1251, reason: "SUPPORT_ISSUE" },
      "USD",
    );
    expect(problem).toBe("The card holds 12.50 USD; 12.51 USD cannot be taken off it.");
  });

  it("refuses what the card's state does not allow", () => {
    const load = { kind: "load", amount: 100, payment: cash } as const;
    expect(checkWrite(usd("PENDING", 0), load, "USD")).toMatch(/not yet active/);
    expect(checkWrite(usd("BLOCKED", 10), load, "USD")).toMatch(/blocked; unblock it/);
    expect(checkWrite(usd("DEACTIVATED", 10), load, "USD")).toMatch(/deactivated/);
    expect(checkWrite(undefined, load, "USD")).toMatch(/does not know/);
    expect(checkWrite(usd("ACTIVE", 0), { kind: "activate", amount: 1, payment: cash }, "USD")).toMatch(
      /already active/,
    );
    expect(checkWrite(usd("ACTIVE", 5), { kind: "unblock", reason: "CHARGEBACK_UNBLOCK" }, "USD")).toMatch(
      /not blocked/,
    );
    expect(checkWrite(usd("ACTIVE", 0), { kind: "clear", reason: "REUSE_GIFTCARD" }, "USD")).toMatch(/already zero/);
  });

  it("asks for an amount above zero, in the card's currency, and how the card was paid for", () => {
    expect(checkWrite(usd("ACTIVE", 0), { kind: "load", amount: 0, payment: cash }, "USD")).toMatch(
      /greater than zero/,
    );
    expect(checkWrite(usd("ACTIVE", 0), { kind: "load", amount: 100, payment: cash }, "EUR")).toMatch(/holds USD/);
    const unpaid = checkWrite(
      undefined,
      { kind: "activate", amount: 100, payment: { kind: "instruments", ids: [] } },
      "USD",
    );
    expect(unpaid).toMatch(/how the buyer paid/);
    const halfOrder = checkWrite(
      undefined,
      { kind: "activate", amount: 100, payment: { kind: "order", orderId: "O1", lineItemUid: "" } },
      "USD",
    );
    expect(halfOrder).toMatch(/both the order and its gift card line item/);
  });
});

describe("the part of a write a problem is about", () => {
  const activate = (payment: Payment): GiftCardWrite => ({
    kind: "activate",
    amount: 100,
    payment,
  });

  it("names the amount, the instruments, or the half of the order not given", () => {
    expect(writeCheck(usd("ACTIVE", 0), { kind: "load", amount: 0, payment: cash }, "USD")?.part).toBe("amount");
    const off = { kind: "adjust-down", amount: 1251, reason: "SUPPORT_ISSUE" } as const;
    expect(writeCheck(usd("ACTIVE", 1250), off, "USD")?.part).toBe("amount");
    expect(writeCheck(undefined, activate({ kind: "instruments", ids: [] }), "USD")?.part).toBe("instruments");
    const noOrder = activate({ kind: "order", orderId: " ", lineItemUid: "U" });
    expect(writeCheck(undefined, noOrder, "USD")?.part).toBe("orderId");
    const noLine = activate({ kind: "order", orderId: "O1", lineItemUid: "" });
    expect(writeCheck(undefined, noLine, "USD")).toEqual({
      problem: "Name both the order and its gift card line item.",
      part: "lineItemUid",
    });
  });

  it("names no part when the card is why: its state, its currency, a zero balance to clear", () => {
    const load = { kind: "load", amount: 100, payment: cash } as const;
    expect(writeCheck(usd("BLOCKED", 10), load, "USD")).toEqual({ problem: expect.stringMatching(/blocked/) });
    expect(writeCheck(usd("ACTIVE", 0), load, "EUR")).toEqual({ problem: expect.stringMatching(/holds USD/) });
    expect(writeCheck(usd("ACTIVE", 0), { kind: "clear", reason: "REUSE_GIFTCARD" }, "USD")).toEqual({
      problem: "The card's balance is already zero.",
    });
  });
});

describe("the activity a write sends", () => {
  it("names the card by id or number and carries the type's details", () => {
    expect(activityFor({ kind: "activate", amount: 2500, payment: cash }, { gan: "7783" }, "L1", "USD")).toEqual({
      type: "ACTIVATE",
      location_id: "L1",
      gift_card_gan: "7783",
      activate_activity_details: {
        amount_money: { amount: 2500, currency: "USD" },
        buyer_payment_instrument_ids: ["cash"],
      },
    });
    const order = activityFor(
      { kind: "load", amount: 100, payment: { kind: "order", orderId: "O", lineItemUid: "U" }, referenceId: "R" },
      { id: "gftc:1" },
      "L1",
      "USD",
    );
    expect(order.load_activity_details).toEqual({
      amount_money: { amount: 100, currency: "USD" },
      order_id: "O",
      line_item_uid: "U",
      reference_id: "R",
    });
    expect(order.gift_card_id).toBe("gftc:1");
    for (const [kind, type] of Object.entries(WRITE_ACTIVITY)) {
      const write = { kind, amount: 1, payment: cash, reason: "X" } as unknown as GiftCardWrite;
      expect(activityFor(write, { id: "g" }, "L", "USD").type).toBe(type);
    }
  });

  it("asks with the balance before → after", () => {
    expect(describeWrite("…0005", usd("ACTIVE", 1000), { kind: "load", amount: 2500, payment: cash }, "USD")).toBe(
      "Load 25.00 USD onto card …0005? Balance 10.00 → 35.00 USD.",
    );
    expect(describeWrite("…0005", undefined, { kind: "activate", amount: 2500, payment: cash }, "JPY")).toBe(
      "Register and activate card …0005 with 2,500 JPY? Balance 0 → 2,500 JPY.",
    );
    expect(
      describeWrite("…0005", usd("ACTIVE", 1000), { kind: "adjust-down", amount: 250, reason: "SUPPORT_ISSUE" }, "USD"),
    ).toBe("Take 2.50 USD off card …0005 (support issue)? Balance 10.00 → 7.50 USD.");
  });
});

describe("a look-up", () => {
  it("reads an id, a number in groups, and refuses what no card number looks like", () => {
    expect(parseCardQuery("gftc:00a1")).toEqual({ ok: true, value: { kind: "id", id: "gftc:00a1" } });
    expect(parseCardQuery(" 7783-3200 0000 ")).toEqual({ ok: true, value: { kind: "gan", gan: "778332000000" } });
    expect(parseCardQuery("").ok).toBe(false);
    expect(parseCardQuery("7783/3200").ok).toBe(false);
  });
});
