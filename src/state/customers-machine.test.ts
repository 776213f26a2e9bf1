import { describe, expect, it } from "vitest";
import type { Customer, SearchCustomersRequest } from "../spec/generated/types.js";
import {
  type CustomersData,
  type CustomersEvent,
  customerIds,
  customersReducer,
  INITIAL_CUSTOMERS,
} from "./customers-machine.js";

const run = (events: CustomersEvent[], from: CustomersData = INITIAL_CUSTOMERS) =>
  events.reduce(customersReducer, from);
const person = (id: string, given: string, version = 0): Customer => ({ id, given_name: given, version });
const request: SearchCustomersRequest = { limit: 50 };
const ids = (s: CustomersData) => s.results.rows.map((r) => r.id);

/** A search sent and answered with these rows. */
const answered = (rows: Customer[], from: CustomersData = INITIAL_CUSTOMERS) => {
  const started = run([{ type: "search-started" }], from);
  return run([{ type: "search-answered", seq: started.searchSeq, request, rows, cursor: undefined }], started);
};

const ANN = person("A", "Ann");
const BO = person("B", "Bo");
const CY = person("C", "Cy");

describe("customersReducer: the rows the cursor moves on", () => {
  it("gives the rows' ids as one array while the rows are the same, and a new one in a new order", () => {
    const listed = answered([ANN, BO, CY]);
    const first = customerIds(listed.results.rows);
    expect(customerIds(listed.results.rows)).toBe(first);
    expect(first).toEqual(["A", "B", "C"]);
    const refreshed = answered([ANN, CY, { ...BO, given_name: "Zed" }], listed);
    expect(customerIds(refreshed.results.rows)).toEqual(["A", "C", "B"]);
    expect(refreshed.results.rows[2]?.given_name).toBe("Zed");
  });

  it("takes a deleted profile out, lists a new one first, and adds the next page's rows once", () => {
    const listed = { ...answered([ANN, BO]), results: { ...answered([ANN, BO]).results, count: 2 } };
    const created = run([{ type: "profile-created", customer: CY }], listed);
    expect(ids(created)).toEqual(["C", "A", "B"]);
    expect(created.results.count).toBe(3);
    const deleted = run([{ type: "profile-deleted", id: "A" }], created);
    expect(ids(deleted)).toEqual(["C", "B"]);
    expect(deleted.local.A).toBeNull();
    expect(deleted.results.count).toBe(2);
    const paged = run(
      [
        { type: "page-asked" },
        { type: "page-answered", seq: deleted.searchSeq, rows: [BO, person("D", "Di")], cursor: undefined },
      ],
      deleted,
    );
    expect(ids(paged)).toEqual(["C", "B", "D"]);
    expect(paged.loadingMore).toBe(false);
  });
});

describe("customersReducer: searches and this terminal's changes", () => {
  it("drops an answer to an older search and counts it", () => {
    const first = run([{ type: "search-started" }]);
    const second = run([{ type: "search-started" }], first);
    const late = run(
      [{ type: "search-answered", seq: first.searchSeq, request, rows: [ANN], cursor: undefined }],
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
    const refreshed = answered([person("A", "Ann", 1), BO, CY], saved);
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
