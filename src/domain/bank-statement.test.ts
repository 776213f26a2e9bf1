import { describe, expect, it } from "vitest";
import { readStatement, type StatementRead } from "./bank-statement.js";

const ok = (r: StatementRead) => {
  if (!r.ok) throw new Error(`${r.problem} ${JSON.stringify(r.problems)}`);
  return r;
};
const brief = (r: StatementRead) => ok(r).lines.map((l) => [l.line, l.date, l.amount, l.description]);

describe("readStatement: a currency without minor units", () => {
  it("reads yen as whole units: 12,340 is 12340, not 1234000; a decimal part is refused with its line", () => {
    const csv = [
      "Date,Description,Amount",
      '2026/01/16,"SQUARE L20260115AB12CD34","12,340"',
      "2026/01/17,ATM,-5000",
    ].join("\n");
    expect(brief(readStatement(csv, { currency: "JPY" }))).toEqual([
      [2, "2026-01-16", 12340, "SQUARE L20260115AB12CD34"],
      [3, "2026-01-17", -5000, "ATM"],
    ]);
    const cents = readStatement(["Date,Description,Amount", "2026/01/16,SQUARE,123.45"].join("\n"), {
      currency: "JPY",
    });
    expect(cents).toMatchObject({
      ok: false,
      problems: [{ line: 2, problem: expect.stringMatching(/JPY has no decimals/) }],
    });
  });
});

describe("readStatement: bank export shapes", () => {
  it("Chase checking: Details, Posting Date, Description, signed Amount, a trailing comma on every line", () => {
    const csv = [
      "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #",
      'CREDIT,01/16/2026,"ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ260115 IND ID:L20260115AB12CD34",1234.56,ACH_CREDIT,5678.90,,',
      "DEBIT,01/16/2026,GREEN MOUNTAIN POWER,-185.32,ACH_DEBIT,4444.34,,",
      "CHECK,01/17/2026,CHECK 363,-450.00,CHECK_PAID,3994.34,363,",
    ].join("\r\n");
    const r = ok(readStatement(csv, { currency: "USD" }));
    expect(r.columns).toEqual({ date: "Posting Date", amount: "Amount", description: "Description" });
    expect(r.dateFormat).toBe("MM/DD/YYYY");
    expect(brief(r)).toEqual([
      [2, "2026-01-16", 123456, "ORIG CO NAME:SQUARE INC CO ENTRY DESCR:SQ260115 IND ID:L20260115AB12CD34"],
      [3, "2026-01-16", -18532, "GREEN MOUNTAIN POWER"],
      [4, "2026-01-17", -45000, "CHECK 363"],
    ]);
  });

  it("Bank of America: summary lines and a blank line before the header, a balance row without amount", () => {
    const csv = [
      "Description,,Summary Amt.",
      'Beginning balance as of 01/01/2026,,"1,300.00"',
      'Total credits,,"3,350.00"',
      'Total debits,,"-2,239.98"',
      'Ending balance as of 01/31/2026,,"2,410.02"',
      "",
      "Date,Description,Amount,Running Bal.",
      '01/01/2026,Beginning balance as of 01/01/2026,,"1,300.00"',
      '01/27/2026,"SQUARE INC DES:SQ260126 ID:T3C8 INDN:BACKROOM","1,000.00","2,300.00"',
      '01/28/2026,"BKOFAMERICA ATM 01/28 #XXXXX4905 WITHDRWL","-150.00","2,150.00"',
    ].join("\n");
    const r = ok(readStatement(csv, { currency: "USD" }));
    expect(r.headerLine).toBe(7);
    expect(r.skipped).toEqual([{ line: 8, reason: "no amount (a balance or summary line)" }]);
    expect(brief(r)).toEqual([
      [9, "2026-01-27", 100000, "SQUARE INC DES:SQ260126 ID:T3C8 INDN:BACKROOM"],
      [10, "2026-01-28", -15000, "BKOFAMERICA ATM 01/28 #XXXXX4905 WITHDRWL"],
    ]);
  });

  it("Lloyds: day-first dates, Debit Amount and Credit Amount, a trailing empty header", () => {
    const csv = [
      "Transaction Date,Transaction Type,Sort Code,Account Number,Transaction Description,Debit Amount,Credit Amount,Balance,",
      "28/08/2026,FPI,'30-91-74,02344812,SQUARE PAYMENTS L2608270000AAAA,,1520.00,12004.61",
      "29/08/2026,DD,'30-91-74,02344812,BRITISH GAS,84.10,,11920.51",
    ].join("\n");
    const r = ok(readStatement(csv, { currency: "GBP" }));
    expect(r.columns).toEqual({
      date: "Transaction Date",
      debit: "Debit Amount",
      credit: "Credit Amount",
      description: "Transaction Description",
    });
    expect(r.dateFormat).toBe("DD/MM/YYYY");
    expect(brief(r)).toEqual([
      [2, "2026-08-28", 152000, "SQUARE PAYMENTS L2608270000AAAA"],
      [3, "2026-08-29", -8410, "BRITISH GAS"],
    ]);
  });

  it("a credit union's export: dollar signs, withdrawals in brackets", () => {
    const csv = [
      "Date,Transaction Type,Description,Amount",
      "03/02/2026,Credit,SQUARE INC SQ260301,$400.00",
      "03/02/2026,Debit,CITY WATER,($30.00)",
      'Mar 3 2026 is not here,Debit,x,"$(1,030.25)"',
    ].join("\n");
    const bad = readStatement(csv, { currency: "USD" });
    expect(bad).toMatchObject({ ok: false, problems: [{ line: 4 }] });
    const r = ok(readStatement(csv.split("\n").slice(0, 3).join("\n"), { currency: "USD" }));
    expect(brief(r)).toEqual([
      [2, "2026-03-02", 40000, "SQUARE INC SQ260301"],
      [3, "2026-03-02", -3000, "CITY WATER"],
    ]);
  });

  it("a European export: a byte-order mark, `;` between cells, decimal commas, headers named by flags", () => {
    const csv = [
      "\ufeffBuchungstag;Valuta;Auftraggeber/Empfänger;Verwendungszweck;Betrag;Währung",
      '15.01.2026;15.01.2026;SQUARE EUROPE LTD;"Auszahlung L20260114XYZ98765; Danke";1.234,56;EUR',
      "16.01.2026;16.01.2026;Stadtwerke;Strom Januar;-89,90;EUR",
    ].join("\n");
    const without = readStatement(csv, { currency: "EUR" });
    expect(without).toMatchObject({ ok: false, problem: /No header row with a date column/, option: "dateColumn" });
    const r = ok(
      readStatement(csv, {
        currency: "EUR",
        dateColumn: "buchungstag",
        amountColumn: "Betrag",
        descriptionColumn: "Verwendungszweck",
      }),
    );
    expect(r.delimiter).toBe(";");
    expect(r.decimalMark).toBe(",");
    expect(brief(r)).toEqual([
      [2, "2026-01-15", 123456, "Auszahlung L20260114XYZ98765; Danke"],
      [3, "2026-01-16", -8990, "Strom Januar"],
    ]);
  });

  it("Wells Fargo: no header at all, columns given by number", () => {
    const csv = [
      '"01/15/2026","1523.75","*","","SQUARE INC SQ260114 L20260114QQ11RR22"',
      '"01/16/2026","-25.00","*","","CHECK CARD PURCHASE"',
    ].join("\n");
    expect(readStatement(csv, { currency: "USD" })).toMatchObject({ ok: false, problem: /--date-column/ });
    const r = ok(readStatement(csv, { currency: "USD", dateColumn: "1", amountColumn: "2", descriptionColumn: "5" }));
    expect(r.headerLine).toBe(0);
    expect(r.columns).toEqual({ date: "column 1", amount: "column 2", description: "column 5" });
    expect(brief(r)).toEqual([
      [1, "2026-01-15", 152375, "SQUARE INC SQ260114 L20260114QQ11RR22"],
      [2, "2026-01-16", -2500, "CHECK CARD PURCHASE"],
    ]);
  });
});

