import { describe, expect, it } from "vitest";
import { stillOpenNote } from "./DrawersScreen.js";

describe("drawers still open from earlier days", () => {
  it("names the day and the key that shows it: [ for the day before, the date form otherwise", () => {
    expect(stillOpenNote([], "2026-11-27")).toBe("");
    expect(stillOpenNote([{ date: "2026-11-26", count: 2 }], "2026-11-27")).toBe(
      "2 drawers still open from Thu 11-26: [ to see them.",
    );
    expect(stillOpenNote([{ date: "2026-11-24", count: 1 }], "2026-11-27")).toBe(
      "1 drawer still open from Tue 11-24: d to pick that day.",
    );
    expect(
      stillOpenNote(
        [
          { date: "2026-11-24", count: 1 },
          { date: "2026-11-26", count: 2 },
        ],
        "2026-11-27",
      ),
    ).toBe("3 drawers still open from Tue 11-24 to Thu 11-26: d to pick the days.");
  });
});
