import { describe, expect, it } from "vitest";
import { GIFT_CARD_OFFLINE } from "../../state/gift-cards-slice.js";
import { keptSaid, notKeptOffline } from "../../state/outbox-slice.js";
import { stoppedProblem } from "../../state/stocktake-commit.js";
import type { Status } from "../../state/types.js";
import { SPLIT_TENDER_NOT_READ } from "../../state/v1-slice.js";
import { COMMIT_NOT_KEPT } from "../screens/stocktake/commands.js";
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

describe("long messages at 60 columns", () => {
  it("says a message's shorter words when the full ones need more than two rows", () => {
    const status = {
      kind: "info" as const,
      text: "◷ Kept on this machine, not yet sent: Load 25.00 USD on card …0001 (balance 50.00 USD → 75.00 USD). It goes, once, when the service answers.",
      short: "◷ Kept, to send once the service answers: Load 25.00 USD on card …0001 (balance 50.00 USD → 75.00 USD).",
    };
    expect(messageLines(status, 200)).toEqual([status.text]);
    const narrow = messageLines(status, 59);
    expect(narrow).toHaveLength(2);
    expect(narrow.join(" ")).toBe(status.short);
  });

  it("keeps the longest real messages whole on two rows of a 60-column terminal", () => {
    const label = "Load 25.00 USD on card …0001 (balance 50.00 USD → 75.00 USD)";
    const messages: Status[] = [
      { kind: "info", ...keptSaid(label, "kept") },
      { kind: "info", ...keptSaid(label, "sent") },
      { kind: "rule", text: GIFT_CARD_OFFLINE },
      { kind: "rule", text: notKeptOffline({ connection: { state: "offline" } } as never, COMMIT_NOT_KEPT) ?? "" },
      { kind: "rule", ...SPLIT_TENDER_NOT_READ },
      ...(["transient", "aborted"] as const).map((kind): Status => {
        const p = stoppedProblem(kind === "aborted" ? { kind } : ({ kind, details: "HTTP 503" } as never), {
          batchesDone: 12,
          batchesTotal: 30,
          linesDone: 1_200,
          linesTotal: 3_000,
          inFlight: 0,
          refused: 0,
        });
        return { kind: "error", text: p.problem, short: p.short };
      }),
    ];
    for (const m of messages) {
      const lines = messageLines(m, 59);
      expect(lines.length, lines.join(" / ")).toBeLessThanOrEqual(2);
      expect(lines.join(" "), "cut").not.toMatch(/…$/);
    }
  });
});
