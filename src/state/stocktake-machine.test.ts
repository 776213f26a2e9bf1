import { describe, expect, it } from "vitest";
import { countRecord, stockItem } from "../../test/stocktake-helpers.js";
import type { CommitProgress } from "./stocktake-commit.js";
import {
  type CountEvent,
  countedOf,
  countReducer,
  INITIAL_STOCKTAKE,
  type LoadedCount,
  loadedCountOf,
  type StocktakeData,
} from "./stocktake-machine.js";

function loaded(id = "ST-1"): LoadedCount {
  return loadedCountOf(countRecord({ id, expectedSyncedAt: "2026-03-02T14:00:00.000Z" }));
}

const run = (events: CountEvent[], from: StocktakeData = INITIAL_STOCKTAKE) => events.reduce(countReducer, from);
const opened = (count = loaded()) => run([{ type: "count-opened", count, view: "count", note: "Counting 2 items." }]);
const line = (variationId: string, quantity: string) => ({
  variationId,
  quantity,
  countedAt: "2026-03-02T15:05:00.000Z",
  countedBy: "TM1",
});

describe("countReducer", () => {
  it("opens a count on the counting line, and a recount keeps its line's place", () => {
    const s = run(
      [
        { type: "line-recorded", countId: "ST-1", line: line("V2", "3"), added: false },
        { type: "line-recorded", countId: "ST-1", line: line("V1", "4"), added: false },
        { type: "line-recorded", countId: "ST-1", line: line("V2", "5"), added: true },
      ],
      opened(),
    );
    expect(s.view).toEqual({ kind: "count" });
    expect(s.count?.lines.map((l) => `${l.variationId}=${l.quantity}`)).toEqual(["V2=5", "V1=4"]);
    expect(s.count && countedOf(s.count, "V2")).toBe("5");
    expect(s.feedback).toEqual({ kind: "counted", variationId: "V2", quantity: "5", added: true });
    expect(s.prompt).toEqual({ kind: "code" });
  });

  it("leaves the state alone when an answer about another count arrives (it was closed meanwhile)", () => {
    const before = opened();
    const after = run(
      [
        { type: "line-recorded", countId: "ST-OLD", line: line("V1", "9"), added: false },
        { type: "unknown-kept", countId: "ST-OLD", code: "999", unknown: [], unanswered: false },
        { type: "settings-changed", countId: "ST-OLD", scanOne: true },
      ],
      before,
    );
    expect(after).toBe(before);
    const closed = run(
      [{ type: "count-closed" }, { type: "line-recorded", countId: "ST-1", line: line("V1", "1"), added: false }],
      before,
    );
    expect(closed.count).toBeUndefined();
    expect(closed.view).toEqual({ kind: "home" });
  });

  it("never changes the count it was given: the lines and indexes are new objects", () => {
    const count = loaded();
    const s = run(
      [
        { type: "line-recorded", countId: "ST-1", line: line("V1", "4"), added: false },
        { type: "items-found", countId: "ST-1", items: [{ ...stockItem(7), sku: "New-7" }] },
      ],
      opened(count),
    );
    expect(count.lines).toEqual([]);
    expect(count.lineAt.size).toBe(0);
    expect(count.items.has("V7")).toBe(false);
    expect(s.count?.bySku.get("NEW-7")?.variationId).toBe("V7");
    expect(s.count?.byUpc.get("071263000027")?.variationId).toBe("V7");
  });

  it("asks a quantity, offers a pick list that takes the keyboard, and a cancel gives the line back", () => {
    // After esc let go of the line, a scan that asks a quantity gives the keys back to it.
    const asked = run(
      [
        { type: "typing", typing: false },
        { type: "quantity-asked", variationId: "V1" },
      ],
      opened(),
    );
    expect(asked.prompt).toEqual({ kind: "quantity", variationId: "V1" });
    expect(asked.typing).toBe(true);
    const picking = run([{ type: "pick-offered", query: "item", items: [stockItem(1), stockItem(2)] }], asked);
    expect(picking.prompt).toMatchObject({ kind: "pick", query: "item" });
    expect(picking.typing).toBe(false);
    const back = run([{ type: "prompt-cancelled" }], picking);
    expect(back.prompt).toEqual({ kind: "code" });
    expect(back.typing).toBe(true);
  });

  it("offers the count's own items first in a pick list, the others after, each in the order found", () => {
    // The count holds V1 and V2; a name search also found V7 and V8, which are not of it.
    const found = [stockItem(7), stockItem(2), stockItem(8), stockItem(1)];
    const picking = run([{ type: "pick-offered", query: "item", items: found }], opened());
    const items = picking.prompt.kind === "pick" ? picking.prompt.items : [];
    expect(items.map((i) => i.variationId)).toEqual(["V2", "V1", "V7", "V8"]);
  });

  it("queues entries in order and drops each once handled", () => {
    const s = run(
      [
        { type: "entry-queued", text: "HT-1", source: "scan" },
        { type: "entry-queued", text: "12", source: "typed" },
        { type: "entry-handled", seq: 1 },
      ],
      opened(),
    );
    expect(s.entries).toEqual([{ seq: 2, text: "12", source: "typed" }]);
    expect(s.entrySeq).toBe(2);
  });

  it("keeps unknown codes, marks them resolved, drops them on dismissal", () => {
    const unknown = [{ code: "999", firstSeenAt: "a", lastSeenAt: "a", times: 1, resolvedTo: undefined }];
    const kept = run([{ type: "unknown-kept", countId: "ST-1", code: "999", unknown, unanswered: false }], opened());
    expect(kept.feedback).toEqual({ kind: "unknown", code: "999", unanswered: false });
    const resolved = run([{ type: "unknown-resolved", countId: "ST-1", code: "999", variationId: "V2" }], kept);
    expect(resolved.count?.unknown[0]?.resolvedTo).toBe("V2");
    expect(run([{ type: "unknown-dismissed", countId: "ST-1", code: "999" }], kept).count?.unknown).toEqual([]);
  });

  it("says what scan = 1 unit now does, unless the change is being undone", () => {
    const on = run([{ type: "settings-changed", countId: "ST-1", scanOne: true }], opened());
    expect(on.count?.header.scanOne).toBe(true);
    expect(on.feedback).toEqual({ kind: "info", text: "Scan = 1 unit: every scan adds one." });
    const failed = run([{ type: "problem", text: "disk full" }], on);
    const undone = run([{ type: "settings-changed", countId: "ST-1", scanOne: false, quiet: true }], failed);
    expect(undone.count?.header.scanOne).toBe(false);
    expect(undone.feedback).toEqual({ kind: "problem", text: "disk full" });
  });

  it("lays book quantities read later over the ones it had, and moves the sync point only forward", () => {
    const s = run(
      [
        {
          type: "books-read",
          countId: "ST-1",
          counts: new Map([["V2", { quantity: "7", calculatedAt: "2026-03-02T15:30:00.000Z" }]]),
          syncedAt: "2026-03-02T15:31:00.000Z",
        },
        { type: "books-read", countId: "ST-1", counts: new Map(), syncedAt: "2026-03-02T10:00:00.000Z" },
      ],
      opened(),
    );
    expect(s.count?.expected.get("V1")?.quantity).toBe("10");
    expect(s.count?.expected.get("V2")?.quantity).toBe("7");
    expect(s.count?.header.expectedSyncedAt).toBe("2026-03-02T15:31:00.000Z");
    expect(s.count?.expectedChangedAt).toBe("2026-03-02T15:30:00.000Z");
  });

  it("follows a commit from its start to how it ended", () => {
    const p = (batchesDone: number): CommitProgress => ({
      batchesDone,
      batchesTotal: 2,
      linesDone: batchesDone * 100,
      linesTotal: 200,
      inFlight: 0,
      refused: 0,
    });
    const s = run(
      [
        { type: "commit-started", progress: p(0) },
        { type: "commit-progress", progress: p(1) },
        {
          type: "commit-ended",
          outcome: { kind: "committed", lines: 200, refused: [], committedAt: "t" },
          count: undefined,
        },
      ],
      opened(),
    );
    expect(s.view).toEqual({ kind: "commit" });
    expect(s.commit).toEqual({
      progress: p(1),
      outcome: { kind: "committed", lines: 200, refused: [], committedAt: "t" },
    });
    expect(s.count?.header.id).toBe("ST-1");
  });

  it("goes back from an item's history to where it was opened, and drops a late answer for another item", () => {
    const review = run([{ type: "show", view: { kind: "review" } }], opened());
    const history = run([{ type: "history-opened", variationId: "V1" }], review);
    expect(history.view).toEqual({ kind: "history", variationId: "V1", back: "review" });
    expect(run([{ type: "history-read", variationId: "V2", changes: [] }], history).history?.changes).toBeUndefined();
    expect(run([{ type: "history-read", variationId: "V1", changes: [] }], history).history?.changes).toEqual([]);
  });

  it("offers the open count before a new one, and the start asks what to count first", () => {
    const offered = run([{ type: "open-count-first", text: "ST-1 is still open here" }]);
    expect(offered.view).toEqual({ kind: "home" });
    expect(offered.feedback).toEqual({ kind: "info", text: "ST-1 is still open here" });
    expect(run([{ type: "start-asked" }], offered)).toMatchObject({
      view: { kind: "start", step: "kind" },
      feedback: undefined,
    });
    const showing = run(
      [
        { type: "form", form: { kind: "edit", variationId: "V1" } },
        { type: "typing", typing: false },
      ],
      opened(),
    );
    const counting = run([{ type: "show", view: { kind: "count" } }], showing);
    expect(counting.form).toEqual({ kind: "none" });
    expect(counting.typing).toBe(true);
  });
});
