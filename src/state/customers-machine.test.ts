import { describe, expect, it } from "vitest";
import type { Customer, SearchCustomersRequest } from "../spec/generated/types.js";
import { type CustomersData, type CustomersEvent, customersReducer, INITIAL_CUSTOMERS } from "./customers-machine.js";

const run = (events: CustomersEvent[], from: CustomersData = INITIAL_CUSTOMERS) =>
  events.reduce(customersReducer, from);
const person = (id: string, given: string, version = 0): Customer => ({ id, given_name: given, version });
const request: SearchCustomersRequest = { limit: 50 };
const ids = (s: CustomersData) => s.results.rows.map((r) => r.id);

/** A search sent and answered with these rows. */
const answered = (rows: Customer[], keep: boolean, from: CustomersData = INITIAL_CUSTOMERS) => {
  const started = run([{ type: "search-started" }], from);
  return run([{ type: "search-answered", seq: started.searchSeq, request, rows, cursor: undefined, keep }], started);
};

const ANN = person("A", "Ann");
const BO = person("B", "Bo");
const CY = person("C", "Cy");

describe("customersReducer: the selection, by id", () => {
  it("stays on its profile when a refresh answers with the rows in another order", () => {
    const listed = answered([ANN, BO, CY], false);
    expect(listed.selectedId).toBe("A");
    const onBo = run([{ type: "select", id: "B" }], listed);
    // Bo was renamed elsewhere and now sorts last: the refresh keeps the cursor on Bo.
    const refreshed = answered([ANN, CY, { ...BO, given_name: "Zed" }], true, onBo);
    expect(ids(refreshed)).toEqual(["A", "C", "B"]);
    expect(refreshed.selectedId).toBe("B");
    // A new search (a new line, new filters) starts at the top.
    expect(answered([CY, BO], false, refreshed).selectedId).toBe("C");
  });

  it("goes to the first profile when the selected one is no longer listed", () => {
    const onBo = run([{ type: "select", id: "B" }], answered([ANN, BO, CY], false));
    expect(answered([CY, ANN], true, onBo).selectedId).toBe("C");
    expect(answered([], true, onBo).selectedId).toBeUndefined();
  });

  it("after a deletion, selects the profile that took the deleted one's row (the last one's neighbour above)", () => {
    const listed = answered([ANN, BO, CY], false);
    const afterBo = run(
      [
        { type: "select", id: "B" },
        { type: "profile-deleted", id: "B" },
      ],
      listed,
    );
    expect(ids(afterBo)).toEqual(["A", "C"]);
    expect(afterBo.selectedId).toBe("C");
    expect(afterBo.local.B).toBeNull();
    const afterCy = run([{ type: "profile-deleted", id: "C" }], afterBo);
    expect(afterCy.selectedId).toBe("A");
    // Deleting another than the selected one leaves the selection alone.
    const other = run(
      [
        { type: "select", id: "C" },
        { type: "profile-deleted", id: "A" },
      ],
      listed,
    );
    expect(other.selectedId).toBe("C");
  });

  it("selects a new profile at the top of the list, and keeps the selection while pages load", () => {
    const listed = { ...answered([ANN, BO], false), results: { ...answered([ANN, BO], false).results, count: 2 } };
    const created = run([{ type: "profile-created", customer: CY }], listed);
    expect(ids(created)).toEqual(["C", "A", "B"]);
    expect(created.selectedId).toBe("C");
    expect(created.results.count).toBe(3);
    const paged = run(
      [
        { type: "page-asked" },
        { type: "page-answered", seq: created.searchSeq, rows: [BO, person("D", "Di")], cursor: undefined },
      ],
      created,
    );
    expect(ids(paged)).toEqual(["C", "A", "B", "D"]);
    expect(paged.selectedId).toBe("C");
    expect(paged.loadingMore).toBe(false);
  });
});

describe("customersReducer: searches and this terminal's changes", () => {
  it("drops an answer to an older search and counts it", () => {
    const first = run([{ type: "search-started" }]);
    const second = run([{ type: "search-started" }], first);
    const late = run(
      [{ type: "search-answered", seq: first.searchSeq, request, rows: [ANN], cursor: undefined, keep: false }],
      second,
    );
    expect(late.results.rows).toEqual([]);
    expect(late.staleAnswers).toBe(1);
    expect(run([{ type: "count-answered", seq: first.searchSeq, count: 9 }], late).results.count).toBeUndefined();
  });

  it("lays its own saved and deleted profiles over a lagging answer", () => {
    const saved = run([
      { type: "profile-read", customer: person("A", "Annie", 2) },
      { type: "profile-deleted", id: "C" },
    ]);
    const refreshed = answered([person("A", "Ann", 1), BO, CY], true, saved);
    expect(refreshed.results.rows.map((r) => r.given_name)).toEqual(["Annie", "Bo"]);
  });

  it("counts the keys of the search line, and which of them a search was sent for", () => {
    const typed = run([
      { type: "line-changed", line: "s", at: 1000 },
      { type: "line-changed", line: "sm", at: 1040 },
    ]);
    expect(typed.typing).toEqual({ keys: 2, lastKeyAt: 1040, searchedKeys: 0 });
    const searched = run([{ type: "search-started" }], typed);
    expect(searched.typing.searchedKeys).toBe(2);
    const refused = run([{ type: "search-started", problem: "Dates are YYYY-MM-DD." }], searched);
    expect(refused.results).toMatchObject({ phase: "failed", problem: "Dates are YYYY-MM-DD." });
  });

  it("marks who shares an email or phone with a profile opened here, replacing its old marks", () => {
    const once = run([
      {
        type: "duplicates-probed",
        id: "A",
        found: [
          { reason: "email", others: [BO] },
          { reason: "phone", others: [] },
        ],
      },
    ]);
    expect(once.probed).toEqual({ A: ["email"], B: ["email"] });
    const again = run([{ type: "duplicates-probed", id: "A", found: [{ reason: "phone", others: [CY] }] }], once);
    expect(again.probed).toEqual({ A: ["phone"], B: ["email"], C: ["phone"] });
  });

  it("a stopped duplicates scan drops the pages still on their way", () => {
    const started = run([{ type: "scan-started", total: 500 }]);
    expect(started.view).toEqual({ kind: "duplicates" });
    const stopped = run([{ type: "scan-stopped" }], started);
    const late = run([{ type: "scan-page", seq: started.scan.seq, scanned: 100, total: 500 }], stopped);
    expect(late.scan).toMatchObject({ phase: "stopped", scanned: 0 });
    const again = run([{ type: "scan-started", total: 500 }], late);
    const done = run([{ type: "scan-ended", seq: again.scan.seq, phase: "done", groups: [] }], again);
    expect(done.scan.phase).toBe("done");
  });

  it("picks and unpicks the fields to re-apply after a conflict", () => {
    const conflict = run([
      { type: "view", view: { kind: "conflict", base: ANN, mine: {} as never, theirs: ANN, picked: ["note"] } },
    ]);
    const toggled = run(
      [
        { type: "pick-toggled", field: "note" },
        { type: "pick-toggled", field: "nickname" },
      ],
      conflict,
    );
    expect(toggled.view).toMatchObject({ kind: "conflict", picked: ["nickname"] });
  });
});
