import { describe, expect, it } from "vitest";
import type { GiftCard, GiftCardActivity } from "../spec/generated/types.js";
import {
  activityChange,
  activityDays,
  activityNote,
  activityTotals,
  cardHistory,
  dayBounds,
  liability,
  onStoreDays,
  parseActivityTypes,
  storesDayBounds,
} from "./gift-card-activity.js";

const usd = (amount: number) => ({ amount, currency: "USD" as const });
const at = (minute: number) => `2026-03-02T10:${String(minute).padStart(2, "0")}:00Z`;

const history: GiftCardActivity[] = [
  {
    type: "ACTIVATE",
    location_id: "L",
    created_at: at(0),
    gift_card_balance_money: usd(5000),
    activate_activity_details: { amount_money: usd(5000), buyer_payment_instrument_ids: ["cash"] },
  },
  {
    type: "REDEEM",
    location_id: "L",
    created_at: at(5),
    gift_card_balance_money: usd(3800),
    redeem_activity_details: { amount_money: usd(1200) },
  },
  {
    type: "ADJUST_DECREMENT",
    location_id: "L",
    created_at: at(7),
    gift_card_balance_money: usd(3300),
    adjust_decrement_activity_details: { amount_money: usd(500), reason: "SUPPORT_ISSUE" },
  },
  {
    type: "LOAD",
    location_id: "L",
    created_at: at(9),
    gift_card_balance_money: usd(5300),
    load_activity_details: { amount_money: usd(2000) },
  },
  {
    type: "ADJUST_INCREMENT",
    location_id: "L",
    created_at: at(11),
    gift_card_balance_money: usd(5400),
    adjust_increment_activity_details: { amount_money: usd(100), reason: "COMPLIMENTARY" },
  },
  {
    type: "CLEAR_BALANCE",
    location_id: "L",
    created_at: at(12),
    gift_card_balance_money: usd(0),
    clear_balance_activity_details: { reason: "SUSPICIOUS_ACTIVITY" },
  },
];

describe("a card's history", () => {
  it("lists newest first with each change and the balance after it", () => {
    const rows = cardHistory(history);
    expect(rows.map((r) => [r.activity.type, r.change, r.balanceAfter])).toEqual([
      ["CLEAR_BALANCE", -5400, 0],
      ["ADJUST_INCREMENT", 100, 5400],
      ["LOAD", 2000, 5400 - 100],
      ["ADJUST_DECREMENT", -500, 3300],
      ["REDEEM", -1200, 3800],
      ["ACTIVATE", 5000, 5000],
    ]);
  });

  it("knows no change for a cleared balance without the balance before it, nor for a block", () => {
    expect(activityChange(history[5] as GiftCardActivity)).toBeUndefined();
    expect(
      activityChange({ type: "BLOCK", location_id: "L", block_activity_details: { reason: "CHARGEBACK_BLOCK" } }),
    ).toBeUndefined();
  });

  it("notes the reason and how it was paid", () => {
    expect(activityNote(history[0] as GiftCardActivity)).toBe("paid: cash");
    expect(activityNote(history[2] as GiftCardActivity)).toBe("support issue");
  });
});

describe("totals per kind", () => {
  it("adds up sold, loaded, redeemed and adjusted (net), and counts every type", () => {
    const t = activityTotals(history, "USD");
    expect(t.sold).toEqual({ count: 1, amount: 5000 });
    expect(t.loaded).toEqual({ count: 1, amount: 2000 });
    expect(t.redeemed).toEqual({ count: 1, amount: 1200 });
    expect(t.adjusted).toEqual({ count: 2, amount: -400 });
    expect(t.counts.CLEAR_BALANCE).toBe(1);
  });

  it("leaves another currency out of the sums and says so", () => {
    const euro: GiftCardActivity = {
      type: "LOAD",
      location_id: "L",
      load_activity_details: { amount_money: { amount: 9, currency: "EUR" } },
    };
    const t = activityTotals([euro], "USD");
    expect(t.loaded.amount).toBe(0);
    expect(t.otherCurrency).toBe(1);
  });

  it("reads a filter by word or by the interface's name", () => {
    expect(parseActivityTypes("adjusted")).toEqual({ ok: true, value: ["ADJUST_INCREMENT", "ADJUST_DECREMENT"] });
    expect(parseActivityTypes("Load")).toEqual({ ok: true, value: ["LOAD"] });
    expect(parseActivityTypes("adjust-decrement")).toEqual({ ok: true, value: ["ADJUST_DECREMENT"] });
    expect(parseActivityTypes("spent").ok).toBe(false);
  });
});

describe("the liability", () => {
  it("is the balance on active cards; blocked balances are shown apart, other cards left out", () => {
    const cards: GiftCard[] = [
      { type: "PHYSICAL", state: "ACTIVE", balance_money: usd(2500) },
      { type: "DIGITAL", state: "ACTIVE", balance_money: usd(1000) },
      { type: "DIGITAL", state: "BLOCKED", balance_money: usd(700) },
      { type: "DIGITAL", state: "DEACTIVATED", balance_money: usd(9999) },
      { type: "PHYSICAL", state: "PENDING", balance_money: usd(0) },
    ];
    expect(liability(cards, "USD")).toEqual({
      active: usd(3500),
      activeCards: 2,
      blocked: usd(700),
      blockedCards: 1,
      otherCurrency: 0,
    });
  });
});

describe("a range of days", () => {
  it("defaults to today, takes one day or a range, and covers each day whole in the location's zone", () => {
    expect(activityDays({}, "2026-06-15")).toEqual({ ok: true, from: "2026-06-15", to: "2026-06-15" });
    expect(activityDays({ from: "2026-06-01" }, "2026-06-15")).toEqual({
      ok: true,
      from: "2026-06-01",
      to: "2026-06-01",
    });
    expect(activityDays({ from: "2026-06-10", to: "2026-06-01" }, "x").ok).toBe(false);
    expect(activityDays({ from: "2026-02-30" }, "x").ok).toBe(false);
    expect(activityDays({ from: "2026-06-01", to: "2026-06-1" }, "x")).toMatchObject({ ok: false, field: "to" });
    expect(activityDays({ from: "2026-06-10", to: "2026-06-01" }, "x")).not.toHaveProperty("field");
    expect(activityDays({ from: "2025-01-01", to: "2026-06-01" }, "x").ok).toBe(false);
    expect(dayBounds("2026-06-15", "2026-06-15", "America/New_York")).toEqual({
      begin: "2026-06-15T04:00:00.000Z",
      end: "2026-06-16T03:59:59.999Z",
    });
  });
});

describe("the same days at stores in several time zones", () => {
  it("reads from the earliest store's midnight to the latest store's end, and keeps each store's own day", () => {
    const bounds = storesDayBounds("2026-06-15", "2026-06-15", ["America/Los_Angeles", "America/New_York"]);
    expect(bounds).toEqual({ begin: "2026-06-15T04:00:00.000Z", end: "2026-06-16T06:59:59.999Z" });
    const zones: Record<string, string> = { NY: "America/New_York", LA: "America/Los_Angeles" };
    // 05:00Z on the 16th is the 16th in New York and still the 15th in Los Angeles.
    const late = { location_id: "NY", created_at: "2026-06-16T05:00:00Z" } as GiftCardActivity;
    const west = { location_id: "LA", created_at: "2026-06-16T05:00:00Z" } as GiftCardActivity;
    const kept = onStoreDays([late, west], "2026-06-15", "2026-06-15", (id) => zones[id] ?? "UTC");
    expect(kept).toEqual([west]);
  });
});
