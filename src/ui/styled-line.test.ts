import { styledCharsFromTokens, styledCharsToString, tokenize } from "@alcalzone/ansi-tokenize";
import { describe, expect, it } from "vitest";
import { styledCharsOf, styledLineToString } from "./styled-line.js";

// The codes Ink's colours and text styles write, and a few the library treats specially (reset,
// 256 colours, bold and dim sharing one end code).
const CODES = [
  "\u001b[1m",
  "\u001b[22m",
  "\u001b[2m",
  "\u001b[3m",
  "\u001b[23m",
  "\u001b[4m",
  "\u001b[24m",
  "\u001b[7m",
  "\u001b[27m",
  "\u001b[31m",
  "\u001b[36m",
  "\u001b[90m",
  "\u001b[39m",
  "\u001b[42m",
  "\u001b[49m",
  "\u001b[38;5;208m",
  "\u001b[1;31m",
  "\u001b[0m",
];
const TEXT = ["a", "Z", " ", "·", "›", "…", "é", "王", "🍵", "1"];

/** A small deterministic generator, so a failure names a line that can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomLine(next: () => number): string {
  let line = "";
  const length = Math.floor(next() * 60);
  for (let i = 0; i < length; i++) {
    const pool = next() < 0.25 ? CODES : TEXT;
    line += pool[Math.floor(next() * pool.length)];
  }
  return line;
}

describe("styledLineToString", () => {
  it("writes what ansi-tokenize writes, for lines of text, colours and blank cells", () => {
    const next = random(20261123);
    for (let n = 0; n < 2000; n++) {
      const chars = styledCharsFromTokens(tokenize(randomLine(next)));
      // Ink lays a line's text over blank cells of its own.
      const blanks = Math.floor(next() * 5);
      for (let b = 0; b < blanks; b++) chars.push({ type: "char", value: " ", fullWidth: false, styles: [] });
      expect(styledLineToString(chars), JSON.stringify(chars.map((c) => c.value).join(""))).toBe(
        styledCharsToString(chars),
      );
    }
  });

  it("writes no code between cells of one style, and resets at the end of a styled line", () => {
    const chars = styledCharsFromTokens(tokenize("\u001b[36mabc\u001b[39m"));
    expect(styledLineToString(chars)).toBe("\u001b[36mabc\u001b[39m");
    expect(styledLineToString([])).toBe("");
  });
});

describe("styledCharsOf", () => {
  it("makes the cells ansi-tokenize makes, for lines of text and colours", () => {
    const next = random(20261124);
    for (let n = 0; n < 2000; n++) {
      const tokens = tokenize(randomLine(next));
      expect(styledCharsOf(tokens)).toEqual(styledCharsFromTokens(tokens));
    }
  });

  it("shares one styles list across a run of one style", () => {
    const cells = styledCharsOf(tokenize("\u001b[36mab\u001b[1mc\u001b[39m\u001b[22mde"));
    expect(cells.map((c) => c.value).join("")).toBe("abcde");
    expect(cells[0]?.styles).toBe(cells[1]?.styles);
    expect(cells[1]?.styles).not.toBe(cells[2]?.styles);
    expect(cells[3]?.styles).toEqual([]);
    expect(cells[3]?.styles).toBe(cells[4]?.styles);
  });
});
