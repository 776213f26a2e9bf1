import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import type { V1Order, V1Payment, V1Settlement } from "../../../spec/generated/types.js";
import { orderLines, paymentLines, settlementLines } from "./detail-lines.js";

const usd = (amount: number) => ({ amount, currency_code: "USD" as const });
const places = {
  names: new Map([["L1", "Main Street"]]),
  zones: new Map([["L1", "America/New_York"]]),
  timeZone: "UTC",
};

const payment: V1Payment & { location_id: string } = {
  id: "P1",
  location_id: "L1",
  created_at: "2026-06-14T19:02:00Z",
  is_partial: true,
  total_collected_money: usd(2000),
  tender: [{ id: "T1", type: "CREDIT_CARD", card_brand: "VISA", pan_suffix: "4242", total_money: usd(2000) }],
  itemizations: [],
  refunds: [],
};

const settlement: V1Settlement = {
  id: "S1",
  status: "SENT",
  initiated_at: "2026-06-15T13:00:00Z",
  total_money: usd(9_730),
  entries: [
    { type: "CHARGE", payment_id: "P1", amount_money: usd(10_000), fee_money: usd(-270) },
    { type: "HOLD_ADJUSTMENT", amount_money: usd(-4_000), fee_money: usd(0) },
    { type: "ADJUSTMENT", amount_money: usd(4_000), fee_money: usd(0) },
  ],
};

describe("a V1 record as lines of the detail pane", () => {
  for (const width of [78, 58]) {
    it(`keeps every line within ${width} cells`, () => {
      const all = [
        ...paymentLines(payment, places, width),
        ...settlementLines(settlement, places, width),
        ...orderLines({ id: "O1", state: "OPEN", created_at: "2026-06-01T12:00:00Z" }, places, width),
      ];
      for (const l of all) expect(stringWidth(l.text), l.text).toBeLessThanOrEqual(width);
    });
  }

  it("marks a partial payment and explains its empty items, at the location's time", () => {
    const lines = paymentLines(payment, places, 78).map((l) => l.text);
    expect(lines[0]).toBe("Payment taken 2026-06-14 15:02 at Main Street");
    expect(lines.join("\n")).toContain("Partial payment: still being taken.");
    expect(lines).toContain("  none yet: the payment is still being taken");
  });

  it("lists a settlement's entries and says they add up, chargeback hold included", () => {
    const lines = settlementLines(settlement, places, 78);
    expect(lines[1]).toEqual({ text: "The entries add up to the total of 97.30 USD.", tone: "good" });
    expect(lines.map((l) => l.text).join("\n")).toMatch(/Chargeback hold\s+-40\.00 USD/);
    const off = settlementLines({ ...settlement, total_money: usd(10_500) }, places, 78);
    expect(off[1]?.tone).toBe("bad");
  });

  it("shows the buyer's phone as the store's numbers are written, a foreign one internationally", () => {
    const order = (phone: string): V1Order & { location_id: string } => ({
      id: "O2",
      location_id: "L1",
      state: "PENDING",
      recipient_name: "Ben Okafor",
      recipient_phone_number: phone,
    });
    const atUs = { ...places, countries: new Map([["L1", "US"]]) };
    const buyer = (phone: string) => orderLines(order(phone), atUs, 78).find((l) => l.text.startsWith("Buyer"))?.text;
    expect(buyer("+12125550172")).toBe("Buyer: Ben Okafor · (212) 555-0172");
    expect(buyer("+1 212 555 0172")).toBe("Buyer: Ben Okafor · (212) 555-0172");
    expect(buyer("+442079460958")).toBe("Buyer: Ben Okafor · +44 20 7946 0958");
    expect(buyer("ext. 12")).toBe("Buyer: Ben Okafor · ext. 12");
  });

  it("says what an order's state allows", () => {
    const open: V1Order = {
      id: "O1",
      state: "OPEN",
      order_history: [{ action: "ORDER_PLACED", created_at: "2026-06-01T12:00:00Z" }],
    };
    const text = orderLines(open, places, 78).map((l) => l.text);
    expect(text).toContain("  2026-06-01 12:00  Placed");
    expect(text.at(-1)).toBe("It can now be: complete (shipped), cancel.");
  });
});
