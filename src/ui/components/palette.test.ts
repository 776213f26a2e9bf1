import { describe, expect, it } from "vitest";
import { defineBindings, GLOBAL_KEYS } from "../keymap.js";
import { paletteEntries, paletteMatches, paletteReducer } from "./palette.js";

const screenKeys = defineBindings("review", [
  { command: "export", keys: [{ input: "e" }], label: "e", description: "export CSV" },
  { command: "editShift", keys: [{ input: "E" }], label: "E", description: "edit shift times", write: true },
]);
const all = [...GLOBAL_KEYS, ...screenKeys];
const titles = (scope: string) => (scope === "review" ? "Review" : undefined);

describe("command palette", () => {
  it("lists every command with its key, greying out what does not apply here, with the reason", () => {
    const onTimeClock = paletteEntries(all, { scopes: ["timeclock", "global"], readOnly: false, screenTitle: titles });
    expect(onTimeClock.find((e) => e.command === "export")).toMatchObject({
      label: "e",
      disabled: "on the Review screen",
    });
    expect(onTimeClock.find((e) => e.command === "quit")?.disabled).toBeUndefined();
    // Movement and the palette itself are not offered.
    expect(onTimeClock.some((e) => e.command === "palette" || e.command === "forceQuit")).toBe(false);
    const readOnly = paletteEntries(all, { scopes: ["review", "global"], readOnly: true, screenTitle: titles });
    expect(readOnly.find((e) => e.command === "editShift")?.disabled).toBe("read-only mode");
    expect(readOnly.find((e) => e.command === "export")?.disabled).toBeUndefined();
  });

  it("filters by every typed word, word starts first", () => {
    const entries = paletteEntries(all, { scopes: ["review", "global"], readOnly: false, screenTitle: titles });
    expect(paletteMatches(entries, "exp").map((e) => e.command)).toEqual(["export"]);
    expect(paletteMatches(entries, "shift ed").map((e) => e.command)).toEqual(["editShift"]);
    expect(paletteMatches(entries, "zzz")).toEqual([]);
  });

  it("scrolls the window with the selection and starts over when the text changes", () => {
    let s = { text: "", selected: 0, offset: 0 };
    for (let i = 0; i < 5; i++) s = paletteReducer(s, { type: "move", delta: 1, count: 10, height: 3 });
    expect(s).toEqual({ text: "", selected: 5, offset: 3 });
    s = paletteReducer(s, { type: "move", delta: -5, count: 10, height: 3 });
    expect(s).toEqual({ text: "", selected: 0, offset: 0 });
    s = paletteReducer(s, { type: "move", delta: -1, count: 10, height: 3 });
    expect(s).toEqual({ text: "", selected: 9, offset: 7 });
    expect(paletteReducer(s, { type: "text", text: "re" })).toEqual({ text: "re", selected: 0, offset: 0 });
  });
});
