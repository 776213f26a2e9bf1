import { describe, expect, it } from "vitest";
import { notText, quotingProblem } from "./csv-read.js";

describe("reading a CSV file from outside", () => {
  it("tells a file that is no text by its NUL bytes", () => {
    expect(notText("PK\u0003\u0004\u0000")).toBe(true);
    expect(notText("gan\r\n7783 3200 0000 0005\r\n")).toBe(false);
  });

  it("puts csv-parse's quoting complaints in words, with the line", () => {
    expect(quotingProblem({ code: "CSV_QUOTE_NOT_CLOSED", lines: 3 })).toEqual({
      what: "a quote on line 3 is never closed",
      line: 3,
    });
    expect(quotingProblem({ code: "CSV_INVALID_CLOSING_QUOTE", lines: 2 }).what).toBe(
      "line 2 has text after a closing quote",
    );
    expect(quotingProblem({ code: "INVALID_OPENING_QUOTE", lines: 2 }).what).toBe("line 2 has a quote inside a field");
    expect(quotingProblem({ code: "CSV_QUOTE_NOT_CLOSED" })).toEqual({ what: "a quote is never closed" });
  });
});
