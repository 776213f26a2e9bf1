import { describe, expect, it } from "vitest";
import { barCellWidth, feeChartLines, weekLabels } from "./chart.js";

describe("the fees chart", () => {
  it("draws each week as a bar scaled to the largest, with eighths on top", () => {
    expect(feeChartLines([800, 500, 0, 50], 2, 3)).toEqual(["██ ▂▂       ", "██ ██    ▁▁ "]);
    // One cell per week: the bars touch.
    expect(feeChartLines([1, 2], 1, 1)).toEqual(["▄█"]);
    expect(feeChartLines([0, 0], 2, 2)).toEqual(["    ", "    "]);
  });
  it("fits the cells to the room, and labels weeks where they fit", () => {
    expect(barCellWidth(5, 70)).toBe(6);
    expect(barCellWidth(53, 70)).toBe(1);
    expect(weekLabels(["2026-06-01", "2026-06-08"], 6)).toBe("06-01 06-08");
    expect(weekLabels(["2026-06-01", "2026-06-08", "2026-06-15", "2026-06-22"], 3)).toBe("06-01 06-15");
  });
});
