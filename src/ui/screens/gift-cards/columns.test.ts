import { describe, expect, it } from "vitest";
import { cardHistory } from "../../../domain/gift-card-activity.js";
import type { GiftCardActivity } from "../../../spec/generated/types.js";
import { cellText } from "../../components/columns.js";
import { activityColumns, historyColumns, type Places, reachesAnotherYear } from "./columns.js";

const places: Places = {
  name: (id) => (id === "L1" ? "Main Street" : "Harbour Dock"),
  zone: (id) => (id === "L1" ? "America/New_York" : "America/Los_Angeles"),
  currency: "USD",
};

const activityAt = (created_at: string, location_id = "L1"): GiftCardActivity => ({
  type: "LOAD",
  location_id,
  created_at,
  gift_card_balance_money: { amount: 1000, currency: "USD" },
});

const whenOf = (a: GiftCardActivity, withYear: boolean) => {
  const column = historyColumns(places, withYear)[0];
  const [row] = cardHistory([a]);
  return row && column ? column.render(row, 0) : "";
};

describe("a card's history: when", () => {
  it("is the day and time at the activity's store, with the year once the card reaches into another year", () => {
    const sold = activityAt("2025-12-14T21:55:00Z");
    expect(whenOf(sold, false)).toBe("12-14 16:55");
    expect(whenOf(sold, true)).toBe("2025-12-14 16:55");
    expect(historyColumns(places, true)[0]?.width).toBe("2025-12-14 16:55".length);
  });

  it("reaches into another year by the day at the activity's own store", () => {
    const thisYear = [activityAt("2026-03-01T15:00:00Z"), activityAt("2026-11-20T15:00:00Z")];
    expect(reachesAnotherYear(thisYear, places, "2026")).toBe(false);
    expect(reachesAnotherYear([...thisYear, activityAt("2025-12-14T21:55:00Z")], places, "2026")).toBe(true);
    // 02:30 on New Year's Day in UTC is still New Year's Eve in Los Angeles.
    expect(reachesAnotherYear([activityAt("2026-01-01T02:30:00Z", "L2")], places, "2026")).toBe(true);
    expect(reachesAnotherYear([activityAt("2026-01-01T02:30:00Z", "L2")], places, "2025")).toBe(false);
  });
});

describe("a card's history and the day's activity: what", () => {
  it("says a long kind in fewer words in its column, not cut", () => {
    const kinds = [
      ["REFUND", "refunded"],
      ["TRANSFER_BALANCE_TO", "moved in"],
      ["TRANSFER_BALANCE_FROM", "moved out"],
      ["CLEAR_BALANCE", "cleared"],
      ["ADJUST_DECREMENT", "adjusted down"],
    ] as const;
    const historyWhat = historyColumns(places).find((c) => c.header === "What");
    const dayWhat = activityColumns(places, true).find((c) => c.header === "What");
    for (const [type, words] of kinds) {
      const a = { ...activityAt("2026-11-20T15:00:00Z"), type };
      const [row] = cardHistory([a]);
      if (!historyWhat || !dayWhat || !row) throw new Error("no What column");
      expect(cellText(historyWhat, row, 0, historyWhat.width ?? 0).trim()).toBe(words);
      expect(cellText(dayWhat, a, 0, dayWhat.width ?? 0).trim()).toBe(words);
    }
  });
});