describe("readStatement: what it refuses, and how it says so", () => {
  const header = "Date,Description,Amount";
  it("names every line it cannot read", () => {
    const r = readStatement(
      [header, "2026-01-02,a,12.345", "2026-13-40,b,5.00", "2026-01-03,c,12 EUR", "2026-01-04,d,1.00"].join("\n"),
      {
        currency: "USD",
      },
    );
    expect(r).toMatchObject({ ok: false, problem: "3 lines of the statement cannot be read." });
    if (r.ok) return;
    expect(r.problems.map((p) => p.line)).toEqual([2, 3, 4]);
    expect(r.problems[0]?.problem).toMatch(/2 decimals at most/);
    expect(r.problems[1]?.problem).toMatch(/"2026-13-40" is not a date in the form YYYY-MM-DD/);
    expect(r.problems[2]?.problem).toMatch(/is in EUR; this is in USD/);
  });
  it("keeps a quoted line break inside a description, and counts lines as the file does", () => {
    const r = ok(
      readStatement([header, '2026-01-02,"two\nlines",1.00', "2026-01-03,next,2.00"].join("\n"), { currency: "USD" }),
    );
    expect(brief(r)).toEqual([
      [2, "2026-01-02", 100, "two\nlines"],
      [4, "2026-01-03", 200, "next"],
    ]);
  });
  it("skips a line without any date, such as a total at the end", () => {
    const r = ok(readStatement([header, "2026-01-02,a,1.00", "Total,,1.00"].join("\n"), { currency: "USD" }));
    expect(r.skipped).toEqual([{ line: 3, reason: 'no date ("Total")' }]);
  });
  it("refuses an empty file, a file that is not text, broken quoting and unknown column names", () => {
    expect(readStatement("", { currency: "USD" })).toMatchObject({ ok: false, problem: "The file is empty." });
    expect(readStatement("\ufeff\n\n", { currency: "USD" })).toMatchObject({
      ok: false,
      problem: "The file is empty.",
    });
    expect(readStatement("PK\u0003\u0004\u0000\u0000", { currency: "USD" })).toMatchObject({
      ok: false,
      problem: /not text/,
    });
    expect(readStatement(`${header}\n2026-01-02,"broken"x,1.00`, { currency: "USD" })).toMatchObject({
      ok: false,
      problem: /not CSV that can be read/,
    });
    expect(readStatement(`${header}\n2026-01-02,a,1.00`, { currency: "USD", amountColumn: "Value" })).toMatchObject({
      ok: false,
      problem: 'No column is headed "Value" (--amount-column); give a header the file has, or a column number from 1.',
      option: "amountColumn",
    });
    expect(readStatement(`${header}\n2026-01-02,a,1.00`, { currency: "USD", dateFormat: "DD/MM" })).toMatchObject({
      ok: false,
      problem: /needs one year/,
      option: "dateFormat",
    });
    expect(readStatement(`${header}\n2026-13-45,a,1.00`, { currency: "USD" })).toMatchObject({
      ok: false,
      problem: /in no format backroom knows/,
      option: "dateFormat",
    });
    // Naming nothing would help a file that is not CSV: it names no option.
    expect(readStatement(`${header}\n2026-01-02,"broken"x,1.00`, { currency: "USD" })).not.toHaveProperty("option");
  });
  it("says which headers a ; file has when it knows none of them, not how , splits it", () => {
    const german = '\ufeffBuchungstag;Verwendungszweck;Betrag\r\n26.11.2026;"SQUARE INC, L2026";915,64\r\n';
    expect(readStatement(german, { currency: "USD" })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/the first line has: Buchungstag, Verwendungszweck, Betrag/),
    });
  });
  it("refuses a statement of more lines than it reconciles at once, saying how many it takes", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `2026-01-02,line ${i},1.00`).join("\n");
    const most = readStatement(`Account summary\n\n${header}\n${body(3)}\n`, { currency: "USD", maxLines: 3 });
    expect(most.ok && most.lines.map((l) => l.line)).toEqual([4, 5, 6]);
    expect(readStatement(`${header}\n${body(4)}\n`, { currency: "USD", maxLines: 3 })).toEqual({
      ok: false,
      problem:
        "The statement has more than 3 lines; backroom reconciles up to 3 at a time. Export a shorter range of dates.",
      problems: [],
      whole: true,
    });
  });
  it("tells a file that cannot be used whole from headers that need naming", () => {
    // Empty, not text, broken quoting, too long: another file is what helps.
    for (const text of ["", "\u0000PK", `${header}\n2026-01-02,"open,1.00\n`]) {
      expect(readStatement(text, { currency: "USD" })).toMatchObject({ ok: false, whole: true });
    }
    // Headers not found, dates or amounts not read: the form's columns and date format help.
    for (const text of ["When,What,How much\n2026-01-02,a,1.00\n", `${header}\n2026-01-02,a,12.345\n`]) {
      const r = readStatement(text, { currency: "USD" });
      expect(r.ok || r.whole).toBe(undefined);
    }
  });
  it("says broken quoting in words, with its line", () => {
    const r = readStatement(`${header}\n2026-01-02,a,1.00\n2026-01-03,"never closed,1.00\n`, { currency: "USD" });
    expect(r).toMatchObject({
      ok: false,
      problem: "The file is not CSV that can be read: a quote on line 3 is never closed.",
    });
    const early = readStatement(`${header}\n2026-01-02,"open,1.00\n2026-01-03,b,2.00\n2026-01-04,c,3.00\n`, {
      currency: "USD",
    });
    expect(early).toMatchObject({
      problem: "The file is not CSV that can be read: a quote on line 2 is never closed.",
      problems: [{ line: 2 }],
    });
    const stray = readStatement(`${header}\n2026-01-02,"broken"x,1.00`, { currency: "USD" });
    expect(stray).toMatchObject({
      ok: false,
      problem: "The file is not CSV that can be read: line 2 has text after a closing quote.",
    });
  });
  it("reads dates with the format it is given", () => {
    const r = ok(
      readStatement([header, "02/01/2026,a,1.00"].join("\n"), { currency: "USD", dateFormat: "DD/MM/YYYY" }),
    );
    expect(r.lines[0]?.date).toBe("2026-01-02");
    const guessed = ok(readStatement([header, "02/01/2026,a,1.00"].join("\n"), { currency: "USD" }));
    expect(guessed.lines[0]?.date).toBe("2026-02-01");
    expect(guessed.notes[0]).toMatch(/month first or day first/);
  });
});
