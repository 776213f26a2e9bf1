import { describe, expect, it } from "vitest";
import { adjustmentQuantity, adjustmentWords } from "./inventory-words.js";

describe("an inventory adjustment in words", () => {
  it("names the moves a manager knows: a sale, a delivery, a write-off, a return", () => {
    expect(adjustmentWords("IN_STOCK", "SOLD")).toBe("sold");
    expect(adjustmentWords("NONE", "IN_STOCK")).toBe("received");
    expect(adjustmentWords("IN_STOCK", "WASTE")).toBe("written off (damaged, lost or stolen)");
    expect(adjustmentWords("UNLINKED_RETURN", "IN_STOCK")).toBe("returned to stock");
  });

  it("says a move with no name in the states' words, and a state it does not know as sent", () => {
    expect(adjustmentWords("WASTE", "IN_STOCK")).toBe("waste → in stock");
    expect(adjustmentWords("IN_STOCK", "SOMETHING_NEW")).toBe("in stock → SOMETHING_NEW");
  });

  it("signs the quantity by what it does to the stock on hand", () => {
    expect(adjustmentQuantity("IN_STOCK", "SOLD", "3")).toBe("-3");
    expect(adjustmentQuantity("NONE", "IN_STOCK", "12")).toBe("+12");
    expect(adjustmentQuantity("RESERVED_FOR_SALE", "SOLD", "1")).toBe("1");
  });
});
