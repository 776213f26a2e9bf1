import { describe, expect, it } from "vitest";
import { paletteMatches, paletteReducer } from "./palette.js";

describe("command palette", () => {
  it("matches prefixes before substrings", () => {
    expect(paletteMatches("re").map((m) => m.name)).toEqual([
      "review",
      "reload",
      "break-types",
      "start-break",
      "end-break",
      "add-break-type",
    ]);
    expect(paletteMatches("zzz")).toEqual([]);
  });

  it("completes to the highlighted match with tab", () => {
    let s = paletteReducer({ text: "", selected: 0 }, { type: "text", text: "clo" });
    s = paletteReducer(s, { type: "move", delta: 1 });
    expect(paletteReducer(s, { type: "complete" })).toEqual({ text: "clock-out", selected: 0 });
  });
});
