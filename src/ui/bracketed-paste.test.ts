import { describe, expect, it } from "vitest";
import { noPaste, pastedLine, splitPastes } from "./bracketed-paste.js";

const START = "\u001b[200~";
const END = "\u001b[201~";

describe("telling a paste from typed keys", () => {
  it("keeps a read without brackets typed, tabs and Enter included", () => {
    expect(splitPastes(noPaste, "Till\turl\r").parts).toEqual([{ kind: "typed", text: "Till\turl\r" }]);
  });

  it("takes the bracketed part out whole, with the typed keys around it in order", () => {
    const { parts, state } = splitPastes(noPaste, `a${START}b\tc\r${END}\r`);
    expect(parts).toEqual([
      { kind: "typed", text: "a" },
      { kind: "paste", text: "b\tc\r" },
      { kind: "typed", text: "\r" },
    ]);
    expect(state).toEqual(noPaste);
  });

  it("holds a paste that spans reads until its end arrives", () => {
    const first = splitPastes(noPaste, `${START}2026-`);
    expect(first.parts).toEqual([]);
    expect(first.state.open).toBe(true);
    const second = splitPastes(first.state, `11-20${END}x`);
    expect(second.parts).toEqual([
      { kind: "paste", text: "2026-11-20" },
      { kind: "typed", text: "x" },
    ]);
    expect(second.state).toEqual(noPaste);
  });
});

describe("a paste as a one-line field takes it", () => {
  it("drops the last line break, makes the others and tabs spaces, and drops escape sequences and bells", () => {
    expect(pastedLine("2026-11-20\r\n")).toBe("2026-11-20");
    expect(pastedLine("a\tb\r\nc\nd")).toBe("a b c d");
    expect(pastedLine("Ai\u001b[31msha\u0007\u001b[2J")).toBe("Aisha");
    expect(pastedLine("\r\n")).toBe("");
  });
});
