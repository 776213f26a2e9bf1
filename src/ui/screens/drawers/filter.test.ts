import { describe, expect, it } from "vitest";
import { CASH_DRAWER_EVENT_TYPES } from "../../../domain/cash-drawers.js";
import { filterPickerReducer, initialFilterPicker, pickedTypes } from "./filter.js";

describe("the event type picker", () => {
  it("moves round the types, ticks and unticks the one under the cursor", () => {
    let s = initialFilterPicker([]);
    s = filterPickerReducer(s, { type: "move", delta: -1 });
    expect(CASH_DRAWER_EVENT_TYPES[s.cursor]).toBe("PAID_OUT");
    s = filterPickerReducer(s, { type: "toggle" });
    s = filterPickerReducer(s, { type: "move", delta: 1 });
    expect(CASH_DRAWER_EVENT_TYPES[s.cursor]).toBe("NO_SALE");
    s = filterPickerReducer(s, { type: "toggle" });
    expect(pickedTypes(s)).toEqual(["NO_SALE", "PAID_OUT"]);
    s = filterPickerReducer(s, { type: "toggle" });
    expect(pickedTypes(s)).toEqual(["PAID_OUT"]);
  });

  it("ticks all, which is no filter, and unticks all", () => {
    let s = filterPickerReducer(initialFilterPicker(["PAID_IN"]), { type: "all" });
    expect(s.picked.size).toBe(CASH_DRAWER_EVENT_TYPES.length);
    expect(pickedTypes(s)).toEqual([]);
    s = filterPickerReducer(s, { type: "all" });
    expect(s.picked.size).toBe(0);
    expect(pickedTypes(s)).toEqual([]);
  });

  it("opens on the filter in force", () => {
    expect(pickedTypes(initialFilterPicker(["PAID_OUT", "NO_SALE"]))).toEqual(["NO_SALE", "PAID_OUT"]);
  });
});
