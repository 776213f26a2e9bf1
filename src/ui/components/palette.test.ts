import { describe, expect, it } from "vitest";
import { createStore } from "../../state/index.js";
import { ch, defineCommands } from "../commands.js";
import { shellCommands } from "../shell.js";
import { paletteEntries, paletteEntryLines, paletteMatches, paletteReducer, paletteWindow } from "./palette.js";

const table = defineCommands({
  export: { keys: [ch("e")], label: "e", description: "export CSV", run: () => {} },
  editShift: { keys: [ch("E")], label: "E", description: "edit shift times", write: true, run: () => {} },
  nothing: {
    keys: [ch("z")],
    label: "z",
    description: "do what cannot be done",
    run: () => {},
    unavailable: () => "Nothing to do it to yet.",
  },
  hidden: { keys: [ch("j")], label: "j", description: "down", palette: false, run: () => {} },
});
const screen = { kind: "review" as const, commands: table };
const screens = [
  { kind: "timeclock" as const, title: "Time clock", key: "1" },
  { kind: "review" as const, title: "Review", key: "2" },
];
const store = (readOnly = false) =>
  createStore({ client: {} as never, readOnly, dataDir: "/nonexistent-backroom-test" }).getState();

describe("command palette", () => {
  it("lists every command of the screen, greying out what cannot run now with the reason", () => {
    const entries = paletteEntries(store(), screen, shellCommands([]), screens);
    const names = entries.map((e) => e.description);
    expect(names).toEqual(expect.arrayContaining(["export CSV", "edit shift times", "do what cannot be done"]));
    expect(entries.find((e) => e.description === "do what cannot be done")?.disabled).toBe("Nothing to do it to yet.");
    expect(entries.find((e) => e.description === "export CSV")?.disabled).toBeUndefined();
    // Movement and the palette itself are not offered; the other screens are, by name.
    expect(names).not.toContain("down");
    expect(names).not.toContain("command palette");
    expect(names).toContain("Time clock screen");
    const readOnly = paletteEntries(store(true), screen, shellCommands([]), screens);
    expect(readOnly.find((e) => e.description === "edit shift times")?.disabled).toBe(
      "Read-only mode: changes are disabled.",
    );
    // What can run comes first.
    expect(readOnly.at(-1)?.disabled).toBeDefined();
  });

  it("filters by every typed word, word starts first", () => {
    const entries = paletteEntries(store(), screen, shellCommands([]), screens);
    expect(paletteMatches(entries, "exp").map((e) => e.description)).toEqual(["export CSV"]);
    expect(paletteMatches(entries, "shift ed").map((e) => e.description)).toEqual(["edit shift times"]);
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

  it("draws the highlighted entry whole, wrapped under its words, and any other on one line", () => {
    const entries = paletteEntries(store(), screen, shellCommands([]), screens);
    const blocked = entries.find((e) => e.description === "do what cannot be done");
    if (!blocked) throw new Error("no blocked entry");
    expect(paletteEntryLines(blocked, false, 30)).toEqual(["  z         do what cannot be…"]);
    expect(paletteEntryLines(blocked, true, 30)).toEqual([
      "› z         do what cannot be ",
      "            done — Nothing to ",
      "            do it to yet.     ",
    ]);
    // Four lines at most: the fourth ends with … when there is more.
    expect(paletteEntryLines({ ...blocked, disabled: "x ".repeat(60) }, true, 30)).toHaveLength(4);
  });

  it("shows as many fewer entries as the highlighted one takes extra lines, keeping it in view", () => {
    // 10 rows, the highlighted entry on 3 lines: 8 entries.
    expect(paletteWindow({ selected: 0, offset: 0 }, 20, 10, 3)).toEqual({ from: 0, to: 8 });
    // At the bottom of the reducer's window (offset 0, selected 9): moved on so that it is whole.
    expect(paletteWindow({ selected: 9, offset: 0 }, 20, 10, 3)).toEqual({ from: 2, to: 10 });
    expect(paletteWindow({ selected: 9, offset: 0 }, 20, 10, 1)).toEqual({ from: 0, to: 10 });
    expect(paletteWindow({ selected: 19, offset: 10 }, 20, 10, 4)).toEqual({ from: 13, to: 20 });
    expect(paletteWindow({ selected: 0, offset: 0 }, 0, 10, 0)).toEqual({ from: 0, to: 0 });
  });
});
