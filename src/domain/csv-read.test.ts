import { describe, expect, it } from "vitest";
import { notText, quotingProblem, readCsv } from "./csv-read.js";

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

describe("splitting a CSV file into records", () => {
  it("reads quotes, doubled quotes, CRLF and a byte-order mark, each record with the line it starts on", () => {
    expect(
      readCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n\r\n"multi\r\nline",2\r\n  \r\nlast, 3 ', { delimiter: "," }),
    ).toEqual({
      ok: true,
      records: [
        { line: 1, cells: ["a", "b"] },
        { line: 2, cells: ["x, y", 'say "hi"'] },
        { line: 4, cells: ["multi\r\nline", "2"] },
        { line: 7, cells: ["last", "3"] },
      ],
    });
    expect(readCsv("a;b\n1,5;2\n", { delimiter: ";" })).toEqual({
      ok: true,
      records: [
        { line: 1, cells: ["a", "b"] },
        { line: 2, cells: ["1,5", "2"] },
      ],
    });
  });

  it("stops after the records asked for", () => {
    expect(readCsv("sku,quantity\nA,1\nB,2\n", { delimiter: ",", records: 1 })).toEqual({
      ok: true,
      records: [{ line: 1, cells: ["sku", "quantity"] }],
    });
  });

  it("names a quote never closed by the line it opens on, after blank lines and quoted line breaks", () => {
    const text = 'sku,note\nA,"two\nlines"\n\nB,"open\nC,x\nD,y\n';
    expect(readCsv(text, { delimiter: "," })).toEqual({
      ok: false,
      what: "a quote on line 5 is never closed",
      line: 5,
    });
    expect(readCsv(text, { delimiter: ",", relaxQuotes: true })).toMatchObject({ ok: false, line: 5 });
  });

  it("names the line of other broken quoting after a quoted CRLF as the file counts it", () => {
    expect(readCsv('a,b\r\n"x\r\ny",1\r\nc 16" z,2\r\n', { delimiter: "," })).toEqual({
      ok: false,
      what: "line 4 has a quote inside a field",
      line: 4,
    });
  });

  it("refuses a quote inside a field unless told to keep it", () => {
    expect(readCsv('sku,name\nA,16" nails\n', { delimiter: "," })).toEqual({
      ok: false,
      what: "line 2 has a quote inside a field",
      line: 2,
    });
    expect(readCsv('sku,name\nA,16" nails\n', { delimiter: ",", relaxQuotes: true })).toEqual({
      ok: true,
      records: [
        { line: 1, cells: ["sku", "name"] },
        { line: 2, cells: ["A", '16" nails'] },
      ],
    });
  });
});
