import { describe, expect, it } from "vitest";
import { luhnCheckDigit } from "./gan.js";
import { parseCardFile } from "./gift-card-file.js";
import { MAX_CARD_FILE_LINES } from "./limits.js";

const gan = (n: number) => {
  const body = `7783${String(n).padStart(11, "0")}`;
  return body + luhnCheckDigit(body);
};

describe("a box's file", () => {
  it("reads one number a line, in groups or not, skipping blank lines", () => {
    const r = parseCardFile(`${gan(1)}\r\n\r\n7783 ${gan(2).slice(4, 8)} ${gan(2).slice(8)}\r\n`);
    expect(r).toEqual({
      ok: true,
      value: {
        cards: [
          { line: 1, gan: gan(1) },
          { line: 3, gan: gan(2) },
        ],
        problems: [],
      },
    });
  });

  it("reads the gan column of a CSV with a byte-order mark, quotes and semicolons", () => {
    const r = parseCardFile(`\ufeffbox;GAN;note\n7;"${gan(3)}";first\n7;${gan(4)};"second; with a semicolon"\n`);
    expect(r.ok && r.value.cards).toEqual([
      { line: 2, gan: gan(3) },
      { line: 3, gan: gan(4) },
    ]);
  });

  it("sets aside a repeated number, a mistyped check digit and a spreadsheet's rounding, with line numbers", () => {
    const typo = gan(5).slice(0, -1) + String((Number(gan(5).at(-1)) + 1) % 10);
    const r = parseCardFile(`${gan(5)}\n${gan(5)}\n${typo}\n7.78300000E+15\nSHORT\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.cards).toEqual([{ line: 1, gan: gan(5) }]);
    expect(r.value.problems.map((p) => [p.line, p.problem])).toEqual([
      [2, "the same card number as line 1"],
      [3, expect.stringContaining("check digit")],
      [4, expect.stringContaining("spreadsheet")],
      [5, expect.stringContaining("8 to 20")],
    ]);
  });

  it("refuses a header that does not name the gan column, and a file that is not CSV", () => {
    const header = parseCardFile(`card number\n${gan(1)}\n`);
    expect(!header.ok && header.problem).toMatch(/call the card number column gan/);
    const broken = parseCardFile(`gan\n"${gan(1)}\n`);
    expect(!broken.ok && broken.problem).toMatch(/not readable as CSV/);
  });

  it("says a file that is not text is not, and broken quoting in words, without echoing its bytes", () => {
    const binary = parseCardFile('PK\u0003\u0004\u0000\u0000"\u001a\uFFFD,x\n"\u0019');
    expect(binary).toEqual({
      ok: false,
      problem: "This is not a text file; save the card numbers as CSV (one number a line, or a gan column).",
    });
    const open = parseCardFile(`gan\n${gan(1)}\n"${gan(2)}\n`);
    expect(open).toEqual({ ok: false, problem: "The file is not readable as CSV: a quote on line 3 is never closed." });
    // Named by the line the quote opens on, not the file's last line.
    const early = parseCardFile(`gan\n"${gan(1)}\n${gan(2)}\n${gan(3)}\n`);
    expect(early).toEqual({
      ok: false,
      problem: "The file is not readable as CSV: a quote on line 2 is never closed.",
    });
    const inside = parseCardFile(`gan\n12"34\n`);
    expect(inside).toEqual({
      ok: false,
      problem: "The file is not readable as CSV: line 2 has a quote inside a field.",
    });
  });

  it("refuses more lines than one file may hold, with or without a header, reading no further", () => {
    const numbers = (n: number) => Array.from({ length: n }, (_, i) => gan(i + 1)).join("\n");
    expect(parseCardFile(`gan\n${numbers(3)}\n`, { maxLines: 3 })).toMatchObject({ ok: true });
    expect(parseCardFile(`${numbers(3)}\n`, { maxLines: 3 })).toMatchObject({ ok: true });
    const problem =
      "The file has more than 3 lines; backroom activates up to 3 cards from one file. Split the box into files of 3 lines or fewer.";
    expect(parseCardFile(`gan\n${numbers(4)}\n`, { maxLines: 3 })).toEqual({ ok: false, problem });
    expect(parseCardFile(`${numbers(4)}\n`, { maxLines: 3 })).toEqual({ ok: false, problem });
    // A broken quote past the most is never reached: the size is what is said.
    expect(parseCardFile(`${numbers(5)}\n"${gan(9)}\n`, { maxLines: 3 })).toEqual({ ok: false, problem });
    expect(parseCardFile(`gan\n${numbers(MAX_CARD_FILE_LINES)}\n`)).toMatchObject({ ok: true });
    expect(parseCardFile(`gan\n${numbers(MAX_CARD_FILE_LINES + 1)}\n`)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^The file has more than 10,000 lines/),
    });
  });
});
