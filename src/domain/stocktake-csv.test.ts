import { describe, expect, it } from "vitest";
import { MAX_COUNT_FILE_LINES } from "./limits.js";
import { buildReview, countTotals, type StockItem, sortReview } from "./stocktake.js";
import { parseCountFile, STOCKTAKE_ITEMS_HEADER, stocktakeItemsCsv, stocktakeSummaryCsv } from "./stocktake-csv.js";

const item = (id: string, price: number | undefined, name = `Item ${id}`): StockItem => ({
  variationId: id,
  itemId: `I${id}`,
  sku: `S-${id}`,
  upc: `0000000000${id}`,
  name,
  categoryId: "",
  priceAmount: price,
  currency: "USD",
  precision: 0,
  tracked: true,
});

describe("stocktake exports", () => {
  const items = new Map(
    [item("1", 1899, 'Hammer, 16 "oz"'), item("2", undefined), item("3", 250)].map((i) => [i.variationId, i]),
  );
  const expected = new Map([
    ["1", { quantity: "10", calculatedAt: "" }],
    ["2", { quantity: "4", calculatedAt: "" }],
    ["3", { quantity: "2", calculatedAt: "" }],
  ]);
  const rows = sortReview(
    buildReview({
      items,
      lines: [
        { variationId: "1", quantity: "8", countedAt: "2026-03-02T15:04:00Z", countedBy: "TM1" },
        { variationId: "2", quantity: "5", countedAt: "2026-03-02T15:05:00Z", countedBy: "TM2" },
      ],
      expected,
      scope: ["1", "2", "3"],
      uncounted: "leave",
    }),
  );
  const names: Record<string, string> = { TM1: "Ana Ruiz", TM2: "Bo Chen" };

  it("writes one row per item, in review order, with local times and names", () => {
    const csv = stocktakeItemsCsv(rows, { timeZone: "America/New_York", memberName: (id) => names[id] ?? id });
    expect(csv.split("\r\n")).toEqual([
      STOCKTAKE_ITEMS_HEADER.join(","),
      'S-1,00000000001,"Hammer, 16 ""oz""",10,8,-2,18.99,-37.98,2026-03-02 10:04,Ana Ruiz,USD,yes',
      "S-2,00000000002,Item 2,4,5,1,,,2026-03-02 10:05,Bo Chen,USD,yes",
      "S-3,00000000003,Item 3,2,,,2.50,,,,USD,yes",
      "",
    ]);
  });

  it("writes the summary in one row", () => {
    const csv = stocktakeSummaryCsv(
      {
        locationName: "Main Street",
        kind: "full",
        scope: "full count",
        countedBy: "Ana Ruiz, Bo Chen",
        startedAt: "2026-03-02T14:00:00Z",
        committedAt: undefined,
        totals: countTotals(rows),
        currency: "USD",
      },
      "America/New_York",
    );
    const [header, row] = csv.split("\r\n");
    expect(header).toBe(
      "location,kind,scope,counted by,started,committed,lines,uncounted,units over,units short,value over,value short,net value,currency",
    );
    expect(row).toBe(
      'Main Street,full,full count,"Ana Ruiz, Bo Chen",2026-03-02 09:00,not committed,2,1,1,2,0.00,37.98,-37.98,USD',
    );
  });
});

/** A row read from a count file's sku column. */
const sku = (line: number, code: string, quantity: string) => ({ line, code, codeKind: "sku", quantity });

