import { describe, expect, it } from "vitest";
import { compileDateFormat, type DateFormat, guessDateFormat } from "./statement-dates.js";

const format = (p: string) => compileDateFormat(p) as DateFormat;

describe("compileDateFormat", () => {
  it("reads the patterns banks write, a time after the date ignored", () => {
    expect(format("MM/DD/YYYY").read("01/15/2026")).toBe("2026-01-15");
    expect(format("MM/DD/YYYY").read("1/5/2026")).toBe("2026-01-05");
    expect(format("DD.MM.YYYY").read("15.01.2026")).toBe("2026-01-15");
    expect(format("D MMM YYYY").read("5 Jan 2026")).toBe("2026-01-05");
    expect(format("DD-MMM-YY").read("05-JAN-26")).toBe("2026-01-05");
    expect(format("MMM D, YYYY").read("January 5, 2026")).toBe("2026-01-05");
    expect(format("YYYY-MM-DD").read("2026-01-15T10:32:00Z")).toBe("2026-01-15");
    expect(format("YYYY-MM-DD").read("2026-01-15 10:32")).toBe("2026-01-15");
    expect(format("yyyy/mm/dd").read("2026/01/15")).toBe("2026-01-15");
  });
  it("refuses dates that do not exist or do not fit", () => {
    expect(format("MM/DD/YYYY").read("02/30/2026")).toBeUndefined();
    expect(format("MM/DD/YYYY").read("15/01/2026")).toBeUndefined();
    expect(format("D MMM YYYY").read("5 Foo 2026")).toBeUndefined();
    expect(format("YYYY-MM-DD").read("2026-01-15x")).toBeUndefined();
  });
  it("says what is wrong with a pattern", () => {
    expect(compileDateFormat("")).toMatchObject({ problem: /empty/ });
    expect(compileDateFormat("MM/YYYY")).toMatchObject({ problem: /one year, one month and one day/ });
    expect(compileDateFormat("DD/MM/YYYY/YY")).toMatchObject({ problem: /one year/ });
    expect(compileDateFormat("DD/MM/QQQQ")).toMatchObject({ problem: /has "Q"/ });
  });
});

describe("guessDateFormat", () => {
  it("finds the format every date fits", () => {
    expect(guessDateFormat(["2026-01-15", "2026-01-16"], "USD")).toMatchObject({
      ok: true,
      format: { pattern: "YYYY-MM-DD" },
    });
    expect(guessDateFormat(["01/15/2026", "01/16/2026"], "GBP")).toMatchObject({ format: { pattern: "MM/DD/YYYY" } });
    expect(guessDateFormat(["15/01/2026", "01/02/2026"], "USD")).toMatchObject({ format: { pattern: "DD/MM/YYYY" } });
    expect(guessDateFormat(["15.01.2026"], "EUR")).toMatchObject({ format: { pattern: "DD.MM.YYYY" } });
    expect(guessDateFormat(["15 Jan 2026"], "GBP")).toMatchObject({ format: { pattern: "D MMM YYYY" } });
  });
  it("when day and month could swap, reads US dollars month first and others day first, and says so", () => {
    const us = guessDateFormat(["01/02/2026", "03/04/2026"], "USD");
    expect(us).toMatchObject({ ok: true, format: { pattern: "MM/DD/YYYY" }, note: /month first or day first/ });
    expect(guessDateFormat(["01/02/2026"], "GBP")).toMatchObject({ format: { pattern: "DD/MM/YYYY" } });
  });
  it("takes the format most dates fit, and names a date when no format reads any", () => {
    expect(guessDateFormat(["2026-01-15", "Jan the 5th"], "USD")).toMatchObject({ format: { pattern: "YYYY-MM-DD" } });
    expect(guessDateFormat(["Jan the 5th", "2026-01-15x"], "USD")).toMatchObject({
      ok: false,
      problem: /"Jan the 5th" is in no format backroom knows; pass --date-format/,
    });
  });
  it("says how to give the format in the words of where the statement is read (the app's form)", () => {
    const form = "give the form's Date format";
    expect(guessDateFormat(["01/02/2026"], "USD", form)).toMatchObject({
      note: "The dates could be month first or day first; read as MM/DD/YYYY. Give the form's Date format if that is wrong.",
    });
    expect(guessDateFormat(["Jan the 5th"], "USD", form)).toMatchObject({
      problem: `The date "Jan the 5th" is in no format backroom knows; give the form's Date format (like DD/MM/YYYY).`,
    });
  });
});
