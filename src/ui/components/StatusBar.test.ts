import { describe, expect, it } from "vitest";
import { fitHints, type Hint, messageLines, statusBarHeight } from "./StatusBar.js";

const h = (label: string, description: string, hint: number): Hint => ({ label, description, hint });

describe("the hint bar", () => {
  it("keeps the most important hints whole in the width and shows them in table order", () => {
    const hints = [
      h("/", "filter", 2),
      h("i", "clock in", 3),
      h("b", "break", 4),
      h("?", "help", 0),
      h(":", "commands", 1),
    ];
    // 59 cells (a 60-column terminal): everything fits.
    expect(fitHints(hints, 59).map((x) => x.label)).toEqual(["/", "i", "b", "?", ":"]);
    // 30 cells: the least important go whole, none is cut.
    const kept = fitHints(hints, 30);
    expect(kept.map((x) => x.label)).toEqual(["/", "?", ":"]);
    const text = kept.map((x) => `${x.label} ${x.description}`).join("  ");
    expect(text.length).toBeLessThanOrEqual(30);
  });
});

describe("the status message", () => {
  it("takes a second row rather than cutting, and says the rows it needs", () => {
    const status = {
      kind: "rule" as const,
      text: "This location has 3 break types, the most allowed: delete or change one.",
    };
    expect(messageLines(status, 79)).toHaveLength(1);
    expect(messageLines(status, 59)).toEqual([
      "! This location has 3 break types, the most allowed: delete",
      "or change one.",
    ]);
    const base = {
      notice: undefined,
      loading: undefined,
      progress: undefined,
      screen: { kind: "break-types" as const },
    };
    expect(statusBarHeight({ ...base, status }, 80)).toBe(2);
    expect(statusBarHeight({ ...base, status }, 60)).toBe(3);
    expect(statusBarHeight({ ...base, status, notice: "No keychain." }, 60)).toBe(4);
    expect(statusBarHeight({ ...base, status, loading: "Reading" }, 60)).toBe(2);
    // Another screen's message takes no rows here.
    const theirs = { ...status, screen: "timeclock" as const };
    expect(statusBarHeight({ ...base, status: theirs }, 60)).toBe(2);
  });
});