describe("reading a count file", () => {
  it("takes sku or upc and quantity in any order, listing bad rows by line", () => {
    const r = parseCountFile("Quantity,SKU,note\n12,HT-1001-1,top shelf\n,HT-1001-2,\n3,,\n\n+2,HT-1001-1,\n");
    expect(r).toEqual({
      ok: true,
      rows: [sku(2, "HT-1001-1", "12"), sku(6, "HT-1001-1", "+2")],
      problems: [
        { line: 3, problem: "no quantity for HT-1001-2" },
        { line: 4, problem: "no sku" },
      ],
    });
    const upc = parseCountFile("upc,quantity\n071263000011,4\n");
    expect(upc.ok && upc.rows).toEqual([{ line: 2, code: "071263000011", codeKind: "upc", quantity: "4" }]);
  });

  it("refuses a file without the columns it needs", () => {
    expect(parseCountFile("")).toMatchObject({ ok: false, problem: expect.stringMatching(/empty/) });
    expect(parseCountFile("code,qty\nA,1\n")).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/sku \(or upc\) and quantity; it has: code, qty/),
    });
  });

  it("reads a file with ; or tabs between columns, a decimal comma in a ; file", () => {
    const semi = parseCountFile('\uFEFFsku;quantity\r\nHT-1;3\r\n\r\n"HT-2";"1,5"\r\nHT-3;"a;b"\r\n');
    expect(semi).toEqual({
      ok: true,
      rows: [sku(2, "HT-1", "3"), sku(4, "HT-2", "1.5"), sku(5, "HT-3", "a;b")],
      problems: [],
    });
    const tabs = parseCountFile("upc\tquantity\n071263000011\t4\n");
    expect(tabs.ok && tabs.rows).toEqual([{ line: 2, code: "071263000011", codeKind: "upc", quantity: "4" }]);
    // With , between columns a decimal comma cannot be told from a column: left for the quantity check.
    const comma = parseCountFile('sku,quantity\nHT-1,"1,5"\n');
    expect(comma.ok && comma.rows[0]?.quantity).toBe("1,5");
  });

  it("refuses a file that is not text, without printing its bytes", () => {
    const bytes = "\u0000\u0007\u001b[2J\uFFFD\uFFFDPK\u0003\u0004";
    const r = parseCountFile(bytes);
    expect(r).toEqual({ ok: false, problem: expect.stringMatching(/not a text file/) });
    expect(r.ok || /[\p{Cc}\uFFFD]/u.test(r.problem)).toBe(false);
    // A header with control characters is shown with them made visible, not sent to the terminal.
    const odd = parseCountFile("code\u001b[31m,qty\n");
    expect(odd.ok || odd.problem).toBe(
      "The header must name the columns sku (or upc) and quantity; it has: code?[31m, qty.",
    );
  });

  it("names broken quoting with the line it opens on, and keeps a quote inside a name", () => {
    const open = parseCountFile('sku,quantity,name\r\nHT-1,3,"two\r\nlines"\r\nHT-2,"4,name\r\nHT-3,5,x\r\n');
    expect(open).toEqual({
      ok: false,
      problem: "The file is not CSV that can be read: a quote on line 4 is never closed.",
    });
    const stray = parseCountFile('sku,quantity,name\nHT-1,"3"x,y\n');
    expect(stray).toEqual({
      ok: false,
      problem: "The file is not CSV that can be read: line 2 has text after a closing quote.",
    });
    const inches = parseCountFile('sku;quantity;name\r\nHT-1;"1,5";16" nails\r\nHT-2;"2";"a\r\nb"\r\nHT-3;1;x\r\n');
    expect(inches).toEqual({
      ok: true,
      rows: [sku(2, "HT-1", "1.5"), sku(3, "HT-2", "2"), sku(5, "HT-3", "1")],
      problems: [],
    });
  });

  it("refuses a file of more rows than a count holds, counting rows of empty cells but not blank lines", () => {
    const rows = (n: number, row: string) => Array.from({ length: n }, () => row).join("\n");
    // Three rows (one of empty cells), blank lines between: at the most.
    const most = parseCountFile(`sku,quantity\n\nHT-1,1\n,\n\nHT-2,2\n`, { maxRows: 3 });
    expect(most).toEqual({ ok: true, rows: [sku(3, "HT-1", "1"), sku(6, "HT-2", "2")], problems: [] });
    const over = parseCountFile(`sku,quantity\n${rows(3, "HT-1,1")}\n,\n`, { maxRows: 3 });
    expect(over).toEqual({
      ok: false,
      problem:
        "The file has more than 3 rows; backroom reads up to 3 in one count. Add up the rows of each item into one, or check that this is the count file.",
    });
    // Read no further than one row past the most: a broken quote later in the file is never reached.
    expect(parseCountFile(`sku,quantity\n${rows(5, "HT-1,1")}\nHT-2,"4\n`, { maxRows: 3 })).toMatchObject({
      problem: expect.stringMatching(/^The file has more than 3 rows/),
    });
  });

  it("holds the most rows domain/limits.ts names by default", () => {
    const at = `sku,quantity\n${"HT-1,1\n".repeat(MAX_COUNT_FILE_LINES)}`;
    const read = parseCountFile(at);
    expect(read.ok && read.rows.length).toBe(MAX_COUNT_FILE_LINES);
    expect(parseCountFile(`${at}HT-2,1\n`)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^The file has more than 300,000 rows/),
    });
  });
});
