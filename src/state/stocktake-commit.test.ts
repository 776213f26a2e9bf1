import { describe, expect, it } from "vitest";
import { SquareApiError, SquareNetworkError } from "../square/index.js";
import { NO_PROGRESS, stoppedProblem } from "./stocktake-commit.js";

describe("a commit that stopped, in words", () => {
  const progress = { ...NO_PROGRESS, linesTotal: 3, linesDone: 1, batchesTotal: 2, batchesDone: 1 };

  it("tells a service that said 'later' from one that could not be reached", () => {
    const later = new SquareApiError(
      "BatchChangeInventory",
      503,
      [{ category: "API_ERROR", code: "SERVICE_UNAVAILABLE" }],
      {},
    );
    const gone = new SquareNetworkError("BatchChangeInventory", new Error("connect ECONNREFUSED"));
    expect(stoppedProblem({ kind: "transient", details: "HTTP 503", cause: later }, progress).problem).toMatch(
      /^The service said to try later\. Committed so far: 1 of 3 lines; 1 request waits in the journal/,
    );
    expect(stoppedProblem({ kind: "transient", details: "ECONNREFUSED", cause: gone }, progress).short).toMatch(
      /^The service cannot be reached\. 1 of 3 lines committed/,
    );
  });

  it("says a part of one line as one line: 0 of 1 line, not 'of 1 line are'", () => {
    const one = { ...NO_PROGRESS, linesTotal: 1, batchesTotal: 1 };
    const said = stoppedProblem({ kind: "aborted" }, one);
    expect(said.problem).toBe(
      "The commit was stopped. Committed so far: 0 of 1 line; 1 request waits in the journal — resume to finish, nothing is counted twice.",
    );
    expect(said.short).toBe("The commit was stopped. 0 of 1 line committed; c resumes, nothing counts twice.");
  });
});
