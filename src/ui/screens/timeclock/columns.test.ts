import { describe, expect, it } from "vitest";
import type { WhoIsHereRow } from "../../../state/index.js";
import { cellText } from "../../components/columns.js";
import { timeClockColumns } from "./columns.js";

const onShift = (kept: boolean): WhoIsHereRow => ({
  member: { id: "M1" },
  id: "M1",
  name: "Dana Whitfield",
  state: { kind: "on-shift", since: "04:12", shift: { location_id: "L1", start_at: "2026-11-27T09:12:00Z" } },
  forgotten: undefined,
  wage: undefined,
  elsewhere: undefined,
  shiftMinutes: 0,
  breakMinutes: undefined,
  breakOverrun: 0,
  kept,
});

describe("the time clock's State column", () => {
  const state = timeClockColumns("America/New_York").find((c) => c.header === "State");
  if (!state) throw new Error("no State column");

  it("says a kept write in full where there is room", () => {
    expect(cellText(state, onShift(true), 0, 60)).toBe("on shift since 04:12 ◷ kept, not yet sent");
  });

  it("in a narrow column says it is kept in fewer words, never cut mid-word ('◷ kept, not yet se…')", () => {
    // At 60 columns the State column has about 38 cells.
    expect(cellText(state, onShift(true), 0, 38)).toBe("on shift since 04:12 ◷ kept");
    expect(cellText(state, onShift(false), 0, 38)).toBe("on shift since 04:12");
  });
});
