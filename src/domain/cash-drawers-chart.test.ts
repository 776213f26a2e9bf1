import { describe, expect, it } from "vitest";
import { ASCII_CHART_GLYPHS, chartDateLabels, overShortChart } from "./cash-drawers-chart.js";
import { addDays } from "./time.js";

describe("overShortChart", () => {
  const days = [
    { date: "2026-03-01", shifts: 2, counted: 2, over: 250, short: -1_000, net: -750 },
    { date: "2026-03-02", shifts: 0, counted: 0, over: 0, short: 0, net: 0 },
    { date: "2026-03-03", shifts: 1, counted: 1, over: 0, short: -1, net: -1 },
    { date: "2026-03-04", shifts: 1, counted: 1, over: 2_000, short: 0, net: 2_000 },
    { date: "2026-03-05", shifts: 1, counted: 1, over: 0, short: 0, net: 0 },
  ];

  it("raises overs above the zero line and hangs shorts below it, the largest filling its side", () => {
    const c = overShortChart(days, 4);
    expect(c.unit).toBe(500);
    expect(c.axisLine).toBe(4);
    expect(c.lines).toEqual(["   █ ", "   █ ", "   █ ", "█  █ ", "─·───", "▒ ▒  ", "▒    ", "     ", "     "]);
    expect(c.cells[2]).toEqual({ over: 0, short: 1 });
  });

  it("gives each day two characters, a bar and a gap, when asked", () => {
    const c = overShortChart(days, 2, 2);
    expect(c.lines).toEqual(["      █   ", "█     █   ", "─ · ─ ─ ─ ", "▒   ▒     ", "          "]);
  });

  it("reads without colour or Unicode in the ASCII set", () => {
    const c = overShortChart(days, 1, 1, ASCII_CHART_GLYPHS);
    expect(c.lines).toEqual(["#  # ", "=.===", "x x  "]);
  });

  it("draws only the zero line when nothing was over or short", () => {
    const c = overShortChart([{ date: "2026-03-02", shifts: 1, counted: 1, over: 0, short: 0, net: 0 }], 2);
    expect(c.unit).toBe(0);
    expect(c.lines).toEqual([" ", " ", "─", " ", " "]);
  });

  it("labels every seventh day under its column, never past the end", () => {
    const dates = Array.from({ length: 30 }, (_, i) => addDays("2026-05-17", i));
    const twoWide = chartDateLabels(dates, 2);
    // 06-14 would start at column 56 and run past the chart's 60.
    expect(twoWide).toBe("05-17         05-24         05-31         06-07");
    expect(twoWide.indexOf("05-24")).toBe(14);
    expect(chartDateLabels(dates, 1)).toBe("05-17  05-24  05-31  06-07");
    expect(chartDateLabels(dates.slice(0, 29), 2, 7)).toBe("05-17         05-24         05-31         06-07");
    expect(chartDateLabels(dates.slice(0, 3), 1)).toBe("");
  });
});
