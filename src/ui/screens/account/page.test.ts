import { describe, expect, it } from "vitest";
import { accountPage, WHY_AT, wholeRow } from "./page.js";

describe("the account screen as one page", () => {
  // 60×24: 19 lines under the title, 14 of them facts, 19 rows in the list.
  const at = (cursor: number, previous: number, extra = 0) =>
    accountPage({ facts: 14, rows: 19, cursor, extra, room: 19, previous });

  it("shows every fact on the first row, the list taking what is left", () => {
    expect(at(0, 0)).toEqual({ offset: 0, list: { cursor: 0, offset: 0 }, listRows: 4 });
    // Back on the first row from anywhere, the page is at its top again.
    expect(at(0, 14)).toEqual({ offset: 0, list: { cursor: 0, offset: 0 }, listRows: 4 });
  });

  it("scrolls the facts off the top as the cursor goes down, giving the list their room", () => {
    expect(at(3, 0)).toEqual({ offset: 0, list: { cursor: 3, offset: 0 }, listRows: 4 });
    expect(at(4, 0)).toEqual({ offset: 1, list: { cursor: 4, offset: 0 }, listRows: 5 });
    // At the last row every line is the list's: 18 rows and the position line.
    expect(at(18, 1)).toEqual({ offset: 15, list: { cursor: 18, offset: 1 }, listRows: 18 });
    // Going up, the page stays until the cursor reaches its top line.
    expect(at(5, 15)).toEqual({ offset: 15, list: { cursor: 5, offset: 1 }, listRows: 18 });
    expect(at(1, 15)).toEqual({ offset: 15, list: { cursor: 1, offset: 1 }, listRows: 18 });
  });

  it("keeps every line of the row shown whole in view", () => {
    // The cursor's row takes 3 lines: the page moves 2 more.
    expect(at(3, 0, 2)).toEqual({ offset: 2, list: { cursor: 3, offset: 0 }, listRows: 4 });
    expect(at(18, 0, 2)).toEqual({ offset: 17, list: { cursor: 18, offset: 3 }, listRows: 16 });
  });

  it("leaves a list row when the facts alone fill the room, and copes with an empty list", () => {
    expect(accountPage({ facts: 30, rows: 5, cursor: 0, extra: 0, room: 10, previous: 0 })).toEqual({
      offset: 22,
      list: { cursor: 0, offset: 0 },
      listRows: 1,
    });
    expect(accountPage({ facts: 14, rows: 0, cursor: 0, extra: 0, room: 19, previous: 0 }).offset).toBe(0);
  });

  it("shows a row whole: its words wrapped under where they start", () => {
    const row = `✓ ${"PAYOUTS_READ".padEnd(WHY_AT - 3)} payouts: when deposits arrive, what Square kept in fees`;
    expect(wholeRow(row, WHY_AT, 59)).toEqual([
      "✓ PAYOUTS_READ              payouts: when deposits arrive,",
      "                            what Square kept in fees",
    ]);
    expect(wholeRow("Permissions: 15 of 15 that backroom uses", 0, 59)).toEqual([
      "Permissions: 15 of 15 that backroom uses",
    ]);
  });
});
