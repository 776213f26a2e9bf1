import { describe, expect, it } from "vitest";
import {
  type Column,
  cellText,
  firstThatFits,
  fitCell,
  layoutColumns,
  rowText,
  segmentsThatFit,
  wrapLines,
  wrapSegments,
} from "./columns.js";

interface Row {
  name: string;
  hours: number;
  cost: string;
}
const COLS: Column<Row>[] = [
  { header: "Member", width: 8, flex: 1, render: (r) => r.name },
  { header: "Paid h", width: 6, align: "right", render: (r) => r.hours.toFixed(2) },
  { header: "Cost", width: 10, align: "right", drop: 1, render: (r) => r.cost },
];
const rows: Row[] = [
  { name: "Ana Diaz", hours: 8, cost: "160.00 USD" },
  { name: "Bartholomew Featherstonehaugh", hours: 10.5, cost: "9.00 USD" },
];

describe("column tables", () => {
  it("puts every cell under its heading, for each alignment and width", () => {
    for (const width of [30, 40, 61]) {
      const placed = layoutColumns(COLS, width);
      const header = rowText(placed, (c) => c.header);
      expect(header.length).toBe(width);
      for (const r of rows) {
        const line = rowText(placed, (c) => c.render(r, 0));
        expect(line.length).toBe(header.length);
        let at = 0;
        for (const p of placed) {
          const h = header.slice(at, at + p.width);
          const cell = line.slice(at, at + p.width);
          if (p.column.align === "right") {
            // Right-aligned: the heading's last character and the value's last character share a column.
            expect(h.trimEnd().length).toBe(p.width);
            expect(cell.trimEnd().length).toBe(p.width);
          } else {
            expect(h.trimStart().length).toBe(h.length);
            expect(cell.trimStart().length).toBe(cell.length);
          }
          at += p.width + 1;
        }
      }
    }
  });

  it("gives flex columns the room left and drops droppable columns when narrow", () => {
    expect(layoutColumns(COLS, 40).map((p) => p.width)).toEqual([22, 6, 10]);
    expect(layoutColumns(COLS, 20).map((p) => p.column.header)).toEqual(["Member", "Paid h"]);
  });

  it("never lays several flex columns out wider than the room", () => {
    const cols: Column<Row>[] = [
      { header: "A", width: 18, flex: 1, render: (r) => r.name },
      { header: "B", width: 24, flex: 3, render: (r) => r.name },
      { header: "C", width: 13, render: (r) => r.cost },
    ];
    for (const width of [57, 60, 80, 133]) {
      const placed = layoutColumns(cols, width);
      expect(placed.reduce((n, p) => n + p.width, 0) + placed.length - 1).toBe(width);
    }
  });

  it("cuts long text with an ellipsis and pads short text to the width", () => {
    expect(fitCell("Bartholomew", 6)).toBe("Barth…");
    expect(fitCell("9.00", 6, "right")).toBe("  9.00");
    expect(fitCell("日本語テキスト", 7)).toBe("日本語…");
    expect(fitCell("a\u001bbcdefgh", 6)).toBe("a bcd…");
  });

  it("never cuts a figure: it goes whole, and a cell of one number becomes only the mark", () => {
    // ">40h wk OT 1.4…" reads as another number; the whole figure goes instead.
    expect(fitCell(">40h wk OT 1.48h from other stores", 15)).toBe(">40h wk OT…    ");
    expect(fitCell("1,234.50 USD", 8, "right")).toBe("       …");
    expect(fitCell("1,234.50 USD", 10)).toBe("1,234.50 …");
    expect(fitCell("Aisha Rahman", 8)).toBe("Aisha R…");
    expect(fitCell("12,345.67", 5)).toBe("…    ");
    expect(fitCell("2026-06-15 open", 8)).toBe("…       ");
    // An id with digits is not a figure: its start still tells it apart.
    expect(fitCell("payment pay_7Hk2sQ", 14)).toBe("payment pay_7…");
  });
});

describe("wrapLines", () => {
  const text = "Overtime and the pay period follow the config file. A shift without a wage is flagged.";

  it("breaks between words into lines of at most the width, and keeps every word", () => {
    for (const width of [10, 24, 40, 200]) {
      const lines = wrapLines(text, width);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(width);
      expect(lines.join(" ")).toBe(text);
    }
    expect(wrapLines(text, 200)).toEqual([text]);
  });

  it("ends the last line shown with … when the text needs more lines, and cuts a word longer than a line", () => {
    const lines = wrapLines(text, 24, 2);
    expect(lines).toEqual(["Overtime and the pay", "period follow the confi…"]);
    expect(wrapLines(text, 30, 1)).toEqual(["Overtime and the pay period…"]);
    const full = wrapLines("the configuration-file-is-read-first", 12);
    expect(full).toEqual(["the", "configurati…"]);
    expect(wrapLines("abcdefghijklmnopqrstuvwxyz one", 12, 1)).toEqual(["abcdefghijk…"]);
    expect(wrapLines(text, 0)).toEqual([]);
  });
});

describe("whole segments", () => {
  it("keeps segments whole, dropping the last ones that do not fit", () => {
    const parts = ["Totals: 6 shifts", "expected 5,606.95", "net -19.50 SHORT"];
    expect(wrapSegments(parts, 40)).toEqual(["Totals: 6 shifts · expected 5,606.95"]);
    expect(wrapSegments(parts, 40, 2)).toEqual(["Totals: 6 shifts · expected 5,606.95", "net -19.50 SHORT"]);
    expect(segmentsThatFit(parts, 40)).toBe(2);
    expect(segmentsThatFit(parts, 10)).toBe(1);
    // One segment wider than the line is cut with …, never lost.
    expect(wrapSegments(["a very long single segment"], 10)).toEqual(["a very lo…"]);
  });
});

describe("shorter words for a narrow place", () => {
  it("a cell says its narrow text only when the full one does not fit", () => {
    const col: Column<string> = {
      header: "State",
      render: (r) => `on shift at ${r} since 09:00 (12:00 here)`,
      narrow: () => "09:00 (12:00 here)",
    };
    expect(cellText(col, "Harbour Dock", 0, 60)).toBe("on shift at Harbour Dock since 09:00 (12:00 here)");
    expect(cellText(col, "Harbour Dock", 0, 30)).toBe("09:00 (12:00 here)");
    expect(cellText({ header: "x", render: () => "abcdef" }, "", 0, 3)).toBe("abcdef");
  });

  it("a cell's narrow forms are tried in order, fewest words last", () => {
    const col: Column<string> = {
      header: "Flags",
      render: () => ">40h wk OT 1.48h from other stores",
      narrow: () => [">40h wk OT 1.48 h elsewhere", ">40h OT 1.48 h"],
    };
    expect(cellText(col, "", 0, 40)).toBe(">40h wk OT 1.48h from other stores");
    expect(cellText(col, "", 0, 27)).toBe(">40h wk OT 1.48 h elsewhere");
    expect(cellText(col, "", 0, 15)).toBe(">40h OT 1.48 h");
    expect(cellText(col, "", 0, 5)).toBe(">40h OT 1.48 h");
  });

  it("a line takes the first of its forms that fits, or its last", () => {
    const forms = ["the last 30 days, 2026-05-17 to 2026-06-15", "2026-05-17 to 2026-06-15", "05-17 to 06-15"];
    expect(firstThatFits(forms, 50)).toBe(forms[0]);
    expect(firstThatFits(forms, 30)).toBe(forms[1]);
    expect(firstThatFits(forms, 5)).toBe(forms[2]);
    expect(firstThatFits([], 5)).toBe("");
  });
});
